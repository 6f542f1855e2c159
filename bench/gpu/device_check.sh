#!/usr/bin/env bash
# On a machine with an NVIDIA GPU and jax with its CUDA plugin (XLA:GPU):
# xlac's gpu backend on the GPU's driver.  The xlac command runs every
# program of the GPU tests (tests/lit/gpu/*.mlir, each function, random
# inputs) against the reference interpreter (fixtures.txt: a COMPARE line
# with the largest ULP error each; N ran, M failed, K refused as
# unsupported, which the tests show refused) and StableHLO's
# interpreter suite with constant folding off (conformance.txt: the failing
# cases and N of M cases passed); then the JAX plugin's GPU tests against
# JAX's CPU backend (plugins/jax/tests/test_gpu.py) and the models timed
# against XLA:GPU (bench/gpu/compare.py).  Reads the plugin, the command
# and the suite from .devcarry/ (bench/gpu/prepare_carry.sh); writes its
# reports to $OUT (default ./gpu-results).  CHECKS (default "suite jax")
# picks the parts: at most 6 minutes for the suite, 6 for JAX's, so
# that each fits one 10-minute run.
set -uo pipefail
py=${PYTHON:-python3}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
out=${OUT:-$root/gpu-results}
mkdir -p "$out"

checks=${CHECKS:-suite jax}
export LD_LIBRARY_PATH=$root/.devcarry${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
unxz() { "$py" -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), open(sys.argv[2], "wb"))' "$1" "$2"; }
lib=$root/.devcarry/libxlac_pjrt.so
[ -f "$lib" ] || [ ! -f "$lib.xz" ] || unxz "$lib.xz" "$lib"
export XLAC_PJRT_LIBRARY=$lib
export PYTHONPATH=$root/plugins/jax${PYTHONPATH:+:$PYTHONPATH}
export PYTHONUNBUFFERED=1
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv; "$py" -c 'import jax; print("jax", jax.__version__)'; } \
  >"$out/machine.txt" 2>&1
xlac=$root/.devcarry/bin/xlac
case " $checks " in *" suite "*) suite=1 ;; *) suite=0 ;; esac
case " $checks " in *" jax "*) jaxc=1 ;; *) jaxc=0 ;; esac
if [ "$suite" = 1 ] && [ -f "$root/.devcarry/xlac.xz" ]; then
  mkdir -p "$root/.devcarry/bin"
  [ -x "$xlac" ] || { unxz "$root/.devcarry/xlac.xz" "$xlac" && chmod +x "$xlac"; }
  # whether cuBLASLt was found (the tests' products then run through it;
  # XLAC_GPU_CUBLAS=0 keeps them on our kernel), and whether the driver's
  # streams and events passed the probe (the library's executions, which
  # the JAX tests below run, are then asynchronous)
  timeout 60 "$xlac" run --backend=gpu --verbose --random-inputs --entry bias_act tests/lit/gpu/cublaslt.mlir 2>&1 |
    grep -E 'cuBLASLt|streams|error' >>"$out/machine.txt"
  ran=0 bad=0 unsup=0
  for f in tests/lit/gpu/*.mlir; do
    # the options the file's RUN lines give (replicas, partitions), and its
    # functions; a file of several modules runs whole (its checks decide)
    opts=$(grep '^// RUN:' "$f" | grep -o -E -- '--(replicas|partitions) [0-9]+' | sort -u | tr '\n' ' ')
    if grep -q '^// RUN:.*--split-input-file' "$f"; then
      if r=$(timeout 60 "$xlac" run --backend=gpu --split-input-file "$f" 2>&1); then
        ran=$((ran + 1)); echo "$f: ok"
      else
        bad=$((bad + 1)); echo "$f: FAILED: $(echo "$r" | grep -m1 -E 'error|failed' | cut -c1-200)"
      fi
      continue
    fi
    for e in $(grep -o 'func.func @[A-Za-z0-9_]*' "$f" | sed 's/func.func @//' | sort -u); do
      # a function the tests expect to be refused with a driver present
      # (`not xlac ... --entry e`, not the tests of a missing or wrong driver)
      if grep '^// RUN:.*not xlac ' "$f" | grep -v 'XLAC_CUDA_DRIVER' | grep -q -E -- "--entry $e( |\$)"; then
        if timeout 30 "$xlac" run --backend=gpu --random-inputs --entry "$e" "$f" >/dev/null 2>&1; then
          bad=$((bad + 1)); echo "$f:$e: FAILED: ran, but an error was expected"
        else
          ran=$((ran + 1)); echo "$f:$e: refused, as expected"
        fi
        continue
      fi
      # shellcheck disable=SC2086
      if r=$(timeout 30 "$xlac" compare --backend=gpu --random-inputs $opts --entry "$e" "$f" 2>&1); then
        ran=$((ran + 1))
        echo "$f:$e: $(echo "$r" | grep '^COMPARE' | tail -n 1)"
      elif echo "$r" | grep -q 'the gpu backend'; then
        unsup=$((unsup + 1)) # what the tests show refused (docs/gpu.md)
        echo "$f:$e: unsupported: $(echo "$r" | grep -m1 -E 'error' | cut -c1-200)"
      else
        bad=$((bad + 1))
        echo "$f:$e: FAILED: $(echo "$r" | grep -m1 -E 'error' | cut -c1-200)"
      fi
    done
  done >"$out/fixtures.txt" 2>&1
  echo "fixtures: $ran ran, $bad failed, $unsup refused as unsupported" | tee -a "$out/fixtures.txt" >>"$out/machine.txt"
  if [ -f "$root/.devcarry/interpret.tar.xz" ]; then
    mkdir -p "$root/.devcarry/interpret"
    tar -C "$root/.devcarry/interpret" -xJf "$root/.devcarry/interpret.tar.xz"
    XLAC_FOLD=0 timeout 270 scripts/conformance.sh "$root/.devcarry/interpret" gpu "$root/.devcarry" \
      >"$out/conformance.txt" 2>&1
    tail -n 1 "$out/conformance.txt" >>"$out/machine.txt"
  fi
fi
if [ "$jaxc" = 1 ]; then
  timeout 100 "$py" plugins/jax/tests/test_gpu.py >"$out/test_gpu.txt" 2>&1
  echo "test_gpu: exit $?" >>"$out/machine.txt"
  timeout 260 "$py" bench/gpu/compare.py --ref cuda --iters 20 --warmup 3 "$@" >"$out/compare.txt" 2>&1
  echo "compare: exit $?" >>"$out/machine.txt"
fi
cat "$out/machine.txt"
[ -f "$out/compare.txt" ] && grep -E '^(RATIO|SKIP|GEOMEAN)' "$out/compare.txt"
exit 0
