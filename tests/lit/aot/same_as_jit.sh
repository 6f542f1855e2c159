# AOT results are bit-identical to the JIT's (xlac run --backend=cpu) on the
# same inputs, for 1 and 2 threads, and separate instances run at once on
# separate threads give the same bits.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
fixtures=$(cd "$here/../../fixtures/jax" && pwd)
t=$1
rm -rf "$t" && mkdir -p "$t"
cd "$t"
for m in mlp_weights_as_constants cnn_weights_as_constants mlp_weights_as_args; do
  mkdir "$m" && cd "$m"
  xlac aot "$fixtures/$m.mlir" --function model --name "$m"
  aot_cc same "$here/same_main.c" "$m.o" -DPROGRAM="${m}_program" -lpthread
  ./same
  inputs=()
  for f in in*.npy; do
    i=${f#in}
    inputs+=(--input "${i%.npy}=@$f")
  done
  for threads in 1 2; do
    xlac run --backend=cpu --threads $threads --entry model "$fixtures/$m.mlir" "${inputs[@]}" --output-dir "jit$threads" >/dev/null
    for f in out*.npy; do
      r=${f#out}
      n=$(stat -c %s "$f")
      hs=$(( $(od -An -tu2 -j8 -N2 "$f") + 10 ))
      cmp <(tail -c $((n - hs)) "$f") <(tail -c $((n - hs)) "jit$threads/result${r}")
    done
  done
  echo "$m: AOT = JIT bit for bit"
  cd ..
done
