// RUN: xlac verify --verify-diagnostics --split-input-file %s

func.func @add_shapes(%a: tensor<2xf32>, %b: tensor<3xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'stablehlo.add' op requires the same shape for all operands and results}}
  %r = "stablehlo.add"(%a, %b) : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// -----

func.func @add_elems(%a: tensor<2xf32>, %b: tensor<2xf64>) -> tensor<2xf32> {
  // expected-error @+1 {{requires the same element type for all operands and results}}
  %r = "stablehlo.add"(%a, %b) : (tensor<2xf32>, tensor<2xf64>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// -----

func.func @subtract_bool(%a: tensor<2xi1>) -> tensor<2xi1> {
  // expected-error @+1 {{'stablehlo.subtract' op operand #0 must be a tensor of signed integer, unsigned integer, floating-point or complex type}}
  %r = "stablehlo.subtract"(%a, %a) : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
  func.return %r : tensor<2xi1>
}

// -----

func.func @and_float(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'stablehlo.and' op operand #0 must be a tensor of boolean, signed integer or unsigned integer type}}
  %r = "stablehlo.and"(%a, %a) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// -----

func.func @shift_float(%a: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'stablehlo.shift_left' op operand #0 must be a tensor of signed integer or unsigned integer type}}
  %r = "stablehlo.shift_left"(%a, %a) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  func.return %r : tensor<f32>
}

// -----

func.func @sqrt_int(%a: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'stablehlo.sqrt' op operand #0 must be a tensor of floating-point or complex type}}
  %r = "stablehlo.sqrt"(%a) : (tensor<4xi32>) -> tensor<4xi32>
  func.return %r : tensor<4xi32>
}

// -----

func.func @abs_complex(%a: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
  // expected-error @+1 {{'stablehlo.abs' op result element type must be f32}}
  %r = "stablehlo.abs"(%a) : (tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>>
  func.return %r : tensor<2xcomplex<f32>>
}

// -----

func.func @abs_unsigned(%a: tensor<2xui8>) -> tensor<2xui8> {
  // expected-error @+1 {{'stablehlo.abs' op operand #0 must be a tensor of signed integer, floating-point or complex type}}
  %r = "stablehlo.abs"(%a) : (tensor<2xui8>) -> tensor<2xui8>
  func.return %r : tensor<2xui8>
}

// -----

func.func @negate_shape(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{'stablehlo.negate' op requires the same shape for operand and result}}
  %r = "stablehlo.negate"(%a) : (tensor<2x3xf32>) -> tensor<3x2xf32>
  func.return %r : tensor<3x2xf32>
}

// -----

func.func @is_finite_result(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'stablehlo.is_finite' op result element type must be i1}}
  %r = "stablehlo.is_finite"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// -----

func.func @compare_result(%a: tensor<2xf32>) -> tensor<2xi32> {
  // expected-error @+1 {{'stablehlo.compare' op result must be a tensor of i1}}
  %r = "stablehlo.compare"(%a, %a) {comparison_direction = #stablehlo<comparison_direction LT>} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi32>
  func.return %r : tensor<2xi32>
}

// -----

func.func @compare_type(%a: tensor<2xi32>) -> tensor<2xi1> {
  // expected-error @+1 {{compare_type UNSIGNED is not valid for tensor<2xi32> (expected SIGNED)}}
  %r = "stablehlo.compare"(%a, %a) {comparison_direction = #stablehlo<comparison_direction LT>, compare_type = #stablehlo<comparison_type UNSIGNED>} : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
  func.return %r : tensor<2xi1>
}

// -----

func.func @complex_elem(%a: tensor<2xf16>) -> tensor<2xcomplex<f32>> {
  // expected-error @+1 {{'stablehlo.complex' op operands must be tensors of f32 or f64}}
  %r = "stablehlo.complex"(%a, %a) : (tensor<2xf16>, tensor<2xf16>) -> tensor<2xcomplex<f32>>
  func.return %r : tensor<2xcomplex<f32>>
}

// -----

func.func @select_pred(%p: tensor<3xi1>, %a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'stablehlo.select' op pred must be a scalar or have the shape of on_true}}
  %r = "stablehlo.select"(%p, %a, %a) : (tensor<3xi1>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// -----

func.func @clamp_min(%m: tensor<3xf32>, %a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'stablehlo.clamp' op min must be a scalar or have the operand's shape}}
  %r = "stablehlo.clamp"(%m, %a, %a) : (tensor<3xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// -----

func.func @tuple_operand(%t: tuple<tensor<2xf32>>) -> tensor<2xf32> {
  // expected-error @+1 {{'stablehlo.exponential' op operand #0 must be a tensor, got tuple<tensor<2xf32>>}}
  %r = "stablehlo.exponential"(%t) : (tuple<tensor<2xf32>>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// -----

func.func @convert_shape(%a: tensor<2xf32>) -> tensor<3xi32> {
  // expected-error @+1 {{'stablehlo.convert' op requires the same shape for operand and result}}
  %r = "stablehlo.convert"(%a) : (tensor<2xf32>) -> tensor<3xi32>
  func.return %r : tensor<3xi32>
}

// -----

func.func @bitcast_widths(%a: tensor<2xf32>) -> tensor<2xf16> {
  // expected-error @+1 {{'stablehlo.bitcast_convert' op cannot bitcast tensor<2xf32> to tensor<2xf16>}}
  %r = "stablehlo.bitcast_convert"(%a) : (tensor<2xf32>) -> tensor<2xf16>
  func.return %r : tensor<2xf16>
}

// -----

func.func @two_errors(%a: tensor<2xf32>, %b: tensor<2xi32>) -> tensor<2xf32> {
  // Both ops are reported: the verifier keeps going after the first error.
  // expected-error @+1 {{'stablehlo.multiply' op requires the same element type}}
  %r = "stablehlo.multiply"(%a, %b) : (tensor<2xf32>, tensor<2xi32>) -> tensor<2xf32>
  // expected-error @+1 {{'stablehlo.popcnt' op operand #0 must be a tensor of signed integer or unsigned integer type}}
  %s = "stablehlo.popcnt"(%r) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %s : tensor<2xf32>
}
