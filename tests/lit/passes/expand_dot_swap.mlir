// RUN: xlac opt --pass expand %s | FileCheck %s
// RUN: xlac compare --random-inputs %s | FileCheck %s --check-prefix=CMP
// A transpose of a product used nowhere else that puts an lhs free
// dimension innermost: the product is computed with its operands swapped
// and the transpose left keeps the innermost dimension (attention's dK^T
// moved back to [batch, seq, heads, dim]); a transpose that keeps the rhs
// dimension innermost is left alone.
// CHECK-LABEL: func.func @main
// CHECK: "stablehlo.dot_general"{{.*}} : (tensor<32x64x64xf32>, tensor<32x32x64xf32>) -> tensor<32x64x32xf32>
// CHECK-NOT: stablehlo.transpose
// CHECK: stablehlo.transpose"{{.*}}permutation = array<i64: 0, 2, 1, 3>{{.*}} -> tensor<8x64x4x32xf32>
// CHECK: "stablehlo.dot_general"{{.*}} : (tensor<32x32x64xf32>, tensor<32x64x64xf32>) -> tensor<32x32x64xf32>
// CHECK: stablehlo.transpose"{{.*}}permutation = array<i64: 0, 2, 1, 3>{{.*}} -> tensor<8x32x4x64xf32>
// CMP-COUNT-2: max abs error {{(0|[0-9.]+e-(0[6-9]|[1-9][0-9]))}},
func.func @main(%g: tensor<8x4x32x64xf32>, %p: tensor<8x4x64x64xf32>) -> (tensor<8x64x4x32xf32>, tensor<8x32x4x64xf32>) {
  %d = stablehlo.dot_general %g, %p, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<8x4x32x64xf32>, tensor<8x4x64x64xf32>) -> tensor<8x4x32x64xf32>
  %t = stablehlo.transpose %d, dims = [0, 3, 1, 2] : (tensor<8x4x32x64xf32>) -> tensor<8x64x4x32xf32>
  %e = stablehlo.dot_general %g, %p, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2] : (tensor<8x4x32x64xf32>, tensor<8x4x64x64xf32>) -> tensor<8x4x32x64xf32>
  %u = stablehlo.transpose %e, dims = [0, 2, 1, 3] : (tensor<8x4x32x64xf32>) -> tensor<8x32x4x64xf32>
  return %t, %u : tensor<8x64x4x32xf32>, tensor<8x32x4x64xf32>
}
