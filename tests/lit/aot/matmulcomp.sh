# tfcompile's MatMulComp example end to end: x_hold [2,3] . y_hold [3,2]
# -> x_y_prod, compiled with tfcompile's flags into an object and a header
# with the C++ class foo::bar::MatMulComp; a C++ program like the one in
# tfcompile's guide prints "Success" (58 at 0,0), and so does a C program
# through the C API.  Every object needs only libxlacrt, libc and libm.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
t=$1
rm -rf "$t" && mkdir -p "$t"
cp "$here/test_graph_tfmatmul.hlo" "$here/matmul_main.cc" "$here/matmul_main.c" "$t/"
cd "$t"

# tfcompile's spelling
xlac aot --cpp_class=foo::bar::MatMulComp --out_function_object=test_graph_tfmatmul.o \
  --out_header=test_graph_tfmatmul.h --gen_name_to_index --gen_program_shape test_graph_tfmatmul.hlo
aot_cxx matmul_cc matmul_main.cc test_graph_tfmatmul.o
./matmul_cc >out_cc.txt
cat out_cc.txt
grep -qx 'Success' out_cc.txt
grep -qx 'x_y_prod = \[\[58, 64\], \[139, 154\]\]' out_cc.txt
grep -qx 'sizes 24 24 16' out_cc.txt
grep -qx 'y_hold is arg 1, x_y_prod is result 0, nothing is -1' out_cc.txt
grep -qx '(x_hold: tensor<2x3xf32>, y_hold: tensor<3x2xf32>) -> (x_y_prod: tensor<2x2xf32>)' out_cc.txt
grep -q '^unset: argument 0 (x_hold) has no data' out_cc.txt
grep -qx 'identity rows: 1 2 3 4' out_cc.txt

# the same program from TensorFlow's GraphDef and tf2xla Config, as
# tfcompile takes them (--graph/--config)
cp "$here/../../fixtures/tf/matmul/graph.pb" test_graph_tfmatmul.pb
cp "$here/../../fixtures/tf/matmul/config.pbtxt" test_graph_tfmatmul.config.pbtxt
xlac aot --graph=test_graph_tfmatmul.pb --config=test_graph_tfmatmul.config.pbtxt --cpp_class=foo::bar::MatMulComp \
  --out_function_object=tfgraph.o --out_header=test_graph_tfmatmul.h --gen_name_to_index --gen_program_shape
aot_cxx matmul_graph matmul_main.cc tfgraph.o
./matmul_graph >out_graph.txt
cat out_graph.txt
grep -qx 'Success' out_graph.txt
grep -qx 'x_y_prod = \[\[58, 64\], \[139, 154\]\]' out_graph.txt
grep -qx 'y_hold is arg 1, x_y_prod is result 0, nothing is -1' out_graph.txt
grep -qx '(x_hold: tensor<2x3xf32>, y_hold: tensor<3x2xf32>) -> (x_y_prod: tensor<2x2xf32>)' out_graph.txt
check_undefined tfgraph.o

# the short spelling, and the C API
xlac aot test_graph_tfmatmul.hlo -o matmul.o --header matmul.h --name matmul
aot_cc matmul_c matmul_main.c matmul.o
./matmul_c >out_c.txt
cat out_c.txt
grep -qx 'Success: 58 64 139 154' out_c.txt
grep -qx 'arg 0 x_hold f32 rank 2 \[2, 3\] 24 bytes, aligned 1' out_c.txt
grep -qx 'arg 1 y_hold f32 rank 2 \[3, 2\] 24 bytes, aligned 1' out_c.txt
grep -qx 'result x_y_prod type 15, index of x_y_prod 0, of y_hold 1' out_c.txt

# the descriptor in an object of its own (--out_metadata_object); both link
xlac aot test_graph_tfmatmul.hlo -o split.o --out_metadata_object=split_meta.o --header split.h --name split
nm split.o | grep -q ' T split_entry'
! nm split.o | grep -q 'split_program'
nm split_meta.o | grep -q ' [DR] split_program'

# two programs in one binary: only NAME_entry and NAME_program are visible
nm -g --defined-only matmul.o | awk '{ print $3 }' | sort >syms.txt
printf 'matmul_entry\nmatmul_program\n' | diff - syms.txt

check_undefined test_graph_tfmatmul.o matmul.o split.o split_meta.o
echo "matmulcomp: ok"
