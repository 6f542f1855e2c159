#!/usr/bin/env bash
# Runs one libFuzzer target (built by `make fuzz`) with its seeds and
# dictionary for a while; see docs/fuzzing.md.
#
#   scripts/fuzz.sh TARGET SECONDS [MAX_LEN] [-- LIBFUZZER_ARGS...]
#
# TARGET is stablehlo, hlo, pipeline, hlo_chain, pb, tf, mlirbc or hlo_pb (a fuzz_
# prefix is accepted).  MAX_LEN is the largest input the fuzzer makes, in bytes
# (default 8192; 16384 for pipeline): raise it for a run that looks for bugs
# only large inputs reach.  Everything the run writes goes under
# $XLAC_FUZZ_DIR (default $TMPDIR/xlac-fuzz or /tmp/xlac-fuzz), never into
# the source tree:
#
#   TARGET/corpus/     inputs the fuzzer found interesting (kept between runs)
#   TARGET/artifacts/  crash-*, leak-*, timeout-*, oom-* inputs
#   TARGET/fuzz.log    the run's output
#
# Exits with libFuzzer's status: 0 when nothing was found.
set -u
usage() {
  echo "usage: scripts/fuzz.sh stablehlo|hlo|pipeline|hlo_chain|pb|tf|mlirbc|hlo_pb|ckpt SECONDS [MAX_LEN] [-- LIBFUZZER_ARGS...]" >&2
  exit 2
}
[ $# -ge 2 ] || usage
root=$(cd "$(dirname "$0")/.." && pwd)
target=${1#fuzz_}
seconds=$2
shift 2
max_len=""
if [ $# -gt 0 ] && [ "$1" != "--" ]; then
  max_len=$1
  shift
fi
[ $# -gt 0 ] && [ "$1" = "--" ] && shift
case "$seconds" in '' | *[!0-9]*) usage ;; esac
case "$max_len" in *[!0-9]*) usage ;; esac

build=${XLAC_FUZZ_BUILD:-$root/build-fuzz}
bin="$build/bin/fuzz_$target"
if [ ! -x "$bin" ]; then
  echo "error: $bin not found; build the fuzzers first (make fuzz)" >&2
  exit 1
fi
work=${XLAC_FUZZ_DIR:-${TMPDIR:-/tmp}/xlac-fuzz}/$target
mkdir -p "$work/corpus" "$work/artifacts"

seeds=()
dict=()
timeout=10
case "$target" in
  stablehlo)
    seeds=("$root/fuzz/corpus/stablehlo")
    dict=(-dict="$root/fuzz/stablehlo.dict")
    : "${max_len:=8192}" ;;
  hlo)
    seeds=("$root/fuzz/corpus/hlo")
    dict=(-dict="$root/fuzz/hlo.dict")
    : "${max_len:=8192}" ;;
  pipeline)
    # the suite's programs, one module per file
    mkdir -p "$work/seeds"
    for f in "$root"/tests/lit/cpu/*.mlir "$root"/tests/lit/passes/*.mlir "$root"/tests/fixtures/jax/*.mlir; do
      [ -f "$f" ] || continue
      awk -v p="$work/seeds/$(basename "$f" .mlir)" 'BEGIN { n = 0; o = p "_0.mlir" }
        /^\/\/ -----/ { close(o); n++; o = p "_" n ".mlir"; next } { print > o }' "$f"
    done
    seeds=("$work/seeds" "$root/fuzz/corpus/stablehlo")
    dict=(-dict="$root/fuzz/stablehlo.dict")
    timeout=20
    : "${max_len:=16384}" ;;
  pb)
    # the TensorFlow frontend's protobuf readers (text and binary)
    seeds=("$root/fuzz/corpus/pb")
    : "${max_len:=8192}" ;;
  ckpt)
    # TensorFlow checkpoints, V1 and V2 (the tfcompile fixtures)
    seeds=("$root/fuzz/corpus/ckpt")
    : "${max_len:=4096}" ;;
  tf)
    # the whole TensorFlow frontend: the suite's graphs, each behind the
    # byte that says text (1) or binary (0)
    mkdir -p "$work/seeds"
    for f in "$root"/tests/lit/tf/*.pbtxt "$root"/tests/fixtures/tf/*/graph.pbtxt; do
      [ -f "$f" ] && [ "$(wc -c <"$f")" -le 65536 ] || continue
      { printf '\001'; cat "$f"; } >"$work/seeds/$(basename "$(dirname "$f")")_$(basename "$f")"
    done
    for f in "$root"/tests/fixtures/tf/*/graph.pb; do
      [ "$(wc -c <"$f")" -le 65536 ] || continue
      { printf '\000'; cat "$f"; } >"$work/seeds/$(basename "$(dirname "$f")").pb"
    done
    seeds=("$work/seeds" "$root/fuzz/corpus/tf")
    timeout=20
    : "${max_len:=65536}" ;;
  mlirbc)
    # StableHLO portable artifacts (MLIR bytecode): the suite's, at every
    # version they were written for, and the jax.export wrapper
    mkdir -p "$work/seeds"
    for f in "$root"/tests/fixtures/mlirbc/*/*.mlirbc "$root"/tests/fixtures/mlirbc/*/exported.bin; do
      [ -f "$f" ] && cp "$f" "$work/seeds/$(basename "$(dirname "$f")")_$(basename "$f")"
    done
    seeds=("$work/seeds" "$root/fuzz/corpus/mlirbc")
    timeout=20
    : "${max_len:=16384}" ;;
  hlo_pb)
    # serialized HloModuleProtos: the suite's and some broken ones
    seeds=("$root/fuzz/corpus/hlo_pb")
    timeout=20
    : "${max_len:=16384}" ;;
  hlo_chain)
    # the input only parameterizes a generator: a few bytes go a long way
    : "${max_len:=4096}" ;;
  *)
    echo "error: unknown fuzz target '$target' (stablehlo, hlo, pipeline, hlo_chain, pb, tf, mlirbc, hlo_pb)" >&2
    exit 2 ;;
esac

echo "fuzz_$target for ${seconds}s, max_len=$max_len; corpus, artifacts and log in $work"
touch "$work/.start"
(cd "$work" && "$bin" -max_total_time="$seconds" -timeout="$timeout" -max_len="$max_len" \
  -artifact_prefix="$work/artifacts/" -print_final_stats=1 "${dict[@]}" "$@" \
  "$work/corpus" "${seeds[@]}") 2>&1 | tee "$work/fuzz.log" | grep -E '^#[0-9]+[[:space:]]+(INITED|DONE)|ERROR|SUMMARY|^artifact_prefix|Test unit written|stat::'
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ]; then
  echo "fuzz_$target stopped with status $status; see $work/fuzz.log"
  find "$work/artifacts" -type f -newer "$work/.start" | sed 's/^/saved: /'
  echo "reproduce with: $bin ARTIFACT"
fi
exit "$status"
