#!/usr/bin/env bash
# Compiles cublaslt_values.c against NVIDIA's cublasLt.h, which checks the
# values and layouts src/gpu/cublaslt_abi.h declares (xlac itself never
# includes the header).  Exit 77 (skipped) with the reason where the
# header or a C compiler is missing.
#
#   cublaslt_header.sh SRC_DIR
#
# The header is looked for in $CUDA_HOME/include, $CUDA_PATH/include,
# /usr/local/cuda/include and /usr/include.
set -uo pipefail
src=$1
here=$(cd "$(dirname "$0")" && pwd)
skip() {
  echo "skipped: $*"
  exit 77
}
inc=
for d in ${CUDA_HOME:+"$CUDA_HOME/include"} ${CUDA_PATH:+"$CUDA_PATH/include"} /usr/local/cuda/include /usr/include; do
  if [ -f "$d/cublasLt.h" ]; then
    inc=$d
    break
  fi
done
[ -n "$inc" ] || skip "no cublasLt.h (no CUDA toolkit; set CUDA_HOME)"
cc=${CC:-cc}
command -v "$cc" >/dev/null || skip "no C compiler ($cc)"
"$cc" -std=c11 -fsyntax-only -I"$inc" -I"$src" "$here/cublaslt_values.c" || exit 1
version=$(sed -n 's/^#define CUBLAS_VER_MAJOR \([0-9]*\).*/\1/p' "$inc/cublas_api.h" "$inc/cublas_v2.h" 2>/dev/null | head -1)
echo "cublaslt_abi.h agrees with cublasLt.h (cuBLAS ${version:-?})"
