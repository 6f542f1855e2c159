// The epilogue of a product whose result has more than two dimensions (a
// 1x1 convolution under EfficientNet's batch norm and swish) reads inputs
// of the result's shape, the product in place among them, at the row's
// linear index: the vectorizer then sees the product read and the store at
// one address, so no run-time overlap check (LLVM's "diff.check", which the
// read at an index rebuilt from coordinates always failed, sending every
// row to the scalar loop) remains in the convolution's module.  Results
// against the interpreter.
// RUN: xlac compare --random-inputs --split-input-file %s | FileCheck %s
// CHECK-COUNT-2: max abs error {{(0|[0-9.]+e-(0[5-9]|[1-9][0-9]))}},
// RUN: rm -rf %t && mkdir -p %t && xlac run --backend=cpu --random-inputs --xla_dump_to=%t %s --split-input-file > /dev/null
// RUN: cat %t/module_0000.*ir-with-opt.ll | FileCheck %s --check-prefix=IR
// IR: define void @xlac_entry
// IR-NOT: diff.check
// IR: store <{{[0-9]+}} x float>
// IR-NOT: diff.check

func.func @main(%x: tensor<2x7x7x40xf32>, %k: tensor<1x1x40x48xf32>, %s: tensor<48xf32>, %b: tensor<48xf32>) -> tensor<2x7x7x48xf32> {
  %y = stablehlo.convolution(%x, %k) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x7x7x40xf32>, tensor<1x1x40x48xf32>) -> tensor<2x7x7x48xf32>
  %sb = stablehlo.broadcast_in_dim %s, dims = [3] : (tensor<48xf32>) -> tensor<2x7x7x48xf32>
  %bb = stablehlo.broadcast_in_dim %b, dims = [3] : (tensor<48xf32>) -> tensor<2x7x7x48xf32>
  %m = stablehlo.multiply %y, %sb : tensor<2x7x7x48xf32>
  %a = stablehlo.add %m, %bb : tensor<2x7x7x48xf32>
  %l = stablehlo.logistic %a : tensor<2x7x7x48xf32>
  %r = stablehlo.multiply %a, %l : tensor<2x7x7x48xf32>
  return %r : tensor<2x7x7x48xf32>
}

// -----

// a batched product (attention's scores) with a residual of its shape
func.func @main(%q: tensor<2x3x16x32xf32>, %kk: tensor<2x3x32x16xf32>, %res: tensor<2x3x16x16xf32>) -> tensor<2x3x16x16xf32> {
  %d = stablehlo.dot_general %q, %kk, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<2x3x16x32xf32>, tensor<2x3x32x16xf32>) -> tensor<2x3x16x16xf32>
  %t = stablehlo.tanh %d : tensor<2x3x16x16xf32>
  %r = stablehlo.add %t, %res : tensor<2x3x16x16xf32>
  return %r : tensor<2x3x16x16xf32>
}
