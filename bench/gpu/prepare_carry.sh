#!/usr/bin/env bash
# Puts what the GPU machine needs to run xlac's JAX plugin and the xlac
# command on its GPU into .devcarry/ (ignored by git): the PJRT library of
# the build in build/ and the xlac command built with LLVM linked in
# (target xlac-carry), both stripped and xz-compressed (about 13 MB each,
# quick to copy), the shared libraries they need beyond a plain system's,
# and, when STABLEHLO_INTERPRET names openxla/stablehlo's
# stablehlo/tests/interpret folder, its files (StableHLO's interpreter
# suite).  Then bench/gpu/device_check.sh runs there with .devcarry
# carried along.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
lib=build/lib/libxlac_pjrt.so
[ -f "$lib" ] || { echo "error: $lib not built (make)" >&2; exit 1; }
grep -qx '/.devcarry/' .git/info/exclude 2>/dev/null || echo '/.devcarry/' >>.git/info/exclude
rm -rf .devcarry && mkdir -p .devcarry
strip --strip-unneeded -o .devcarry/libxlac_pjrt.so "$lib"
xz -T0 -6 .devcarry/libxlac_pjrt.so
cmake --build build --target xlac-carry >/dev/null
strip --strip-unneeded -o .devcarry/xlac build/bin/xlac-carry
xz -T0 -6 .devcarry/xlac
if [ -n "${STABLEHLO_INTERPRET:-}" ]; then
  tar -C "$STABLEHLO_INTERPRET" -cJf .devcarry/interpret.tar.xz .
fi
for dep in libprotobuf-c.so.1 libzstd.so.1; do
  p=$(ldd "$lib" | awk -v d="$dep" '$1 == d { print $3 }')
  [ -n "$p" ] && cp -L "$p" .devcarry/
done
du -sh .devcarry
