#!/usr/bin/env bash
# Prints the path of an installed cuBLASLt (NVIDIA's own) for a test that
# opens it on a machine without a GPU, or exits 77 (skipped) with the
# reason: none installed, or a CUDA driver installed (the library would
# then run on the GPU, with the SIMT harness's host pointers).
#
# Looked for in $CUDA_HOME/lib64, $CUDA_PATH/lib64, /usr/local/cuda/lib64
# and the dynamic loader's cache.
set -uo pipefail
skip() {
  echo "skipped: $*"
  exit 77
}
if ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1 '; then
  skip "a CUDA driver is installed (this test is for machines without one)"
fi
for d in ${CUDA_HOME:+"$CUDA_HOME/lib64"} ${CUDA_PATH:+"$CUDA_PATH/lib64"} /usr/local/cuda/lib64; do
  for f in "$d"/libcublasLt.so.1[0-9]; do
    [ -f "$f" ] && { echo "$f"; exit 0; }
  done
done
f=$(ldconfig -p 2>/dev/null | sed -n 's/.*libcublasLt\.so\.1[0-9] .*=> //p' | head -1)
[ -n "$f" ] && [ -f "$f" ] && { echo "$f"; exit 0; }
skip "no cuBLASLt installed (no CUDA toolkit or nvidia-cublas wheel; set CUDA_HOME)"
