#!/usr/bin/env bash
# Checks plugins/jax/pjrt/pjrt_api.h against the PJRT C API's own header:
# the offset and size of every field we declare and the place of every
# entry of the function table must be the same.  Run by hand (not in the
# test suite: it needs the header from outside):
#
#   plugins/jax/check_abi.sh [path/to/pjrt_c_api.h]
#
# Without a path the header is taken from a TensorFlow wheel (which ships
# XLA's headers), downloaded from PyPI into a temporary directory.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
ours=$here/pjrt/pjrt_api.h
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xlac-abi.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
header=${1:-}
if [ -z "$header" ]; then
  echo "check_abi: downloading a TensorFlow wheel for XLA's pjrt_c_api.h"
  python3 -m pip download --quiet --no-deps --only-binary :all: -d "$tmp/wheel" "${TF_WHEEL:-tensorflow-cpu}"
  whl=$(ls "$tmp"/wheel/*.whl | head -n 1)
  mkdir -p "$tmp/xla/pjrt/c"
  python3 - "$whl" "$tmp/xla/pjrt/c" <<'PY'
import os, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
for n in z.namelist():
    if "/xla/pjrt/c/pjrt_c_api" in n and n.endswith(".h") and n.startswith("tensorflow/include/xla/"):
        open(os.path.join(sys.argv[2], os.path.basename(n)), "wb").write(z.read(n))
    # the profiler extension's second table (its header includes this one)
    if n == "tensorflow/include/xla/backends/profiler/plugin/profiler_c_api.h":
        d = os.path.join(sys.argv[2], "..", "..", "backends", "profiler", "plugin")
        os.makedirs(d, exist_ok=True)
        open(os.path.join(d, os.path.basename(n)), "wb").write(z.read(n))
PY
  header=$tmp/xla/pjrt/c/pjrt_c_api.h
fi
theirs_minor=$(sed -n 's/^#define PJRT_API_MINOR \([0-9]*\).*/\1/p' "$header")
ours_minor=$(sed -n 's/^#define XLAC_PJRT_API_MINOR \([0-9]*\).*/\1/p' "$ours")
echo "check_abi: our declarations are of API 0.$ours_minor, the header is 0.$theirs_minor"

# (struct, field) pairs of every struct we declare, and the table's entries
python3 - "$ours" >"$tmp/fields.txt" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
text = re.sub(r'/\*.*?\*/', '', text, flags=re.S)
text = text.replace('PJRT_HEAD;', 'size_t struct_size; PJRT_Extension_Base *extension_start;')
for m in re.finditer(r'typedef struct (\w+) \{(.*?)\} \1;', text, re.S):
    name, body = m.group(1), m.group(2)
    body = re.sub(r'union \{(.*?)\};', r'\1', body, flags=re.S)
    for decl in body.split(';'):
        decl = decl.strip()
        if not decl:
            continue
        f = re.search(r'PJRT_FN\((\w+)\)', decl) or re.search(r'\(\*(\w+)\)\s*\(', decl) or re.search(r'(\w+)(\[\d+\])?$', decl)
        print(name, f.group(1))
PY
# the extensions' structs are checked against their headers beside the
# main one when those exist (an older header has not all of them)
hdir=$(dirname "$header")
includes=("$header")
for h in "$hdir"/pjrt_c_api_*_extension.h "$hdir"/../../backends/profiler/plugin/profiler_c_api.h; do
  [ -f "$h" ] && includes+=("$h")
done
cat "${includes[@]}" >"$tmp/all.h"
: >"$tmp/checked.txt"
while read -r s f; do
  if grep -q "struct $s\b\|} $s;" "$tmp/all.h"; then echo "$s $f" >>"$tmp/checked.txt"
  else echo "$s" >>"$tmp/unchecked.txt"; fi
done <"$tmp/fields.txt"
mv "$tmp/checked.txt" "$tmp/fields.txt"
if [ -f "$tmp/unchecked.txt" ]; then
  echo "check_abi: not in the header, so not checked: $(sort -u "$tmp/unchecked.txt" | tr '\n' ' ')"
fi
gen() { # $1: header to include (ours), or "theirs"
  echo "#include <stdio.h>"
  echo "#include <stddef.h>"
  if [ "$1" = theirs ]; then
    for h in "${includes[@]}"; do echo "#include \"$h\""; done
  else
    echo "#include \"$1\""
  fi
  echo "int main(void) {"
  while read -r s f; do
    echo "  printf(\"%s.%s %zu %zu\\n\", \"$s\", \"$f\", offsetof($s, $f), sizeof(((const $s *)0)->$f));"
  done <"$tmp/fields.txt"
  echo "  return 0;"
  echo "}"
}
gen "$ours" >"$tmp/ours.c"
gen theirs >"$tmp/theirs.c"
cc -std=gnu11 -w -o "$tmp/ours" "$tmp/ours.c"
if ! cc -std=gnu11 -w -I"$hdir/../../.." -o "$tmp/theirs" "$tmp/theirs.c" 2>"$tmp/err"; then
  echo "check_abi: a declared name is missing from the header:" >&2
  grep error "$tmp/err" | head -n 20 >&2
  exit 1
fi
"$tmp/ours" >"$tmp/ours.txt"
"$tmp/theirs" >"$tmp/theirs.txt"
n=$(wc -l <"$tmp/ours.txt")
if diff "$tmp/theirs.txt" "$tmp/ours.txt" >"$tmp/diff"; then
  echo "check_abi: $n fields and table entries agree"
else
  echo "check_abi: layouts differ (< the header, > ours):" >&2
  cat "$tmp/diff" >&2
  exit 1
fi
