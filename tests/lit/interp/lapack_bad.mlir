// (lapack.mlir runs this: geev of a matrix that is not square is refused)
func.func @main(%a: tensor<3x2xf32>) -> tensor<i32> {
  %r:5 = stablehlo.custom_call @lapack_sgeev_ffi(%a) {mhlo.backend_config = {compute_left = 78 : ui8, compute_right = 78 : ui8}} : (tensor<3x2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2x2xcomplex<f32>>, tensor<2x2xcomplex<f32>>, tensor<i32>)
  func.return %r#4 : tensor<i32>
}
