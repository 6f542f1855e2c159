#!/usr/bin/env bash
# On a machine with an NVIDIA GPU and jax with its CUDA plugin (XLA:GPU):
# xlac's gpu backend through its JAX plugin, checked against JAX's CPU
# backend (plugins/jax/tests/test_gpu.py) and timed against XLA:GPU
# (bench/gpu/compare.py).  Reads the plugin from .devcarry/
# (bench/gpu/prepare_carry.sh); writes its reports to $OUT (default
# ./gpu-results).
set -uo pipefail
py=${PYTHON:-python3}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
out=${OUT:-$root/gpu-results}
mkdir -p "$out"

export LD_LIBRARY_PATH=$root/.devcarry${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
lib=$root/.devcarry/libxlac_pjrt.so
[ -f "$lib" ] || "$py" -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], "wb"))' \
  "$lib.xz" "$lib"
export XLAC_PJRT_LIBRARY=$lib
export PYTHONPATH=$root/plugins/jax${PYTHONPATH:+:$PYTHONPATH}
export PYTHONUNBUFFERED=1
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv; "$py" -c 'import jax; print("jax", jax.__version__)'; } \
  >"$out/machine.txt" 2>&1
timeout 300 "$py" plugins/jax/tests/test_gpu.py >"$out/test_gpu.txt" 2>&1
echo "test_gpu: exit $?" >>"$out/machine.txt"
timeout 600 "$py" bench/gpu/compare.py --ref cuda --iters 20 --warmup 3 "$@" >"$out/compare.txt" 2>&1
echo "compare: exit $?" >>"$out/machine.txt"
cat "$out/machine.txt"
grep -E '^(RATIO|SKIP|GEOMEAN)' "$out/compare.txt"
