// RUN: xlac run --split-input-file %s
// rng_bit_generator compiled natively (a runtime call that generates in
// chunks on the thread pool).  The file runs on both backends; expected
// values come from the interpreter, whose generators are pinned to XLA's
// outputs (tests/lit/interp/rng_bit_generator.mlir), and the first two
// cases repeat some of XLA's own numbers.  Large outputs are compared
// through a position-weighted checksum.

// Values produced by XLA (jax.lax.rng_bit_generator on CPU).
func.func @philox_xla() {
  %s = stablehlo.constant dense<[1, 2]> : tensor<2xui64>
  %ns, %r = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm PHILOX>}
      : (tensor<2xui64>) -> (tensor<2xui64>, tensor<5xui32>)
  %ns2, %w = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm DEFAULT>}
      : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x2xui64>)
  %ns3, %c = "stablehlo.rng_bit_generator"(%ns) {rng_algorithm = #stablehlo<rng_algorithm PHILOX>}
      : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3xi64>)
  %t = stablehlo.constant dense<[5, 18446744073709551615, 7]> : tensor<3xui64>
  %nt, %x = "stablehlo.rng_bit_generator"(%t) {rng_algorithm = #stablehlo<rng_algorithm PHILOX>}
      : (tensor<3xui64>) -> (tensor<3xui64>, tensor<5xui32>)
  check.expect_eq_const %ns, dense<[1, 4]> : tensor<2xui64>
  check.expect_eq_const %r, dense<[2100602697, 2847456232, 2074354647, 800269529, 1828267006]> : tensor<5xui32>
  check.expect_eq_const %ns2, dense<[1, 4]> : tensor<2xui64>
  check.expect_eq_const %w, dense<[[12229731395331991369, 3437131457114678231], [13465615291114923006, 9328616520744100567]]> : tensor<2x2xui64>
  check.expect_eq_const %ns3, dense<[1, 6]> : tensor<2xui64>
  check.expect_eq_const %c, dense<[-7659747531129606045, -3955194628828517087, -7160547755662881053]> : tensor<3xi64>
  check.expect_eq_const %nt, dense<[5, 1, 8]> : tensor<3xui64>
  check.expect_eq_const %x, dense<[408654879, 156914071, 4246078289, 2550873154, 1414544935]> : tensor<5xui32>
  func.return
}

// -----

func.func @three_fry_xla() {
  %s = stablehlo.constant dense<[1, 2]> : tensor<2xui64>
  %ns, %r = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>}
      : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x2xui64>)
  %ns2, %w = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>}
      : (tensor<2xui64>) -> (tensor<2xui64>, tensor<5xui32>)
  %ns3, %b = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>}
      : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x3xui8>)
  check.expect_eq_const %ns, dense<[1, 6]> : tensor<2xui64>
  check.expect_eq_const %r, dense<[[9236835810183407956, 16087790271692313299], [18212823393184779219, 2658481902456610144]]> : tensor<2x2xui64>
  check.expect_eq_const %ns2, dense<[1, 5]> : tensor<2xui64>
  check.expect_eq_const %w, dense<[43444564, 2150618427, 3979645651, 3745730563, 1672743891]> : tensor<5xui32>
  check.expect_eq_const %ns3, dense<[1, 5]> : tensor<2xui64>
  check.expect_eq_const %b, dense<[[84, 211, 211], [59, 3, 97]]> : tensor<2x3xui8>
  func.return
}

// -----

// Shapes that do not fill whole blocks: odd sizes, odd dimensions (Three-
// fry pairs along the largest one), rank 0, 3-D, and every element width.
func.func @three_fry_shapes() {
  %s = stablehlo.constant dense<[81985529216486895, 18364758544493064720]> : tensor<2xui64>
  %s1, %a = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>}
      : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3x5xui32>)
  %s2, %b = "stablehlo.rng_bit_generator"(%s1) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>}
      : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3x2x5xui8>)
  %s3, %c = "stablehlo.rng_bit_generator"(%s2) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>}
      : (tensor<2xui64>) -> (tensor<2xui64>, tensor<7xi16>)
  %s4, %d = "stablehlo.rng_bit_generator"(%s3) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>}
      : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3xui64>)
  %s5, %e = "stablehlo.rng_bit_generator"(%s4) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>}
      : (tensor<2xui64>) -> (tensor<2xui64>, tensor<ui32>)
  %s6, %f = "stablehlo.rng_bit_generator"(%s5) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>}
      : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3x3xf32>)
  %fb = stablehlo.bitcast_convert %f : (tensor<3x3xf32>) -> tensor<3x3xui32>
  %s7, %g = "stablehlo.rng_bit_generator"(%s6) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>}
      : (tensor<2xui64>) -> (tensor<2xui64>, tensor<0x3xui32>)
  check.expect_eq_const %a, dense<[[2933171071, 288411921, 3284946178, 2039365678, 2934253134], [1236338088, 2936704409, 3907330576, 3723051394, 4037253752], [3802624568, 1077787540, 2900944550, 3285999743, 1456438002]]> : tensor<3x5xui32>
  check.expect_eq_const %b, dense<[[[110, 150, 182, 159, 144], [82, 216, 255, 90, 208]], [[114, 20, 212, 132, 150], [91, 138, 162, 208, 117]], [[145, 25, 39, 151, 185], [112, 102, 254, 217, 110]]]> : tensor<3x2x5xui8>
  check.expect_eq_const %c, dense<[-10862, -15358, 16884, 28122, -25560, 15311, 332]> : tensor<7xi16>
  check.expect_eq_const %d, dense<[4895591991475513648, 3998408561282598390, 13212416208696744428]> : tensor<3xui64>
  check.expect_eq_const %e, dense<832856641> : tensor<ui32>
  check.expect_eq_const %fb, dense<[[3486886564, 2537721456, 198518117], [2971044525, 1515544404, 3640912907], [1032971788, 1565419340, 1744939812]]> : tensor<3x3xui32>
  check.expect_eq_const %s7, dense<[81985529216486895, 18364758544493064758]> : tensor<2xui64>
  func.return
}

// -----

func.func @philox_shapes() {
  %s = stablehlo.constant dense<[81985529216486895, 18364758544493064720, 3]> : tensor<3xui64>
  %s1, %a = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm PHILOX>}
      : (tensor<3xui64>) -> (tensor<3xui64>, tensor<3x5xui32>)
  %s2, %b = "stablehlo.rng_bit_generator"(%s1) {rng_algorithm = #stablehlo<rng_algorithm PHILOX>}
      : (tensor<3xui64>) -> (tensor<3xui64>, tensor<3x2x5xui8>)
  %s3, %c = "stablehlo.rng_bit_generator"(%s2) {rng_algorithm = #stablehlo<rng_algorithm PHILOX>}
      : (tensor<3xui64>) -> (tensor<3xui64>, tensor<7xi16>)
  %s4, %d = "stablehlo.rng_bit_generator"(%s3) {rng_algorithm = #stablehlo<rng_algorithm PHILOX>}
      : (tensor<3xui64>) -> (tensor<3xui64>, tensor<3xui64>)
  %s5, %e = "stablehlo.rng_bit_generator"(%s4) {rng_algorithm = #stablehlo<rng_algorithm PHILOX>}
      : (tensor<3xui64>) -> (tensor<3xui64>, tensor<ui32>)
  %s6, %f = "stablehlo.rng_bit_generator"(%s5) {rng_algorithm = #stablehlo<rng_algorithm PHILOX>}
      : (tensor<3xui64>) -> (tensor<3xui64>, tensor<3x3xf64>)
  %fb = stablehlo.bitcast_convert %f : (tensor<3x3xf64>) -> tensor<3x3xui64>
  %s7, %g = "stablehlo.rng_bit_generator"(%s6) {rng_algorithm = #stablehlo<rng_algorithm PHILOX>}
      : (tensor<3xui64>) -> (tensor<3xui64>, tensor<3x0xui32>)
  check.expect_eq_const %a, dense<[[3604181691, 3432918689, 1049787176, 1031418365, 2105386951], [2974417570, 496967527, 995344669, 1972425635, 861268930], [3524615437, 301609111, 1036144411, 1687760302, 1582496053]]> : tensor<3x5xui32>
  check.expect_eq_const %b, dense<[[[1, 111, 92, 229, 66], [155, 198, 42, 176, 95]], [[73, 26, 61, 225, 126], [16, 39, 16, 119, 195]], [[75, 155, 48, 163, 26], [88, 182, 3, 35, 55]]]> : tensor<3x2x5xui8>
  check.expect_eq_const %c, dense<[-20446, 771, -21353, 26516, -6819, -25664, 8606]> : tensor<7xi16>
  check.expect_eq_const %d, dense<[8436700497694568561, 14476922715249964131, 6449693662486406160]> : tensor<3xui64>
  check.expect_eq_const %e, dense<3541869828> : tensor<ui32>
  check.expect_eq_const %fb, dense<[[15402320974314371665, 15688455033810240375, 6536049514028813455], [5425435160157917314, 4003695256924487008, 18038036733873883025], [1814098532269065196, 13598755508566111996, 17563665045288231786]]> : tensor<3x3xui64>
  check.expect_eq_const %s7, dense<[81985529216486895, 18364758544493064742, 3]> : tensor<3xui64>
  func.return
}

// -----

// A 2-word Philox state whose counter word wraps: the carry goes into the
// key word as the counter's high half, but only the low word is written.
func.func @philox_two_word_wrap() {
  %s = stablehlo.constant dense<[9, 18446744073709551614]> : tensor<2xui64>
  %ns, %r = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm PHILOX>}
      : (tensor<2xui64>) -> (tensor<2xui64>, tensor<13xui32>)
  check.expect_eq_const %ns, dense<[9, 2]> : tensor<2xui64>
  check.expect_eq_const %r, dense<[2239112829, 3295494976, 765533129, 2260163470, 2565951392, 441695103, 3278809395, 2535035705, 1252131457, 2573728552, 3833668624, 2786971508, 3259594952]> : tensor<13xui32>
  func.return
}

// -----

// Several chunks of work (the runtime's chunks are 16K blocks): the results
// are compared through sum(x[i] * (2i + 1)) (wrapping), which sees every
// element and its position.
func.func private @sum32(%x: tensor<210003xui32>) -> tensor<ui32> {
  %i = stablehlo.iota dim = 0 : tensor<210003xui32>
  %one = stablehlo.constant dense<1> : tensor<210003xui32>
  %i2 = stablehlo.add %i, %i : tensor<210003xui32>
  %w = stablehlo.add %i2, %one : tensor<210003xui32>
  %p = stablehlo.multiply %x, %w : tensor<210003xui32>
  %z = stablehlo.constant dense<0> : tensor<ui32>
  %s = stablehlo.reduce(%p init: %z) applies stablehlo.add across dimensions = [0] : (tensor<210003xui32>, tensor<ui32>) -> tensor<ui32>
  func.return %s : tensor<ui32>
}

func.func private @sum64(%x: tensor<130000xui64>) -> tensor<ui64> {
  %i = stablehlo.iota dim = 0 : tensor<130000xui64>
  %one = stablehlo.constant dense<1> : tensor<130000xui64>
  %i2 = stablehlo.add %i, %i : tensor<130000xui64>
  %w = stablehlo.add %i2, %one : tensor<130000xui64>
  %p = stablehlo.multiply %x, %w : tensor<130000xui64>
  %z = stablehlo.constant dense<0> : tensor<ui64>
  %s = stablehlo.reduce(%p init: %z) applies stablehlo.add across dimensions = [0] : (tensor<130000xui64>, tensor<ui64>) -> tensor<ui64>
  func.return %s : tensor<ui64>
}

func.func @large() {
  %s = stablehlo.constant dense<[42, 7]> : tensor<2xui64>
  // 3 x 70001: Threefry pairs along the odd, largest dimension
  %s1, %a = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>}
      : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3x70001xui32>)
  %s2, %b = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm PHILOX>}
      : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3x70001xui32>)
  // 1000 x 130: Threefry pairs along dimension 0 (far apart in memory)
  %s3, %c = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>}
      : (tensor<2xui64>) -> (tensor<2xui64>, tensor<1000x130xui64>)
  %s4, %d = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm PHILOX>}
      : (tensor<2xui64>) -> (tensor<2xui64>, tensor<1000x130xui64>)
  %s5, %e = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>}
      : (tensor<2xui64>) -> (tensor<2xui64>, tensor<210003xui32>)
  %a1 = stablehlo.reshape %a : (tensor<3x70001xui32>) -> tensor<210003xui32>
  %b1 = stablehlo.reshape %b : (tensor<3x70001xui32>) -> tensor<210003xui32>
  %c1 = stablehlo.reshape %c : (tensor<1000x130xui64>) -> tensor<130000xui64>
  %d1 = stablehlo.reshape %d : (tensor<1000x130xui64>) -> tensor<130000xui64>
  %ha = func.call @sum32(%a1) : (tensor<210003xui32>) -> tensor<ui32>
  %hb = func.call @sum32(%b1) : (tensor<210003xui32>) -> tensor<ui32>
  %hc = func.call @sum64(%c1) : (tensor<130000xui64>) -> tensor<ui64>
  %hd = func.call @sum64(%d1) : (tensor<130000xui64>) -> tensor<ui64>
  %he = func.call @sum32(%e) : (tensor<210003xui32>) -> tensor<ui32>
  check.expect_eq_const %ha, dense<3912013724> : tensor<ui32>
  check.expect_eq_const %hb, dense<96207138> : tensor<ui32>
  check.expect_eq_const %hc, dense<9670566695446383238> : tensor<ui64>
  check.expect_eq_const %hd, dense<2491814477553380131> : tensor<ui64>
  check.expect_eq_const %he, dense<1825276391> : tensor<ui32>
  check.expect_eq_const %s1, dense<[42, 105010]> : tensor<2xui64>
  check.expect_eq_const %s2, dense<[42, 52508]> : tensor<2xui64>
  check.expect_eq_const %s3, dense<[42, 130007]> : tensor<2xui64>
  check.expect_eq_const %s4, dense<[42, 65007]> : tensor<2xui64>
  func.return
}

// -----

// The state threaded through a loop, as a training step's key would be.
func.func @state_in_loop() {
  %s = stablehlo.constant dense<[3, 0]> : tensor<2xui64>
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %acc0 = stablehlo.constant dense<0> : tensor<4xui32>
  %r:3 = stablehlo.while(%i = %i0, %st = %s, %acc = %acc0) : tensor<i32>, tensor<2xui64>, tensor<4xui32>
  cond {
    %n = stablehlo.constant dense<5> : tensor<i32>
    %c = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %ns, %bits = "stablehlo.rng_bit_generator"(%st) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>}
        : (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)
    %a = stablehlo.xor %acc, %bits : tensor<4xui32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %j, %ns, %a : tensor<i32>, tensor<2xui64>, tensor<4xui32>
  }
  check.expect_eq_const %r#1, dense<[3, 10]> : tensor<2xui64>
  check.expect_eq_const %r#2, dense<[3113417708, 3551878390, 1999089174, 384182625]> : tensor<4xui32>
  func.return
}
