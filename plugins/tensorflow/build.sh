#!/bin/sh
# Builds libxlac_tf.so (the TensorFlow device library) into OUTDIR against
# the TensorFlow installed for PYTHON (default: python3): its headers give
# register.cc the wheel's own types, and the C++ functions register.cc
# looks up must be in its libraries, else the build stops here and says
# which is missing.
#
#   PYTHON=~/.cache/xlac-tf/bin/python plugins/tensorflow/build.sh build/lib
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: build.sh OUTDIR}
py=${PYTHON:-python3}
CC=${CC:-cc}
CXX=${CXX:-c++}

# where TensorFlow is and which version, without importing it (slow);
# XLAC_TF_DIR and XLAC_TF_VERSION say it instead (setup.py)
if [ -n "${XLAC_TF_DIR:-}" ]; then
  info=$(printf '%s\n%s\n' "$XLAC_TF_DIR" "${XLAC_TF_VERSION:-unknown}")
else
info=$("$py" - <<'EOF'
import importlib.util, importlib.metadata, os
spec = importlib.util.find_spec("tensorflow")
if spec is None or not spec.submodule_search_locations:
    raise SystemExit("error: no tensorflow for this python")
version = None
for dist in ("tensorflow", "tensorflow-cpu", "tf-nightly", "tensorflow-intel"):
    try:
        version = importlib.metadata.version(dist)
        break
    except importlib.metadata.PackageNotFoundError:
        pass
print(list(spec.submodule_search_locations)[0])
print(version or "unknown")
EOF
)
fi
tf=$(echo "$info" | sed -n 1p)
version=$(echo "$info" | sed -n 2p)
inc=$tf/include
[ -f "$inc/tensorflow/compiler/tf2xla/xla_op_registry.h" ] || {
  echo "error: TensorFlow at $tf ships no headers (include/tensorflow/compiler/tf2xla)" >&2
  exit 1
}

# the mangled names register.cc looks up (symbols.txt), in this
# TensorFlow's libraries
syms=$(nm -D --defined-only "$tf/libtensorflow_framework.so.2" "$tf/libtensorflow_cc.so.2" 2>/dev/null | awk '{print $3}')
defs=
while read -r macro name; do
  case $macro in ''|'#'*) continue ;; esac
  if ! echo "$syms" | grep -q "^$name@"; then
    echo "error: TensorFlow $version at $tf does not export $(echo "$name" | c++filt)" >&2
    echo "  (symbols.txt names the functions of the TensorFlow register.cc was written for; docs/tensorflow.md)" >&2
    exit 1
  fi
  defs="$defs -D$macro=\"$name\""
done <"$here/symbols.txt"

mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$CC" -std=c11 -O2 -g -fPIC -fvisibility=hidden -Wall -c "$here/npd.c" -o "$tmp/npd.o"
"$CXX" -std=c++17 -O2 -fPIC -fvisibility=hidden -w -D_GLIBCXX_USE_CXX11_ABI=1 -DXLAC_TF_VERSION="\"$version\"" $defs \
  -I"$inc" -I"$here" -c "$here/register.cc" -o "$tmp/register.o"
printf '{\n  global:\n    TFNPD_InitPlugin;\n    GetPjrtApi;\n  local: *;\n};\n' >"$tmp/exports.map"
"$CXX" -shared -o "$out/libxlac_tf.so" "$tmp/npd.o" "$tmp/register.o" \
  -Wl,--version-script="$tmp/exports.map" -Wl,--no-undefined \
  -L"$tf" -l:libtensorflow_framework.so.2 -l:libtensorflow_cc.so.2 \
  -Wl,-rpath,'$ORIGIN/../tensorflow' -Wl,-rpath,"$tf" -ldl
echo "built $out/libxlac_tf.so against TensorFlow $version ($tf)"
