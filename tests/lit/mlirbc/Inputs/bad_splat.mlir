func.func @main() -> tensor<64x32xf32> {
  %k = "stablehlo.constant"() {value = dense<3.0> : tensor<f32>} : () -> tensor<64x32xf32>
  return %k : tensor<64x32xf32>
}
