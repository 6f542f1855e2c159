#!/usr/bin/env bash
# The demo: a small MLP (two dense layers, relu, softmax; weights generated
# with JAX and baked in as constants) on a batch of four inputs, run by the
# reference interpreter, compiled to native code by the CPU backend, and
# compiled ahead of time into an object file that a small C program
# (examples/aot/classify.c) links with nothing but libxlacrt and libm.
# Compare each with examples/mlp/expected.txt.
set -eu
cd "$(dirname "$0")/.."
echo "== reference interpreter: xlac run --backend=interp examples/mlp/mlp.mlir --input x=@examples/mlp/input.npy"
build/bin/xlac run --backend=interp examples/mlp/mlp.mlir --input x=@examples/mlp/input.npy
echo "== compiled (LLVM, fused): xlac run --backend=cpu --verbose ..."
build/bin/xlac run --backend=cpu --verbose examples/mlp/mlp.mlir --input x=@examples/mlp/input.npy
echo "== ahead of time: xlac aot examples/mlp/mlp.mlir -o mlp_model.o --header mlp_model.h --name mlp_model"
out=build/demo-aot
mkdir -p "$out"
build/bin/xlac aot examples/mlp/mlp.mlir -o "$out/mlp_model.o" --header "$out/mlp_model.h" --name mlp_model
flags=$(build/bin/xlac aot --print-link-flags)
echo "== cc examples/aot/classify.c mlp_model.o $flags"
# shellcheck disable=SC2086
cc -std=c11 -O2 -I"$out" -o "$out/classify" examples/aot/classify.c "$out/mlp_model.o" $flags
"$out/classify" examples/mlp/input.npy
echo "== expected (JAX):"
cat examples/mlp/expected.txt
