# The CPU an object was compiled for (docs/aot.md, "Which CPUs an object
# runs on"): the descriptor names its features, an object built for this
# host runs here, and one built with a feature this CPU lacks is refused at
# creation with a message naming the feature, through the C header, the
# generated test program and tfcompile's C++ class, instead of dying of an
# illegal instruction.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
. "$here/lib.sh"
t=$1
rm -rf "$t" && mkdir -p "$t"
cd "$t"
model=$root/tests/fixtures/jax/mlp_weights_as_constants.mlir

# the descriptor's feature list, as the strings in the object
features_of() { strings -n 3 "$1" | grep -E '^(sse|avx|x86|$)' | grep ',' | head -n1; }

# a feature of the runtime's list that this CPU lacks
cat >lacks.c <<'C'
#include <stdio.h>
#include "xlacrt.h"
int main(void) {
  static const char *const cand[] = {"avx512vp2intersect", "avx512fp16", "avx512bf16", "xop", "fma4",
                                     "sse4a", "avx512f", "avx2", "avx"};
  for (unsigned i = 0; i < sizeof cand / sizeof *cand; i++)
    if (xlacrt_cpu_has(cand[i]) == 0) {
      printf("%s\n", cand[i]);
      return 0;
    }
  return 0;
}
C
aot_cc lacks -I"$root/runtime" lacks.c
missing=$(./lacks)

# built for this host: runs (and names the host's features)
xlac aot "$model" --function model --name host --out_test=host_test.c
aot_cc host_test -I"$root/runtime" host_test.c host.o
./host_test | tee host.out
grep -qx "host_test: PASSED" host.out
features_of host.o | grep -q 'sse2'

# a microarchitecture level: exactly its features
xlac aot "$model" --function model --name v3 --target_cpu=x86-64-v3 --out_function_object=v3.o --out_header=v3.h
features_of v3.o | grep -qx 'sse3,ssse3,sse4.1,sse4.2,popcnt,cx16,avx,avx2,fma,f16c,bmi,bmi2,lzcnt,movbe'
# an explicit -feature takes one away
xlac aot "$model" --function model --name v3m --target_cpu=x86-64-v3 --target_features=-avx2,-fma \
  --out_function_object=v3m.o --out_header=v3m.h
features_of v3m.o | grep -qx 'sse3,ssse3,sse4.1,sse4.2,popcnt,cx16,avx,f16c,bmi,bmi2,lzcnt,movbe'

if [ -z "$missing" ]; then
  echo "skipped: the refusal needs a CPU without one of the candidate features; this one has them all"
  exit 77
fi
echo "this CPU lacks $missing"

# with a feature this CPU lacks: refused, naming it (generated test program)
xlac aot "$model" --function model --name big --target_features=+"$missing" --out_test=big_test.c
aot_cc big_test -I"$root/runtime" big_test.c big.o
if ./big_test >big.out 2>&1; then
  echo "an object for +$missing ran here" >&2
  exit 1
fi
cat big.out
grep -q "cannot create an instance: the program was compiled for the CPU 'generic' with $missing, which this CPU lacks" big.out

# the C header's check, and tfcompile's C++ class
cat >big_main.c <<'C'
#include <stdio.h>
#include "big.h"
int main(void) {
  const char *why = big_check();
  if (!why || big_create(XLACRT_AOT_ARGS_RESULTS_AND_TEMPS)) return 1;
  printf("%s\n", why);
  return 0;
}
C
aot_cc big_main -I"$root/runtime" -I. big_main.c big.o
./big_main | grep -q "with $missing, which this CPU lacks"

xlac aot "$here/test_graph_tfmatmul.hlo" --cpp_class=foo::MatMulComp --target_features=+"$missing" \
  --out_function_object=mm.o --out_header=mm.h
cat >mm_main.cc <<'C'
#include <cstdio>
#include "mm.h"
int main() {
  foo::MatMulComp m;
  if (m.ok() || m.Run()) return 1;
  std::printf("%s\n", m.error_msg().c_str());
  return 0;
}
C
aot_cxx mm_main -I"$root/runtime" -I. mm_main.cc mm.o
./mm_main | grep -q "with $missing, which this CPU lacks"
echo "cpu_features: ok"
