// RUN: xlac opt --pass expand %s | FileCheck %s
// RUN: xlac compare --random-inputs %s | FileCheck %s --check-prefix=CMP
// Matrix products with a transposed operand stay as they are (the GEMM
// reads it transposed), and a transpose of a product used nowhere else
// becomes the product with its operands (and their precisions) swapped:
// JAX's gradient with respect to a weight, dot_general(g, x, [0] x [0])
// then transpose, is one GEMM writing the transposed result directly.
// CHECK-LABEL: func.func @main
// CHECK-NOT: stablehlo.transpose
// CHECK: "stablehlo.dot_general"(%arg1, %arg0) {{.*}}lhs_contracting_dimensions = {{.*}}0{{.*}}rhs_contracting_dimensions = {{.*}}0{{.*}}precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision HIGHEST>]{{.*}} -> tensor<24x16xf32>
// CHECK: "stablehlo.dot_general"(%arg0, %arg2) {{.*}}lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]{{.*}} -> tensor<8x16xf32>
// CHECK: stablehlo.transpose
// CMP-COUNT-3: max abs error {{(0|[0-9.]+e-(0[6-9]|[1-9][0-9]))}},
func.func @main(%g: tensor<8x16xf32>, %x: tensor<8x24xf32>, %w: tensor<16x16xf32>) -> (tensor<24x16xf32>, tensor<8x16xf32>, tensor<16x16xf32>) {
  %0 = stablehlo.dot_general %g, %x, contracting_dims = [0] x [0], precision = [HIGHEST, DEFAULT] : (tensor<8x16xf32>, tensor<8x24xf32>) -> tensor<16x24xf32>
  %1 = stablehlo.transpose %0, dims = [1, 0] : (tensor<16x24xf32>) -> tensor<24x16xf32>
  %2 = stablehlo.dot_general %g, %w, contracting_dims = [1] x [1] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  // a product with another use keeps its transpose (swapping would compute it twice)
  %3 = stablehlo.dot_general %g, %g, contracting_dims = [0] x [0] : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
  %4 = stablehlo.transpose %3, dims = [1, 0] : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %5 = stablehlo.add %3, %4 : tensor<16x16xf32>
  return %1, %2, %5 : tensor<24x16xf32>, tensor<8x16xf32>, tensor<16x16xf32>
}
