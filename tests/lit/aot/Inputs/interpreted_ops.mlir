func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %t = stablehlo.create_token : !stablehlo.token
  %r:2 = "stablehlo.infeed"(%t) {infeed_config = ""} : (!stablehlo.token) -> (tensor<4xf32>, !stablehlo.token)
  %o = "stablehlo.outfeed"(%x, %r#1) {outfeed_config = ""} : (tensor<4xf32>, !stablehlo.token) -> !stablehlo.token
  %s = stablehlo.add %x, %r#0 : tensor<4xf32>
  return %s : tensor<4xf32>
}
