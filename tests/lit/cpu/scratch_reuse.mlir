// The CPU backend's scratch (packed convolution kernels, widened operands,
// products inside fusions) lies past the buffers in the temp arena, and the
// top-level ops, which run one after another, reuse it: two convolutions
// with kernels packed at run time take one packed kernel's scratch, not
// two.  The arena is the buffers' peak (the buffer assignment's dump) plus
// the largest scratch of one op, whatever the packed size on this host.
// XLAC-BACKENDS: interp
// RUN: rm -rf %t && mkdir -p %t
// RUN: for e in one two; do \
// RUN:   xlac run --backend=cpu --verbose --random-inputs --entry $e %s --xla_dump_to=%t/$e 2>%t/$e.log >/dev/null || exit 1; \
// RUN:   grep 'peak temp bytes' %t/$e/*buffer-assignment.txt && grep 'temp bytes' %t/$e.log || exit 1; \
// RUN: done | FileCheck %s
// CHECK: peak temp bytes: [[#P1:]]
// CHECK-NEXT: cpu: {{.*}}, [[#T1:]] temp bytes
// CHECK-NEXT: peak temp bytes: [[#P2:]]
// CHECK-NEXT: cpu: {{.*}}, [[#P2 + T1 - P1]] temp bytes
// And the values are the interpreter's.
// RUN: for e in one two; do \
// RUN:   xlac run --backend=interp --random-inputs --seed 2 --entry $e %s --output-dir %t/want-$e >/dev/null || exit 1; \
// RUN:   xlac run --backend=cpu --random-inputs --seed 2 --entry $e %s --expect 0=@%t/want-$e/result0.npy --atol 1e-5 --rtol 1e-5 || exit 1; \
// RUN: done | FileCheck %s --check-prefix=SAME
// SAME-COUNT-2: expect result[0]: ok
func.func @one(%x: tensor<1x8x8x4xf32>, %k1: tensor<3x3x4x4xf32>) -> tensor<1x8x8x4xf32> {
  %a = stablehlo.convolution(%x, %k1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x4xf32>) -> tensor<1x8x8x4xf32>
  %r = stablehlo.tanh %a : tensor<1x8x8x4xf32>
  return %r : tensor<1x8x8x4xf32>
}
func.func @two(%x: tensor<1x8x8x4xf32>, %k1: tensor<3x3x4x4xf32>, %k2: tensor<3x3x4x4xf32>) -> tensor<1x8x8x4xf32> {
  %a = stablehlo.convolution(%x, %k1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x4xf32>) -> tensor<1x8x8x4xf32>
  %h = stablehlo.tanh %a : tensor<1x8x8x4xf32>
  %b = stablehlo.convolution(%h, %k2) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x4xf32>, tensor<3x3x4x4xf32>) -> tensor<1x8x8x4xf32>
  %r = stablehlo.tanh %b : tensor<1x8x8x4xf32>
  return %r : tensor<1x8x8x4xf32>
}
