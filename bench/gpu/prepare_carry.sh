#!/usr/bin/env bash
# Puts what the GPU machine needs to run xlac's JAX plugin on its GPU into
# .devcarry/ (ignored by git): the PJRT library of the build in build/
# (its LLVM is linked in privately), stripped and xz-compressed (about 13
# MB, quick to copy), and the shared libraries it needs beyond a plain
# system's.  Then bench/gpu/device_check.sh runs
# there with .devcarry carried along.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
lib=build/lib/libxlac_pjrt.so
[ -f "$lib" ] || { echo "error: $lib not built (make)" >&2; exit 1; }
grep -qx '/.devcarry/' .git/info/exclude 2>/dev/null || echo '/.devcarry/' >>.git/info/exclude
rm -rf .devcarry && mkdir -p .devcarry
strip --strip-unneeded -o .devcarry/libxlac_pjrt.so "$lib"
xz -T0 -6 .devcarry/libxlac_pjrt.so
for dep in libprotobuf-c.so.1 libzstd.so.1; do
  p=$(ldd "$lib" | awk -v d="$dep" '$1 == d { print $3 }')
  [ -n "$p" ] && cp -L "$p" .devcarry/
done
du -sh .devcarry
