#!/usr/bin/env bash
# The TensorFlow device tests' runner.
#
#   run.sh build DIR          builds libxlac_tf.so into DIR
#   run.sh DIR SCRIPT.py ...  runs SCRIPT with TensorFlow loading DIR/libxlac_tf.so
#   run.sh pip DIR            pip-installs plugins/tensorflow into DIR/site-packages
#   run.sh installed DIR SCRIPT.py ...   runs SCRIPT with that on its path
#
# TensorFlow comes from the environment scripts/install-deps.sh prepares
# (XLAC_TF_VENV, default ~/.cache/xlac-tf); without it, or without the
# PJRT library of the build whose xlac is first on PATH, the test is
# skipped (exit 77).  TF_XLA_FLAGS and XLAC_PJRT_DUMP come from the caller.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
venv=${XLAC_TF_VENV:-$HOME/.cache/xlac-tf}
py=$venv/bin/python
if [ ! -x "$py" ] || ! "$py" -c 'import importlib.util, sys; sys.exit(importlib.util.find_spec("tensorflow") is None)'; then
  echo "skipped: no Python environment with TensorFlow at $venv (scripts/install-deps.sh prepares it)"
  exit 77
fi
bin=$(dirname "$(command -v xlac)")
pjrt=$bin/../lib/libxlac_pjrt.so
if [ ! -f "$pjrt" ]; then
  echo "skipped: $pjrt was not built (a build without the PJRT plugin; cmake -DXLAC_PJRT=ON)"
  exit 77
fi
case $1 in
build)
  command -v c++ >/dev/null || { echo "skipped: no C++ compiler for the TensorFlow part of libxlac_tf.so"; exit 77; }
  PYTHON=$py exec "$here/../../../plugins/tensorflow/build.sh" "$2" ;;
pip)
  # the package as a user installs it, into DIR/site-packages (TensorFlow
  # loads the plugins of every site-packages folder on its path); the
  # PJRT library is the build's, no network is needed
  rm -rf "$2"
  XLAC_PJRT_LIBRARY=$pjrt exec "$py" -m pip install -q --no-build-isolation --no-deps --no-cache-dir \
    --target "$2/site-packages" "$here/../../../plugins/tensorflow" ;;
installed)
  # TensorFlow finds the installed plugin by itself
  export PYTHONPATH=$2/site-packages${PYTHONPATH:+:$PYTHONPATH}
  unset TF_PLUGGABLE_DEVICE_LIBRARY_PATH XLAC_PJRT_LIBRARY
  shift 2 ;;
*)
  export XLAC_PJRT_LIBRARY=$pjrt
  export TF_PLUGGABLE_DEVICE_LIBRARY_PATH=$1/libxlac_tf.so
  shift ;;
esac
export TF_CPP_MIN_LOG_LEVEL=${TF_CPP_MIN_LOG_LEVEL:-2}
exec "$py" "$here/$@"
