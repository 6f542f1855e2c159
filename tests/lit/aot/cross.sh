# Cross compilation: objects for aarch64 (--target_triple=aarch64-linux-gnu)
# link with Debian's aarch64 cross gcc against an aarch64 build of
# libxlacrt (XLAC_RUNTIME_ONLY with the toolchain file in cmake/toolchains)
# and run under qemu-user with the reference interpreter's results.
# Skipped, saying so, where the cross tools are missing
# (scripts/install-deps.sh installs gcc-aarch64-linux-gnu, g++-aarch64-linux-gnu
# and qemu-user).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
. "$here/lib.sh"
t=$1
for tool in aarch64-linux-gnu-gcc aarch64-linux-gnu-g++ qemu-aarch64 cmake; do
  if ! command -v $tool >/dev/null; then
    echo "SKIPPED: $tool not found (apt-get install gcc-aarch64-linux-gnu g++-aarch64-linux-gnu qemu-user)"
    exit 0
  fi
done
rm -rf "$t" && mkdir -p "$t"
cd "$t"
cmake -S "$root" -B rt -DXLAC_RUNTIME_ONLY=ON -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_TOOLCHAIN_FILE="$root/cmake/toolchains/aarch64-linux-gnu.cmake" >cmake.log
cmake --build rt -j2 >>cmake.log
export XLACRT_CROSS_LIB=$t/rt/lib/libxlacrt.a
run() { qemu-aarch64 -L /usr/aarch64-linux-gnu "$@"; }

xlac aot "$here/test_graph_tfmatmul.hlo" --target_triple=aarch64-linux-gnu --cpp_class=foo::bar::MatMulComp \
  --gen_name_to_index --gen_program_shape --out_function_object=test_graph_tfmatmul.o --out_header=test_graph_tfmatmul.h
file test_graph_tfmatmul.o | grep -q 'ARM aarch64'
aarch64-linux-gnu-g++ -std=c++11 -O2 -o matmul -I"$root/runtime" "$here/matmul_main.cc" -I. test_graph_tfmatmul.o \
  "$XLACRT_CROSS_LIB" -lm
run ./matmul | grep -qx Success

fixtures=$root/tests/fixtures/jax
for m in mlp_weights_as_constants cnn_weights_as_constants; do
  xlac aot "$fixtures/$m.mlir" --function model --name "$m" --target_triple=aarch64-linux-gnu --out_test="${m}_test.c"
  aarch64-linux-gnu-gcc -std=c11 -O2 -o "${m}_test" -I"$root/runtime" "${m}_test.c" "$m.o" "$XLACRT_CROSS_LIB" -lm
  run "./${m}_test" | tee "$m.out"
  grep -qx "${m}_test: PASSED" "$m.out"
done
check_undefined --cc aarch64-linux-gnu-gcc test_graph_tfmatmul.o mlp_weights_as_constants.o cnn_weights_as_constants.o
echo "cross: ok"
