// RUN: xlac run --random-inputs --seed 5 --print-all %s > %t.direct
// RUN: xlac opt --pass chlo-decompose %s | xlac run --random-inputs --seed 5 --print-all - > %t.decomposed
// RUN: diff %t.direct %t.decomposed
// RUN: xlac opt --pass chlo-decompose %s | FileCheck %s
// The structural CHLO ops become StableHLO ops that compute bit-identical
// results: implicit broadcasting, square, conj, the is_inf family, tan,
// constant_like; top_k of 4-bit integers (a stable sort with an iota, then
// slices), while top_k of wider types stays for the code generator.
// CHECK-LABEL: func.func @main
// CHECK-NOT: chlo.{{(broadcast|square|conj|is_|tan|constant)}}
// CHECK: stablehlo.broadcast_in_dim
// CHECK: chlo.top_k
// CHECK: stablehlo.sort
// CHECK: stablehlo.slice
func.func @main(%a: tensor<4x1x3xf32>, %b: tensor<3xf32>, %c: tensor<4xf32>, %p: tensor<2x3xi1>,
                %i: tensor<3x9xi32>, %z: tensor<5xcomplex<f32>>) ->
    (tensor<4x2x3xf32>, tensor<4x1x3xi1>, tensor<4x5xf32>, tensor<2x3xf32>, tensor<3x4xi32>, tensor<3x4xi32>,
     tensor<4x2xf32>, tensor<4x2xi32>, tensor<5xcomplex<f32>>, tensor<5xcomplex<f32>>, tensor<3xi1>, tensor<3xi1>,
     tensor<3xf32>, tensor<3xf32>, tensor<3x9xi32>, tensor<3x2xi4>, tensor<3x2xi32>) {
  %b2 = stablehlo.reshape %b : (tensor<3xf32>) -> tensor<1x3xf32>
  %0 = chlo.broadcast_add %a, %b2 : (tensor<4x1x3xf32>, tensor<1x3xf32>) -> tensor<4x1x3xf32>
  %x = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
  %1 = chlo.broadcast_multiply %0, %x : (tensor<4x1x3xf32>, tensor<2x3xf32>) -> tensor<4x2x3xf32>
  %2 = chlo.broadcast_compare %a, %b {comparison_direction = #chlo<comparison_direction LT>} : (tensor<4x1x3xf32>, tensor<3xf32>) -> tensor<4x1x3xi1>
  %c5 = stablehlo.broadcast_in_dim %c, dims = [0] : (tensor<4xf32>) -> tensor<4x5xf32>
  %3 = chlo.broadcast_subtract %c5, %c {broadcast_dimensions = array<i64: 0>} : (tensor<4x5xf32>, tensor<4xf32>) -> tensor<4x5xf32>
  %4 = chlo.broadcast_select %p, %x, %b : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %v, %vi = chlo.top_k(%i, k = 4) : tensor<3x9xi32> -> (tensor<3x4xi32>, tensor<3x4xi32>)
  %i4 = stablehlo.convert %i : (tensor<3x9xi32>) -> tensor<3x9xi4>
  %n, %ni = chlo.top_k(%i4, k = 2) : tensor<3x9xi4> -> (tensor<3x2xi4>, tensor<3x2xi32>)
  %at = stablehlo.reshape %a : (tensor<4x1x3xf32>) -> tensor<4x3xf32>
  %w, %wi = chlo.top_k(%at, k = 2) : tensor<4x3xf32> -> (tensor<4x2xf32>, tensor<4x2xi32>)
  %5 = chlo.conj %z : tensor<5xcomplex<f32>> -> tensor<5xcomplex<f32>>
  %6 = chlo.square %z : tensor<5xcomplex<f32>> -> tensor<5xcomplex<f32>>
  %inf = stablehlo.constant dense<[0x7F800000, 0xFF800000, 1.0]> : tensor<3xf32>
  %7 = chlo.is_pos_inf %inf : tensor<3xf32> -> tensor<3xi1>
  %8 = chlo.is_inf %inf : tensor<3xf32> -> tensor<3xi1>
  %9 = chlo.tan %b : tensor<3xf32> -> tensor<3xf32>
  %10 = "chlo.constant_like"(%b) {value = 2.5 : f32} : (tensor<3xf32>) -> tensor<3xf32>
  %11 = chlo.square %i : tensor<3x9xi32> -> tensor<3x9xi32>
  return %1, %2, %3, %4, %v, %vi, %w, %wi, %5, %6, %7, %8, %9, %10, %11, %n, %ni :
    tensor<4x2x3xf32>, tensor<4x1x3xi1>, tensor<4x5xf32>, tensor<2x3xf32>, tensor<3x4xi32>, tensor<3x4xi32>,
    tensor<4x2xf32>, tensor<4x2xi32>, tensor<5xcomplex<f32>>, tensor<5xcomplex<f32>>, tensor<3xi1>, tensor<3xi1>,
    tensor<3xf32>, tensor<3xf32>, tensor<3x9xi32>, tensor<3x2xi4>, tensor<3x2xi32>
}
