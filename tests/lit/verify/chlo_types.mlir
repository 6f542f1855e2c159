// RUN: xlac verify --verify-diagnostics --split-input-file %s
// CHLO elementwise ops take the element types the interpreter evaluates:
// erf and the other special functions and next_after on floats only, the
// trigonometric and hyperbolic ops on floats or complex numbers, mulhi on
// integers, is_inf from floats to i1.  chlo.constant follows
// stablehlo.constant, which chlo-decompose turns it into; chlo.constant_like
// needs a value the interpreter can splat.  Before, these verified and
// failed at run time.

func.func @erf_int(%a: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'chlo.erf' op operand #0 must be a tensor of floating-point type, got tensor<4xi32>}}
  %r = "chlo.erf"(%a) : (tensor<4xi32>) -> tensor<4xi32>
  func.return %r : tensor<4xi32>
}

// -----

func.func @lgamma_complex(%a: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // expected-error @+1 {{'chlo.lgamma' op operand #0 must be a tensor of floating-point type, got tensor<4xcomplex<f32>>}}
  %r = "chlo.lgamma"(%a) : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  func.return %r : tensor<4xcomplex<f32>>
}

// -----

func.func @erf_result(%a: tensor<4xf32>) -> tensor<4xf64> {
  // expected-error @+1 {{'chlo.erf' op result element type must be f32, got tensor<4xf64>}}
  %r = "chlo.erf"(%a) : (tensor<4xf32>) -> tensor<4xf64>
  func.return %r : tensor<4xf64>
}

// -----

func.func @next_after_int(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'chlo.next_after' op operand #0 must be a tensor of floating-point type, got tensor<4xi32>}}
  %r = "chlo.next_after"(%a, %b) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  func.return %r : tensor<4xi32>
}

// -----

func.func @zeta_mixed(%a: tensor<4xf32>, %b: tensor<4xf64>) -> tensor<4xf32> {
  // expected-error @+1 {{'chlo.zeta' op requires the same element type for all operands and results, got tensor<4xf32>, tensor<4xf64> and tensor<4xf32>}}
  %r = "chlo.zeta"(%a, %b) : (tensor<4xf32>, tensor<4xf64>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

func.func @igamma_shape(%a: tensor<4xf32>, %b: tensor<3xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'chlo.igamma' op requires the same shape for all operands and results, got tensor<4xf32>, tensor<3xf32> and tensor<4xf32>}}
  %r = "chlo.igamma"(%a, %b) : (tensor<4xf32>, tensor<3xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

func.func @tan_int(%a: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'chlo.tan' op operand #0 must be a tensor of floating-point or complex type, got tensor<4xi32>}}
  %r = "chlo.tan"(%a) : (tensor<4xi32>) -> tensor<4xi32>
  func.return %r : tensor<4xi32>
}

// -----

func.func @acosh_pred(%a: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error @+1 {{'chlo.acosh' op operand #0 must be a tensor of floating-point or complex type, got tensor<4xi1>}}
  %r = "chlo.acosh"(%a) : (tensor<4xi1>) -> tensor<4xi1>
  func.return %r : tensor<4xi1>
}

// -----

func.func @square_pred(%a: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error @+1 {{'chlo.square' op operand #0 must be a tensor of signed integer, unsigned integer, floating-point or complex type, got tensor<4xi1>}}
  %r = "chlo.square"(%a) : (tensor<4xi1>) -> tensor<4xi1>
  func.return %r : tensor<4xi1>
}

// -----

func.func @mulhi_float(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'chlo.mulhi' op operand #0 must be a tensor of signed integer or unsigned integer type, got tensor<4xf32>}}
  %r = "chlo.mulhi"(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

func.func @is_inf_int(%a: tensor<4xi32>) -> tensor<4xi1> {
  // expected-error @+1 {{'chlo.is_inf' op operand #0 must be a tensor of floating-point type, got tensor<4xi32>}}
  %r = "chlo.is_inf"(%a) : (tensor<4xi32>) -> tensor<4xi1>
  func.return %r : tensor<4xi1>
}

// -----

func.func @is_pos_inf_result(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'chlo.is_pos_inf' op result element type must be i1, got tensor<4xf32>}}
  %r = "chlo.is_pos_inf"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

func.func @constant_type() -> tensor<2xf32> {
  // expected-error @+1 {{'chlo.constant' op value of type tensor<2xi32> does not match the result type tensor<2xf32>}}
  %r = "chlo.constant"() {value = dense<[1, 2]> : tensor<2xi32>} : () -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// -----

func.func @constant_like_missing(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'chlo.constant_like' op requires a 'value' attribute}}
  %r = "chlo.constant_like"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// -----

func.func @constant_like_float_int(%a: tensor<2xi32>) -> tensor<2xi32> {
  // expected-error @+1 {{'chlo.constant_like' op float value for an integer result tensor<2xi32>}}
  %r = "chlo.constant_like"(%a) {value = 2.5 : f32} : (tensor<2xi32>) -> tensor<2xi32>
  func.return %r : tensor<2xi32>
}

// -----

func.func @constant_like_count(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'chlo.constant_like' op value has 2 elements, expected 1 or 4 for tensor<4xf32>}}
  %r = "chlo.constant_like"(%a) {value = dense<[1.0, 2.0]> : tensor<2xf32>} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

func.func @constant_like_string(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'chlo.constant_like' op 'value' must be a dense, float, integer or bool attribute}}
  %r = "chlo.constant_like"(%a) {value = "one"} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// -----

func.func @constant_like_shape(%a: tensor<2xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'chlo.constant_like' op requires the same shape for operand and result, got tensor<2xf32> and tensor<3xf32>}}
  %r = "chlo.constant_like"(%a) {value = 1.0 : f32} : (tensor<2xf32>) -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}

// -----

// Valid uses still verify.
func.func @valid(%f: tensor<4xf32>, %g: tensor<4xf64>, %c: tensor<4xcomplex<f32>>, %i: tensor<4xi32>,
                 %u: tensor<4xui8>, %p: tensor<4xi1>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf64>,
                 tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>, tensor<4xi32>, tensor<4xui8>,
                 tensor<4xi1>, tensor<4xf32>, tensor<4xi32>, tensor<4xi1>, tensor<2xf32>, tensor<4xf32>) {
  %0 = "chlo.erf"(%f) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "chlo.next_after"(%f, %f) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = "chlo.polygamma"(%g, %g) : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
  %3 = "chlo.acosh"(%c) : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  %4 = "chlo.conj"(%c) : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  %5 = "chlo.square"(%i) : (tensor<4xi32>) -> tensor<4xi32>
  %6 = "chlo.mulhi"(%u, %u) : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  %7 = "chlo.is_neg_inf"(%f) : (tensor<4xf32>) -> tensor<4xi1>
  %8 = "chlo.tan"(%f) : (tensor<4xf32>) -> tensor<4xf32>
  %9 = "chlo.constant_like"(%i) {value = 3 : i32} : (tensor<4xi32>) -> tensor<4xi32>
  %10 = "chlo.constant_like"(%p) {value = true} : (tensor<4xi1>) -> tensor<4xi1>
  %11 = "chlo.constant"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %12 = "chlo.constant_like"(%f) {value = dense<1.5> : tensor<f32>} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12 : tensor<4xf32>, tensor<4xf32>, tensor<4xf64>,
                 tensor<4xcomplex<f32>>, tensor<4xcomplex<f32>>, tensor<4xi32>, tensor<4xui8>,
                 tensor<4xi1>, tensor<4xf32>, tensor<4xi32>, tensor<4xi1>, tensor<2xf32>, tensor<4xf32>
}
