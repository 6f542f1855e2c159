#!/usr/bin/env bash
# Runs the whole test suite against a build directory (default: build).
#
#   tests/run-tests.sh [BUILD_DIR] [FILTER]   (FILTER: part of the path under the repository)
#
# 1. Unit tests: every executable BUILD_DIR/tests/test_*.
# 2. File tests: every file (.mlir, .hlo, .txt, .test, .pbtxt) under tests/lit, tests/fixtures and examples that
#    carries `RUN:` lines.  Each RUN line is a bash command run with pipefail
#    after substituting %s (the file), %S (its directory), %t (a temp path
#    unique to the test); `xlac`, `FileCheck` and `not` are on PATH.  A test
#    passes when every RUN line exits 0.
#    File tests run with the interpreter as `xlac run`'s default backend
#    (XLAC_BACKEND=interp).
# 3. The same file tests again with the cpu backend as the default
#    (XLAC_BACKEND=cpu), for files that run programs: every interpreter test
#    must also pass compiled.  A file marked `XLAC-BACKENDS: interp` (runtime
#    error tests: the optimizer may legitimately delete the failing dead op)
#    runs on the interpreter only; one marked `XLAC-BACKENDS: gpu` (it picks
#    its backend itself, --backend=gpu) runs once.
# 4. Files marked `XLAC-SIMT: ORDER...` (GPU tests whose commands run
#    through tests/lit/gpu/Inputs/sim.sh) again on the SIMT harness, once per
#    thread order named (forward, reverse, random): XLAC_TEST_GPU=simt:ORDER.
#    Those also marked `XLAC-SIMT-ONLY` run in these passes only.
# Each RUN line may take 300 s; a file marked `XLAC-TIMEOUT: SECONDS` (a
# long test, e.g. training real models on the SIMT harness) gives its
# lines that long instead.  A timed-out line fails the test, saying so.
# A RUN line (or a unit test) that exits with status 77 skips the test
# (what it needs is missing: the GPU simulator, or a CPU feature, say); its
# last output line is the reason.
# Skipped tests are listed and counted, never as passed.
# Prints one line per failure or skip, the CPU paths exercised (`xlac
# --version --verbose`'s paths line), then "N passed, N failed[, N skipped]";
# exits 1 on failure.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}
filter=${2:-}
case "$build" in /*) ;; *) build="$root/$build" ;; esac
if [ ! -x "$build/bin/xlac" ]; then
  echo "error: $build/bin/xlac not found; build first (make)" >&2
  exit 1
fi
llvm_bin=$(llvm-config-19 --bindir 2>/dev/null || echo /usr/lib/llvm-19/bin)
export PATH="$build/bin:$llvm_bin:$PATH"
command -v FileCheck >/dev/null || { echo "error: FileCheck not found (apt-get install llvm-19-tools)" >&2; exit 1; }
jobs=${XLAC_TEST_JOBS:-$(nproc 2>/dev/null || echo 2)}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xlac-tests.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# ---- one file test; prints PASS/FAIL line ----
run_file_test() {
  local file=$1 tmp=$2 backend=${3:-}
  local rel=${file#"$root"/}
  local id
  id=$backend$(printf '%s' "$rel" | tr '/.' '__')
  unset XLAC_TEST_GPU
  if [[ "$backend" == simt:* ]]; then
    export XLAC_BACKEND=interp XLAC_TEST_GPU=$backend
    rel="$backend:$rel"
  elif grep -q 'XLAC-SIMT-ONLY' "$file"; then
    return 0
  elif [ -n "$backend" ]; then
    grep -q 'xlac run' "$file" && ! grep -q 'XLAC-BACKENDS: \(interp\|gpu\)' "$file" || return 0
    export XLAC_BACKEND=$backend
    rel="$backend:$rel"
  else
    export XLAC_BACKEND=interp
  fi
  local t="$tmp/$id"
  local log="$tmp/$id.log"
  local dir
  dir=$(dirname "$file")
  local n=0 cmd="" line limit
  limit=$(sed -n 's/.*XLAC-TIMEOUT: *\([0-9][0-9]*\).*/\1/p' "$file" | head -n 1)
  limit=${limit:-300}
  : >"$log"
  while IFS= read -r line; do
    line=${line#*RUN:}
    line=${line# }
    if [[ "$line" == *'\' ]]; then
      cmd+="${line%\\} "
      continue
    fi
    cmd+="$line"
    cmd=${cmd//%s/$file}
    cmd=${cmd//%S/$dir}
    cmd=${cmd//%t/$t}
    n=$((n + 1))
    echo "RUN: $cmd" >>"$log"
    local rc=0
    (cd "$root" && timeout "$limit" bash -o pipefail -c "$cmd") >>"$log" 2>&1 || rc=$?
    [ "$rc" -eq 124 ] && echo "(timed out after $limit s)" >>"$log"
    if [ "$rc" -eq 77 ]; then
      echo "SKIPPED $rel: $(grep -v '^RUN: ' "$log" | tail -n 1)"
      return 0
    fi
    if [ "$rc" -ne 0 ]; then
      echo "FAIL $rel"
      sed 's/^/    /' "$log" | tail -n 40
      return 0
    fi
    cmd=""
  done < <(grep -E '^[[:space:]]*(//|#|;)[[:space:]]*RUN:' "$file")
  if [ "$n" -eq 0 ]; then
    echo "SKIP $rel"
  else
    echo "PASS $rel"
  fi
}
export -f run_file_test
export root

results="$tmp/results"
: >"$results"

# unit tests
for exe in "$build"/tests/test_*; do
  [ -x "$exe" ] || continue
  name=$(basename "$exe")
  [ -n "$filter" ] && [[ "$name" != *"$filter"* ]] && continue
  rc=0
  (cd "$root" && timeout 300 "$exe") >"$tmp/$name.log" 2>&1 || rc=$?
  if [ "$rc" -eq 0 ]; then
    echo "PASS unit/$name" >>"$results"
  elif [ "$rc" -eq 77 ]; then
    # what it needs is missing (a CPU feature, say): its last line says what
    echo "SKIPPED unit/$name: $(tail -n 1 "$tmp/$name.log")" >>"$results"
  else
    { echo "FAIL unit/$name"; sed 's/^/    /' "$tmp/$name.log" | tail -n 40; } >>"$results"
  fi
done

# file tests
find "$root/tests/lit" "$root/tests/fixtures" "$root/examples" -type f \
  \( -name '*.mlir' -o -name '*.hlo' -o -name '*.txt' -o -name '*.test' -o -name '*.pbtxt' \) 2>/dev/null |
  sort | { if [ -n "$filter" ]; then awk -v r="$root/" -v f="$filter" 'index(substr($0, length(r) + 1), f)'; else cat; fi; } |
  xargs -r -P "$jobs" -I{} bash -c 'run_file_test "$1" "$2"; run_file_test "$1" "$2" cpu
    for o in $(grep -m1 -o "XLAC-SIMT:.*" "$1" | cut -d: -f2-); do run_file_test "$1" "$2" "simt:$o"; done' _ {} "$tmp" >>"$results"

grep -v '^PASS\|^SKIP ' "$results"
# which CPU paths this run exercised (tests that need a feature skip
# without it): the host's deciding features and the kernels chosen
"$build/bin/xlac" --version --verbose | grep '^paths:' || true
# the failures again, last, so a log's tail names them
grep '^FAIL' "$results" || true
pass=$(grep -c '^PASS' "$results")
fail=$(grep -c '^FAIL' "$results")
skipped=$(grep -c '^SKIPPED' "$results")
if [ "$skipped" -gt 0 ]; then
  echo "$pass passed, $fail failed, $skipped skipped"
else
  echo "$pass passed, $fail failed"
fi
[ "$fail" -eq 0 ]
