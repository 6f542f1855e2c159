# Custom calls in an AOT object are calls of plain C functions the linking
# program defines, with XLA's status-returning signature, declared in the
# header; a missing one is a link error naming it.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
t=$1
rm -rf "$t" && mkdir -p "$t"
cd "$t"
xlac aot "$here/Inputs/custom_call.mlir" -o cc.o --header cc.h --name cc
grep -q '^void scale_by(void \*out, const void \*\*in, const char \*opaque, size_t opaque_len, xlacrt_status \*status);$' cc.h
grep -q '^void split_sign(void \*out' cc.h
aot_cc prog "$here/custom_call_main.c" cc.o -I.
./prog | tee out.txt
grep -qx 'result 0: -7 0 3.5 14' out.txt
grep -qx 'result 1: 0 0 3.5 14' out.txt
grep -qx 'result 2: -7 0 0 0' out.txt
grep -qx 'run with 666: -1 (scale_by: refusing 666)' out.txt
# the targets are the object's only undefined symbols besides the runtime's
nm -u cc.o | awk '{ print $2 }' | grep -v '^xlacrt_' | sort | tr '\n' ' ' | grep -qx 'scale_by split_sign '
# without the functions, the link fails naming them (docs/aot.md)
printf '#include "cc.h"\nint main(void) { cc_t *m = cc_create(0); return cc_run(m); }\n' >missing.c
! aot_cc missing missing.c cc.o -I. 2>link.txt
grep -q "undefined reference to .scale_by'" link.txt
grep -q "undefined reference to .split_sign'" link.txt
echo "custom_call: ok"
