#!/usr/bin/env bash
# bench/torch/run.sh - xlac against PyTorch's CPU kernels (oneDNN, MKL) on
# bfloat16, and float32 for reference: a 2048^3 product and a ResNet basic
# block, at one thread by default.  Not part of the test suite.  What it measures and how:
# bench/torch/bf16.py's header.
#
# usage: bench/torch/run.sh [options]      (all passed to bf16.py)
#   --threads N     threads for both (default 1), pinned to the first N cores
#   --rounds R      interleaved timing rounds (default 5)
#   --iters I       timed calls per engine and round (default 10)
#   --n N           the product's size (default 2048)
#   --only gemm|resnet
#   --dtypes "bf16 f32"  which precisions (default both)
#   --xlac PATH     the xlac binary (default build/bin/xlac)
#   --work DIR      where inputs and outputs go (default: a new temporary
#                   directory)
#
# Environment:
#   XLAC_BENCH_TORCH_ENV  the Python virtual environment with PyTorch
#                         (default: ${XDG_CACHE_HOME:-$HOME/.cache}/xlac-torch),
#                         created with `python3 -m venv` and `pip install
#                         torch==$TORCH_VERSION numpy` when missing.  PyPI's
#                         Linux wheel brings NVIDIA's CUDA libraries with it
#                         (about 5 GB in all); only its CPU kernels are used.
#   TORCH_VERSION         default 2.15.0
#   PYTHON                interpreter that creates the environment (python3)
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
ENV_DIR=${XLAC_BENCH_TORCH_ENV:-${XDG_CACHE_HOME:-$HOME/.cache}/xlac-torch}
TORCH_VERSION=${TORCH_VERSION:-2.15.0}
PYTHON=${PYTHON:-python3}

die() { echo "run.sh: $*" >&2; exit 1; }
log() { echo "== $*"; }

case "${1:-}" in
  -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
esac

PY=$ENV_DIR/bin/python
if [ ! -x "$PY" ]; then
  log "creating the virtual environment $ENV_DIR"
  mkdir -p "$(dirname "$ENV_DIR")"
  "$PYTHON" -m venv "$ENV_DIR" || die "python3 -m venv failed (apt-get install python3-venv)"
  "$PY" -m pip install -q --upgrade pip
fi
have=$("$PY" -c 'import importlib.metadata as m; print(m.version("torch"))' 2>/dev/null || true)
if [ "$have" != "$TORCH_VERSION" ]; then
  log "installing torch==$TORCH_VERSION and numpy into $ENV_DIR"
  "$PY" -m pip install -q "torch==$TORCH_VERSION" numpy
fi
"$PY" -c 'import numpy' 2>/dev/null || "$PY" -m pip install -q numpy
command -v taskset >/dev/null || die "taskset not found (apt-get install util-linux)"

cd "$ROOT"
exec "$PY" "$HERE/bf16.py" "$@"
