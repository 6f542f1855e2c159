// RUN: xlac run --split-input-file %s
// Row fusion of layernorm and rmsnorm (mean, variance, rsqrt, scale by a
// per-column weight): two reductions and the normalization in one kernel.
// Each program computes the pattern twice, the second time on a copy of the
// input with optimization barriers after the reductions (no row fusion),
// and expects identical bits.  Rows of 1 to 4097, f32, f64 and bf16.

// layernorm over rows of 1, 4 rows, f32; fused against barriers between the stages
func.func @layernorm_4x1_f32() {
  %xi = stablehlo.iota dim = 0 : tensor<4x1xf32>
  %xj = stablehlo.iota dim = 1 : tensor<4x1xf32>
  %xa = stablehlo.constant dense<1.37> : tensor<4x1xf32>
  %xb = stablehlo.constant dense<0.61> : tensor<4x1xf32>
  %xia = stablehlo.multiply %xi, %xa : tensor<4x1xf32>
  %xjb = stablehlo.multiply %xj, %xb : tensor<4x1xf32>
  %xs = stablehlo.add %xia, %xjb : tensor<4x1xf32>
  %xsn = stablehlo.sine %xs : tensor<4x1xf32>
  %xc = stablehlo.constant dense<6.0> : tensor<4x1xf32>
  %xf = stablehlo.multiply %xsn, %xc : tensor<4x1xf32>
  %x, %x2 = stablehlo.optimization_barrier %xf, %xf : tensor<4x1xf32>, tensor<4x1xf32>
  %gi = stablehlo.iota dim = 0 : tensor<1x1xf32>
  %gj = stablehlo.iota dim = 1 : tensor<1x1xf32>
  %ga = stablehlo.constant dense<0.3> : tensor<1x1xf32>
  %gb = stablehlo.constant dense<0.9> : tensor<1x1xf32>
  %gia = stablehlo.multiply %gi, %ga : tensor<1x1xf32>
  %gjb = stablehlo.multiply %gj, %gb : tensor<1x1xf32>
  %gs = stablehlo.add %gia, %gjb : tensor<1x1xf32>
  %gsn = stablehlo.sine %gs : tensor<1x1xf32>
  %gc = stablehlo.constant dense<6.0> : tensor<1x1xf32>
  %gf = stablehlo.multiply %gsn, %gc : tensor<1x1xf32>
  %g, %g2 = stablehlo.optimization_barrier %gf, %gf : tensor<1x1xf32>, tensor<1x1xf32>
  %gv = stablehlo.reshape %g : (tensor<1x1xf32>) -> tensor<1xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %n = stablehlo.constant dense<1.0> : tensor<4xf32>
  %eps = stablehlo.constant dense<1.0e-5> : tensor<4xf32>
  %gw = stablehlo.broadcast_in_dim %gv, dims = [1] : (tensor<1xf32>) -> tensor<4x1xf32>
  %sm = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<4x1xf32>, tensor<f32>) -> tensor<4xf32>
  %mean = stablehlo.divide %sm, %n : tensor<4xf32>
  %mb = stablehlo.broadcast_in_dim %mean, dims = [0] : (tensor<4xf32>) -> tensor<4x1xf32>
  %cx = stablehlo.subtract %x, %mb : tensor<4x1xf32>
  %sq = stablehlo.multiply %cx, %cx : tensor<4x1xf32>
  %ss = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<4x1xf32>, tensor<f32>) -> tensor<4xf32>
  %var = stablehlo.divide %ss, %n : tensor<4xf32>
  %ve = stablehlo.add %var, %eps : tensor<4xf32>
  %rs = stablehlo.rsqrt %ve : tensor<4xf32>
  %rsb = stablehlo.broadcast_in_dim %rs, dims = [0] : (tensor<4xf32>) -> tensor<4x1xf32>
  %y0 = stablehlo.multiply %cx, %rsb : tensor<4x1xf32>
  %y = stablehlo.multiply %y0, %gw : tensor<4x1xf32>
  %sm_u = stablehlo.reduce(%x2 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<4x1xf32>, tensor<f32>) -> tensor<4xf32>
  %sm_u_b = stablehlo.optimization_barrier %sm_u : tensor<4xf32>
  %mean_u = stablehlo.divide %sm_u_b, %n : tensor<4xf32>
  %mb_u = stablehlo.broadcast_in_dim %mean_u, dims = [0] : (tensor<4xf32>) -> tensor<4x1xf32>
  %cx_u = stablehlo.subtract %x2, %mb_u : tensor<4x1xf32>
  %sq_u = stablehlo.multiply %cx_u, %cx_u : tensor<4x1xf32>
  %ss_u = stablehlo.reduce(%sq_u init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<4x1xf32>, tensor<f32>) -> tensor<4xf32>
  %ss_u_b = stablehlo.optimization_barrier %ss_u : tensor<4xf32>
  %var_u = stablehlo.divide %ss_u_b, %n : tensor<4xf32>
  %ve_u = stablehlo.add %var_u, %eps : tensor<4xf32>
  %rs_u = stablehlo.rsqrt %ve_u : tensor<4xf32>
  %rsb_u = stablehlo.broadcast_in_dim %rs_u, dims = [0] : (tensor<4xf32>) -> tensor<4x1xf32>
  %y0_u = stablehlo.multiply %cx_u, %rsb_u : tensor<4x1xf32>
  %y_u = stablehlo.multiply %y0_u, %gw : tensor<4x1xf32>
  check.expect_eq %y, %y_u : tensor<4x1xf32>
  func.return
}

// -----

// layernorm over rows of 3, 5 rows, f32; fused against barriers between the stages
func.func @layernorm_5x3_f32() {
  %xi = stablehlo.iota dim = 0 : tensor<5x3xf32>
  %xj = stablehlo.iota dim = 1 : tensor<5x3xf32>
  %xa = stablehlo.constant dense<1.37> : tensor<5x3xf32>
  %xb = stablehlo.constant dense<0.61> : tensor<5x3xf32>
  %xia = stablehlo.multiply %xi, %xa : tensor<5x3xf32>
  %xjb = stablehlo.multiply %xj, %xb : tensor<5x3xf32>
  %xs = stablehlo.add %xia, %xjb : tensor<5x3xf32>
  %xsn = stablehlo.sine %xs : tensor<5x3xf32>
  %xc = stablehlo.constant dense<6.0> : tensor<5x3xf32>
  %xf = stablehlo.multiply %xsn, %xc : tensor<5x3xf32>
  %x, %x2 = stablehlo.optimization_barrier %xf, %xf : tensor<5x3xf32>, tensor<5x3xf32>
  %gi = stablehlo.iota dim = 0 : tensor<1x3xf32>
  %gj = stablehlo.iota dim = 1 : tensor<1x3xf32>
  %ga = stablehlo.constant dense<0.3> : tensor<1x3xf32>
  %gb = stablehlo.constant dense<0.9> : tensor<1x3xf32>
  %gia = stablehlo.multiply %gi, %ga : tensor<1x3xf32>
  %gjb = stablehlo.multiply %gj, %gb : tensor<1x3xf32>
  %gs = stablehlo.add %gia, %gjb : tensor<1x3xf32>
  %gsn = stablehlo.sine %gs : tensor<1x3xf32>
  %gc = stablehlo.constant dense<6.0> : tensor<1x3xf32>
  %gf = stablehlo.multiply %gsn, %gc : tensor<1x3xf32>
  %g, %g2 = stablehlo.optimization_barrier %gf, %gf : tensor<1x3xf32>, tensor<1x3xf32>
  %gv = stablehlo.reshape %g : (tensor<1x3xf32>) -> tensor<3xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %n = stablehlo.constant dense<3.0> : tensor<5xf32>
  %eps = stablehlo.constant dense<1.0e-5> : tensor<5xf32>
  %gw = stablehlo.broadcast_in_dim %gv, dims = [1] : (tensor<3xf32>) -> tensor<5x3xf32>
  %sm = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<5x3xf32>, tensor<f32>) -> tensor<5xf32>
  %mean = stablehlo.divide %sm, %n : tensor<5xf32>
  %mb = stablehlo.broadcast_in_dim %mean, dims = [0] : (tensor<5xf32>) -> tensor<5x3xf32>
  %cx = stablehlo.subtract %x, %mb : tensor<5x3xf32>
  %sq = stablehlo.multiply %cx, %cx : tensor<5x3xf32>
  %ss = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<5x3xf32>, tensor<f32>) -> tensor<5xf32>
  %var = stablehlo.divide %ss, %n : tensor<5xf32>
  %ve = stablehlo.add %var, %eps : tensor<5xf32>
  %rs = stablehlo.rsqrt %ve : tensor<5xf32>
  %rsb = stablehlo.broadcast_in_dim %rs, dims = [0] : (tensor<5xf32>) -> tensor<5x3xf32>
  %y0 = stablehlo.multiply %cx, %rsb : tensor<5x3xf32>
  %y = stablehlo.multiply %y0, %gw : tensor<5x3xf32>
  %sm_u = stablehlo.reduce(%x2 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<5x3xf32>, tensor<f32>) -> tensor<5xf32>
  %sm_u_b = stablehlo.optimization_barrier %sm_u : tensor<5xf32>
  %mean_u = stablehlo.divide %sm_u_b, %n : tensor<5xf32>
  %mb_u = stablehlo.broadcast_in_dim %mean_u, dims = [0] : (tensor<5xf32>) -> tensor<5x3xf32>
  %cx_u = stablehlo.subtract %x2, %mb_u : tensor<5x3xf32>
  %sq_u = stablehlo.multiply %cx_u, %cx_u : tensor<5x3xf32>
  %ss_u = stablehlo.reduce(%sq_u init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<5x3xf32>, tensor<f32>) -> tensor<5xf32>
  %ss_u_b = stablehlo.optimization_barrier %ss_u : tensor<5xf32>
  %var_u = stablehlo.divide %ss_u_b, %n : tensor<5xf32>
  %ve_u = stablehlo.add %var_u, %eps : tensor<5xf32>
  %rs_u = stablehlo.rsqrt %ve_u : tensor<5xf32>
  %rsb_u = stablehlo.broadcast_in_dim %rs_u, dims = [0] : (tensor<5xf32>) -> tensor<5x3xf32>
  %y0_u = stablehlo.multiply %cx_u, %rsb_u : tensor<5x3xf32>
  %y_u = stablehlo.multiply %y0_u, %gw : tensor<5x3xf32>
  check.expect_eq %y, %y_u : tensor<5x3xf32>
  func.return
}

// -----

// layernorm over rows of 17, 7 rows, f32; fused against barriers between the stages
func.func @layernorm_7x17_f32() {
  %xi = stablehlo.iota dim = 0 : tensor<7x17xf32>
  %xj = stablehlo.iota dim = 1 : tensor<7x17xf32>
  %xa = stablehlo.constant dense<1.37> : tensor<7x17xf32>
  %xb = stablehlo.constant dense<0.61> : tensor<7x17xf32>
  %xia = stablehlo.multiply %xi, %xa : tensor<7x17xf32>
  %xjb = stablehlo.multiply %xj, %xb : tensor<7x17xf32>
  %xs = stablehlo.add %xia, %xjb : tensor<7x17xf32>
  %xsn = stablehlo.sine %xs : tensor<7x17xf32>
  %xc = stablehlo.constant dense<6.0> : tensor<7x17xf32>
  %xf = stablehlo.multiply %xsn, %xc : tensor<7x17xf32>
  %x, %x2 = stablehlo.optimization_barrier %xf, %xf : tensor<7x17xf32>, tensor<7x17xf32>
  %gi = stablehlo.iota dim = 0 : tensor<1x17xf32>
  %gj = stablehlo.iota dim = 1 : tensor<1x17xf32>
  %ga = stablehlo.constant dense<0.3> : tensor<1x17xf32>
  %gb = stablehlo.constant dense<0.9> : tensor<1x17xf32>
  %gia = stablehlo.multiply %gi, %ga : tensor<1x17xf32>
  %gjb = stablehlo.multiply %gj, %gb : tensor<1x17xf32>
  %gs = stablehlo.add %gia, %gjb : tensor<1x17xf32>
  %gsn = stablehlo.sine %gs : tensor<1x17xf32>
  %gc = stablehlo.constant dense<6.0> : tensor<1x17xf32>
  %gf = stablehlo.multiply %gsn, %gc : tensor<1x17xf32>
  %g, %g2 = stablehlo.optimization_barrier %gf, %gf : tensor<1x17xf32>, tensor<1x17xf32>
  %gv = stablehlo.reshape %g : (tensor<1x17xf32>) -> tensor<17xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %n = stablehlo.constant dense<17.0> : tensor<7xf32>
  %eps = stablehlo.constant dense<1.0e-5> : tensor<7xf32>
  %gw = stablehlo.broadcast_in_dim %gv, dims = [1] : (tensor<17xf32>) -> tensor<7x17xf32>
  %sm = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<7x17xf32>, tensor<f32>) -> tensor<7xf32>
  %mean = stablehlo.divide %sm, %n : tensor<7xf32>
  %mb = stablehlo.broadcast_in_dim %mean, dims = [0] : (tensor<7xf32>) -> tensor<7x17xf32>
  %cx = stablehlo.subtract %x, %mb : tensor<7x17xf32>
  %sq = stablehlo.multiply %cx, %cx : tensor<7x17xf32>
  %ss = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<7x17xf32>, tensor<f32>) -> tensor<7xf32>
  %var = stablehlo.divide %ss, %n : tensor<7xf32>
  %ve = stablehlo.add %var, %eps : tensor<7xf32>
  %rs = stablehlo.rsqrt %ve : tensor<7xf32>
  %rsb = stablehlo.broadcast_in_dim %rs, dims = [0] : (tensor<7xf32>) -> tensor<7x17xf32>
  %y0 = stablehlo.multiply %cx, %rsb : tensor<7x17xf32>
  %y = stablehlo.multiply %y0, %gw : tensor<7x17xf32>
  %sm_u = stablehlo.reduce(%x2 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<7x17xf32>, tensor<f32>) -> tensor<7xf32>
  %sm_u_b = stablehlo.optimization_barrier %sm_u : tensor<7xf32>
  %mean_u = stablehlo.divide %sm_u_b, %n : tensor<7xf32>
  %mb_u = stablehlo.broadcast_in_dim %mean_u, dims = [0] : (tensor<7xf32>) -> tensor<7x17xf32>
  %cx_u = stablehlo.subtract %x2, %mb_u : tensor<7x17xf32>
  %sq_u = stablehlo.multiply %cx_u, %cx_u : tensor<7x17xf32>
  %ss_u = stablehlo.reduce(%sq_u init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<7x17xf32>, tensor<f32>) -> tensor<7xf32>
  %ss_u_b = stablehlo.optimization_barrier %ss_u : tensor<7xf32>
  %var_u = stablehlo.divide %ss_u_b, %n : tensor<7xf32>
  %ve_u = stablehlo.add %var_u, %eps : tensor<7xf32>
  %rs_u = stablehlo.rsqrt %ve_u : tensor<7xf32>
  %rsb_u = stablehlo.broadcast_in_dim %rs_u, dims = [0] : (tensor<7xf32>) -> tensor<7x17xf32>
  %y0_u = stablehlo.multiply %cx_u, %rsb_u : tensor<7x17xf32>
  %y_u = stablehlo.multiply %y0_u, %gw : tensor<7x17xf32>
  check.expect_eq %y, %y_u : tensor<7x17xf32>
  func.return
}

// -----

// layernorm over rows of 1000, 3 rows, f32; fused against barriers between the stages
func.func @layernorm_3x1000_f32() {
  %xi = stablehlo.iota dim = 0 : tensor<3x1000xf32>
  %xj = stablehlo.iota dim = 1 : tensor<3x1000xf32>
  %xa = stablehlo.constant dense<1.37> : tensor<3x1000xf32>
  %xb = stablehlo.constant dense<0.61> : tensor<3x1000xf32>
  %xia = stablehlo.multiply %xi, %xa : tensor<3x1000xf32>
  %xjb = stablehlo.multiply %xj, %xb : tensor<3x1000xf32>
  %xs = stablehlo.add %xia, %xjb : tensor<3x1000xf32>
  %xsn = stablehlo.sine %xs : tensor<3x1000xf32>
  %xc = stablehlo.constant dense<6.0> : tensor<3x1000xf32>
  %xf = stablehlo.multiply %xsn, %xc : tensor<3x1000xf32>
  %x, %x2 = stablehlo.optimization_barrier %xf, %xf : tensor<3x1000xf32>, tensor<3x1000xf32>
  %gi = stablehlo.iota dim = 0 : tensor<1x1000xf32>
  %gj = stablehlo.iota dim = 1 : tensor<1x1000xf32>
  %ga = stablehlo.constant dense<0.3> : tensor<1x1000xf32>
  %gb = stablehlo.constant dense<0.9> : tensor<1x1000xf32>
  %gia = stablehlo.multiply %gi, %ga : tensor<1x1000xf32>
  %gjb = stablehlo.multiply %gj, %gb : tensor<1x1000xf32>
  %gs = stablehlo.add %gia, %gjb : tensor<1x1000xf32>
  %gsn = stablehlo.sine %gs : tensor<1x1000xf32>
  %gc = stablehlo.constant dense<6.0> : tensor<1x1000xf32>
  %gf = stablehlo.multiply %gsn, %gc : tensor<1x1000xf32>
  %g, %g2 = stablehlo.optimization_barrier %gf, %gf : tensor<1x1000xf32>, tensor<1x1000xf32>
  %gv = stablehlo.reshape %g : (tensor<1x1000xf32>) -> tensor<1000xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %n = stablehlo.constant dense<1000.0> : tensor<3xf32>
  %eps = stablehlo.constant dense<1.0e-5> : tensor<3xf32>
  %gw = stablehlo.broadcast_in_dim %gv, dims = [1] : (tensor<1000xf32>) -> tensor<3x1000xf32>
  %sm = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<3x1000xf32>, tensor<f32>) -> tensor<3xf32>
  %mean = stablehlo.divide %sm, %n : tensor<3xf32>
  %mb = stablehlo.broadcast_in_dim %mean, dims = [0] : (tensor<3xf32>) -> tensor<3x1000xf32>
  %cx = stablehlo.subtract %x, %mb : tensor<3x1000xf32>
  %sq = stablehlo.multiply %cx, %cx : tensor<3x1000xf32>
  %ss = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<3x1000xf32>, tensor<f32>) -> tensor<3xf32>
  %var = stablehlo.divide %ss, %n : tensor<3xf32>
  %ve = stablehlo.add %var, %eps : tensor<3xf32>
  %rs = stablehlo.rsqrt %ve : tensor<3xf32>
  %rsb = stablehlo.broadcast_in_dim %rs, dims = [0] : (tensor<3xf32>) -> tensor<3x1000xf32>
  %y0 = stablehlo.multiply %cx, %rsb : tensor<3x1000xf32>
  %y = stablehlo.multiply %y0, %gw : tensor<3x1000xf32>
  %sm_u = stablehlo.reduce(%x2 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<3x1000xf32>, tensor<f32>) -> tensor<3xf32>
  %sm_u_b = stablehlo.optimization_barrier %sm_u : tensor<3xf32>
  %mean_u = stablehlo.divide %sm_u_b, %n : tensor<3xf32>
  %mb_u = stablehlo.broadcast_in_dim %mean_u, dims = [0] : (tensor<3xf32>) -> tensor<3x1000xf32>
  %cx_u = stablehlo.subtract %x2, %mb_u : tensor<3x1000xf32>
  %sq_u = stablehlo.multiply %cx_u, %cx_u : tensor<3x1000xf32>
  %ss_u = stablehlo.reduce(%sq_u init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<3x1000xf32>, tensor<f32>) -> tensor<3xf32>
  %ss_u_b = stablehlo.optimization_barrier %ss_u : tensor<3xf32>
  %var_u = stablehlo.divide %ss_u_b, %n : tensor<3xf32>
  %ve_u = stablehlo.add %var_u, %eps : tensor<3xf32>
  %rs_u = stablehlo.rsqrt %ve_u : tensor<3xf32>
  %rsb_u = stablehlo.broadcast_in_dim %rs_u, dims = [0] : (tensor<3xf32>) -> tensor<3x1000xf32>
  %y0_u = stablehlo.multiply %cx_u, %rsb_u : tensor<3x1000xf32>
  %y_u = stablehlo.multiply %y0_u, %gw : tensor<3x1000xf32>
  check.expect_eq %y, %y_u : tensor<3x1000xf32>
  func.return
}

// -----

// layernorm over rows of 4097, 2 rows, f32; fused against barriers between the stages
func.func @layernorm_2x4097_f32() {
  %xi = stablehlo.iota dim = 0 : tensor<2x4097xf32>
  %xj = stablehlo.iota dim = 1 : tensor<2x4097xf32>
  %xa = stablehlo.constant dense<1.37> : tensor<2x4097xf32>
  %xb = stablehlo.constant dense<0.61> : tensor<2x4097xf32>
  %xia = stablehlo.multiply %xi, %xa : tensor<2x4097xf32>
  %xjb = stablehlo.multiply %xj, %xb : tensor<2x4097xf32>
  %xs = stablehlo.add %xia, %xjb : tensor<2x4097xf32>
  %xsn = stablehlo.sine %xs : tensor<2x4097xf32>
  %xc = stablehlo.constant dense<6.0> : tensor<2x4097xf32>
  %xf = stablehlo.multiply %xsn, %xc : tensor<2x4097xf32>
  %x, %x2 = stablehlo.optimization_barrier %xf, %xf : tensor<2x4097xf32>, tensor<2x4097xf32>
  %gi = stablehlo.iota dim = 0 : tensor<1x4097xf32>
  %gj = stablehlo.iota dim = 1 : tensor<1x4097xf32>
  %ga = stablehlo.constant dense<0.3> : tensor<1x4097xf32>
  %gb = stablehlo.constant dense<0.9> : tensor<1x4097xf32>
  %gia = stablehlo.multiply %gi, %ga : tensor<1x4097xf32>
  %gjb = stablehlo.multiply %gj, %gb : tensor<1x4097xf32>
  %gs = stablehlo.add %gia, %gjb : tensor<1x4097xf32>
  %gsn = stablehlo.sine %gs : tensor<1x4097xf32>
  %gc = stablehlo.constant dense<6.0> : tensor<1x4097xf32>
  %gf = stablehlo.multiply %gsn, %gc : tensor<1x4097xf32>
  %g, %g2 = stablehlo.optimization_barrier %gf, %gf : tensor<1x4097xf32>, tensor<1x4097xf32>
  %gv = stablehlo.reshape %g : (tensor<1x4097xf32>) -> tensor<4097xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %n = stablehlo.constant dense<4097.0> : tensor<2xf32>
  %eps = stablehlo.constant dense<1.0e-5> : tensor<2xf32>
  %gw = stablehlo.broadcast_in_dim %gv, dims = [1] : (tensor<4097xf32>) -> tensor<2x4097xf32>
  %sm = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<2x4097xf32>, tensor<f32>) -> tensor<2xf32>
  %mean = stablehlo.divide %sm, %n : tensor<2xf32>
  %mb = stablehlo.broadcast_in_dim %mean, dims = [0] : (tensor<2xf32>) -> tensor<2x4097xf32>
  %cx = stablehlo.subtract %x, %mb : tensor<2x4097xf32>
  %sq = stablehlo.multiply %cx, %cx : tensor<2x4097xf32>
  %ss = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<2x4097xf32>, tensor<f32>) -> tensor<2xf32>
  %var = stablehlo.divide %ss, %n : tensor<2xf32>
  %ve = stablehlo.add %var, %eps : tensor<2xf32>
  %rs = stablehlo.rsqrt %ve : tensor<2xf32>
  %rsb = stablehlo.broadcast_in_dim %rs, dims = [0] : (tensor<2xf32>) -> tensor<2x4097xf32>
  %y0 = stablehlo.multiply %cx, %rsb : tensor<2x4097xf32>
  %y = stablehlo.multiply %y0, %gw : tensor<2x4097xf32>
  %sm_u = stablehlo.reduce(%x2 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<2x4097xf32>, tensor<f32>) -> tensor<2xf32>
  %sm_u_b = stablehlo.optimization_barrier %sm_u : tensor<2xf32>
  %mean_u = stablehlo.divide %sm_u_b, %n : tensor<2xf32>
  %mb_u = stablehlo.broadcast_in_dim %mean_u, dims = [0] : (tensor<2xf32>) -> tensor<2x4097xf32>
  %cx_u = stablehlo.subtract %x2, %mb_u : tensor<2x4097xf32>
  %sq_u = stablehlo.multiply %cx_u, %cx_u : tensor<2x4097xf32>
  %ss_u = stablehlo.reduce(%sq_u init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<2x4097xf32>, tensor<f32>) -> tensor<2xf32>
  %ss_u_b = stablehlo.optimization_barrier %ss_u : tensor<2xf32>
  %var_u = stablehlo.divide %ss_u_b, %n : tensor<2xf32>
  %ve_u = stablehlo.add %var_u, %eps : tensor<2xf32>
  %rs_u = stablehlo.rsqrt %ve_u : tensor<2xf32>
  %rsb_u = stablehlo.broadcast_in_dim %rs_u, dims = [0] : (tensor<2xf32>) -> tensor<2x4097xf32>
  %y0_u = stablehlo.multiply %cx_u, %rsb_u : tensor<2x4097xf32>
  %y_u = stablehlo.multiply %y0_u, %gw : tensor<2x4097xf32>
  check.expect_eq %y, %y_u : tensor<2x4097xf32>
  func.return
}

// -----

// layernorm over rows of 128, 700 rows, f32; fused against barriers between the stages
func.func @layernorm_700x128_f32() {
  %xi = stablehlo.iota dim = 0 : tensor<700x128xf32>
  %xj = stablehlo.iota dim = 1 : tensor<700x128xf32>
  %xa = stablehlo.constant dense<1.37> : tensor<700x128xf32>
  %xb = stablehlo.constant dense<0.61> : tensor<700x128xf32>
  %xia = stablehlo.multiply %xi, %xa : tensor<700x128xf32>
  %xjb = stablehlo.multiply %xj, %xb : tensor<700x128xf32>
  %xs = stablehlo.add %xia, %xjb : tensor<700x128xf32>
  %xsn = stablehlo.sine %xs : tensor<700x128xf32>
  %xc = stablehlo.constant dense<6.0> : tensor<700x128xf32>
  %xf = stablehlo.multiply %xsn, %xc : tensor<700x128xf32>
  %x, %x2 = stablehlo.optimization_barrier %xf, %xf : tensor<700x128xf32>, tensor<700x128xf32>
  %gi = stablehlo.iota dim = 0 : tensor<1x128xf32>
  %gj = stablehlo.iota dim = 1 : tensor<1x128xf32>
  %ga = stablehlo.constant dense<0.3> : tensor<1x128xf32>
  %gb = stablehlo.constant dense<0.9> : tensor<1x128xf32>
  %gia = stablehlo.multiply %gi, %ga : tensor<1x128xf32>
  %gjb = stablehlo.multiply %gj, %gb : tensor<1x128xf32>
  %gs = stablehlo.add %gia, %gjb : tensor<1x128xf32>
  %gsn = stablehlo.sine %gs : tensor<1x128xf32>
  %gc = stablehlo.constant dense<6.0> : tensor<1x128xf32>
  %gf = stablehlo.multiply %gsn, %gc : tensor<1x128xf32>
  %g, %g2 = stablehlo.optimization_barrier %gf, %gf : tensor<1x128xf32>, tensor<1x128xf32>
  %gv = stablehlo.reshape %g : (tensor<1x128xf32>) -> tensor<128xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %n = stablehlo.constant dense<128.0> : tensor<700xf32>
  %eps = stablehlo.constant dense<1.0e-5> : tensor<700xf32>
  %gw = stablehlo.broadcast_in_dim %gv, dims = [1] : (tensor<128xf32>) -> tensor<700x128xf32>
  %sm = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<700x128xf32>, tensor<f32>) -> tensor<700xf32>
  %mean = stablehlo.divide %sm, %n : tensor<700xf32>
  %mb = stablehlo.broadcast_in_dim %mean, dims = [0] : (tensor<700xf32>) -> tensor<700x128xf32>
  %cx = stablehlo.subtract %x, %mb : tensor<700x128xf32>
  %sq = stablehlo.multiply %cx, %cx : tensor<700x128xf32>
  %ss = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<700x128xf32>, tensor<f32>) -> tensor<700xf32>
  %var = stablehlo.divide %ss, %n : tensor<700xf32>
  %ve = stablehlo.add %var, %eps : tensor<700xf32>
  %rs = stablehlo.rsqrt %ve : tensor<700xf32>
  %rsb = stablehlo.broadcast_in_dim %rs, dims = [0] : (tensor<700xf32>) -> tensor<700x128xf32>
  %y0 = stablehlo.multiply %cx, %rsb : tensor<700x128xf32>
  %y = stablehlo.multiply %y0, %gw : tensor<700x128xf32>
  %sm_u = stablehlo.reduce(%x2 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<700x128xf32>, tensor<f32>) -> tensor<700xf32>
  %sm_u_b = stablehlo.optimization_barrier %sm_u : tensor<700xf32>
  %mean_u = stablehlo.divide %sm_u_b, %n : tensor<700xf32>
  %mb_u = stablehlo.broadcast_in_dim %mean_u, dims = [0] : (tensor<700xf32>) -> tensor<700x128xf32>
  %cx_u = stablehlo.subtract %x2, %mb_u : tensor<700x128xf32>
  %sq_u = stablehlo.multiply %cx_u, %cx_u : tensor<700x128xf32>
  %ss_u = stablehlo.reduce(%sq_u init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<700x128xf32>, tensor<f32>) -> tensor<700xf32>
  %ss_u_b = stablehlo.optimization_barrier %ss_u : tensor<700xf32>
  %var_u = stablehlo.divide %ss_u_b, %n : tensor<700xf32>
  %ve_u = stablehlo.add %var_u, %eps : tensor<700xf32>
  %rs_u = stablehlo.rsqrt %ve_u : tensor<700xf32>
  %rsb_u = stablehlo.broadcast_in_dim %rs_u, dims = [0] : (tensor<700xf32>) -> tensor<700x128xf32>
  %y0_u = stablehlo.multiply %cx_u, %rsb_u : tensor<700x128xf32>
  %y_u = stablehlo.multiply %y0_u, %gw : tensor<700x128xf32>
  check.expect_eq %y, %y_u : tensor<700x128xf32>
  func.return
}

// -----

// layernorm over rows of 17, 9 rows, f64; fused against barriers between the stages
func.func @layernorm_9x17_f64() {
  %xi = stablehlo.iota dim = 0 : tensor<9x17xf32>
  %xj = stablehlo.iota dim = 1 : tensor<9x17xf32>
  %xa = stablehlo.constant dense<1.37> : tensor<9x17xf32>
  %xb = stablehlo.constant dense<0.61> : tensor<9x17xf32>
  %xia = stablehlo.multiply %xi, %xa : tensor<9x17xf32>
  %xjb = stablehlo.multiply %xj, %xb : tensor<9x17xf32>
  %xs = stablehlo.add %xia, %xjb : tensor<9x17xf32>
  %xsn = stablehlo.sine %xs : tensor<9x17xf32>
  %xc = stablehlo.constant dense<6.0> : tensor<9x17xf32>
  %xf = stablehlo.multiply %xsn, %xc : tensor<9x17xf32>
  %xt = stablehlo.convert %xf : (tensor<9x17xf32>) -> tensor<9x17xf64>
  %x, %x2 = stablehlo.optimization_barrier %xt, %xt : tensor<9x17xf64>, tensor<9x17xf64>
  %gi = stablehlo.iota dim = 0 : tensor<1x17xf32>
  %gj = stablehlo.iota dim = 1 : tensor<1x17xf32>
  %ga = stablehlo.constant dense<0.3> : tensor<1x17xf32>
  %gb = stablehlo.constant dense<0.9> : tensor<1x17xf32>
  %gia = stablehlo.multiply %gi, %ga : tensor<1x17xf32>
  %gjb = stablehlo.multiply %gj, %gb : tensor<1x17xf32>
  %gs = stablehlo.add %gia, %gjb : tensor<1x17xf32>
  %gsn = stablehlo.sine %gs : tensor<1x17xf32>
  %gc = stablehlo.constant dense<6.0> : tensor<1x17xf32>
  %gf = stablehlo.multiply %gsn, %gc : tensor<1x17xf32>
  %gt = stablehlo.convert %gf : (tensor<1x17xf32>) -> tensor<1x17xf64>
  %g, %g2 = stablehlo.optimization_barrier %gt, %gt : tensor<1x17xf64>, tensor<1x17xf64>
  %gv = stablehlo.reshape %g : (tensor<1x17xf64>) -> tensor<17xf64>
  %zero = stablehlo.constant dense<0.0> : tensor<f64>
  %n = stablehlo.constant dense<17.0> : tensor<9xf64>
  %eps = stablehlo.constant dense<1.0e-5> : tensor<9xf64>
  %gw = stablehlo.broadcast_in_dim %gv, dims = [1] : (tensor<17xf64>) -> tensor<9x17xf64>
  %sm = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<9x17xf64>, tensor<f64>) -> tensor<9xf64>
  %mean = stablehlo.divide %sm, %n : tensor<9xf64>
  %mb = stablehlo.broadcast_in_dim %mean, dims = [0] : (tensor<9xf64>) -> tensor<9x17xf64>
  %cx = stablehlo.subtract %x, %mb : tensor<9x17xf64>
  %sq = stablehlo.multiply %cx, %cx : tensor<9x17xf64>
  %ss = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<9x17xf64>, tensor<f64>) -> tensor<9xf64>
  %var = stablehlo.divide %ss, %n : tensor<9xf64>
  %ve = stablehlo.add %var, %eps : tensor<9xf64>
  %rs = stablehlo.rsqrt %ve : tensor<9xf64>
  %rsb = stablehlo.broadcast_in_dim %rs, dims = [0] : (tensor<9xf64>) -> tensor<9x17xf64>
  %y0 = stablehlo.multiply %cx, %rsb : tensor<9x17xf64>
  %y = stablehlo.multiply %y0, %gw : tensor<9x17xf64>
  %sm_u = stablehlo.reduce(%x2 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<9x17xf64>, tensor<f64>) -> tensor<9xf64>
  %sm_u_b = stablehlo.optimization_barrier %sm_u : tensor<9xf64>
  %mean_u = stablehlo.divide %sm_u_b, %n : tensor<9xf64>
  %mb_u = stablehlo.broadcast_in_dim %mean_u, dims = [0] : (tensor<9xf64>) -> tensor<9x17xf64>
  %cx_u = stablehlo.subtract %x2, %mb_u : tensor<9x17xf64>
  %sq_u = stablehlo.multiply %cx_u, %cx_u : tensor<9x17xf64>
  %ss_u = stablehlo.reduce(%sq_u init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<9x17xf64>, tensor<f64>) -> tensor<9xf64>
  %ss_u_b = stablehlo.optimization_barrier %ss_u : tensor<9xf64>
  %var_u = stablehlo.divide %ss_u_b, %n : tensor<9xf64>
  %ve_u = stablehlo.add %var_u, %eps : tensor<9xf64>
  %rs_u = stablehlo.rsqrt %ve_u : tensor<9xf64>
  %rsb_u = stablehlo.broadcast_in_dim %rs_u, dims = [0] : (tensor<9xf64>) -> tensor<9x17xf64>
  %y0_u = stablehlo.multiply %cx_u, %rsb_u : tensor<9x17xf64>
  %y_u = stablehlo.multiply %y0_u, %gw : tensor<9x17xf64>
  check.expect_eq %y, %y_u : tensor<9x17xf64>
  func.return
}

// -----

// layernorm over rows of 1000, 3 rows, f64; fused against barriers between the stages
func.func @layernorm_3x1000_f64() {
  %xi = stablehlo.iota dim = 0 : tensor<3x1000xf32>
  %xj = stablehlo.iota dim = 1 : tensor<3x1000xf32>
  %xa = stablehlo.constant dense<1.37> : tensor<3x1000xf32>
  %xb = stablehlo.constant dense<0.61> : tensor<3x1000xf32>
  %xia = stablehlo.multiply %xi, %xa : tensor<3x1000xf32>
  %xjb = stablehlo.multiply %xj, %xb : tensor<3x1000xf32>
  %xs = stablehlo.add %xia, %xjb : tensor<3x1000xf32>
  %xsn = stablehlo.sine %xs : tensor<3x1000xf32>
  %xc = stablehlo.constant dense<6.0> : tensor<3x1000xf32>
  %xf = stablehlo.multiply %xsn, %xc : tensor<3x1000xf32>
  %xt = stablehlo.convert %xf : (tensor<3x1000xf32>) -> tensor<3x1000xf64>
  %x, %x2 = stablehlo.optimization_barrier %xt, %xt : tensor<3x1000xf64>, tensor<3x1000xf64>
  %gi = stablehlo.iota dim = 0 : tensor<1x1000xf32>
  %gj = stablehlo.iota dim = 1 : tensor<1x1000xf32>
  %ga = stablehlo.constant dense<0.3> : tensor<1x1000xf32>
  %gb = stablehlo.constant dense<0.9> : tensor<1x1000xf32>
  %gia = stablehlo.multiply %gi, %ga : tensor<1x1000xf32>
  %gjb = stablehlo.multiply %gj, %gb : tensor<1x1000xf32>
  %gs = stablehlo.add %gia, %gjb : tensor<1x1000xf32>
  %gsn = stablehlo.sine %gs : tensor<1x1000xf32>
  %gc = stablehlo.constant dense<6.0> : tensor<1x1000xf32>
  %gf = stablehlo.multiply %gsn, %gc : tensor<1x1000xf32>
  %gt = stablehlo.convert %gf : (tensor<1x1000xf32>) -> tensor<1x1000xf64>
  %g, %g2 = stablehlo.optimization_barrier %gt, %gt : tensor<1x1000xf64>, tensor<1x1000xf64>
  %gv = stablehlo.reshape %g : (tensor<1x1000xf64>) -> tensor<1000xf64>
  %zero = stablehlo.constant dense<0.0> : tensor<f64>
  %n = stablehlo.constant dense<1000.0> : tensor<3xf64>
  %eps = stablehlo.constant dense<1.0e-5> : tensor<3xf64>
  %gw = stablehlo.broadcast_in_dim %gv, dims = [1] : (tensor<1000xf64>) -> tensor<3x1000xf64>
  %sm = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<3x1000xf64>, tensor<f64>) -> tensor<3xf64>
  %mean = stablehlo.divide %sm, %n : tensor<3xf64>
  %mb = stablehlo.broadcast_in_dim %mean, dims = [0] : (tensor<3xf64>) -> tensor<3x1000xf64>
  %cx = stablehlo.subtract %x, %mb : tensor<3x1000xf64>
  %sq = stablehlo.multiply %cx, %cx : tensor<3x1000xf64>
  %ss = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<3x1000xf64>, tensor<f64>) -> tensor<3xf64>
  %var = stablehlo.divide %ss, %n : tensor<3xf64>
  %ve = stablehlo.add %var, %eps : tensor<3xf64>
  %rs = stablehlo.rsqrt %ve : tensor<3xf64>
  %rsb = stablehlo.broadcast_in_dim %rs, dims = [0] : (tensor<3xf64>) -> tensor<3x1000xf64>
  %y0 = stablehlo.multiply %cx, %rsb : tensor<3x1000xf64>
  %y = stablehlo.multiply %y0, %gw : tensor<3x1000xf64>
  %sm_u = stablehlo.reduce(%x2 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<3x1000xf64>, tensor<f64>) -> tensor<3xf64>
  %sm_u_b = stablehlo.optimization_barrier %sm_u : tensor<3xf64>
  %mean_u = stablehlo.divide %sm_u_b, %n : tensor<3xf64>
  %mb_u = stablehlo.broadcast_in_dim %mean_u, dims = [0] : (tensor<3xf64>) -> tensor<3x1000xf64>
  %cx_u = stablehlo.subtract %x2, %mb_u : tensor<3x1000xf64>
  %sq_u = stablehlo.multiply %cx_u, %cx_u : tensor<3x1000xf64>
  %ss_u = stablehlo.reduce(%sq_u init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<3x1000xf64>, tensor<f64>) -> tensor<3xf64>
  %ss_u_b = stablehlo.optimization_barrier %ss_u : tensor<3xf64>
  %var_u = stablehlo.divide %ss_u_b, %n : tensor<3xf64>
  %ve_u = stablehlo.add %var_u, %eps : tensor<3xf64>
  %rs_u = stablehlo.rsqrt %ve_u : tensor<3xf64>
  %rsb_u = stablehlo.broadcast_in_dim %rs_u, dims = [0] : (tensor<3xf64>) -> tensor<3x1000xf64>
  %y0_u = stablehlo.multiply %cx_u, %rsb_u : tensor<3x1000xf64>
  %y_u = stablehlo.multiply %y0_u, %gw : tensor<3x1000xf64>
  check.expect_eq %y, %y_u : tensor<3x1000xf64>
  func.return
}

// -----

// layernorm over rows of 4097, 2 rows, f64; fused against barriers between the stages
func.func @layernorm_2x4097_f64() {
  %xi = stablehlo.iota dim = 0 : tensor<2x4097xf32>
  %xj = stablehlo.iota dim = 1 : tensor<2x4097xf32>
  %xa = stablehlo.constant dense<1.37> : tensor<2x4097xf32>
  %xb = stablehlo.constant dense<0.61> : tensor<2x4097xf32>
  %xia = stablehlo.multiply %xi, %xa : tensor<2x4097xf32>
  %xjb = stablehlo.multiply %xj, %xb : tensor<2x4097xf32>
  %xs = stablehlo.add %xia, %xjb : tensor<2x4097xf32>
  %xsn = stablehlo.sine %xs : tensor<2x4097xf32>
  %xc = stablehlo.constant dense<6.0> : tensor<2x4097xf32>
  %xf = stablehlo.multiply %xsn, %xc : tensor<2x4097xf32>
  %xt = stablehlo.convert %xf : (tensor<2x4097xf32>) -> tensor<2x4097xf64>
  %x, %x2 = stablehlo.optimization_barrier %xt, %xt : tensor<2x4097xf64>, tensor<2x4097xf64>
  %gi = stablehlo.iota dim = 0 : tensor<1x4097xf32>
  %gj = stablehlo.iota dim = 1 : tensor<1x4097xf32>
  %ga = stablehlo.constant dense<0.3> : tensor<1x4097xf32>
  %gb = stablehlo.constant dense<0.9> : tensor<1x4097xf32>
  %gia = stablehlo.multiply %gi, %ga : tensor<1x4097xf32>
  %gjb = stablehlo.multiply %gj, %gb : tensor<1x4097xf32>
  %gs = stablehlo.add %gia, %gjb : tensor<1x4097xf32>
  %gsn = stablehlo.sine %gs : tensor<1x4097xf32>
  %gc = stablehlo.constant dense<6.0> : tensor<1x4097xf32>
  %gf = stablehlo.multiply %gsn, %gc : tensor<1x4097xf32>
  %gt = stablehlo.convert %gf : (tensor<1x4097xf32>) -> tensor<1x4097xf64>
  %g, %g2 = stablehlo.optimization_barrier %gt, %gt : tensor<1x4097xf64>, tensor<1x4097xf64>
  %gv = stablehlo.reshape %g : (tensor<1x4097xf64>) -> tensor<4097xf64>
  %zero = stablehlo.constant dense<0.0> : tensor<f64>
  %n = stablehlo.constant dense<4097.0> : tensor<2xf64>
  %eps = stablehlo.constant dense<1.0e-5> : tensor<2xf64>
  %gw = stablehlo.broadcast_in_dim %gv, dims = [1] : (tensor<4097xf64>) -> tensor<2x4097xf64>
  %sm = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<2x4097xf64>, tensor<f64>) -> tensor<2xf64>
  %mean = stablehlo.divide %sm, %n : tensor<2xf64>
  %mb = stablehlo.broadcast_in_dim %mean, dims = [0] : (tensor<2xf64>) -> tensor<2x4097xf64>
  %cx = stablehlo.subtract %x, %mb : tensor<2x4097xf64>
  %sq = stablehlo.multiply %cx, %cx : tensor<2x4097xf64>
  %ss = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<2x4097xf64>, tensor<f64>) -> tensor<2xf64>
  %var = stablehlo.divide %ss, %n : tensor<2xf64>
  %ve = stablehlo.add %var, %eps : tensor<2xf64>
  %rs = stablehlo.rsqrt %ve : tensor<2xf64>
  %rsb = stablehlo.broadcast_in_dim %rs, dims = [0] : (tensor<2xf64>) -> tensor<2x4097xf64>
  %y0 = stablehlo.multiply %cx, %rsb : tensor<2x4097xf64>
  %y = stablehlo.multiply %y0, %gw : tensor<2x4097xf64>
  %sm_u = stablehlo.reduce(%x2 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<2x4097xf64>, tensor<f64>) -> tensor<2xf64>
  %sm_u_b = stablehlo.optimization_barrier %sm_u : tensor<2xf64>
  %mean_u = stablehlo.divide %sm_u_b, %n : tensor<2xf64>
  %mb_u = stablehlo.broadcast_in_dim %mean_u, dims = [0] : (tensor<2xf64>) -> tensor<2x4097xf64>
  %cx_u = stablehlo.subtract %x2, %mb_u : tensor<2x4097xf64>
  %sq_u = stablehlo.multiply %cx_u, %cx_u : tensor<2x4097xf64>
  %ss_u = stablehlo.reduce(%sq_u init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<2x4097xf64>, tensor<f64>) -> tensor<2xf64>
  %ss_u_b = stablehlo.optimization_barrier %ss_u : tensor<2xf64>
  %var_u = stablehlo.divide %ss_u_b, %n : tensor<2xf64>
  %ve_u = stablehlo.add %var_u, %eps : tensor<2xf64>
  %rs_u = stablehlo.rsqrt %ve_u : tensor<2xf64>
  %rsb_u = stablehlo.broadcast_in_dim %rs_u, dims = [0] : (tensor<2xf64>) -> tensor<2x4097xf64>
  %y0_u = stablehlo.multiply %cx_u, %rsb_u : tensor<2x4097xf64>
  %y_u = stablehlo.multiply %y0_u, %gw : tensor<2x4097xf64>
  check.expect_eq %y, %y_u : tensor<2x4097xf64>
  func.return
}

// -----

// layernorm over rows of 17, 5 rows, bf16; fused against barriers between the stages
func.func @layernorm_5x17_bf16() {
  %xi = stablehlo.iota dim = 0 : tensor<5x17xf32>
  %xj = stablehlo.iota dim = 1 : tensor<5x17xf32>
  %xa = stablehlo.constant dense<1.37> : tensor<5x17xf32>
  %xb = stablehlo.constant dense<0.61> : tensor<5x17xf32>
  %xia = stablehlo.multiply %xi, %xa : tensor<5x17xf32>
  %xjb = stablehlo.multiply %xj, %xb : tensor<5x17xf32>
  %xs = stablehlo.add %xia, %xjb : tensor<5x17xf32>
  %xsn = stablehlo.sine %xs : tensor<5x17xf32>
  %xc = stablehlo.constant dense<6.0> : tensor<5x17xf32>
  %xf = stablehlo.multiply %xsn, %xc : tensor<5x17xf32>
  %xt = stablehlo.convert %xf : (tensor<5x17xf32>) -> tensor<5x17xbf16>
  %x, %x2 = stablehlo.optimization_barrier %xt, %xt : tensor<5x17xbf16>, tensor<5x17xbf16>
  %gi = stablehlo.iota dim = 0 : tensor<1x17xf32>
  %gj = stablehlo.iota dim = 1 : tensor<1x17xf32>
  %ga = stablehlo.constant dense<0.3> : tensor<1x17xf32>
  %gb = stablehlo.constant dense<0.9> : tensor<1x17xf32>
  %gia = stablehlo.multiply %gi, %ga : tensor<1x17xf32>
  %gjb = stablehlo.multiply %gj, %gb : tensor<1x17xf32>
  %gs = stablehlo.add %gia, %gjb : tensor<1x17xf32>
  %gsn = stablehlo.sine %gs : tensor<1x17xf32>
  %gc = stablehlo.constant dense<6.0> : tensor<1x17xf32>
  %gf = stablehlo.multiply %gsn, %gc : tensor<1x17xf32>
  %gt = stablehlo.convert %gf : (tensor<1x17xf32>) -> tensor<1x17xbf16>
  %g, %g2 = stablehlo.optimization_barrier %gt, %gt : tensor<1x17xbf16>, tensor<1x17xbf16>
  %gv = stablehlo.reshape %g : (tensor<1x17xbf16>) -> tensor<17xbf16>
  %zero = stablehlo.constant dense<0.0> : tensor<bf16>
  %n = stablehlo.constant dense<17.0> : tensor<5xbf16>
  %eps = stablehlo.constant dense<1.0e-5> : tensor<5xbf16>
  %gw = stablehlo.broadcast_in_dim %gv, dims = [1] : (tensor<17xbf16>) -> tensor<5x17xbf16>
  %sm = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<5x17xbf16>, tensor<bf16>) -> tensor<5xbf16>
  %mean = stablehlo.divide %sm, %n : tensor<5xbf16>
  %mb = stablehlo.broadcast_in_dim %mean, dims = [0] : (tensor<5xbf16>) -> tensor<5x17xbf16>
  %cx = stablehlo.subtract %x, %mb : tensor<5x17xbf16>
  %sq = stablehlo.multiply %cx, %cx : tensor<5x17xbf16>
  %ss = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<5x17xbf16>, tensor<bf16>) -> tensor<5xbf16>
  %var = stablehlo.divide %ss, %n : tensor<5xbf16>
  %ve = stablehlo.add %var, %eps : tensor<5xbf16>
  %rs = stablehlo.rsqrt %ve : tensor<5xbf16>
  %rsb = stablehlo.broadcast_in_dim %rs, dims = [0] : (tensor<5xbf16>) -> tensor<5x17xbf16>
  %y0 = stablehlo.multiply %cx, %rsb : tensor<5x17xbf16>
  %y = stablehlo.multiply %y0, %gw : tensor<5x17xbf16>
  %sm_u = stablehlo.reduce(%x2 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<5x17xbf16>, tensor<bf16>) -> tensor<5xbf16>
  %sm_u_b = stablehlo.optimization_barrier %sm_u : tensor<5xbf16>
  %mean_u = stablehlo.divide %sm_u_b, %n : tensor<5xbf16>
  %mb_u = stablehlo.broadcast_in_dim %mean_u, dims = [0] : (tensor<5xbf16>) -> tensor<5x17xbf16>
  %cx_u = stablehlo.subtract %x2, %mb_u : tensor<5x17xbf16>
  %sq_u = stablehlo.multiply %cx_u, %cx_u : tensor<5x17xbf16>
  %ss_u = stablehlo.reduce(%sq_u init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<5x17xbf16>, tensor<bf16>) -> tensor<5xbf16>
  %ss_u_b = stablehlo.optimization_barrier %ss_u : tensor<5xbf16>
  %var_u = stablehlo.divide %ss_u_b, %n : tensor<5xbf16>
  %ve_u = stablehlo.add %var_u, %eps : tensor<5xbf16>
  %rs_u = stablehlo.rsqrt %ve_u : tensor<5xbf16>
  %rsb_u = stablehlo.broadcast_in_dim %rs_u, dims = [0] : (tensor<5xbf16>) -> tensor<5x17xbf16>
  %y0_u = stablehlo.multiply %cx_u, %rsb_u : tensor<5x17xbf16>
  %y_u = stablehlo.multiply %y0_u, %gw : tensor<5x17xbf16>
  check.expect_eq %y, %y_u : tensor<5x17xbf16>
  func.return
}

// -----

// layernorm over rows of 1000, 4 rows, bf16; fused against barriers between the stages
func.func @layernorm_4x1000_bf16() {
  %xi = stablehlo.iota dim = 0 : tensor<4x1000xf32>
  %xj = stablehlo.iota dim = 1 : tensor<4x1000xf32>
  %xa = stablehlo.constant dense<1.37> : tensor<4x1000xf32>
  %xb = stablehlo.constant dense<0.61> : tensor<4x1000xf32>
  %xia = stablehlo.multiply %xi, %xa : tensor<4x1000xf32>
  %xjb = stablehlo.multiply %xj, %xb : tensor<4x1000xf32>
  %xs = stablehlo.add %xia, %xjb : tensor<4x1000xf32>
  %xsn = stablehlo.sine %xs : tensor<4x1000xf32>
  %xc = stablehlo.constant dense<6.0> : tensor<4x1000xf32>
  %xf = stablehlo.multiply %xsn, %xc : tensor<4x1000xf32>
  %xt = stablehlo.convert %xf : (tensor<4x1000xf32>) -> tensor<4x1000xbf16>
  %x, %x2 = stablehlo.optimization_barrier %xt, %xt : tensor<4x1000xbf16>, tensor<4x1000xbf16>
  %gi = stablehlo.iota dim = 0 : tensor<1x1000xf32>
  %gj = stablehlo.iota dim = 1 : tensor<1x1000xf32>
  %ga = stablehlo.constant dense<0.3> : tensor<1x1000xf32>
  %gb = stablehlo.constant dense<0.9> : tensor<1x1000xf32>
  %gia = stablehlo.multiply %gi, %ga : tensor<1x1000xf32>
  %gjb = stablehlo.multiply %gj, %gb : tensor<1x1000xf32>
  %gs = stablehlo.add %gia, %gjb : tensor<1x1000xf32>
  %gsn = stablehlo.sine %gs : tensor<1x1000xf32>
  %gc = stablehlo.constant dense<6.0> : tensor<1x1000xf32>
  %gf = stablehlo.multiply %gsn, %gc : tensor<1x1000xf32>
  %gt = stablehlo.convert %gf : (tensor<1x1000xf32>) -> tensor<1x1000xbf16>
  %g, %g2 = stablehlo.optimization_barrier %gt, %gt : tensor<1x1000xbf16>, tensor<1x1000xbf16>
  %gv = stablehlo.reshape %g : (tensor<1x1000xbf16>) -> tensor<1000xbf16>
  %zero = stablehlo.constant dense<0.0> : tensor<bf16>
  %n = stablehlo.constant dense<1000.0> : tensor<4xbf16>
  %eps = stablehlo.constant dense<1.0e-5> : tensor<4xbf16>
  %gw = stablehlo.broadcast_in_dim %gv, dims = [1] : (tensor<1000xbf16>) -> tensor<4x1000xbf16>
  %sm = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<4x1000xbf16>, tensor<bf16>) -> tensor<4xbf16>
  %mean = stablehlo.divide %sm, %n : tensor<4xbf16>
  %mb = stablehlo.broadcast_in_dim %mean, dims = [0] : (tensor<4xbf16>) -> tensor<4x1000xbf16>
  %cx = stablehlo.subtract %x, %mb : tensor<4x1000xbf16>
  %sq = stablehlo.multiply %cx, %cx : tensor<4x1000xbf16>
  %ss = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<4x1000xbf16>, tensor<bf16>) -> tensor<4xbf16>
  %var = stablehlo.divide %ss, %n : tensor<4xbf16>
  %ve = stablehlo.add %var, %eps : tensor<4xbf16>
  %rs = stablehlo.rsqrt %ve : tensor<4xbf16>
  %rsb = stablehlo.broadcast_in_dim %rs, dims = [0] : (tensor<4xbf16>) -> tensor<4x1000xbf16>
  %y0 = stablehlo.multiply %cx, %rsb : tensor<4x1000xbf16>
  %y = stablehlo.multiply %y0, %gw : tensor<4x1000xbf16>
  %sm_u = stablehlo.reduce(%x2 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<4x1000xbf16>, tensor<bf16>) -> tensor<4xbf16>
  %sm_u_b = stablehlo.optimization_barrier %sm_u : tensor<4xbf16>
  %mean_u = stablehlo.divide %sm_u_b, %n : tensor<4xbf16>
  %mb_u = stablehlo.broadcast_in_dim %mean_u, dims = [0] : (tensor<4xbf16>) -> tensor<4x1000xbf16>
  %cx_u = stablehlo.subtract %x2, %mb_u : tensor<4x1000xbf16>
  %sq_u = stablehlo.multiply %cx_u, %cx_u : tensor<4x1000xbf16>
  %ss_u = stablehlo.reduce(%sq_u init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<4x1000xbf16>, tensor<bf16>) -> tensor<4xbf16>
  %ss_u_b = stablehlo.optimization_barrier %ss_u : tensor<4xbf16>
  %var_u = stablehlo.divide %ss_u_b, %n : tensor<4xbf16>
  %ve_u = stablehlo.add %var_u, %eps : tensor<4xbf16>
  %rs_u = stablehlo.rsqrt %ve_u : tensor<4xbf16>
  %rsb_u = stablehlo.broadcast_in_dim %rs_u, dims = [0] : (tensor<4xbf16>) -> tensor<4x1000xbf16>
  %y0_u = stablehlo.multiply %cx_u, %rsb_u : tensor<4x1000xbf16>
  %y_u = stablehlo.multiply %y0_u, %gw : tensor<4x1000xbf16>
  check.expect_eq %y, %y_u : tensor<4x1000xbf16>
  func.return
}

// -----

// layernorm over rows of 4097, 2 rows, bf16; fused against barriers between the stages
func.func @layernorm_2x4097_bf16() {
  %xi = stablehlo.iota dim = 0 : tensor<2x4097xf32>
  %xj = stablehlo.iota dim = 1 : tensor<2x4097xf32>
  %xa = stablehlo.constant dense<1.37> : tensor<2x4097xf32>
  %xb = stablehlo.constant dense<0.61> : tensor<2x4097xf32>
  %xia = stablehlo.multiply %xi, %xa : tensor<2x4097xf32>
  %xjb = stablehlo.multiply %xj, %xb : tensor<2x4097xf32>
  %xs = stablehlo.add %xia, %xjb : tensor<2x4097xf32>
  %xsn = stablehlo.sine %xs : tensor<2x4097xf32>
  %xc = stablehlo.constant dense<6.0> : tensor<2x4097xf32>
  %xf = stablehlo.multiply %xsn, %xc : tensor<2x4097xf32>
  %xt = stablehlo.convert %xf : (tensor<2x4097xf32>) -> tensor<2x4097xbf16>
  %x, %x2 = stablehlo.optimization_barrier %xt, %xt : tensor<2x4097xbf16>, tensor<2x4097xbf16>
  %gi = stablehlo.iota dim = 0 : tensor<1x4097xf32>
  %gj = stablehlo.iota dim = 1 : tensor<1x4097xf32>
  %ga = stablehlo.constant dense<0.3> : tensor<1x4097xf32>
  %gb = stablehlo.constant dense<0.9> : tensor<1x4097xf32>
  %gia = stablehlo.multiply %gi, %ga : tensor<1x4097xf32>
  %gjb = stablehlo.multiply %gj, %gb : tensor<1x4097xf32>
  %gs = stablehlo.add %gia, %gjb : tensor<1x4097xf32>
  %gsn = stablehlo.sine %gs : tensor<1x4097xf32>
  %gc = stablehlo.constant dense<6.0> : tensor<1x4097xf32>
  %gf = stablehlo.multiply %gsn, %gc : tensor<1x4097xf32>
  %gt = stablehlo.convert %gf : (tensor<1x4097xf32>) -> tensor<1x4097xbf16>
  %g, %g2 = stablehlo.optimization_barrier %gt, %gt : tensor<1x4097xbf16>, tensor<1x4097xbf16>
  %gv = stablehlo.reshape %g : (tensor<1x4097xbf16>) -> tensor<4097xbf16>
  %zero = stablehlo.constant dense<0.0> : tensor<bf16>
  %n = stablehlo.constant dense<4097.0> : tensor<2xbf16>
  %eps = stablehlo.constant dense<1.0e-5> : tensor<2xbf16>
  %gw = stablehlo.broadcast_in_dim %gv, dims = [1] : (tensor<4097xbf16>) -> tensor<2x4097xbf16>
  %sm = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<2x4097xbf16>, tensor<bf16>) -> tensor<2xbf16>
  %mean = stablehlo.divide %sm, %n : tensor<2xbf16>
  %mb = stablehlo.broadcast_in_dim %mean, dims = [0] : (tensor<2xbf16>) -> tensor<2x4097xbf16>
  %cx = stablehlo.subtract %x, %mb : tensor<2x4097xbf16>
  %sq = stablehlo.multiply %cx, %cx : tensor<2x4097xbf16>
  %ss = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<2x4097xbf16>, tensor<bf16>) -> tensor<2xbf16>
  %var = stablehlo.divide %ss, %n : tensor<2xbf16>
  %ve = stablehlo.add %var, %eps : tensor<2xbf16>
  %rs = stablehlo.rsqrt %ve : tensor<2xbf16>
  %rsb = stablehlo.broadcast_in_dim %rs, dims = [0] : (tensor<2xbf16>) -> tensor<2x4097xbf16>
  %y0 = stablehlo.multiply %cx, %rsb : tensor<2x4097xbf16>
  %y = stablehlo.multiply %y0, %gw : tensor<2x4097xbf16>
  %sm_u = stablehlo.reduce(%x2 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<2x4097xbf16>, tensor<bf16>) -> tensor<2xbf16>
  %sm_u_b = stablehlo.optimization_barrier %sm_u : tensor<2xbf16>
  %mean_u = stablehlo.divide %sm_u_b, %n : tensor<2xbf16>
  %mb_u = stablehlo.broadcast_in_dim %mean_u, dims = [0] : (tensor<2xbf16>) -> tensor<2x4097xbf16>
  %cx_u = stablehlo.subtract %x2, %mb_u : tensor<2x4097xbf16>
  %sq_u = stablehlo.multiply %cx_u, %cx_u : tensor<2x4097xbf16>
  %ss_u = stablehlo.reduce(%sq_u init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<2x4097xbf16>, tensor<bf16>) -> tensor<2xbf16>
  %ss_u_b = stablehlo.optimization_barrier %ss_u : tensor<2xbf16>
  %var_u = stablehlo.divide %ss_u_b, %n : tensor<2xbf16>
  %ve_u = stablehlo.add %var_u, %eps : tensor<2xbf16>
  %rs_u = stablehlo.rsqrt %ve_u : tensor<2xbf16>
  %rsb_u = stablehlo.broadcast_in_dim %rs_u, dims = [0] : (tensor<2xbf16>) -> tensor<2x4097xbf16>
  %y0_u = stablehlo.multiply %cx_u, %rsb_u : tensor<2x4097xbf16>
  %y_u = stablehlo.multiply %y0_u, %gw : tensor<2x4097xbf16>
  check.expect_eq %y, %y_u : tensor<2x4097xbf16>
  func.return
}

// -----

// rmsnorm over rows of 17, 7 rows, f32; fused against barriers between the stages
func.func @rmsnorm_7x17_f32() {
  %xi = stablehlo.iota dim = 0 : tensor<7x17xf32>
  %xj = stablehlo.iota dim = 1 : tensor<7x17xf32>
  %xa = stablehlo.constant dense<1.37> : tensor<7x17xf32>
  %xb = stablehlo.constant dense<0.61> : tensor<7x17xf32>
  %xia = stablehlo.multiply %xi, %xa : tensor<7x17xf32>
  %xjb = stablehlo.multiply %xj, %xb : tensor<7x17xf32>
  %xs = stablehlo.add %xia, %xjb : tensor<7x17xf32>
  %xsn = stablehlo.sine %xs : tensor<7x17xf32>
  %xc = stablehlo.constant dense<6.0> : tensor<7x17xf32>
  %xf = stablehlo.multiply %xsn, %xc : tensor<7x17xf32>
  %x, %x2 = stablehlo.optimization_barrier %xf, %xf : tensor<7x17xf32>, tensor<7x17xf32>
  %gi = stablehlo.iota dim = 0 : tensor<1x17xf32>
  %gj = stablehlo.iota dim = 1 : tensor<1x17xf32>
  %ga = stablehlo.constant dense<0.3> : tensor<1x17xf32>
  %gb = stablehlo.constant dense<0.9> : tensor<1x17xf32>
  %gia = stablehlo.multiply %gi, %ga : tensor<1x17xf32>
  %gjb = stablehlo.multiply %gj, %gb : tensor<1x17xf32>
  %gs = stablehlo.add %gia, %gjb : tensor<1x17xf32>
  %gsn = stablehlo.sine %gs : tensor<1x17xf32>
  %gc = stablehlo.constant dense<6.0> : tensor<1x17xf32>
  %gf = stablehlo.multiply %gsn, %gc : tensor<1x17xf32>
  %g, %g2 = stablehlo.optimization_barrier %gf, %gf : tensor<1x17xf32>, tensor<1x17xf32>
  %gv = stablehlo.reshape %g : (tensor<1x17xf32>) -> tensor<17xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %n = stablehlo.constant dense<17.0> : tensor<7xf32>
  %eps = stablehlo.constant dense<1.0e-5> : tensor<7xf32>
  %gw = stablehlo.broadcast_in_dim %gv, dims = [1] : (tensor<17xf32>) -> tensor<7x17xf32>
  %sq = stablehlo.multiply %x, %x : tensor<7x17xf32>
  %ss = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<7x17xf32>, tensor<f32>) -> tensor<7xf32>
  %ms = stablehlo.divide %ss, %n : tensor<7xf32>
  %mse = stablehlo.add %ms, %eps : tensor<7xf32>
  %rs = stablehlo.rsqrt %mse : tensor<7xf32>
  %rsb = stablehlo.broadcast_in_dim %rs, dims = [0] : (tensor<7xf32>) -> tensor<7x17xf32>
  %y0 = stablehlo.multiply %x, %rsb : tensor<7x17xf32>
  %y = stablehlo.multiply %y0, %gw : tensor<7x17xf32>
  %sq_u = stablehlo.multiply %x2, %x2 : tensor<7x17xf32>
  %ss_u = stablehlo.reduce(%sq_u init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<7x17xf32>, tensor<f32>) -> tensor<7xf32>
  %ss_u_b = stablehlo.optimization_barrier %ss_u : tensor<7xf32>
  %ms_u = stablehlo.divide %ss_u_b, %n : tensor<7xf32>
  %mse_u = stablehlo.add %ms_u, %eps : tensor<7xf32>
  %rs_u = stablehlo.rsqrt %mse_u : tensor<7xf32>
  %rsb_u = stablehlo.broadcast_in_dim %rs_u, dims = [0] : (tensor<7xf32>) -> tensor<7x17xf32>
  %y0_u = stablehlo.multiply %x2, %rsb_u : tensor<7x17xf32>
  %y_u = stablehlo.multiply %y0_u, %gw : tensor<7x17xf32>
  check.expect_eq %y, %y_u : tensor<7x17xf32>
  func.return
}

// -----

// rmsnorm over rows of 1000, 3 rows, f32; fused against barriers between the stages
func.func @rmsnorm_3x1000_f32() {
  %xi = stablehlo.iota dim = 0 : tensor<3x1000xf32>
  %xj = stablehlo.iota dim = 1 : tensor<3x1000xf32>
  %xa = stablehlo.constant dense<1.37> : tensor<3x1000xf32>
  %xb = stablehlo.constant dense<0.61> : tensor<3x1000xf32>
  %xia = stablehlo.multiply %xi, %xa : tensor<3x1000xf32>
  %xjb = stablehlo.multiply %xj, %xb : tensor<3x1000xf32>
  %xs = stablehlo.add %xia, %xjb : tensor<3x1000xf32>
  %xsn = stablehlo.sine %xs : tensor<3x1000xf32>
  %xc = stablehlo.constant dense<6.0> : tensor<3x1000xf32>
  %xf = stablehlo.multiply %xsn, %xc : tensor<3x1000xf32>
  %x, %x2 = stablehlo.optimization_barrier %xf, %xf : tensor<3x1000xf32>, tensor<3x1000xf32>
  %gi = stablehlo.iota dim = 0 : tensor<1x1000xf32>
  %gj = stablehlo.iota dim = 1 : tensor<1x1000xf32>
  %ga = stablehlo.constant dense<0.3> : tensor<1x1000xf32>
  %gb = stablehlo.constant dense<0.9> : tensor<1x1000xf32>
  %gia = stablehlo.multiply %gi, %ga : tensor<1x1000xf32>
  %gjb = stablehlo.multiply %gj, %gb : tensor<1x1000xf32>
  %gs = stablehlo.add %gia, %gjb : tensor<1x1000xf32>
  %gsn = stablehlo.sine %gs : tensor<1x1000xf32>
  %gc = stablehlo.constant dense<6.0> : tensor<1x1000xf32>
  %gf = stablehlo.multiply %gsn, %gc : tensor<1x1000xf32>
  %g, %g2 = stablehlo.optimization_barrier %gf, %gf : tensor<1x1000xf32>, tensor<1x1000xf32>
  %gv = stablehlo.reshape %g : (tensor<1x1000xf32>) -> tensor<1000xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %n = stablehlo.constant dense<1000.0> : tensor<3xf32>
  %eps = stablehlo.constant dense<1.0e-5> : tensor<3xf32>
  %gw = stablehlo.broadcast_in_dim %gv, dims = [1] : (tensor<1000xf32>) -> tensor<3x1000xf32>
  %sq = stablehlo.multiply %x, %x : tensor<3x1000xf32>
  %ss = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<3x1000xf32>, tensor<f32>) -> tensor<3xf32>
  %ms = stablehlo.divide %ss, %n : tensor<3xf32>
  %mse = stablehlo.add %ms, %eps : tensor<3xf32>
  %rs = stablehlo.rsqrt %mse : tensor<3xf32>
  %rsb = stablehlo.broadcast_in_dim %rs, dims = [0] : (tensor<3xf32>) -> tensor<3x1000xf32>
  %y0 = stablehlo.multiply %x, %rsb : tensor<3x1000xf32>
  %y = stablehlo.multiply %y0, %gw : tensor<3x1000xf32>
  %sq_u = stablehlo.multiply %x2, %x2 : tensor<3x1000xf32>
  %ss_u = stablehlo.reduce(%sq_u init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<3x1000xf32>, tensor<f32>) -> tensor<3xf32>
  %ss_u_b = stablehlo.optimization_barrier %ss_u : tensor<3xf32>
  %ms_u = stablehlo.divide %ss_u_b, %n : tensor<3xf32>
  %mse_u = stablehlo.add %ms_u, %eps : tensor<3xf32>
  %rs_u = stablehlo.rsqrt %mse_u : tensor<3xf32>
  %rsb_u = stablehlo.broadcast_in_dim %rs_u, dims = [0] : (tensor<3xf32>) -> tensor<3x1000xf32>
  %y0_u = stablehlo.multiply %x2, %rsb_u : tensor<3x1000xf32>
  %y_u = stablehlo.multiply %y0_u, %gw : tensor<3x1000xf32>
  check.expect_eq %y, %y_u : tensor<3x1000xf32>
  func.return
}

// -----

// rmsnorm over rows of 4097, 2 rows, f64; fused against barriers between the stages
func.func @rmsnorm_2x4097_f64() {
  %xi = stablehlo.iota dim = 0 : tensor<2x4097xf32>
  %xj = stablehlo.iota dim = 1 : tensor<2x4097xf32>
  %xa = stablehlo.constant dense<1.37> : tensor<2x4097xf32>
  %xb = stablehlo.constant dense<0.61> : tensor<2x4097xf32>
  %xia = stablehlo.multiply %xi, %xa : tensor<2x4097xf32>
  %xjb = stablehlo.multiply %xj, %xb : tensor<2x4097xf32>
  %xs = stablehlo.add %xia, %xjb : tensor<2x4097xf32>
  %xsn = stablehlo.sine %xs : tensor<2x4097xf32>
  %xc = stablehlo.constant dense<6.0> : tensor<2x4097xf32>
  %xf = stablehlo.multiply %xsn, %xc : tensor<2x4097xf32>
  %xt = stablehlo.convert %xf : (tensor<2x4097xf32>) -> tensor<2x4097xf64>
  %x, %x2 = stablehlo.optimization_barrier %xt, %xt : tensor<2x4097xf64>, tensor<2x4097xf64>
  %gi = stablehlo.iota dim = 0 : tensor<1x4097xf32>
  %gj = stablehlo.iota dim = 1 : tensor<1x4097xf32>
  %ga = stablehlo.constant dense<0.3> : tensor<1x4097xf32>
  %gb = stablehlo.constant dense<0.9> : tensor<1x4097xf32>
  %gia = stablehlo.multiply %gi, %ga : tensor<1x4097xf32>
  %gjb = stablehlo.multiply %gj, %gb : tensor<1x4097xf32>
  %gs = stablehlo.add %gia, %gjb : tensor<1x4097xf32>
  %gsn = stablehlo.sine %gs : tensor<1x4097xf32>
  %gc = stablehlo.constant dense<6.0> : tensor<1x4097xf32>
  %gf = stablehlo.multiply %gsn, %gc : tensor<1x4097xf32>
  %gt = stablehlo.convert %gf : (tensor<1x4097xf32>) -> tensor<1x4097xf64>
  %g, %g2 = stablehlo.optimization_barrier %gt, %gt : tensor<1x4097xf64>, tensor<1x4097xf64>
  %gv = stablehlo.reshape %g : (tensor<1x4097xf64>) -> tensor<4097xf64>
  %zero = stablehlo.constant dense<0.0> : tensor<f64>
  %n = stablehlo.constant dense<4097.0> : tensor<2xf64>
  %eps = stablehlo.constant dense<1.0e-5> : tensor<2xf64>
  %gw = stablehlo.broadcast_in_dim %gv, dims = [1] : (tensor<4097xf64>) -> tensor<2x4097xf64>
  %sq = stablehlo.multiply %x, %x : tensor<2x4097xf64>
  %ss = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<2x4097xf64>, tensor<f64>) -> tensor<2xf64>
  %ms = stablehlo.divide %ss, %n : tensor<2xf64>
  %mse = stablehlo.add %ms, %eps : tensor<2xf64>
  %rs = stablehlo.rsqrt %mse : tensor<2xf64>
  %rsb = stablehlo.broadcast_in_dim %rs, dims = [0] : (tensor<2xf64>) -> tensor<2x4097xf64>
  %y0 = stablehlo.multiply %x, %rsb : tensor<2x4097xf64>
  %y = stablehlo.multiply %y0, %gw : tensor<2x4097xf64>
  %sq_u = stablehlo.multiply %x2, %x2 : tensor<2x4097xf64>
  %ss_u = stablehlo.reduce(%sq_u init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<2x4097xf64>, tensor<f64>) -> tensor<2xf64>
  %ss_u_b = stablehlo.optimization_barrier %ss_u : tensor<2xf64>
  %ms_u = stablehlo.divide %ss_u_b, %n : tensor<2xf64>
  %mse_u = stablehlo.add %ms_u, %eps : tensor<2xf64>
  %rs_u = stablehlo.rsqrt %mse_u : tensor<2xf64>
  %rsb_u = stablehlo.broadcast_in_dim %rs_u, dims = [0] : (tensor<2xf64>) -> tensor<2x4097xf64>
  %y0_u = stablehlo.multiply %x2, %rsb_u : tensor<2x4097xf64>
  %y_u = stablehlo.multiply %y0_u, %gw : tensor<2x4097xf64>
  check.expect_eq %y, %y_u : tensor<2x4097xf64>
  func.return
}

// -----

// rmsnorm over rows of 1000, 4 rows, bf16; fused against barriers between the stages
func.func @rmsnorm_4x1000_bf16() {
  %xi = stablehlo.iota dim = 0 : tensor<4x1000xf32>
  %xj = stablehlo.iota dim = 1 : tensor<4x1000xf32>
  %xa = stablehlo.constant dense<1.37> : tensor<4x1000xf32>
  %xb = stablehlo.constant dense<0.61> : tensor<4x1000xf32>
  %xia = stablehlo.multiply %xi, %xa : tensor<4x1000xf32>
  %xjb = stablehlo.multiply %xj, %xb : tensor<4x1000xf32>
  %xs = stablehlo.add %xia, %xjb : tensor<4x1000xf32>
  %xsn = stablehlo.sine %xs : tensor<4x1000xf32>
  %xc = stablehlo.constant dense<6.0> : tensor<4x1000xf32>
  %xf = stablehlo.multiply %xsn, %xc : tensor<4x1000xf32>
  %xt = stablehlo.convert %xf : (tensor<4x1000xf32>) -> tensor<4x1000xbf16>
  %x, %x2 = stablehlo.optimization_barrier %xt, %xt : tensor<4x1000xbf16>, tensor<4x1000xbf16>
  %gi = stablehlo.iota dim = 0 : tensor<1x1000xf32>
  %gj = stablehlo.iota dim = 1 : tensor<1x1000xf32>
  %ga = stablehlo.constant dense<0.3> : tensor<1x1000xf32>
  %gb = stablehlo.constant dense<0.9> : tensor<1x1000xf32>
  %gia = stablehlo.multiply %gi, %ga : tensor<1x1000xf32>
  %gjb = stablehlo.multiply %gj, %gb : tensor<1x1000xf32>
  %gs = stablehlo.add %gia, %gjb : tensor<1x1000xf32>
  %gsn = stablehlo.sine %gs : tensor<1x1000xf32>
  %gc = stablehlo.constant dense<6.0> : tensor<1x1000xf32>
  %gf = stablehlo.multiply %gsn, %gc : tensor<1x1000xf32>
  %gt = stablehlo.convert %gf : (tensor<1x1000xf32>) -> tensor<1x1000xbf16>
  %g, %g2 = stablehlo.optimization_barrier %gt, %gt : tensor<1x1000xbf16>, tensor<1x1000xbf16>
  %gv = stablehlo.reshape %g : (tensor<1x1000xbf16>) -> tensor<1000xbf16>
  %zero = stablehlo.constant dense<0.0> : tensor<bf16>
  %n = stablehlo.constant dense<1000.0> : tensor<4xbf16>
  %eps = stablehlo.constant dense<1.0e-5> : tensor<4xbf16>
  %gw = stablehlo.broadcast_in_dim %gv, dims = [1] : (tensor<1000xbf16>) -> tensor<4x1000xbf16>
  %sq = stablehlo.multiply %x, %x : tensor<4x1000xbf16>
  %ss = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<4x1000xbf16>, tensor<bf16>) -> tensor<4xbf16>
  %ms = stablehlo.divide %ss, %n : tensor<4xbf16>
  %mse = stablehlo.add %ms, %eps : tensor<4xbf16>
  %rs = stablehlo.rsqrt %mse : tensor<4xbf16>
  %rsb = stablehlo.broadcast_in_dim %rs, dims = [0] : (tensor<4xbf16>) -> tensor<4x1000xbf16>
  %y0 = stablehlo.multiply %x, %rsb : tensor<4x1000xbf16>
  %y = stablehlo.multiply %y0, %gw : tensor<4x1000xbf16>
  %sq_u = stablehlo.multiply %x2, %x2 : tensor<4x1000xbf16>
  %ss_u = stablehlo.reduce(%sq_u init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<4x1000xbf16>, tensor<bf16>) -> tensor<4xbf16>
  %ss_u_b = stablehlo.optimization_barrier %ss_u : tensor<4xbf16>
  %ms_u = stablehlo.divide %ss_u_b, %n : tensor<4xbf16>
  %mse_u = stablehlo.add %ms_u, %eps : tensor<4xbf16>
  %rs_u = stablehlo.rsqrt %mse_u : tensor<4xbf16>
  %rsb_u = stablehlo.broadcast_in_dim %rs_u, dims = [0] : (tensor<4xbf16>) -> tensor<4x1000xbf16>
  %y0_u = stablehlo.multiply %x2, %rsb_u : tensor<4x1000xbf16>
  %y_u = stablehlo.multiply %y0_u, %gw : tensor<4x1000xbf16>
  check.expect_eq %y, %y_u : tensor<4x1000xbf16>
  func.return
}

// -----

// rmsnorm over rows of 256, 600 rows, f32; fused against barriers between the stages
func.func @rmsnorm_600x256_f32() {
  %xi = stablehlo.iota dim = 0 : tensor<600x256xf32>
  %xj = stablehlo.iota dim = 1 : tensor<600x256xf32>
  %xa = stablehlo.constant dense<1.37> : tensor<600x256xf32>
  %xb = stablehlo.constant dense<0.61> : tensor<600x256xf32>
  %xia = stablehlo.multiply %xi, %xa : tensor<600x256xf32>
  %xjb = stablehlo.multiply %xj, %xb : tensor<600x256xf32>
  %xs = stablehlo.add %xia, %xjb : tensor<600x256xf32>
  %xsn = stablehlo.sine %xs : tensor<600x256xf32>
  %xc = stablehlo.constant dense<6.0> : tensor<600x256xf32>
  %xf = stablehlo.multiply %xsn, %xc : tensor<600x256xf32>
  %x, %x2 = stablehlo.optimization_barrier %xf, %xf : tensor<600x256xf32>, tensor<600x256xf32>
  %gi = stablehlo.iota dim = 0 : tensor<1x256xf32>
  %gj = stablehlo.iota dim = 1 : tensor<1x256xf32>
  %ga = stablehlo.constant dense<0.3> : tensor<1x256xf32>
  %gb = stablehlo.constant dense<0.9> : tensor<1x256xf32>
  %gia = stablehlo.multiply %gi, %ga : tensor<1x256xf32>
  %gjb = stablehlo.multiply %gj, %gb : tensor<1x256xf32>
  %gs = stablehlo.add %gia, %gjb : tensor<1x256xf32>
  %gsn = stablehlo.sine %gs : tensor<1x256xf32>
  %gc = stablehlo.constant dense<6.0> : tensor<1x256xf32>
  %gf = stablehlo.multiply %gsn, %gc : tensor<1x256xf32>
  %g, %g2 = stablehlo.optimization_barrier %gf, %gf : tensor<1x256xf32>, tensor<1x256xf32>
  %gv = stablehlo.reshape %g : (tensor<1x256xf32>) -> tensor<256xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %n = stablehlo.constant dense<256.0> : tensor<600xf32>
  %eps = stablehlo.constant dense<1.0e-5> : tensor<600xf32>
  %gw = stablehlo.broadcast_in_dim %gv, dims = [1] : (tensor<256xf32>) -> tensor<600x256xf32>
  %sq = stablehlo.multiply %x, %x : tensor<600x256xf32>
  %ss = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<600x256xf32>, tensor<f32>) -> tensor<600xf32>
  %ms = stablehlo.divide %ss, %n : tensor<600xf32>
  %mse = stablehlo.add %ms, %eps : tensor<600xf32>
  %rs = stablehlo.rsqrt %mse : tensor<600xf32>
  %rsb = stablehlo.broadcast_in_dim %rs, dims = [0] : (tensor<600xf32>) -> tensor<600x256xf32>
  %y0 = stablehlo.multiply %x, %rsb : tensor<600x256xf32>
  %y = stablehlo.multiply %y0, %gw : tensor<600x256xf32>
  %sq_u = stablehlo.multiply %x2, %x2 : tensor<600x256xf32>
  %ss_u = stablehlo.reduce(%sq_u init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<600x256xf32>, tensor<f32>) -> tensor<600xf32>
  %ss_u_b = stablehlo.optimization_barrier %ss_u : tensor<600xf32>
  %ms_u = stablehlo.divide %ss_u_b, %n : tensor<600xf32>
  %mse_u = stablehlo.add %ms_u, %eps : tensor<600xf32>
  %rs_u = stablehlo.rsqrt %mse_u : tensor<600xf32>
  %rsb_u = stablehlo.broadcast_in_dim %rs_u, dims = [0] : (tensor<600xf32>) -> tensor<600x256xf32>
  %y0_u = stablehlo.multiply %x2, %rsb_u : tensor<600x256xf32>
  %y_u = stablehlo.multiply %y0_u, %gw : tensor<600x256xf32>
  check.expect_eq %y, %y_u : tensor<600x256xf32>
  func.return
}
