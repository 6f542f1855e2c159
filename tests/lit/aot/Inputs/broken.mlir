func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %s = stablehlo.add %x, %y : tensor<4xf32>
  return %s : tensor<4xf32>
}
