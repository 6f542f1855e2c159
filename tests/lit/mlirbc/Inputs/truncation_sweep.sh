#!/usr/bin/env bash
# truncation_sweep.sh FIXTURES TMP: cuts each artifact under FIXTURES at
# every 97th byte and checks what `xlac print` says of each piece.  A
# jax.export file holds the artifact in its middle: a piece that still
# holds all of it may read, and must then print as the whole file does.
set -u
fixtures=$1
tmp=$2
mkdir -p "$tmp"
piece="$tmp/piece.mlirbc"
bad=0
count=0
for f in "$fixtures"/*/*.mlirbc "$fixtures"/*/exported.bin; do
  size=$(wc -c <"$f")
  xlac print "$f" >"$tmp/whole" 2>/dev/null
  for ((n = 0; n < size; n += 97)); do
    head -c "$n" "$f" >"$piece"
    xlac print "$piece" >"$tmp/out" 2>"$tmp/err"
    status=$?
    count=$((count + 1))
    [ "$status" -eq 0 ] && cmp -s "$tmp/out" "$tmp/whole" && continue
    if [ "$status" -ne 1 ] || ! grep -q "^$piece:[0-9]*: error: " "$tmp/err"; then
      echo "$f cut at $n: exit status $status"
      head -3 "$tmp/err"
      bad=$((bad + 1))
    fi
  done
done
echo "$count pieces, $bad bad"
[ "$bad" -eq 0 ]
