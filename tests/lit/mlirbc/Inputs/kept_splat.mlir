func.func @main() -> tensor<64x32xf32> {
  %k = stablehlo.constant {xlac.note = "kept"} dense<3.0> : tensor<64x32xf32>
  return %k : tensor<64x32xf32>
}
