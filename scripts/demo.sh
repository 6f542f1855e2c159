#!/usr/bin/env bash
# The demo: a small MLP (two dense layers, relu, softmax; weights generated
# with JAX and baked in as constants) on a batch of four inputs, run by the
# reference interpreter and compiled to native code by the CPU backend.
# Compare both with examples/mlp/expected.txt.
set -eu
cd "$(dirname "$0")/.."
echo "== reference interpreter: xlac run --backend=interp examples/mlp/mlp.mlir --input x=@examples/mlp/input.npy"
build/bin/xlac run --backend=interp examples/mlp/mlp.mlir --input x=@examples/mlp/input.npy
echo "== compiled (LLVM, fused): xlac run --backend=cpu --verbose ..."
build/bin/xlac run --backend=cpu --verbose examples/mlp/mlp.mlir --input x=@examples/mlp/input.npy
echo "== expected (JAX):"
cat examples/mlp/expected.txt
