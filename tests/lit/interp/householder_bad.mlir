// (householder.mlir runs this: a Qr of integers is refused)
func.func @main(%a: tensor<4x3xi32>) -> (tensor<4x3xi32>, tensor<3xi32>) {
  %r:2 = stablehlo.custom_call @Qr(%a) {api_version = 1 : i32} : (tensor<4x3xi32>) -> (tensor<4x3xi32>, tensor<3xi32>)
  func.return %r#0, %r#1 : tensor<4x3xi32>, tensor<3xi32>
}
