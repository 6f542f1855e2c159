# Text of the user's that reaches the generated sources cannot change them:
# the input's path goes into the header's first comment escaped (a path
# with */ used to end the comment and put its rest into the header as
# code), and a header name that an #include cannot hold is refused when the
# generated test or benchmark would #include it.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
t=$1
rm -rf "$t" && mkdir -p "$t"
cd "$t"
inc=$(printf '%s\n' $(xlac aot --print-link-flags) | grep '^-I')

# the input is `a*/int x;/*.mlir` under %t: directories "a*" and "int x;"
dir='a*/int x;'
mkdir -p "$dir"
cp "$here/Inputs/custom_call.mlir" "$dir/*.mlir"
xlac aot "$dir/*.mlir" -o m.o --header m.h --name m --cpp_class=ns::M --gen_name_to_index --gen_program_shape
grep -qF 'a*\x2fint x;\x2f*.mlir' m.h
# compiles as C and C++ with -Wall -Werror, and declares no x: a program's
# own x of another type would conflict with it
printf '#include "m.h"\nstatic const char *x = "mine";\nconst char *get(void) { return x; }\n' >use.c
cc -std=c11 -Wall -Wextra -Werror $inc -I. -c use.c -o use_c.o
c++ -std=c++11 -Wall -Wextra -Werror $inc -I. -x c++ -c use.c -o use_cc.o
! cc -std=c11 -E -P $inc m.h | grep -q 'int x'

# a newline, a backslash and a star-slash in a directory name, the same
mkdir -p "$t/n
l\\*"
cp "$here/test_graph_tfmatmul.hlo" "$t/n
l\\*/*.hlo"
xlac aot "$t/n
l\\*/*.hlo" -o k.o --header k.h --name k --out_test=k_test.c --cpp_class=K
grep -qF 'n\x0al\x5c*\x2f*.hlo' k.h
cc -std=c11 -Wall -Wextra -Werror $inc -I. -x c -fsyntax-only k.h
c++ -std=c++11 -Wall -Wextra -Werror $inc -I. -x c++ -fsyntax-only k.h
aot_cc k_test k_test.c k.o -I.
./k_test | grep -qx 'k_test: PASSED'

# header names an #include "..." cannot hold, when a test or benchmark
# includes it: refused, nothing written
for h in 'q"x.h' "q'x.h" 'q\x.h' 'tab	x.h'; do
  if xlac aot "$here/test_graph_tfmatmul.hlo" -o h.o --header "$h" --name h --out_test=h_test.c 2>err.txt; then
    echo "accepted header name $h" >&2
    exit 1
  fi
  cat err.txt
  grep -q "^xlac aot: error: the header's file name '.*' cannot be used: " err.txt
done
if xlac aot "$here/test_graph_tfmatmul.hlo" -o h.o --header 'q"x.h' --name h --out_benchmark=h_bench.c 2>err.txt; then
  exit 1
fi
test ! -e h.o && test ! -e h_test.c && test ! -e h_bench.c
# without a generated source that includes it, any file name will do
xlac aot "$here/test_graph_tfmatmul.hlo" -o h.o --header 'q"x.h' --name h
test -s 'q"x.h'
echo "injection: ok"
