# Custom calls in an AOT object are calls of plain C functions the linking
# program defines, named xlac_cc_TARGET, with XLA's status-returning
# signature, declared in the header; a missing one is a link error naming
# it.  A target named like a function of the C library (system, malloc), of
# the runtime or of the object itself calls nothing but the xlac_cc_
# function written for it.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
t=$1
rm -rf "$t" && mkdir -p "$t"
cd "$t"
xlac aot "$here/Inputs/custom_call.mlir" -o cc.o --header cc.h --name cc
grep -q '^void xlac_cc_scale_by(void \*out, const void \*\*in, const char \*opaque, size_t opaque_len, xlacrt_status \*status);$' cc.h
grep -q '^void xlac_cc_split_sign(void \*out' cc.h
aot_cc prog "$here/custom_call_main.c" cc.o -I.
./prog | tee out.txt
grep -qx 'result 0: -7 0 3.5 14' out.txt
grep -qx 'result 1: 0 0 3.5 14' out.txt
grep -qx 'result 2: -7 0 0 0' out.txt
grep -qx 'run with 666: -1 (scale_by: refusing 666)' out.txt
# the targets are the object's only undefined symbols besides the runtime's
nm -u cc.o | awk '{ print $2 }' | grep -v '^xlacrt_' | sort | tr '\n' ' ' | grep -qx 'xlac_cc_scale_by xlac_cc_split_sign '
# without the functions, the link fails naming them (docs/aot.md)
printf '#include "cc.h"\nint main(void) { cc_t *m = cc_create(0); return cc_run(m); }\n' >missing.c
! aot_cc missing missing.c cc.o -I. 2>link.txt
grep -q "undefined reference to .xlac_cc_scale_by'" link.txt
grep -q "undefined reference to .xlac_cc_split_sign'" link.txt

# targets named like the C library's system and malloc, the runtime's
# xlacrt_status_current, a constant of the object (opaque) and its own entry
# symbol: without functions of the program's, the link fails naming the
# prefixed symbols (a target @system used to link, and run its
# backend_config as a shell command)
xlac aot "$here/Inputs/custom_call_libc.mlir" -o sys.o --header sys.h --name sys
nm -u sys.o | awk '{ print $2 }' | grep -v '^xlacrt_' | sort | tr '\n' ' ' |
  grep -qx 'xlac_cc_malloc xlac_cc_opaque xlac_cc_sys_entry xlac_cc_system xlac_cc_xlacrt_status_current '
printf '#include "sys.h"\nint main(void) { sys_t *m = sys_create(0); return sys_run(m); }\n' >sys_missing.c
! aot_cc sys_missing sys_missing.c sys.o -I. 2>sys_link.txt
grep -q "undefined reference to .xlac_cc_system'" sys_link.txt
grep -q "undefined reference to .xlac_cc_malloc'" sys_link.txt
! grep -q "undefined reference to .system'" sys_link.txt
# with them, each is called in turn (1 + 10 + 100 + 1000 + 1234 is added),
# and system and malloc are the C library's still
aot_cc sys_prog "$here/custom_call_libc_main.c" sys.o -I.
./sys_prog | tee sys_out.txt
grep -qx '2345 2346 2347 2348, malloc ok, system ok' sys_out.txt
test ! -e pwned
echo "custom_call: ok"
