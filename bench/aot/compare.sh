#!/usr/bin/env bash
# compare.sh WORK - xlac AOT, xlac JIT and tfcompile side by side on the
# models bench/aot/tfcompile.sh built in WORK (run it first with --work
# WORK).  Compiles WORK/<model>.hlo with `xlac aot` (generated test checked
# against the interpreter, generated benchmark), then runs, interleaved,
# ROUNDS times: tfcompile's timer, the xlac AOT benchmark at 1 and 2
# threads, and `xlac bench` (the JIT through the C API, one thread).
# Prints the median of the rounds' medians (ns per call) and object sizes.
#   XLAC=build/bin/xlac ROUNDS=3 bench/aot/compare.sh /tmp/aot
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${1:?usage: compare.sh WORK}
xlac=${XLAC:-$root/build/bin/xlac}
rounds=${ROUNDS:-3}
out=$work/xlac
mkdir -p "$out"
flags=$("$xlac" aot --print-link-flags)
models=""
for m in tiny mlp cnn; do
  [ -f "$work/$m.hlo" ] && [ -x "$work/bin/timer_$m" ] && models="$models $m"
done
[ -n "$models" ] || { echo "no models in $work: run bench/aot/tfcompile.sh --work $work first" >&2; exit 1; }
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
for m in $models; do
  "$xlac" aot "$work/$m.hlo" --name "$m" -o "$out/$m.o" --header "$out/$m.h" \
    --out_test="$out/${m}_test.c" --out_benchmark="$out/${m}_benchmark.c"
  # shellcheck disable=SC2086
  cc -O2 -o "$out/${m}_test" "$out/${m}_test.c" "$out/$m.o" $flags
  # shellcheck disable=SC2086
  cc -O2 -o "$out/${m}_benchmark" "$out/${m}_benchmark.c" "$out/$m.o" $flags
  "$out/${m}_test" | tail -n 1
done
declare -A tf aot1 aot2 jit
for r in $(seq "$rounds"); do
  for m in $models; do
    feeds=()
    i=0
    while [ -f "$work/$m.in$i.bin" ]; do
      a=$(sed -n "s/^$m \\([^ ]*\\) .*/\\1/p" "$work/manifest.txt" | tr ',' '\n' | sed -n "$((i + 1))p")
      feeds+=("feed_${a%%:*}=$work/$m.in$i.bin")
      i=$((i + 1))
    done
    key=$(sed -n "s/^$m .* -> \\([^:]*\\):.*/\\1/p" "$work/manifest.txt")
    t=$("$work/bin/timer_$m" --result "fetch_$key" "$work/$m.out.bin" "${feeds[@]}" 2>/dev/null |
      sed -n 's/^TIMER .*median_ns=\([0-9.]*\).*/\1/p')
    tf[$m]="${tf[$m]:-} $t"
    aot1[$m]="${aot1[$m]:-} $("$out/${m}_benchmark" 1 | sed -n 's/.*median \([0-9.]*\) ns.*/\1/p')"
    aot2[$m]="${aot2[$m]:-} $("$out/${m}_benchmark" 2 | sed -n 's/.*median \([0-9.]*\) ns.*/\1/p')"
    inputs=()
    i=0
    while [ -f "$work/$m.in$i.npy" ]; do
      inputs+=(--input "$i=@$work/$m.in$i.npy")
      i=$((i + 1))
    done
    ms=$("$xlac" bench --threads 1 --iters 2000 "${inputs[@]}" "$work/$m.hlo" 2>/dev/null |
      sed -n 's/.*median_ms=\([0-9.]*\).*/\1/p')
    jit[$m]="${jit[$m]:-} $(awk -v ms="$ms" 'BEGIN { printf "%.1f", ms * 1e6 }')"
  done
done
printf '%-5s %14s %14s %14s %14s %12s %12s\n' model "tfcompile ns" "xlac AOT ns" "AOT 2thr ns" "xlac JIT ns" "xlac .o B" "tfc .o B"
for m in $models; do
  tfo=0
  for f in "$work/aot/$m.o" "$work/aot/${m}_constants.o" "$work/aot/${m}_metadata.o"; do
    [ -f "$f" ] && tfo=$((tfo + $(stat -c %s "$f")))
  done
  printf '%-5s %14s %14s %14s %14s %12s %12s\n' "$m" \
    "$(echo "${tf[$m]}" | tr ' ' '\n' | grep . | median)" \
    "$(echo "${aot1[$m]}" | tr ' ' '\n' | grep . | median)" \
    "$(echo "${aot2[$m]}" | tr ' ' '\n' | grep . | median)" \
    "$(echo "${jit[$m]}" | tr ' ' '\n' | grep . | median)" \
    "$(stat -c %s "$out/$m.o")" "$tfo"
done
