// RUN: xlac run --split-input-file %s
// rng (UNIFORM and NORMAL) compiled natively: a runtime call, the code the
// interpreter runs too.  Its numbers are implementation-defined; these
// cases check their statistics (mean and variance within a few standard
// errors, ranges) and, through position-weighted checksums of the bits,
// that both backends give exactly the same numbers (the expected values
// come from the interpreter).  An rng op's numbers are keyed by its
// position in the file: editing text above one changes them, and the
// checksums must then be taken from the interpreter again.

func.func private @stats(%x: tensor<100000xf64>) -> (tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>) {
  %z = stablehlo.constant dense<0.0> : tensor<f64>
  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<100000xf64>, tensor<f64>) -> tensor<f64>
  %x2 = stablehlo.multiply %x, %x : tensor<100000xf64>
  %s2 = stablehlo.reduce(%x2 init: %z) applies stablehlo.add across dimensions = [0] : (tensor<100000xf64>, tensor<f64>) -> tensor<f64>
  %inf = stablehlo.constant dense<0x7FF0000000000000> : tensor<f64>
  %ninf = stablehlo.constant dense<0xFFF0000000000000> : tensor<f64>
  %lo = stablehlo.reduce(%x init: %inf) applies stablehlo.minimum across dimensions = [0] : (tensor<100000xf64>, tensor<f64>) -> tensor<f64>
  %hi = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [0] : (tensor<100000xf64>, tensor<f64>) -> tensor<f64>
  %n = stablehlo.constant dense<100000.0> : tensor<f64>
  %mean = stablehlo.divide %s, %n : tensor<f64>
  %m2 = stablehlo.divide %s2, %n : tensor<f64>
  %mm = stablehlo.multiply %mean, %mean : tensor<f64>
  %var = stablehlo.subtract %m2, %mm : tensor<f64>
  func.return %mean, %var, %lo, %hi : tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>
}

// |v - want| < tol
func.func private @near(%v: tensor<f64>, %want: tensor<f64>, %tol: tensor<f64>) -> tensor<i1> {
  %d = stablehlo.subtract %v, %want : tensor<f64>
  %a = stablehlo.abs %d : tensor<f64>
  %c = stablehlo.compare LT, %a, %tol : (tensor<f64>, tensor<f64>) -> tensor<i1>
  func.return %c : tensor<i1>
}

// sum(x[i] * (2i + 1)), wrapping: sees every element and its position
func.func private @sum32(%x: tensor<100000xui32>) -> tensor<ui32> {
  %i = stablehlo.iota dim = 0 : tensor<100000xui32>
  %one = stablehlo.constant dense<1> : tensor<100000xui32>
  %i2 = stablehlo.add %i, %i : tensor<100000xui32>
  %w = stablehlo.add %i2, %one : tensor<100000xui32>
  %p = stablehlo.multiply %x, %w : tensor<100000xui32>
  %z = stablehlo.constant dense<0> : tensor<ui32>
  %s = stablehlo.reduce(%p init: %z) applies stablehlo.add across dimensions = [0] : (tensor<100000xui32>, tensor<ui32>) -> tensor<ui32>
  func.return %s : tensor<ui32>
}

func.func @float_statistics() {
  // uniform f32 on [-2, 3): mean 0.5, variance 25/12; standard errors
  // 0.005 and 0.004
  %a = stablehlo.constant dense<-2.0> : tensor<f32>
  %b = stablehlo.constant dense<3.0> : tensor<f32>
  %shape = stablehlo.constant dense<[200, 500]> : tensor<2xi64>
  %u = "stablehlo.rng"(%a, %b, %shape) {rng_distribution = #stablehlo<rng_distribution UNIFORM>}
      : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<200x500xf32>
  %u1 = stablehlo.reshape %u : (tensor<200x500xf32>) -> tensor<100000xf32>
  %ud = stablehlo.convert %u1 : (tensor<100000xf32>) -> tensor<100000xf64>
  %umean, %uvar, %ulo, %uhi = func.call @stats(%ud) : (tensor<100000xf64>) -> (tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>)
  %c05 = stablehlo.constant dense<0.5> : tensor<f64>
  %c0025 = stablehlo.constant dense<0.025> : tensor<f64>
  %cuv = stablehlo.constant dense<2.0833333333333335> : tensor<f64>
  %c002 = stablehlo.constant dense<0.02> : tensor<f64>
  %ok1 = func.call @near(%umean, %c05, %c0025) : (tensor<f64>, tensor<f64>, tensor<f64>) -> tensor<i1>
  %ok2 = func.call @near(%uvar, %cuv, %c002) : (tensor<f64>, tensor<f64>, tensor<f64>) -> tensor<i1>
  check.expect_eq_const %ok1, dense<true> : tensor<i1>
  check.expect_eq_const %ok2, dense<true> : tensor<i1>
  %m2 = stablehlo.constant dense<-2.0> : tensor<f64>
  %p3 = stablehlo.constant dense<3.0> : tensor<f64>
  %ok3 = stablehlo.compare GE, %ulo, %m2 : (tensor<f64>, tensor<f64>) -> tensor<i1>
  %ok4 = stablehlo.compare LT, %uhi, %p3 : (tensor<f64>, tensor<f64>) -> tensor<i1>
  check.expect_eq_const %ok3, dense<true> : tensor<i1>
  check.expect_eq_const %ok4, dense<true> : tensor<i1>
  %ub = stablehlo.bitcast_convert %u1 : (tensor<100000xf32>) -> tensor<100000xui32>
  %uh = func.call @sum32(%ub) : (tensor<100000xui32>) -> tensor<ui32>
  check.expect_eq_const %uh, dense<127569593> : tensor<ui32>

  // normal f32, mean 1.5, deviation 2: variance 4; standard errors 0.006
  // and 0.018
  %mu = stablehlo.constant dense<1.5> : tensor<f32>
  %sigma = stablehlo.constant dense<2.0> : tensor<f32>
  %shape1 = stablehlo.constant dense<[100000]> : tensor<1xi64>
  %n = "stablehlo.rng"(%mu, %sigma, %shape1) {rng_distribution = #stablehlo<rng_distribution NORMAL>}
      : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<100000xf32>
  %nd = stablehlo.convert %n : (tensor<100000xf32>) -> tensor<100000xf64>
  %nmean, %nvar, %nlo, %nhi = func.call @stats(%nd) : (tensor<100000xf64>) -> (tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>)
  %c15 = stablehlo.constant dense<1.5> : tensor<f64>
  %c4 = stablehlo.constant dense<4.0> : tensor<f64>
  %c003 = stablehlo.constant dense<0.03> : tensor<f64>
  %c01 = stablehlo.constant dense<0.1> : tensor<f64>
  %ok5 = func.call @near(%nmean, %c15, %c003) : (tensor<f64>, tensor<f64>, tensor<f64>) -> tensor<i1>
  %ok6 = func.call @near(%nvar, %c4, %c01) : (tensor<f64>, tensor<f64>, tensor<f64>) -> tensor<i1>
  check.expect_eq_const %ok5, dense<true> : tensor<i1>
  check.expect_eq_const %ok6, dense<true> : tensor<i1>
  %nb = stablehlo.bitcast_convert %n : (tensor<100000xf32>) -> tensor<100000xui32>
  %nh = func.call @sum32(%nb) : (tensor<100000xui32>) -> tensor<ui32>
  check.expect_eq_const %nh, dense<1054209270> : tensor<ui32>

  // normal f64, mean -3, deviation 0.5, 3-D
  %mu64 = stablehlo.constant dense<-3.0> : tensor<f64>
  %sg64 = stablehlo.constant dense<0.5> : tensor<f64>
  %shape3 = stablehlo.constant dense<[4, 250, 100]> : tensor<3xi64>
  %g = "stablehlo.rng"(%mu64, %sg64, %shape3) {rng_distribution = #stablehlo<rng_distribution NORMAL>}
      : (tensor<f64>, tensor<f64>, tensor<3xi64>) -> tensor<4x250x100xf64>
  %g1 = stablehlo.reshape %g : (tensor<4x250x100xf64>) -> tensor<100000xf64>
  %gmean, %gvar, %glo, %ghi = func.call @stats(%g1) : (tensor<100000xf64>) -> (tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>)
  %cm3 = stablehlo.constant dense<-3.0> : tensor<f64>
  %c025 = stablehlo.constant dense<0.25> : tensor<f64>
  %c0008 = stablehlo.constant dense<0.008> : tensor<f64>
  %c0006 = stablehlo.constant dense<0.006> : tensor<f64>
  %ok7 = func.call @near(%gmean, %cm3, %c0008) : (tensor<f64>, tensor<f64>, tensor<f64>) -> tensor<i1>
  %ok8 = func.call @near(%gvar, %c025, %c0006) : (tensor<f64>, tensor<f64>, tensor<f64>) -> tensor<i1>
  check.expect_eq_const %ok7, dense<true> : tensor<i1>
  check.expect_eq_const %ok8, dense<true> : tensor<i1>
  %gb = stablehlo.bitcast_convert %g1 : (tensor<100000xf64>) -> tensor<100000xui64>
  %gt = stablehlo.convert %gb : (tensor<100000xui64>) -> tensor<100000xui32>
  %gh = func.call @sum32(%gt) : (tensor<100000xui32>) -> tensor<ui32>
  check.expect_eq_const %gh, dense<895716853> : tensor<ui32>
  func.return
}

// -----

func.func private @sum32(%x: tensor<100000xui32>) -> tensor<ui32> {
  %i = stablehlo.iota dim = 0 : tensor<100000xui32>
  %one = stablehlo.constant dense<1> : tensor<100000xui32>
  %i2 = stablehlo.add %i, %i : tensor<100000xui32>
  %w = stablehlo.add %i2, %one : tensor<100000xui32>
  %p = stablehlo.multiply %x, %w : tensor<100000xui32>
  %z = stablehlo.constant dense<0> : tensor<ui32>
  %s = stablehlo.reduce(%p init: %z) applies stablehlo.add across dimensions = [0] : (tensor<100000xui32>, tensor<ui32>) -> tensor<ui32>
  func.return %s : tensor<ui32>
}

// 16-bit floats: rounding to the element type often reaches b (bf16 on
// [0, 1): about one value in 500), and those are drawn again, so b never
// appears.
func.func @narrow_floats() {
  %a = stablehlo.constant dense<0.0> : tensor<bf16>
  %b = stablehlo.constant dense<1.0> : tensor<bf16>
  %shape = stablehlo.constant dense<[100000]> : tensor<1xi64>
  %u = "stablehlo.rng"(%a, %b, %shape) {rng_distribution = #stablehlo<rng_distribution UNIFORM>}
      : (tensor<bf16>, tensor<bf16>, tensor<1xi64>) -> tensor<100000xbf16>
  %ninf = stablehlo.constant dense<0xFF80> : tensor<bf16>
  %hi = stablehlo.reduce(%u init: %ninf) applies stablehlo.maximum across dimensions = [0] : (tensor<100000xbf16>, tensor<bf16>) -> tensor<bf16>
  check.expect_eq_const %hi, dense<0.99609375> : tensor<bf16>
  %inf = stablehlo.constant dense<0x7F80> : tensor<bf16>
  %lo = stablehlo.reduce(%u init: %inf) applies stablehlo.minimum across dimensions = [0] : (tensor<100000xbf16>, tensor<bf16>) -> tensor<bf16>
  %zero = stablehlo.constant dense<0.0> : tensor<bf16>
  %ok = stablehlo.compare GE, %lo, %zero : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
  check.expect_eq_const %ok, dense<true> : tensor<i1>
  %ub = stablehlo.bitcast_convert %u : (tensor<100000xbf16>) -> tensor<100000xui16>
  %uw = stablehlo.convert %ub : (tensor<100000xui16>) -> tensor<100000xui32>
  %uh = func.call @sum32(%uw) : (tensor<100000xui32>) -> tensor<ui32>
  check.expect_eq_const %uh, dense<820128626> : tensor<ui32>

  %ha = stablehlo.constant dense<-1.0> : tensor<f16>
  %hb = stablehlo.constant dense<0.5> : tensor<f16>
  %h = "stablehlo.rng"(%ha, %hb, %shape) {rng_distribution = #stablehlo<rng_distribution UNIFORM>}
      : (tensor<f16>, tensor<f16>, tensor<1xi64>) -> tensor<100000xf16>
  %hninf = stablehlo.constant dense<0xFC00> : tensor<f16>
  %hhi = stablehlo.reduce(%h init: %hninf) applies stablehlo.maximum across dimensions = [0] : (tensor<100000xf16>, tensor<f16>) -> tensor<f16>
  check.expect_eq_const %hhi, dense<0.49975586> : tensor<f16>
  %hb16 = stablehlo.bitcast_convert %h : (tensor<100000xf16>) -> tensor<100000xui16>
  %hw = stablehlo.convert %hb16 : (tensor<100000xui16>) -> tensor<100000xui32>
  %hh = func.call @sum32(%hw) : (tensor<100000xui32>) -> tensor<ui32>
  check.expect_eq_const %hh, dense<1523524401> : tensor<ui32>

  // normal f16 and bf16, a few values exactly
  %m = stablehlo.constant dense<0.25> : tensor<f16>
  %s = stablehlo.constant dense<3.0> : tensor<f16>
  %shape7 = stablehlo.constant dense<[7]> : tensor<1xi64>
  %n = "stablehlo.rng"(%m, %s, %shape7) {rng_distribution = #stablehlo<rng_distribution NORMAL>}
      : (tensor<f16>, tensor<f16>, tensor<1xi64>) -> tensor<7xf16>
  %nb = stablehlo.bitcast_convert %n : (tensor<7xf16>) -> tensor<7xui16>
  check.expect_eq_const %nb, dense<[15765, 48402, 15767, 16615, 48672, 49956, 48703]> : tensor<7xui16>
  %bm = stablehlo.constant dense<-100.0> : tensor<bf16>
  %bs = stablehlo.constant dense<0.125> : tensor<bf16>
  %bn = "stablehlo.rng"(%bm, %bs, %shape7) {rng_distribution = #stablehlo<rng_distribution NORMAL>}
      : (tensor<bf16>, tensor<bf16>, tensor<1xi64>) -> tensor<7xbf16>
  %bnb = stablehlo.bitcast_convert %bn : (tensor<7xbf16>) -> tensor<7xui16>
  check.expect_eq_const %bnb, dense<[49864, 49864, 49864, 49864, 49864, 49864, 49864]> : tensor<7xui16>
  // uniform f64 on a tiny range, and an empty float range (a > b: all a)
  %da = stablehlo.constant dense<1.0> : tensor<f64>
  %db = stablehlo.constant dense<1.0000000000000009> : tensor<f64>
  %shape5 = stablehlo.constant dense<[5]> : tensor<1xi64>
  %d = "stablehlo.rng"(%da, %db, %shape5) {rng_distribution = #stablehlo<rng_distribution UNIFORM>}
      : (tensor<f64>, tensor<f64>, tensor<1xi64>) -> tensor<5xf64>
  %dbits = stablehlo.bitcast_convert %d : (tensor<5xf64>) -> tensor<5xui64>
  check.expect_eq_const %dbits, dense<[4607182418800017411, 4607182418800017409, 4607182418800017410, 4607182418800017411, 4607182418800017409]> : tensor<5xui64>
  %ea = stablehlo.constant dense<2.5> : tensor<f32>
  %eb = stablehlo.constant dense<-1.0> : tensor<f32>
  %e = "stablehlo.rng"(%ea, %eb, %shape5) {rng_distribution = #stablehlo<rng_distribution UNIFORM>}
      : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<5xf32>
  check.expect_eq_const %e, dense<2.5> : tensor<5xf32>
  func.return
}

// -----

func.func private @sum32(%x: tensor<100000xui32>) -> tensor<ui32> {
  %i = stablehlo.iota dim = 0 : tensor<100000xui32>
  %one = stablehlo.constant dense<1> : tensor<100000xui32>
  %i2 = stablehlo.add %i, %i : tensor<100000xui32>
  %w = stablehlo.add %i2, %one : tensor<100000xui32>
  %p = stablehlo.multiply %x, %w : tensor<100000xui32>
  %z = stablehlo.constant dense<0> : tensor<ui32>
  %s = stablehlo.reduce(%p init: %z) applies stablehlo.add across dimensions = [0] : (tensor<100000xui32>, tensor<ui32>) -> tensor<ui32>
  func.return %s : tensor<ui32>
}

func.func @integers() {
  // s32 on [-5, 5): mean -0.5, variance 99/12 = 8.25
  %a = stablehlo.constant dense<-5> : tensor<i32>
  %b = stablehlo.constant dense<5> : tensor<i32>
  %shape = stablehlo.constant dense<[100000]> : tensor<1xi64>
  %r = "stablehlo.rng"(%a, %b, %shape) {rng_distribution = #stablehlo<rng_distribution UNIFORM>}
      : (tensor<i32>, tensor<i32>, tensor<1xi64>) -> tensor<100000xi32>
  %zi = stablehlo.constant dense<0> : tensor<i32>
  %big = stablehlo.constant dense<2147483647> : tensor<i32>
  %small = stablehlo.constant dense<-2147483648> : tensor<i32>
  %lo = stablehlo.reduce(%r init: %big) applies stablehlo.minimum across dimensions = [0] : (tensor<100000xi32>, tensor<i32>) -> tensor<i32>
  %hi = stablehlo.reduce(%r init: %small) applies stablehlo.maximum across dimensions = [0] : (tensor<100000xi32>, tensor<i32>) -> tensor<i32>
  check.expect_eq_const %lo, dense<-5> : tensor<i32>
  check.expect_eq_const %hi, dense<4> : tensor<i32>
  %sum = stablehlo.reduce(%r init: %zi) applies stablehlo.add across dimensions = [0] : (tensor<100000xi32>, tensor<i32>) -> tensor<i32>
  %sq = stablehlo.multiply %r, %r : tensor<100000xi32>
  %sum2 = stablehlo.reduce(%sq init: %zi) applies stablehlo.add across dimensions = [0] : (tensor<100000xi32>, tensor<i32>) -> tensor<i32>
  // sum within -50000 +- 3000 (3.3 standard errors); sum of squares within
  // 850000 +- 10000 (4 standard errors)
  %s_lo = stablehlo.constant dense<-53000> : tensor<i32>
  %s_hi = stablehlo.constant dense<-47000> : tensor<i32>
  %q_lo = stablehlo.constant dense<840000> : tensor<i32>
  %q_hi = stablehlo.constant dense<860000> : tensor<i32>
  %c1 = stablehlo.compare GT, %sum, %s_lo : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %c2 = stablehlo.compare LT, %sum, %s_hi : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %c3 = stablehlo.compare GT, %sum2, %q_lo : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %c4 = stablehlo.compare LT, %sum2, %q_hi : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %c12 = stablehlo.and %c1, %c2 : tensor<i1>
  %c34 = stablehlo.and %c3, %c4 : tensor<i1>
  check.expect_eq_const %c12, dense<true> : tensor<i1>
  check.expect_eq_const %c34, dense<true> : tensor<i1>
  %ru = stablehlo.convert %r : (tensor<100000xi32>) -> tensor<100000xui32>
  %rh = func.call @sum32(%ru) : (tensor<100000xui32>) -> tensor<ui32>
  check.expect_eq_const %rh, dense<3655431321> : tensor<ui32>
  check.expect_eq_const %sum, dense<-49447> : tensor<i32>

  // u8 near the top of its range, s64 and u64 over huge spans, 4-bit
  // integers, an empty range (all a), pred (all a)
  %shape9 = stablehlo.constant dense<[3, 3]> : tensor<2xi64>
  %ua = stablehlo.constant dense<250> : tensor<ui8>
  %ub = stablehlo.constant dense<255> : tensor<ui8>
  %u8 = "stablehlo.rng"(%ua, %ub, %shape9) {rng_distribution = #stablehlo<rng_distribution UNIFORM>}
      : (tensor<ui8>, tensor<ui8>, tensor<2xi64>) -> tensor<3x3xui8>
  check.expect_eq_const %u8, dense<[[250, 250, 254], [250, 254, 251], [252, 253, 254]]> : tensor<3x3xui8>
  %la = stablehlo.constant dense<-9223372036854775807> : tensor<i64>
  %lb = stablehlo.constant dense<9223372036854775807> : tensor<i64>
  %l = "stablehlo.rng"(%la, %lb, %shape9) {rng_distribution = #stablehlo<rng_distribution UNIFORM>}
      : (tensor<i64>, tensor<i64>, tensor<2xi64>) -> tensor<3x3xi64>
  check.expect_eq_const %l, dense<[[3640561473025739816, -5071869814077697376, -7833872183513040704], [3057960453180437, -4224270568337887530, -4879760845673190672], [-4433567684644968571, 5101485111046082955, 3048249249528680715]]> : tensor<3x3xi64>
  %wa = stablehlo.constant dense<1> : tensor<ui64>
  %wb = stablehlo.constant dense<18446744073709551615> : tensor<ui64>
  %w = "stablehlo.rng"(%wa, %wb, %shape9) {rng_distribution = #stablehlo<rng_distribution UNIFORM>}
      : (tensor<ui64>, tensor<ui64>, tensor<2xi64>) -> tensor<3x3xui64>
  check.expect_eq_const %w, dense<[[9151178266278290270, 2508838376245003679, 1549786925739039455], [9399542593999827509, 15307698054054436603, 4365614722348319000], [8549863969437175075, 713838957677233464, 8520733226841725876]]> : tensor<3x3xui64>
  %qa = stablehlo.constant dense<-8> : tensor<i4>
  %qb = stablehlo.constant dense<7> : tensor<i4>
  %q = "stablehlo.rng"(%qa, %qb, %shape9) {rng_distribution = #stablehlo<rng_distribution UNIFORM>}
      : (tensor<i4>, tensor<i4>, tensor<2xi64>) -> tensor<3x3xi4>
  check.expect_eq_const %q, dense<[[-2, 4, 4], [-6, -8, 4], [-8, 6, -3]]> : tensor<3x3xi4>
  %va = stablehlo.constant dense<3> : tensor<ui4>
  %vb = stablehlo.constant dense<15> : tensor<ui4>
  %v = "stablehlo.rng"(%va, %vb, %shape9) {rng_distribution = #stablehlo<rng_distribution UNIFORM>}
      : (tensor<ui4>, tensor<ui4>, tensor<2xi64>) -> tensor<3x3xui4>
  check.expect_eq_const %v, dense<[[4, 11, 4], [8, 10, 8], [6, 3, 8]]> : tensor<3x3xui4>
  %ea = stablehlo.constant dense<3> : tensor<i16>
  %eb = stablehlo.constant dense<-2> : tensor<i16>
  %e = "stablehlo.rng"(%ea, %eb, %shape9) {rng_distribution = #stablehlo<rng_distribution UNIFORM>}
      : (tensor<i16>, tensor<i16>, tensor<2xi64>) -> tensor<3x3xi16>
  check.expect_eq_const %e, dense<3> : tensor<3x3xi16>
  %pa = stablehlo.constant dense<true> : tensor<i1>
  %pb = stablehlo.constant dense<true> : tensor<i1>
  %p = "stablehlo.rng"(%pa, %pb, %shape9) {rng_distribution = #stablehlo<rng_distribution UNIFORM>}
      : (tensor<i1>, tensor<i1>, tensor<2xi64>) -> tensor<3x3xi1>
  check.expect_eq_const %p, dense<true> : tensor<3x3xi1>
  func.return
}

// -----

// One op gives the same numbers each time it runs (here, every iteration),
// and a and b may be computed values.
func.func @in_loop() {
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %acc0 = stablehlo.constant dense<0.0> : tensor<6xf32>
  %r:2 = stablehlo.while(%i = %i0, %acc = %acc0) : tensor<i32>, tensor<6xf32>
  cond {
    %n = stablehlo.constant dense<3> : tensor<i32>
    %c = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %f = stablehlo.convert %i : (tensor<i32>) -> tensor<f32>
    %one = stablehlo.constant dense<1.0> : tensor<f32>
    %b = stablehlo.add %f, %one : tensor<f32>
    %shape = stablehlo.constant dense<[6]> : tensor<1xi64>
    %u = "stablehlo.rng"(%f, %b, %shape) {rng_distribution = #stablehlo<rng_distribution UNIFORM>}
        : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<6xf32>
    %a = stablehlo.add %acc, %u : tensor<6xf32>
    %ione = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %ione : tensor<i32>
    stablehlo.return %j, %a : tensor<i32>, tensor<6xf32>
  }
  %bits = stablehlo.bitcast_convert %r#1 : (tensor<6xf32>) -> tensor<6xui32>
  check.expect_eq_const %bits, dense<[1082528053, 1085340332, 1080991913, 1084728014, 1083193648, 1082987920]> : tensor<6xui32>
  func.return
}
