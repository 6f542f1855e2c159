#!/usr/bin/env bash
# On a machine with an NVIDIA GPU and jax with its CUDA plugin (XLA:GPU):
# xlac's gpu backend on the GPU's driver, in one run of about 7 minutes.
#   1. correctness, several processes at a time (JOBS, default 8):
#      - every function of the GPU tests' programs (tests/lit/gpu/*.mlir,
#        random inputs) against the reference interpreter (fixtures.txt: a
#        COMPARE line with the largest ULP error each; N ran, M failed, K
#        refused as unsupported, which the tests show refused);
#      - StableHLO's interpreter suite with constant folding off
#        (conformance.txt: the failing cases, N of M cases passed);
#      - the JAX plugin's GPU tests against JAX's CPU backend
#        (plugins/jax/tests/test_gpu.py: test_gpu.txt);
#   2. speed, one process at a time:
#      - `xlac bench --backend=gpu` on the model suite's programs
#        (bench/models/*.mlir: models.txt, whole runs and device time;
#        profiles.txt, the 12 launch sites that took longest in each);
#      - the benchmark programs and the models through the JAX plugin
#        against XLA:GPU, interleaved (bench/gpu/compare.py: compare.txt).
# Reads the plugin, the command and the suite from .devcarry/
# (bench/gpu/prepare_carry.sh); writes its reports to $OUT (default
# ./gpu-results).  CHECKS (default "suite jax bench") picks the parts;
# TF32_NAMES, programs to compare again with TF32 products on both sides;
# OFF_NAMES, programs to compare again with XLAC_OFF's switches set (by
# default the cuBLASLt calls with their epilogue apart, the scatter by
# ranges, the running folds through shared memory and the CUDA graphs of
# loop bodies turned off: what they gained, in the same run);
# NAMES, only these programs compared (and no xlac bench of the models).
set -uo pipefail
py=${PYTHON:-python3}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
out=${OUT:-$root/gpu-results}
mkdir -p "$out"
jobs=${JOBS:-8}
checks=${CHECKS:-suite jax bench}
has() { case " $checks " in *" $1 "*) return 0 ;; esac; return 1; }
t0=$(date +%s)
stamp() { echo "[$(($(date +%s) - t0)) s] $*"; }

export LD_LIBRARY_PATH=$root/.devcarry${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PYTHONUNBUFFERED=1
export XLA_PYTHON_CLIENT_PREALLOCATE=false # XLA:GPU beside xlac on one GPU
unxz() { "$py" -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], "wb"))' "$1" "$2"; }
lib=$root/.devcarry/libxlac_pjrt.so
[ -f "$lib" ] || [ ! -f "$lib.xz" ] || unxz "$lib.xz" "$lib"
xlac=$root/.devcarry/bin/xlac
mkdir -p "$root/.devcarry/bin"
[ -x "$xlac" ] || [ ! -f "$root/.devcarry/xlac.xz" ] || { unxz "$root/.devcarry/xlac.xz" "$xlac" && chmod +x "$xlac"; }
export XLAC_PJRT_LIBRARY=$lib
export PYTHONPATH=$root/plugins/jax${PYTHONPATH:+:$PYTHONPATH}

{
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv
  "$py" -c 'import jax; print("jax", jax.__version__)'
  nproc
} >"$out/machine.txt" 2>&1
# cuBLASLt for the xlac command: the CUDA installation's or a pip wheel's
# (the JAX processes find the copy JAX's CUDA plugin loads)
cublas=$(ls /usr/local/cuda/lib64/libcublasLt.so.* 2>/dev/null | head -n 1)
[ -n "$cublas" ] || cublas=$(find /opt /usr/local/lib /usr/lib -name 'libcublasLt.so.1[0-9]*' 2>/dev/null | head -n 1)
echo "cublasLt: ${cublas:-none found}" >>"$out/machine.txt"
xl() { XLAC_CUBLASLT=$cublas timeout "$@"; }
if [ -x "$xlac" ]; then
  xl 60 "$xlac" run --backend=gpu --verbose --random-inputs --entry bias_act tests/lit/gpu/cublaslt.mlir 2>&1 |
    grep -E 'cuBLASLt|streams|arch|error' >>"$out/machine.txt"
fi
cat "$out/machine.txt"

# --- 1. correctness ---
fixture() { # FILE ENTRY: one line of fixtures.txt
  local f=$1 e=$2 opts r
  opts=$(grep '^// RUN:' "$f" | grep -o -E -- '--(replicas|partitions) [0-9]+' | sort -u | tr '\n' ' ')
  if [ "$e" = - ]; then # a file of several modules runs whole (its checks decide)
    if r=$(xl 120 "$xlac" run --backend=gpu --split-input-file "$f" 2>&1); then echo "$f: ok"
    else echo "$f: FAILED: $(echo "$r" | grep -m1 -E 'error|failed' | cut -c1-300)"; fi
    return
  fi
  # a function the tests expect to be refused with a driver present
  if grep '^// RUN:.*not xlac ' "$f" | grep -v 'XLAC_CUDA_DRIVER' | grep -q -E -- "--entry $e( |\$)"; then
    if xl 60 "$xlac" run --backend=gpu --random-inputs --entry "$e" "$f" >/dev/null 2>&1; then
      echo "$f:$e: FAILED: ran, but an error was expected"
    else echo "$f:$e: refused, as expected"; fi
    return
  fi
  # files whose tests take every size to cuBLASLt (XLAC_GPU_BLAS_APART=1) do so here
  local apart=
  grep -q '^// RUN:.*XLAC_GPU_BLAS_APART=1' "$f" && apart=1
  # shellcheck disable=SC2086
  if r=$(XLAC_GPU_BLAS_APART=$apart xl 120 "$xlac" compare --backend=gpu --random-inputs $opts --entry "$e" "$f" 2>&1); then
    echo "$f:$e: $(echo "$r" | grep '^COMPARE' | tail -n 1)"
  elif echo "$r" | grep -q 'the gpu backend'; then
    echo "$f:$e: unsupported: $(echo "$r" | grep -m1 -E 'error' | cut -c1-300)"
  else
    echo "$f:$e: FAILED: $(echo "$r" | grep -m1 -E 'error|mismatch|FAIL' | cut -c1-300)"
  fi
}
export -f fixture xl
export xlac cublas
pids=()
if has suite && [ -x "$xlac" ]; then
  stamp "fixtures and conformance"
  (
    for f in tests/lit/gpu/*.mlir; do
      if grep -q '^// RUN:.*--split-input-file' "$f"; then echo "$f -"; continue; fi
      for e in $(grep -o 'func.func @[A-Za-z0-9_]*' "$f" | sed 's/func.func @//' | sort -u); do echo "$f $e"; done
    done | xargs -P "$jobs" -L 1 bash -c 'fixture "$1" "$2"' _ | sort >"$out/fixtures.txt"
    ran=$(grep -c -v -E ': (FAILED|unsupported)' "$out/fixtures.txt")
    bad=$(grep -c ': FAILED' "$out/fixtures.txt")
    uns=$(grep -c ': unsupported' "$out/fixtures.txt")
    echo "fixtures: $ran ran, $bad failed, $uns refused as unsupported" | tee -a "$out/fixtures.txt"
  ) &
  pids+=($!)
  if [ -f "$root/.devcarry/interpret.tar.xz" ]; then
    (
      d=$root/.devcarry/interpret
      mkdir -p "$d/all"
      tar -C "$d/all" -xJf "$root/.devcarry/interpret.tar.xz"
      i=0
      for f in $(find "$d/all" -name '*.mlir' | sort); do
        g=$d/part$((i % jobs)); mkdir -p "$g"; cp "$f" "$g/"; i=$((i + 1))
      done
      for g in "$d"/part*; do
        XLAC_FOLD=0 XLAC_CUBLASLT=$cublas timeout 240 scripts/conformance.sh "$g" gpu "$root/.devcarry" >"$g.txt" 2>&1 &
      done
      wait
      cat "$d"/part*.txt | grep -v '^conformance' >"$out/conformance.txt"
      cat "$d"/part*.txt | awk '/^conformance/ { p += $3; n += $5 } END { printf "conformance (gpu, folding off): %d of %d cases passed\n", p, n }' |
        tee -a "$out/conformance.txt"
    ) &
    pids+=($!)
  fi
fi
if has jax; then
  stamp "JAX's GPU tests through the plugin"
  (timeout 200 "$py" plugins/jax/tests/test_gpu.py >"$out/test_gpu.txt" 2>&1; echo "test_gpu: exit $?" | tee -a "$out/test_gpu.txt") &
  pids+=($!)
fi
for p in "${pids[@]}"; do wait "$p"; done

# --- 2. speed, alone on the GPU ---
if has bench; then
  if [ -x "$xlac" ] && [ -z "${NAMES:-}" ]; then
    stamp "xlac bench on the model suite"
    for m in bench/models/*.mlir; do
      r=$(xl 60 "$xlac" bench --backend=gpu --random-inputs --iters 20 "$m" 2>&1)
      echo "$m: $(echo "$r" | grep -m1 -E '^BENCH|error' | cut -c1-300)"
    done >"$out/models.txt"
    cat "$out/models.txt"
    for m in bench/models/*.mlir; do
      echo "== $m"
      xl 60 "$xlac" bench --backend=gpu --random-inputs --iters 5 --profile=12 "$m" 2>&1 | grep -v '^BENCH'
    done >"$out/profiles.txt"
  fi
  stamp "against XLA:GPU"
  # shellcheck disable=SC2086
  timeout 240 "$py" bench/gpu/compare.py --ref cuda --iters 10 --warmup 2 --models ${NAMES:-} >"$out/compare.txt" 2>&1
  echo "compare: exit $?" >>"$out/compare.txt"
  # XLA:GPU rounds f32 products of DEFAULT precision to TF32; xlac keeps
  # f32 unless XLAC_GPU_TF32=1: the products again at equal precision
  if [ -n "${TF32_NAMES:-}" ]; then
    stamp "against XLA:GPU, TF32 on both sides"
    # shellcheck disable=SC2086
    XLAC_GPU_TF32=1 timeout 120 "$py" bench/gpu/compare.py --ref cuda --iters 10 --warmup 2 --models $TF32_NAMES \
      >"$out/compare_tf32.txt" 2>&1
    echo "compare (TF32): exit $?" >>"$out/compare_tf32.txt"
  fi
  if [ -n "${OFF_NAMES:-}" ]; then
    off=${XLAC_OFF:-XLAC_GPU_BLAS_APART=0 XLAC_GPU_SCATTER_RANGES=0 XLAC_GPU_PREFIX_TILE=0 XLAC_GPU_GRAPHS=0}
    stamp "against XLA:GPU with $off"
    # shellcheck disable=SC2086
    env $off timeout 120 "$py" bench/gpu/compare.py --ref cuda --iters 10 --warmup 2 --models $OFF_NAMES \
      >"$out/compare_off.txt" 2>&1
    echo "compare ($off): exit $?" >>"$out/compare_off.txt"
  fi
fi
stamp done
tail -n 1 "$out/fixtures.txt" "$out/conformance.txt" "$out/test_gpu.txt" 2>/dev/null
grep -E '^(FAIL|fail)' "$out/test_gpu.txt" 2>/dev/null | head -n 5
grep -E '^(RATIO|SKIP|GEOMEAN)' "$out/compare.txt" 2>/dev/null
grep -E '^(RATIO|GEOMEAN)' "$out/compare_tf32.txt" 2>/dev/null | sed 's/^/tf32 /'
grep -E '^(RATIO|GEOMEAN)' "$out/compare_off.txt" 2>/dev/null | sed 's/^/off /'
exit 0
