#!/usr/bin/env bash
# isolation.sh: see isolation.test.  Reaches the build directory through
# the xlac command on PATH (BUILD/bin/xlac).
set -u
root=$(cd "$(dirname "$0")/../../.." && pwd)
lib=$(cd "$(dirname "$(command -v xlac)")/../lib" && pwd)
tmp=$1
if [ ! -e "$lib/libxlac.so" ]; then
  echo "$lib has no shared libraries: nothing to check"
  exit 0
fi
fail=0
for so in "$lib/libxlac.so" "$lib/libxlac_pjrt.so"; do
  [ -e "$so" ] || continue
  ldd "$so" | grep -i 'libLLVM' && { echo "FAILED: ${so##*/} loads a shared LLVM"; fail=1; }
  llvm_imports=$(nm -D --undefined-only "$so" | awk '{ print $2 }' | grep -E '^(LLVM|_ZN4llvm)' | head -5)
  [ -z "$llvm_imports" ] || { echo "FAILED: ${so##*/} imports LLVM symbols:" $llvm_imports; fail=1; }
  llvm_exports=$(nm -D --defined-only "$so" | awk '{ print $3 }' | grep -E '^(LLVM|_ZN4llvm)' | head -5)
  [ -z "$llvm_exports" ] || { echo "FAILED: ${so##*/} exports LLVM symbols:" $llvm_exports; fail=1; }
done
mkdir -p "$tmp"
cc -std=c11 -D_GNU_SOURCE -I"$root/include" -rdynamic "$(dirname "$0")/isolation.c" -o "$tmp/isolation" -ldl || exit 1
"$tmp/isolation" "$lib/libxlac.so" || fail=1
exit "$fail"
