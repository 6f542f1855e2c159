# The fixtures' MLP and CNN (JAX's StableHLO, weights as constants) and the
# MLP's bf16 variant, compiled ahead of time with a generated test
# (--out_test: zero and random inputs against the reference interpreter's
# results, on 1 and 2 threads, which must agree bit for bit) and a
# generated benchmark; every object needs only libxlacrt, libc and libm,
# and runs after the first allocate no memory.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
fixtures=$(cd "$here/../../fixtures/jax" && pwd)
t=$1
rm -rf "$t" && mkdir -p "$t"
cd "$t"
for m in mlp_weights_as_constants cnn_weights_as_constants mlp_bf16 mlp_weights_as_args; do
  xlac aot "$fixtures/$m.mlir" --function model --name "$m" --out_test="${m}_test.c" \
    --out_benchmark="${m}_benchmark.c"
  aot_cc "${m}_test" "${m}_test.c" "$m.o"
  "./${m}_test" | tee "$m.out"
  grep -qx "${m}_test: PASSED" "$m.out"
  aot_cc "${m}_benchmark" "${m}_benchmark.c" "$m.o"
  "./${m}_benchmark" 1 20 | grep -q "^$m: 1 thread(s), 20 runs per sample: min .* ns, median .* ns, max .* ns per run$"
  check_undefined "$m.o"
  # after the first run, runs allocate nothing (1 and 2 threads)
  aot_cc "${m}_noalloc" -DPROGRAM="${m}_program" "$here/noalloc_main.c" "$m.o" \
    -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=aligned_alloc
  "./${m}_noalloc" | tee "$m.alloc"
  [ "$(grep -c ': 0 allocations in 3 runs$' "$m.alloc")" = 2 ]
done
echo "models: ok"
