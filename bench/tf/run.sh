#!/usr/bin/env bash
# bench/tf/run.sh - xlac against TensorFlow (graph executor, and XLA with
# jit_compile=True) on five full-size Keras applications: MobileNetV2,
# ResNet50, EfficientNetB0, DenseNet121, InceptionV3.  Not part of the test
# suite.  What it measures and how: bench/tf/keras_apps.py's header.
#
# usage: bench/tf/run.sh [options]      (all passed to keras_apps.py)
#   --work DIR        work directory: graphs, configs, inputs, TF outputs,
#                     logs, results.md (default: a new temporary directory,
#                     kept)
#   --threads N       TensorFlow intra/inter-op threads and xlac --threads
#                     (default 2)
#   --batches "1 8"   batch sizes (default "1 8")
#   --only NAME       models, comma-separated (default: all five)
#   --rounds R        interleaved timing rounds (default 3)
#   --warmup W        warm-up calls per engine and round (default 2)
#   --iters I         timed calls per engine and round (default 10)
#   --xlac PATH       the xlac binary (default build/bin/xlac)
#   --rebuild         `cmake --build build --target xlac` before each model
#   --tf-model        time the Keras model instead of the frozen graph in TF
#   --help            all options
#
# Environment:
#   XLAC_BENCH_TF_ENV  the Python virtual environment with TensorFlow
#                      (default: ${XDG_CACHE_HOME:-$HOME/.cache}/xlac-bench-tf;
#                      the same one bench/aot/tfcompile.sh uses), created
#                      with `python3 -m venv` and `pip install
#                      tensorflow==$TF_VERSION` when missing
#   TF_VERSION         TensorFlow version to install (default: 2.21.0)
#   PYTHON             interpreter that creates the environment (python3)
#
# Example:
#   cmake --build build --target xlac
#   bench/tf/run.sh --work /tmp/keras-bench --batches 1 --only ResNet50
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
ENV_DIR=${XLAC_BENCH_TF_ENV:-${XDG_CACHE_HOME:-$HOME/.cache}/xlac-bench-tf}
TF_VERSION=${TF_VERSION:-2.21.0}
PYTHON=${PYTHON:-python3}

die() { echo "run.sh: $*" >&2; exit 1; }
log() { echo "== $*"; }

case "${1:-}" in
  -h|--help)
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
    echo
    exec_help=1 ;;
  *) exec_help=0 ;;
esac

PY=$ENV_DIR/bin/python
if [ ! -x "$PY" ]; then
  log "creating the virtual environment $ENV_DIR"
  mkdir -p "$(dirname "$ENV_DIR")"
  "$PYTHON" -m venv "$ENV_DIR" || die "python3 -m venv failed"
  "$PY" -m pip install -q --upgrade pip
fi
have_tf=$("$PY" -c 'import importlib.metadata as m; print(m.version("tensorflow"))' 2>/dev/null || true)
if [ "$have_tf" != "$TF_VERSION" ]; then
  log "installing tensorflow==$TF_VERSION into $ENV_DIR"
  "$PY" -m pip install -q "tensorflow==$TF_VERSION"
fi
[ "$exec_help" = 1 ] && exec "$PY" "$HERE/keras_apps.py" --help

export TF_CPP_MIN_LOG_LEVEL=${TF_CPP_MIN_LOG_LEVEL:-2}
cd "$ROOT"
exec "$PY" "$HERE/keras_apps.py" "$@"
