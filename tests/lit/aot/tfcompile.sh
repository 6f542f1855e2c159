# tfcompile's test graphs through `xlac aot --graph --config --cpp_class`
# and the checks of tfcompile_test.cc (tfcompile_main.cc): all 14.  The two
# *_with_ckpt graphs take their variable's value from the V1 checkpoint
# make_test_graphs saved (tf_library's freeze_checkpoint and freeze_saver:
# here --checkpoint and --saver); the same with a V2 checkpoint too.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
t=$1
command -v c++ >/dev/null || { echo "no C++ compiler (c++)"; exit 77; }
fx="$here/../../fixtures/tfcompile"
rm -rf "$t" && mkdir -p "$t"
cd "$t"

# graph, class, tfcompile flags: as tensorflow/compiler/aot/tests/BUILD has them
compiled=0
while read -r g cls flags; do
  # the config and checkpoint flags name fixtures
  flags=$(printf '%s' "$flags" | sed "s|=@|=$fx/|g")
  cfg="$fx/test_graph_$g.config.pbtxt"
  case "$flags" in *--config=*) cfg=${flags#*--config=} cfg=${cfg%% *} flags=$(printf '%s' "$flags" | sed 's|--config=[^ ]*||') ;; esac
  # shellcheck disable=SC2086
  xlac aot --graph="$fx/test_graph_$g.pb" --config="$cfg" --cpp_class="$cls" \
    --out_function_object="test_graph_$g.o" --out_header="test_graph_$g.h" $flags
  compiled=$((compiled + 1))
done <<'GRAPHS'
tfadd AddComp
tfadd_with_ckpt AddWithCkptComp --checkpoint=@test_graph_tfadd_with_ckpt.ckpt
tfadd_with_ckpt_saver AddWithCkptSaverComp --config=@test_graph_tfadd_with_ckpt.config.pbtxt --checkpoint=@test_graph_tfadd_with_ckpt_saver.ckpt --saver=@test_graph_tfadd_with_ckpt_saver.saver
tfassert_eq AssertComp
tfcond CondComp
tffunction FunctionComp
tfgather GatherComp
tfmatmul foo::bar::MatMulComp
tfmatmulandadd ::foo::bar::MatMulAndAddComp --gen_name_to_index --gen_program_shape
tfsplits SplitsComp
tftop_k TopKComp
tfvariable VariableComp
tfvariable_readonly VariableReadonlyComp
tfvariable_sequential_updates VariableSequentialUpdatesComp
GRAPHS
echo "compiled $compiled of 14 graphs"
check_undefined test_graph_*.o
aot_cxx tfcompile_test "$here/tfcompile_main.cc" -I. test_graph_*.o
./tfcompile_test | tee out.txt
grep -qx 'PASS [0-9]* checks' out.txt
[ "$(grep -c '^ok ' out.txt)" = 19 ]

# the C API updates variables in place too: two runs of three updates
cat >seq_c.c <<'C'
#include <math.h>
#include <stdio.h>
#include "test_graph_tfvariable_sequential_updates.h"
int main(void) {
  test_graph_tfvariable_sequential_updates_t *m = test_graph_tfvariable_sequential_updates_create(XLACRT_AOT_ARGS_RESULTS_AND_TEMPS);
  *test_graph_tfvariable_sequential_updates_arg_x_data(m) = 2;
  *test_graph_tfvariable_sequential_updates_arg_y_data(m) = 1;
  for (int i = 0; i < 2; i++)
    if (test_graph_tfvariable_sequential_updates_run(m) != 0) return 1;
  float x = *test_graph_tfvariable_sequential_updates_arg_x_data(m);
  printf("C API: x = %.6f after two runs\n", x);
  test_graph_tfvariable_sequential_updates_destroy(m);
  return fabsf(x - 0.594322f) > 1e-6f;
}
C
aot_cc seq_c seq_c.c -I. test_graph_tfvariable_sequential_updates.o
./seq_c

# the same graph with the V2 checkpoint (prefix, or its .index), run by xlac
for ck in test_graph_tfadd_with_ckpt_v2.ckpt test_graph_tfadd_with_ckpt_v2.ckpt.index; do
  xlac run --graph="$fx/test_graph_tfadd_with_ckpt.pb" --config="$fx/test_graph_tfadd_with_ckpt.config.pbtxt" \
    --checkpoint="$fx/$ck" --input 'x_hold=[5]' >run.txt
  cat run.txt
  grep -q 'tensor<1xi32> = \[47\]' run.txt
done

# without a checkpoint the variable has no value, and the error says how to give one
! xlac aot --graph="$fx/test_graph_tfadd_with_ckpt.pb" --config="$fx/test_graph_tfadd_with_ckpt.config.pbtxt" \
  --cpp_class=AddWithCkptComp --out_function_object=ckpt.o --out_header=ckpt.h 2>err.txt
cat err.txt
grep -q "node 'y_saved' (VarHandleOp): a resource variable that is not a variable of the Config.*--checkpoint" err.txt
# a SaverDef of the other format is refused
! xlac aot --graph="$fx/test_graph_tfadd_with_ckpt.pb" --config="$fx/test_graph_tfadd_with_ckpt.config.pbtxt" \
  --checkpoint="$fx/test_graph_tfadd_with_ckpt_v2.ckpt" --saver="$fx/test_graph_tfadd_with_ckpt_saver.saver" \
  --out_function_object=ckpt.o --out_header=ckpt.h 2>err.txt
cat err.txt
grep -q "the SaverDef says the checkpoint is of format V1, but it is a V2 checkpoint" err.txt
echo "tfcompile: ok"
