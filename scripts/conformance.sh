#!/usr/bin/env bash
# Runs StableHLO's public interpreter test suite (stablehlo/tests/interpret in
# the openxla/stablehlo repository; not part of this repository) through
# `xlac run` and counts passing cases.  A case is one `// -----` chunk.
#
#   scripts/conformance.sh DIR [BACKEND] [BUILD_DIR]
#
# Each chunk is run on its own (padded with blank lines so diagnostics keep
# the original line numbers), with the inputs the file's RUN line gives
# (--args); it passes when `xlac run` exits 0.
set -u
dir=${1:?usage: conformance.sh DIR [BACKEND] [BUILD_DIR]}
backend=${2:-interp}
build=${3:-build}
xlac="$build/bin/xlac"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xlac-conf.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
failed_list="$tmp/failed"
: >"$failed_list"
for f in $(find "$dir" -name '*.mlir' | sort); do
  name=${f#"$dir"/}
  # split into chunks, blanking the lines of other chunks
  awk -v out="$tmp/chunk" '
    { lines[NR] = $0 }
    /^\/\/ -----/ { starts[++n] = NR }
    END {
      b = 1
      for (k = 1; k <= n + 1; k++) {
        e = (k <= n) ? starts[k] - 1 : NR
        file = out "." k
        for (i = 1; i <= NR; i++) print ((i >= b && i <= e) ? lines[i] : "") > file
        close(file)
        b = e + 2
      }
      print n + 1 > (out ".count")
    }' "$f"
  count=$(cat "$tmp/chunk.count")
  # inputs the file's first RUN line passes to the translator (--args="[...]")
  args=$(grep -m1 'RUN:' "$f" | grep -o -- '--args="[^"]*"' | sed 's/^--args="//; s/"$//')
  extra=()
  [ -n "$args" ] && extra=(--args="$args")
  for k in $(seq 1 "$count"); do
    c="$tmp/chunk.$k"
    # a chunk's first non-blank line names it in the failure list
    firstline=$(grep -n -m1 '[^[:space:]]' "$c" | cut -d: -f1)
    if timeout 60 "$xlac" run --backend="$backend" --split-input-file --probe-dir "$tmp" "${extra[@]}" "$c" >"$tmp/out" 2>&1; then
      pass=$((pass + 1))
    else
      fail=$((fail + 1))
      echo "$name:$firstline: $(grep -m1 -E 'error|failed' "$tmp/out" | cut -c1-200)" >>"$failed_list"
    fi
  done
done
cat "$failed_list"
echo "conformance ($backend): $pass of $((pass + fail)) cases passed"
