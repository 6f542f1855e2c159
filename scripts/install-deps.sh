#!/usr/bin/env bash
# Installs what xlac needs on a Debian 12 machine (run as root, or with sudo
# available).  Idempotent: packages already present are left alone.
#   build:  gcc, make, cmake, ninja
#   tests:  LLVM 19's FileCheck and not (llvm-19-tools); pkg-config (pkgconf)
#           for the test that builds against the installed library
#   later:  LLVM 19's C API for code generation (llvm-19-dev), and zstd's
#           development library, which LLVM's static archives link with
#           (libzstd-dev: libxlac.so and the PJRT plugin carry a private LLVM)
#   fuzz:   clang with libFuzzer (clang, libclang-rt-14-dev)
#   bench:  OpenBLAS for bench_gemm's comparison only (libopenblas-dev)
#   MPI:    Open MPI for the xlac_mpi library, its tests and benchmark
#           (libopenmpi-dev openmpi-bin)
#   TF:     protobuf-c for the TensorFlow frontend's GraphDef and tf2xla
#           Config (libprotobuf-c-dev protobuf-c-compiler)
#   AOT:    the aarch64 cross compilers and qemu-user, for the test that
#           cross-compiles objects and runs them (gcc-aarch64-linux-gnu
#           g++-aarch64-linux-gnu qemu-user)
#   JAX:    python3-venv, and a virtual environment with jax and jaxlib from
#           PyPI (XLAC_JAX_VENV, default ~/.cache/xlac-jax) for the tests of
#           the PJRT plugin (plugins/jax); xlac itself never needs Python
#   TF:     a second environment (XLAC_TF_VENV, default ~/.cache/xlac-tf)
#           with tensorflow-cpu and the same jax, for the tests of processes
#           that load TensorFlow and the plugin together, and of TensorFlow
#           compiling with xlac (plugins/tensorflow, tests/lit/tfdevice)
#   clients: a third (XLAC_CLIENTS_VENV, default ~/.cache/xlac-clients) with
#           the same jax and libraries built on it (flax, optax, keras,
#           equinox, scikit-learn) for the tests of real clients
set -eu
pkgs="build-essential cmake ninja-build pkgconf llvm-19-dev libzstd-dev llvm-19-tools clang libclang-rt-14-dev libopenblas-dev libopenmpi-dev openmpi-bin libprotobuf-c-dev protobuf-c-compiler gcc-aarch64-linux-gnu g++-aarch64-linux-gnu qemu-user python3-venv"
missing=""
for p in $pkgs; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -z "$missing" ]; then
  echo "install-deps: every package is installed"
else
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "install-deps: installing$missing"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing
fi

# A virtual environment with the packages: kept when every pinned one
# (NAME==VERSION) is installed at its version, else (re)made.
#   venv DIR DESCRIPTION PACKAGE...
venv() {
  local dir=$1 what=$2
  shift 2
  local pins=""
  for p in "$@"; do
    case $p in *==*) pins="$pins('${p%%==*}', '${p##*==}')," ;; esac
  done
  if [ -x "$dir/bin/python" ] &&
     "$dir/bin/python" -c "import importlib.metadata as m, sys; sys.exit(any(m.version(n) != v for n, v in [$pins]))" 2>/dev/null; then
    echo "install-deps: $what is in $dir"
  else
    echo "install-deps: preparing $dir with $what"
    python3 -m venv "$dir"
    "$dir/bin/python" -m pip install --quiet --upgrade pip
    "$dir/bin/python" -m pip install --quiet "$@"
  fi
}

# The Python environment of the JAX plugin's tests: jax and jaxlib at the
# version the plugin is tested with.
jax_version=0.10.2
venv "${XLAC_JAX_VENV:-$HOME/.cache/xlac-jax}" "jax $jax_version" \
  "jax==$jax_version" "jaxlib==$jax_version" "numpy"

# The environment with TensorFlow beside jax (a process that imports both
# must keep two LLVMs apart: tests/lit/jax/tensorflow.test).
tf_version=2.21.0
venv "${XLAC_TF_VENV:-$HOME/.cache/xlac-tf}" "tensorflow-cpu $tf_version and jax $jax_version" \
  "tensorflow-cpu==$tf_version" "jax==$jax_version" "jaxlib==$jax_version"

# The environment of libraries built on jax, at versions that support jax
# $jax_version (plugins/jax/tests/test_clients.py: Flax NNX with Optax, Keras 3
# with the JAX backend, equinox; scikit-learn for its digits data set).
venv "${XLAC_CLIENTS_VENV:-$HOME/.cache/xlac-clients}" "flax, optax, keras and equinox on jax $jax_version" \
  "jax==$jax_version" "jaxlib==$jax_version" "flax==0.12.8" "optax==0.2.8" "keras==3.15.1" \
  "equinox==0.13.8" "scikit-learn==1.9.1"
