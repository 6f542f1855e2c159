#!/usr/bin/env bash
# Runs test programs while making one allocation fail (XLAC_FAIL_ALLOC=N:
# the Nth allocation of the process is refused), on both backends, and
# checks that xlac never dies of a signal: a failed allocation must end in
# an error message and exit status 1 (or go unnoticed when it happens after
# the program finished).  Any status above 1 is a failure.
#
#   tests/oom-sweep.sh [--shard I/N] [FILES...]
#                       (default: every program under tests/lit; --shard
#                       takes every Nth of them, starting at the Ith)
#
# Each file is run with a few values of N spread over its allocations
# (from a count taken with the hook off), so that parsing, verification,
# optimization, code generation and execution all get a failure somewhere.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
shard=0 nshards=1
if [ "${1-}" = --shard ]; then
  shard=${2%/*} nshards=${2#*/}
  shift 2
fi
if [ $# -eq 0 ]; then
  mapfile -t files < <(grep -l 'xlac run' -r "$root/tests/lit" --include='*.mlir' --include='*.hlo' |
    xargs grep -L 'XLAC-BACKENDS: interp\|--replicas\|--timeout\|expected-error' | sort)
else
  files=("$@")
fi
fails=0 runs=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xlac-oom.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
for i in "${!files[@]}"; do
  [ $((i % nshards)) -eq "$shard" ] || continue
  f=${files[$i]}
  for backend in interp cpu; do
    # a program that fails by design (a failing check) may exit 1 quietly
    timeout 60 xlac run --split-input-file --backend=$backend --random-inputs "$f" >/dev/null 2>&1
    base=$?
    for n in 1 7 60 400 3000; do
      runs=$((runs + 1))
      # an abandoned operation's memory is not recovered (see OomGuard):
      # LeakSanitizer would report that by design
      ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
      XLAC_FAIL_ALLOC=$n timeout 60 xlac run --split-input-file --backend=$backend --random-inputs "$f" \
        >"$tmp/out" 2>"$tmp/err"
      rc=$?
      if [ "$rc" -gt 1 ]; then
        echo "FAIL $f (backend $backend, XLAC_FAIL_ALLOC=$n): exit status $rc"
        tail -n 5 "$tmp/err" | sed 's/^/    /'
        fails=$((fails + 1))
      elif [ "$rc" -eq 1 ] && [ "$base" -eq 0 ] && ! grep -q 'error' "$tmp/err"; then
        echo "FAIL $f (backend $backend, XLAC_FAIL_ALLOC=$n): exit status 1 without an error message"
        fails=$((fails + 1))
      fi
    done
  done
done
echo "oom-sweep: $runs runs, $fails failed"
[ "$fails" -eq 0 ]
