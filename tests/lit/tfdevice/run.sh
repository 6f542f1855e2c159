#!/usr/bin/env bash
# The TensorFlow device tests' runner.
#
#   run.sh build DIR          builds libxlac_tf.so into DIR
#   run.sh DIR SCRIPT.py ...  runs SCRIPT with TensorFlow loading DIR/libxlac_tf.so
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
if [ "$1" = build ]; then
  command -v c++ >/dev/null || { echo "skipped: no C++ compiler for the TensorFlow part of libxlac_tf.so"; exit 77; }
  PYTHON=$py exec "$here/../../../plugins/tensorflow/build.sh" "$2"
fi
dir=$1
shift
export XLAC_PJRT_LIBRARY=$pjrt
export TF_PLUGGABLE_DEVICE_LIBRARY_PATH=$dir/libxlac_tf.so
export TF_CPP_MIN_LOG_LEVEL=${TF_CPP_MIN_LOG_LEVEL:-2}
exec "$py" "$here/$@"
