// RUN: xlac opt --pass expand %s | FileCheck %s
// RUN: xlac compare --random-inputs %s | FileCheck %s --check-prefix=CMP
// Operands whose contracting dimensions lead (lhs [k.., m..]) or trail
// (rhs [n.., k..]) are reshaped as they are and read transposed by the
// GEMM, with no transpose: a weight's gradient in a training step contracts
// the batch and sequence dimensions that lead the activations.
// CHECK-LABEL: func.func @main
// CHECK-NOT: stablehlo.transpose
// CHECK: stablehlo.reshape"{{.*}} -> tensor<512x32xf32>
// CHECK: stablehlo.reshape"{{.*}} -> tensor<512x16xf32>
// CHECK: "stablehlo.dot_general"{{.*}}lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]{{.*}} -> tensor<32x16xf32>
// CHECK-NOT: stablehlo.transpose
// CHECK: stablehlo.reshape"{{.*}} -> tensor<4x6x6xf32>
// CHECK: stablehlo.reshape"{{.*}} -> tensor<4x5x6xf32>
// CHECK: "stablehlo.dot_general"{{.*}}lhs_batching_dimensions = [0]{{.*}}lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [2]{{.*}} -> tensor<4x6x5xf32>
// CHECK-NOT: stablehlo.transpose
// CHECK: return
// CMP-COUNT-2: max abs error {{(0|[0-9.]+e-(0[6-9]|[1-9][0-9]))}},
func.func @main(%x: tensor<8x64x32xf32>, %dy: tensor<8x64x16xf32>, %a: tensor<4x3x2x6xf32>, %b: tensor<4x5x3x2xf32>) -> (tensor<32x16xf32>, tensor<4x6x5xf32>) {
  %0 = stablehlo.dot_general %x, %dy, contracting_dims = [0, 1] x [0, 1] : (tensor<8x64x32xf32>, tensor<8x64x16xf32>) -> tensor<32x16xf32>
  %1 = stablehlo.dot_general %a, %b, batching_dims = [0] x [0], contracting_dims = [1, 2] x [2, 3] : (tensor<4x3x2x6xf32>, tensor<4x5x3x2xf32>) -> tensor<4x6x5xf32>
  return %0, %1 : tensor<32x16xf32>, tensor<4x6x5xf32>
}
