// RUN: xlac run --split-input-file %s

func.func @map_two_inputs() {
  %a = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %b = stablehlo.constant dense<[[10.0, 20.0], [30.0, 40.0]]> : tensor<2x2xf32>
  %r = "stablehlo.map"(%a, %b) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %m = stablehlo.multiply %x, %y : tensor<f32>
    %s = stablehlo.subtract %m, %x : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {dimensions = array<i64: 0, 1>} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  check.expect_eq_const %r, dense<[[9.0, 38.0], [87.0, 156.0]]> : tensor<2x2xf32>
  func.return
}

// -----

// The result element type may differ from the inputs'.
func.func @map_to_bool_and_empty() {
  %a = stablehlo.constant dense<[1, -2, 3]> : tensor<3xi32>
  %r = "stablehlo.map"(%a) ({
  ^bb0(%x: tensor<i32>):
    %z = stablehlo.constant dense<0> : tensor<i32>
    %p = stablehlo.compare GT, %x, %z : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }) {dimensions = array<i64: 0>} : (tensor<3xi32>) -> tensor<3xi1>
  check.expect_eq_const %r, dense<[true, false, true]> : tensor<3xi1>
  %e = stablehlo.constant dense<> : tensor<0xi32>
  %s = "stablehlo.map"(%e) ({
  ^bb0(%x: tensor<i32>):
    stablehlo.return %x : tensor<i32>
  }) {dimensions = array<i64: 0>} : (tensor<0xi32>) -> tensor<0xi32>
  check.expect_eq_const %s, dense<> : tensor<0xi32>
  func.return
}
