// RUN: xlac run --split-input-file %s
// Expected outputs were produced by XLA (jax.lax.rng_bit_generator on CPU)
// from the same states; they pin our generators to XLA's bit for bit.

func.func @three_fry_u64_spec_example() {
  %s = stablehlo.constant dense<[1, 2]> : tensor<2xui64>
  %ns, %r = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>}
      : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x2xui64>)
  check.expect_eq_const %ns, dense<[1, 6]> : tensor<2xui64>
  check.expect_eq_const %r, dense<[[9236835810183407956, 16087790271692313299], [18212823393184779219, 2658481902456610144]]> : tensor<2x2xui64>
  func.return
}

// -----

func.func @three_fry_u32_odd_and_u8_2d() {
  %s = stablehlo.constant dense<[1, 2]> : tensor<2xui64>
  %ns, %r = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>}
      : (tensor<2xui64>) -> (tensor<2xui64>, tensor<5xui32>)
  check.expect_eq_const %ns, dense<[1, 5]> : tensor<2xui64>
  check.expect_eq_const %r, dense<[43444564, 2150618427, 3979645651, 3745730563, 1672743891]> : tensor<5xui32>
  %ns2, %b = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>}
      : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x3xui8>)
  check.expect_eq_const %ns2, dense<[1, 5]> : tensor<2xui64>
  check.expect_eq_const %b, dense<[[84, 211, 211], [59, 3, 97]]> : tensor<2x3xui8>
  func.return
}

// -----

func.func @three_fry_big_state() {
  %s = stablehlo.constant dense<[1311768467463790320, 18364758544493064720]> : tensor<2xui64>
  %ns, %r = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>}
      : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3xui16>)
  check.expect_eq_const %ns, dense<[1311768467463790320, 18364758544493064722]> : tensor<2xui64>
  check.expect_eq_const %r, dense<[25609, 14037, 35173]> : tensor<3xui16>
  func.return
}

// -----

func.func @philox_u64_and_u32() {
  %s = stablehlo.constant dense<[1, 2]> : tensor<2xui64>
  %ns, %r = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm PHILOX>}
      : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x2xui64>)
  check.expect_eq_const %ns, dense<[1, 4]> : tensor<2xui64>
  check.expect_eq_const %r, dense<[[12229731395331991369, 3437131457114678231], [13465615291114923006, 9328616520744100567]]> : tensor<2x2xui64>
  %ns2, %w = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm PHILOX>}
      : (tensor<2xui64>) -> (tensor<2xui64>, tensor<5xui32>)
  check.expect_eq_const %ns2, dense<[1, 4]> : tensor<2xui64>
  check.expect_eq_const %w, dense<[2100602697, 2847456232, 2074354647, 800269529, 1828267006]> : tensor<5xui32>
  func.return
}

// -----

func.func @default_is_philox() {
  %s = stablehlo.constant dense<[1311768467463790320, 18364758544493064720]> : tensor<2xui64>
  %ns, %r = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm DEFAULT>}
      : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x3xui8>)
  check.expect_eq_const %ns, dense<[1311768467463790320, 18364758544493064722]> : tensor<2xui64>
  check.expect_eq_const %r, dense<[[171, 131, 25], [197, 95, 92]]> : tensor<2x3xui8>
  %ns2, %q = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm PHILOX>}
      : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3xi64>)
  check.expect_eq_const %ns2, dense<[1311768467463790320, 18364758544493064722]> : tensor<2xui64>
  check.expect_eq_const %q, dense<[-6640207442312033365, -159372260709782247, 2372688214173612639]> : tensor<3xi64>
  func.return
}

// -----

func.func @philox_zero_sized_output() {
  %s = stablehlo.constant dense<[7, 9]> : tensor<2xui64>
  %ns, %r = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm PHILOX>}
      : (tensor<2xui64>) -> (tensor<2xui64>, tensor<0xui32>)
  check.expect_eq_const %ns, dense<[7, 9]> : tensor<2xui64>
  func.return
}

// -----

// A 3-word PHILOX state is a 128-bit counter (state[1] low, state[2] high).
func.func @philox_three_word_state_carry() {
  %s = stablehlo.constant dense<[5, 18446744073709551615, 7]> : tensor<3xui64>
  %ns, %r = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm PHILOX>}
      : (tensor<3xui64>) -> (tensor<3xui64>, tensor<5xui32>)
  check.expect_eq_const %ns, dense<[5, 1, 8]> : tensor<3xui64>
  check.expect_eq_const %r, dense<[408654879, 156914071, 4246078289, 2550873154, 1414544935]> : tensor<5xui32>
  func.return
}
