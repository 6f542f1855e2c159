// Generic-form ops, typed attributes and a nested region.
module @m {
  func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<i32>) -> tensor<3x2xf32> {
    %0 = "stablehlo.transpose"(%arg0) {permutation = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
    %1 = "stablehlo.constant"() {value = dense<[[1.0, 2.0], [0x7F800000, -0.0], [1e-3, 4.5]]> : tensor<3x2xf32>} : () -> tensor<3x2xf32>
    %2 = "stablehlo.compare"(%0, %1) {comparison_direction = #stablehlo<comparison_direction LT>, compare_type = #stablehlo<comparison_type FLOAT>} : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x2xi1>
    %3 = "stablehlo.select"(%2, %0, %1) : (tensor<3x2xi1>, tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
    %cst = stablehlo.constant dense<0.0> : tensor<f32>
    %4 = "stablehlo.reduce"(%3, %cst) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
    }) {dimensions = array<i64: 1>} : (tensor<3x2xf32>, tensor<f32>) -> tensor<3xf32>
    "func.return"(%3) : (tensor<3x2xf32>) -> ()
  }
}
