// RUN: xlac verify --verify-diagnostics --split-input-file %s
// Enum attributes that a backend reads are checked by the verifier: one of
// the values the spec allows, and present when the op needs one.  A
// misspelled value used to verify, then one backend computed EQ or PHILOX
// where the other reported it at run time.

func.func @broadcast_compare_misspelled(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xi1> {
  // expected-error @+1 {{'chlo.broadcast_compare' op attribute 'comparison_direction' must be EQ, NE, GE, GT, LE or LT, got EQQ}}
  %r = chlo.broadcast_compare %a, %b {comparison_direction = #chlo<comparison_direction EQQ>} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  func.return %r : tensor<2xi1>
}

// -----

func.func @broadcast_compare_string(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xi1> {
  // expected-error @+1 {{'chlo.broadcast_compare' op attribute 'comparison_direction' must be an enum (EQ, NE, GE, GT, LE or LT), got the string "EQ"}}
  %r = chlo.broadcast_compare %a, %b {comparison_direction = "EQ"} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  func.return %r : tensor<2xi1>
}

// -----

func.func @broadcast_compare_missing(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xi1> {
  // expected-error @+1 {{'chlo.broadcast_compare' op requires attribute 'comparison_direction'}}
  %r = chlo.broadcast_compare %a, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  func.return %r : tensor<2xi1>
}

// -----

func.func @broadcast_compare_type(%a: tensor<2xi32>, %b: tensor<i32>) -> tensor<2xi1> {
  // expected-error @+1 {{'chlo.broadcast_compare' op compare_type FLOAT is not valid for tensor<2xi32> (expected SIGNED)}}
  %r = chlo.broadcast_compare %a, %b {comparison_direction = #chlo<comparison_direction LT>, compare_type = #chlo<comparison_type FLOAT>} : (tensor<2xi32>, tensor<i32>) -> tensor<2xi1>
  func.return %r : tensor<2xi1>
}

// -----

func.func @broadcast_compare_type_unknown(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xi1> {
  // expected-error @+1 {{'chlo.broadcast_compare' op attribute 'compare_type' must be FLOAT, TOTALORDER, SIGNED or UNSIGNED, got TOTAL}}
  %r = chlo.broadcast_compare %a, %b {comparison_direction = #chlo<comparison_direction LT>, compare_type = #chlo<comparison_type TOTAL>} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  func.return %r : tensor<2xi1>
}

// -----

func.func @compare_misspelled(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xi1> {
  // expected-error @+1 {{'stablehlo.compare' op attribute 'comparison_direction' must be EQ, NE, GE, GT, LE or LT, got LTE}}
  %r = stablehlo.compare LTE, %a, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  func.return %r : tensor<2xi1>
}

// -----

func.func @compare_string(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xi1> {
  // expected-error @+1 {{'stablehlo.compare' op attribute 'comparison_direction' must be an enum (EQ, NE, GE, GT, LE or LT), got the string "LT"}}
  %r = "stablehlo.compare"(%a, %b) {comparison_direction = "LT"} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  func.return %r : tensor<2xi1>
}

// -----

func.func @compare_missing(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xi1> {
  // expected-error @+1 {{'stablehlo.compare' op requires attribute 'comparison_direction'}}
  %r = "stablehlo.compare"(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  func.return %r : tensor<2xi1>
}

// -----

func.func @compare_type_unknown(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xi1> {
  // expected-error @+1 {{'stablehlo.compare' op attribute 'compare_type' must be FLOAT, TOTALORDER, SIGNED or UNSIGNED, got NOTYPE}}
  %r = stablehlo.compare LT, %a, %b, NOTYPE : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  func.return %r : tensor<2xi1>
}

// -----

func.func @rng_algorithm(%s: tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>) {
  // expected-error @+1 {{'stablehlo.rng_bit_generator' op attribute 'rng_algorithm' must be DEFAULT, THREE_FRY or PHILOX, got THREEFRY}}
  %ns, %r = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm THREEFRY>} : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
  func.return %ns, %r : tensor<2xui64>, tensor<4xui32>
}

// -----

func.func @rng_three_fry_state(%s: tensor<3xui64>) -> (tensor<3xui64>, tensor<4xui32>) {
  // expected-error @+1 {{'stablehlo.rng_bit_generator' op initial state of the THREE_FRY algorithm must have 2 elements, got tensor<3xui64>}}
  %ns, %r = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>} : (tensor<3xui64>) -> (tensor<3xui64>, tensor<4xui32>)
  func.return %ns, %r : tensor<3xui64>, tensor<4xui32>
}

// -----

func.func @rng_philox_state(%s: tensor<4xui64>) -> (tensor<4xui64>, tensor<4xui32>) {
  // expected-error @+1 {{'stablehlo.rng_bit_generator' op initial state of the DEFAULT algorithm must have 2 or 3 elements, got tensor<4xui64>}}
  %ns, %r = "stablehlo.rng_bit_generator"(%s) : (tensor<4xui64>) -> (tensor<4xui64>, tensor<4xui32>)
  func.return %ns, %r : tensor<4xui64>, tensor<4xui32>
}

// -----

func.func @rng_state_type(%s: tensor<2xui32>) -> (tensor<2xui32>, tensor<4xui32>) {
  // expected-error @+1 {{'stablehlo.rng_bit_generator' op initial state must be a 1-dimensional tensor of ui64, got tensor<2xui32>}}
  %ns, %r = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm PHILOX>} : (tensor<2xui32>) -> (tensor<2xui32>, tensor<4xui32>)
  func.return %ns, %r : tensor<2xui32>, tensor<4xui32>
}

// -----

func.func @rng_output_type(%s: tensor<2xui64>) -> (tensor<2xui64>, tensor<4xi1>) {
  // expected-error @+1 {{'stablehlo.rng_bit_generator' op output must be a tensor of integers or floats of 8 to 64 bits, got tensor<4xi1>}}
  %ns, %r = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm PHILOX>} : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xi1>)
  func.return %ns, %r : tensor<2xui64>, tensor<4xi1>
}

// -----

func.func @rng_distribution(%a: tensor<f32>, %b: tensor<f32>) -> tensor<3xf32> {
  %shape = stablehlo.constant dense<[3]> : tensor<1xi64>
  // expected-error @+1 {{'stablehlo.rng' op attribute 'rng_distribution' must be UNIFORM or NORMAL, got GAUSSIAN}}
  %r = "stablehlo.rng"(%a, %b, %shape) {rng_distribution = #stablehlo<rng_distribution GAUSSIAN>} : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}

// -----

func.func @fft_type(%x: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  // expected-error @+1 {{'stablehlo.fft' op attribute 'fft_type' must be FFT, IFFT, RFFT or IRFFT, got DFT}}
  %r = stablehlo.fft %x, type = DFT, length = [4] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
  func.return %r : tensor<4xcomplex<f32>>
}

// -----

func.func @transpose_a(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{'stablehlo.triangular_solve' op attribute 'transpose_a' must be NO_TRANSPOSE, TRANSPOSE or ADJOINT, got CONJUGATE}}
  %r = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false,
        transpose_a = #stablehlo<transpose CONJUGATE>} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  func.return %r : tensor<2x2xf32>
}

// -----

func.func @precision(%a: tensor<2x2xf32>, %b: tensor<2x2xf32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{'stablehlo.dot' op precision_config entries must be DEFAULT, HIGH or HIGHEST}}
  %r = "stablehlo.dot"(%a, %b) {precision_config = [#stablehlo<precision HIHGEST>]} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  func.return %r : tensor<2x2xf32>
}
