// RUN: xlac run --split-input-file %s
// rng's values are implementation-defined; these tests pin down only what
// the spec guarantees (range, shape) plus degenerate ranges.

func.func @rng_uniform_int_range() {
  %a = stablehlo.constant dense<-3> : tensor<i32>
  %b = stablehlo.constant dense<4> : tensor<i32>
  %shape = stablehlo.constant dense<[4, 5]> : tensor<2xi64>
  %r = "stablehlo.rng"(%a, %b, %shape) {rng_distribution = #stablehlo<rng_distribution UNIFORM>}
      : (tensor<i32>, tensor<i32>, tensor<2xi64>) -> tensor<4x5xi32>
  %lo = stablehlo.constant dense<-3> : tensor<4x5xi32>
  %hi = stablehlo.constant dense<3> : tensor<4x5xi32>
  %c = stablehlo.clamp %lo, %r, %hi : tensor<4x5xi32>
  check.expect_eq %c, %r : tensor<4x5xi32>
  func.return
}

// -----

func.func @rng_uniform_single_value() {
  %a = stablehlo.constant dense<7> : tensor<ui8>
  %b = stablehlo.constant dense<8> : tensor<ui8>
  %shape = stablehlo.constant dense<[3]> : tensor<1xi64>
  %r = "stablehlo.rng"(%a, %b, %shape) {rng_distribution = #stablehlo<rng_distribution UNIFORM>}
      : (tensor<ui8>, tensor<ui8>, tensor<1xi64>) -> tensor<3xui8>
  check.expect_eq_const %r, dense<7> : tensor<3xui8>
  func.return
}

// -----

func.func @rng_uniform_float_range() {
  %a = stablehlo.constant dense<1.0> : tensor<f32>
  %b = stablehlo.constant dense<2.0> : tensor<f32>
  %shape = stablehlo.constant dense<[16]> : tensor<1xi64>
  %r = "stablehlo.rng"(%a, %b, %shape) {rng_distribution = #stablehlo<rng_distribution UNIFORM>}
      : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<16xf32>
  %lo = stablehlo.constant dense<1.0> : tensor<16xf32>
  %hi = stablehlo.constant dense<1.99999988> : tensor<16xf32>
  %c = stablehlo.clamp %lo, %r, %hi : tensor<16xf32>
  check.expect_eq %c, %r : tensor<16xf32>
  func.return
}

// -----

func.func @rng_normal_zero_sigma() {
  %mu = stablehlo.constant dense<2.5> : tensor<f64>
  %sigma = stablehlo.constant dense<0.0> : tensor<f64>
  %shape = stablehlo.constant dense<[2, 2]> : tensor<2xi64>
  %r = "stablehlo.rng"(%mu, %sigma, %shape) {rng_distribution = #stablehlo<rng_distribution NORMAL>}
      : (tensor<f64>, tensor<f64>, tensor<2xi64>) -> tensor<2x2xf64>
  check.expect_eq_const %r, dense<2.5> : tensor<2x2xf64>
  func.return
}
