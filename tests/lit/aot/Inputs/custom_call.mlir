// Two host functions the program linking the object provides: scale_by
// (its backend_config is the factor) and split_sign (two results).
func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %s = stablehlo.custom_call @Sharding(%x) {mhlo.sharding = "{replicated}"} : (tensor<4xf32>) -> tensor<4xf32>
  %y = stablehlo.custom_call @scale_by(%s) {api_version = 2 : i32, backend_config = "2.5"} : (tensor<4xf32>) -> tensor<4xf32>
  %z = stablehlo.add %y, %x : tensor<4xf32>
  %p:2 = stablehlo.custom_call @split_sign(%z) {api_version = 2 : i32} : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  func.return %z, %p#0, %p#1 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
