#!/usr/bin/env bash
# Installs what xlac needs on a Debian 12 machine (run as root, or with sudo
# available).  Idempotent: packages already present are left alone.
#   build:  gcc, make, cmake, ninja
#   tests:  LLVM 19's FileCheck and not (llvm-19-tools); pkg-config (pkgconf)
#           for the test that builds against the installed library
#   later:  LLVM 19's C API for code generation (llvm-19-dev)
#   fuzz:   clang with libFuzzer (clang, libclang-rt-14-dev)
#   bench:  OpenBLAS for bench_gemm's comparison only (libopenblas-dev)
#   MPI:    Open MPI for the xlac_mpi library, its tests and benchmark
#           (libopenmpi-dev openmpi-bin)
#   TF:     protobuf-c for the TensorFlow frontend's GraphDef and tf2xla
#           Config (libprotobuf-c-dev protobuf-c-compiler)
#   AOT:    the aarch64 cross compilers and qemu-user, for the test that
#           cross-compiles objects and runs them (gcc-aarch64-linux-gnu
#           g++-aarch64-linux-gnu qemu-user)
set -eu
pkgs="build-essential cmake ninja-build pkgconf llvm-19-dev llvm-19-tools clang libclang-rt-14-dev libopenblas-dev libopenmpi-dev openmpi-bin libprotobuf-c-dev protobuf-c-compiler gcc-aarch64-linux-gnu g++-aarch64-linux-gnu qemu-user"
missing=""
for p in $pkgs; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -z "$missing" ]; then
  echo "install-deps: everything is installed"
  exit 0
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "install-deps: installing$missing"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing
