#!/usr/bin/env bash
# install.sh TMP: see install.test.  Reaches the build directory through
# the xlac command on PATH (BUILD/bin/xlac); works in TMP.
set -u
root=$(cd "$(dirname "$0")/../../.." && pwd)
build=$(cd "$(dirname "$(command -v xlac)")/.." && pwd)
tmp=$1
if [ ! -e "$build/lib/libxlac.so" ]; then
  echo "$build has no shared libraries: nothing to check"
  exit 0
fi
rm -rf "$tmp" && mkdir -p "$tmp" || exit 1
prefix=$tmp/prefix
expected='alpha * x + y = [13.64, 26.78, 39.92, 53.06]'

# step NAME CMD...: runs CMD with its output in TMP/NAME.log, shown on failure
step() {
  local name=$1
  shift
  if ! "$@" >"$tmp/$name.log" 2>&1; then
    echo "FAILED: $name: $*"
    cat "$tmp/$name.log"
    exit 1
  fi
}

step install cmake --install "$build" --prefix "$prefix"
pc=$(find "$prefix" -name xlac.pc -print -quit)
[ -n "$pc" ] || { echo "FAILED: no xlac.pc under $prefix"; exit 1; }
libdir=$(cd "$(dirname "$pc")/.." && pwd)
for f in bin/xlac include/xlac/xlac.h include/xlac/builder.h include/xlacrt.h \
         "${libdir#"$prefix"/}"/{libxlac.so,libxlac.a,libxlacrt.so,libxlacrt.a} \
         "${libdir#"$prefix"/}"/cmake/xlac/{xlacConfig.cmake,xlacConfigVersion.cmake} \
         "${libdir#"$prefix"/}"/pkgconfig/xlacrt.pc; do
  [ -e "$prefix/$f" ] || { echo "FAILED: $f was not installed"; exit 1; }
done
step version "$prefix/bin/xlac" --version
# The shared libraries' targets ask nothing of LLVM's from their users
# (no headers, no link items).
if grep -i 'INTERFACE_.*llvm' "$libdir"/cmake/xlac/xlacSharedTargets*.cmake; then
  echo "FAILED: the shared libraries' CMake targets need LLVM"
  exit 1
fi

# 1. the examples, built with CMake against the installed package
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
step configure cmake -S "$root/examples" -B "$tmp/examples" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix"
step build cmake --build "$tmp/examples"
step axpy-cmake "$tmp/examples/example-axpy" "$root/examples/axpy/axpy.mlir"
grep -qF "$expected" "$tmp/axpy-cmake.log" || { echo "FAILED: example-axpy printed:"; cat "$tmp/axpy-cmake.log"; exit 1; }

# 2. examples/axpy/main.c compiled with pkg-config's flags
export PKG_CONFIG_PATH=$libdir/pkgconfig
step pkg-config pkg-config --cflags --libs xlac
# shellcheck disable=SC2046
step cc "${CC:-cc}" -std=c11 -Wall -o "$tmp/axpy" "$root/examples/axpy/main.c" $(pkg-config --cflags --libs xlac)
step axpy-pkg-config env LD_LIBRARY_PATH="$libdir" "$tmp/axpy" "$root/examples/axpy/axpy.mlir"
grep -qF "$expected" "$tmp/axpy-pkg-config.log" || { echo "FAILED: axpy printed:"; cat "$tmp/axpy-pkg-config.log"; exit 1; }
# 3. ahead-of-time compilation with the installed package: the CMake
#    function (examples/CMakeLists.txt built example-aot and the generated
#    test above) and the Makefile snippet, whose link flags come from the
#    installed xlac and point into the prefix
step aot-cmake "$tmp/examples/example-aot" "$root/examples/mlp/input.npy"
grep -q 'argmax 3$' "$tmp/aot-cmake.log" || { echo "FAILED: example-aot printed:"; cat "$tmp/aot-cmake.log"; exit 1; }
step aot-test "$tmp/examples/mlp_model_test"
step link-flags "$prefix/bin/xlac" aot --print-link-flags
grep -q "^-I$prefix/include $libdir/libxlacrt.a -lm\$" "$tmp/link-flags.log" ||
  { echo "FAILED: link flags:"; cat "$tmp/link-flags.log"; exit 1; }
mkdir -p "$tmp/make"
cp "$root/examples/mlp/mlp.mlir" "$tmp/make/mlp_model.mlir"
cp "$root/examples/aot/classify.c" "$tmp/make/"
printf 'include %s/cmake/xlac/xlac_aot.mk\nclassify: classify.o mlp_model.o\n\t$(CC) -o $@ $^ $(XLAC_LINK_FLAGS)\nclassify.o: mlp_model.h\n' \
  "$libdir" >"$tmp/make/Makefile"
step make make -C "$tmp/make"
step aot-make "$tmp/make/classify" "$root/examples/mlp/input.npy"
grep -q 'argmax 3$' "$tmp/aot-make.log" || { echo "FAILED: classify printed:"; cat "$tmp/aot-make.log"; exit 1; }
echo "installed, built and ran: $expected"
