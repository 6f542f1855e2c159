#!/usr/bin/env bash
# The demo: a small MLP (two dense layers, relu, softmax; weights generated
# with JAX and baked in as constants) run by the reference interpreter on a
# batch of four inputs.  Compare with examples/mlp/expected.txt.
set -eu
cd "$(dirname "$0")/.."
echo "== xlac run examples/mlp/mlp.mlir --input x=@examples/mlp/input.npy"
build/bin/xlac run examples/mlp/mlp.mlir --input x=@examples/mlp/input.npy
echo "== expected (JAX):"
cat examples/mlp/expected.txt
