#!/usr/bin/env bash
# symbols.sh: see symbols.test.  Reaches the build directory through the
# xlac command on PATH (BUILD/bin/xlac).
set -u
root=$(cd "$(dirname "$0")/../../.." && pwd)
lib=$(cd "$(dirname "$(command -v xlac)")/../lib" && pwd)
if [ ! -e "$lib/libxlac.so" ]; then
  echo "$lib has no shared libraries: nothing to check"
  exit 0
fi
fail=0
bad() {
  echo "FAILED: $*"
  fail=1
}

# libxlacrt.so: only the C library (libc, libm, libpthread, the loader)
needed=$(readelf -d "$lib/libxlacrt.so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
for n in $needed; do
  case $n in libc.so.* | libm.so.* | libpthread.so.* | ld-linux*) ;; *) bad "libxlacrt.so needs $n" ;; esac
done
ldd "$lib/libxlacrt.so" | grep -i llvm && bad "libxlacrt.so loads LLVM"
# every undefined symbol is the C library's (versioned GLIBC_*) or weak
undef=$(nm -D --undefined-only "$lib/libxlacrt.so" | awk '$1 == "U" && $2 !~ /@GLIBC_/ { print $2 }')
[ -z "$undef" ] || bad "libxlacrt.so uses symbols from outside the C library:" $undef
# (and the compiler-runtime helpers generated code calls on CPUs without
# bfloat16 conversions: runtime/bf16.c)
exported=$(nm -D --defined-only "$lib/libxlacrt.so" | awk '{ print $3 }' |
  grep -v -e '^xlacrt_' -e '^__truncsfbf2$' -e '^__truncdfbf2$')
[ -z "$exported" ] || bad "libxlacrt.so exports more than xlacrt_* and the bfloat16 helpers:" $exported
nm -D --defined-only "$lib/libxlacrt.so" | grep -q ' xlacrt_sgemm$' || bad "libxlacrt.so does not export xlacrt_sgemm"

# libxlac.so: exactly the functions its public headers declare (the
# preprocessor drops the comments); xlac_mpi.h is the xlac_mpi library's
declared=$(for h in "$root"/include/xlac/*.h; do
  [ "${h##*/}" = xlac_mpi.h ] || cc -E -P -I"$root/include" "$h"
done |
  grep -o 'xlac_[a-z0-9_]*[[:space:]]*(' | sed 's/[[:space:]]*($//' | sort -u)
exported=$(nm -D --defined-only "$lib/libxlac.so" | awk '{ print $3 }' | sort -u)
[ -n "$declared" ] || bad "no function declared in include/xlac/*.h"
extra=$(comm -13 <(echo "$declared") <(echo "$exported"))
missing=$(comm -23 <(echo "$declared") <(echo "$exported"))
[ -z "$extra" ] || bad "libxlac.so exports what include/xlac/*.h does not declare:" $extra
[ -z "$missing" ] || bad "libxlac.so does not export (declared but not defined?):" $missing
readelf -d "$lib/libxlac.so" | grep -q 'Library soname: \[libxlac\.so\.[0-9]*\]' || bad "libxlac.so has no SONAME"
readelf -d "$lib/libxlacrt.so" | grep -q 'Library soname: \[libxlacrt\.so\.[0-9]*\]' || bad "libxlacrt.so has no SONAME"
[ "$fail" -eq 0 ] && echo "libxlacrt.so: C library only; libxlac.so: $(echo "$exported" | wc -l) functions of include/xlac"
exit "$fail"
