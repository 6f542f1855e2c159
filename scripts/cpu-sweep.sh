#!/usr/bin/env bash
# Runs every self-checking program of the suite (tests/lit/interp,
# tests/fixtures/jax) on the cpu backend and lists the failures.
#   scripts/cpu-sweep.sh [BUILD_DIR]
set -u
build=${1:-build}
pass=0
fail=0
for f in tests/lit/interp/*.mlir tests/fixtures/jax/*.mlir; do
  grep -qE 'RUN: xlac run (--split-input-file )?%s$' "$f" || continue
  sp=""
  grep -q "split-input-file" "$f" && sp="--split-input-file"
  if out=$(timeout 120 "$build/bin/xlac" run --backend=cpu $sp "$f" 2>&1); then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "$f: $(printf '%s\n' "$out" | grep -m1 -E 'error|failed|Segmentation' | cut -c1-200)"
  fi
done
echo "cpu sweep: $pass passed, $fail failed"
