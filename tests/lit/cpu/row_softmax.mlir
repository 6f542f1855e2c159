// RUN: xlac run --split-input-file %s
// Row fusion of softmax and log-softmax: one kernel runs every stage row by
// row.  Each program computes the pattern twice, the second time on a copy
// of the input with optimization barriers after the reductions (no row
// fusion), and expects identical bits: the fused reductions keep the order
// of the unfused kernels.  Rows of 1, 3, 17 (sequential order), 64 to 4097
// (vector blocks, ragged tails), one to 2000 rows (several chunks), f32,
// f64 and bf16; f32/f64 rows also sum to 1.

// softmax over rows of 1, 4 rows, f32; fused against barriers between the stages
func.func @softmax_4x1_f32() {
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
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %mx = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<4x1xf32>, tensor<f32>) -> tensor<4xf32>
  %mb = stablehlo.broadcast_in_dim %mx, dims = [0] : (tensor<4xf32>) -> tensor<4x1xf32>
  %d = stablehlo.subtract %x, %mb : tensor<4x1xf32>
  %e = stablehlo.exponential %d : tensor<4x1xf32>
  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<4x1xf32>, tensor<f32>) -> tensor<4xf32>
  %sb = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<4xf32>) -> tensor<4x1xf32>
  %r = stablehlo.divide %e, %sb : tensor<4x1xf32>
  %mx_u = stablehlo.reduce(%x2 init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<4x1xf32>, tensor<f32>) -> tensor<4xf32>
  %mxb_u = stablehlo.optimization_barrier %mx_u : tensor<4xf32>
  %mb_u = stablehlo.broadcast_in_dim %mxb_u, dims = [0] : (tensor<4xf32>) -> tensor<4x1xf32>
  %d_u = stablehlo.subtract %x2, %mb_u : tensor<4x1xf32>
  %e_u = stablehlo.exponential %d_u : tensor<4x1xf32>
  %s_u = stablehlo.reduce(%e_u init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<4x1xf32>, tensor<f32>) -> tensor<4xf32>
  %sb__u = stablehlo.optimization_barrier %s_u : tensor<4xf32>
  %sb_u = stablehlo.broadcast_in_dim %sb__u, dims = [0] : (tensor<4xf32>) -> tensor<4x1xf32>
  %r_u = stablehlo.divide %e_u, %sb_u : tensor<4x1xf32>
  check.expect_eq %r, %r_u : tensor<4x1xf32>
  %tot = stablehlo.reduce(%r init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<4x1xf32>, tensor<f32>) -> tensor<4xf32>
  check.expect_almost_eq_const %tot, dense<1.0> : tensor<4xf32> {tolerance = 1e-06 : f64}
  func.return
}

// -----

// softmax over rows of 3, 5 rows, f32; fused against barriers between the stages
func.func @softmax_5x3_f32() {
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
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %mx = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<5x3xf32>, tensor<f32>) -> tensor<5xf32>
  %mb = stablehlo.broadcast_in_dim %mx, dims = [0] : (tensor<5xf32>) -> tensor<5x3xf32>
  %d = stablehlo.subtract %x, %mb : tensor<5x3xf32>
  %e = stablehlo.exponential %d : tensor<5x3xf32>
  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<5x3xf32>, tensor<f32>) -> tensor<5xf32>
  %sb = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<5xf32>) -> tensor<5x3xf32>
  %r = stablehlo.divide %e, %sb : tensor<5x3xf32>
  %mx_u = stablehlo.reduce(%x2 init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<5x3xf32>, tensor<f32>) -> tensor<5xf32>
  %mxb_u = stablehlo.optimization_barrier %mx_u : tensor<5xf32>
  %mb_u = stablehlo.broadcast_in_dim %mxb_u, dims = [0] : (tensor<5xf32>) -> tensor<5x3xf32>
  %d_u = stablehlo.subtract %x2, %mb_u : tensor<5x3xf32>
  %e_u = stablehlo.exponential %d_u : tensor<5x3xf32>
  %s_u = stablehlo.reduce(%e_u init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<5x3xf32>, tensor<f32>) -> tensor<5xf32>
  %sb__u = stablehlo.optimization_barrier %s_u : tensor<5xf32>
  %sb_u = stablehlo.broadcast_in_dim %sb__u, dims = [0] : (tensor<5xf32>) -> tensor<5x3xf32>
  %r_u = stablehlo.divide %e_u, %sb_u : tensor<5x3xf32>
  check.expect_eq %r, %r_u : tensor<5x3xf32>
  %tot = stablehlo.reduce(%r init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<5x3xf32>, tensor<f32>) -> tensor<5xf32>
  check.expect_almost_eq_const %tot, dense<1.0> : tensor<5xf32> {tolerance = 1e-06 : f64}
  func.return
}

// -----

// softmax over rows of 17, 7 rows, f32; fused against barriers between the stages
func.func @softmax_7x17_f32() {
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
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %mx = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<7x17xf32>, tensor<f32>) -> tensor<7xf32>
  %mb = stablehlo.broadcast_in_dim %mx, dims = [0] : (tensor<7xf32>) -> tensor<7x17xf32>
  %d = stablehlo.subtract %x, %mb : tensor<7x17xf32>
  %e = stablehlo.exponential %d : tensor<7x17xf32>
  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<7x17xf32>, tensor<f32>) -> tensor<7xf32>
  %sb = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<7xf32>) -> tensor<7x17xf32>
  %r = stablehlo.divide %e, %sb : tensor<7x17xf32>
  %mx_u = stablehlo.reduce(%x2 init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<7x17xf32>, tensor<f32>) -> tensor<7xf32>
  %mxb_u = stablehlo.optimization_barrier %mx_u : tensor<7xf32>
  %mb_u = stablehlo.broadcast_in_dim %mxb_u, dims = [0] : (tensor<7xf32>) -> tensor<7x17xf32>
  %d_u = stablehlo.subtract %x2, %mb_u : tensor<7x17xf32>
  %e_u = stablehlo.exponential %d_u : tensor<7x17xf32>
  %s_u = stablehlo.reduce(%e_u init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<7x17xf32>, tensor<f32>) -> tensor<7xf32>
  %sb__u = stablehlo.optimization_barrier %s_u : tensor<7xf32>
  %sb_u = stablehlo.broadcast_in_dim %sb__u, dims = [0] : (tensor<7xf32>) -> tensor<7x17xf32>
  %r_u = stablehlo.divide %e_u, %sb_u : tensor<7x17xf32>
  check.expect_eq %r, %r_u : tensor<7x17xf32>
  %tot = stablehlo.reduce(%r init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<7x17xf32>, tensor<f32>) -> tensor<7xf32>
  check.expect_almost_eq_const %tot, dense<1.0> : tensor<7xf32> {tolerance = 1e-06 : f64}
  func.return
}

// -----

// softmax over rows of 1000, 3 rows, f32; fused against barriers between the stages
func.func @softmax_3x1000_f32() {
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
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %mx = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<3x1000xf32>, tensor<f32>) -> tensor<3xf32>
  %mb = stablehlo.broadcast_in_dim %mx, dims = [0] : (tensor<3xf32>) -> tensor<3x1000xf32>
  %d = stablehlo.subtract %x, %mb : tensor<3x1000xf32>
  %e = stablehlo.exponential %d : tensor<3x1000xf32>
  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<3x1000xf32>, tensor<f32>) -> tensor<3xf32>
  %sb = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<3xf32>) -> tensor<3x1000xf32>
  %r = stablehlo.divide %e, %sb : tensor<3x1000xf32>
  %mx_u = stablehlo.reduce(%x2 init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<3x1000xf32>, tensor<f32>) -> tensor<3xf32>
  %mxb_u = stablehlo.optimization_barrier %mx_u : tensor<3xf32>
  %mb_u = stablehlo.broadcast_in_dim %mxb_u, dims = [0] : (tensor<3xf32>) -> tensor<3x1000xf32>
  %d_u = stablehlo.subtract %x2, %mb_u : tensor<3x1000xf32>
  %e_u = stablehlo.exponential %d_u : tensor<3x1000xf32>
  %s_u = stablehlo.reduce(%e_u init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<3x1000xf32>, tensor<f32>) -> tensor<3xf32>
  %sb__u = stablehlo.optimization_barrier %s_u : tensor<3xf32>
  %sb_u = stablehlo.broadcast_in_dim %sb__u, dims = [0] : (tensor<3xf32>) -> tensor<3x1000xf32>
  %r_u = stablehlo.divide %e_u, %sb_u : tensor<3x1000xf32>
  check.expect_eq %r, %r_u : tensor<3x1000xf32>
  %tot = stablehlo.reduce(%r init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<3x1000xf32>, tensor<f32>) -> tensor<3xf32>
  check.expect_almost_eq_const %tot, dense<1.0> : tensor<3xf32> {tolerance = 1e-05 : f64}
  func.return
}

// -----

// softmax over rows of 4097, 2 rows, f32; fused against barriers between the stages
func.func @softmax_2x4097_f32() {
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
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %mx = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<2x4097xf32>, tensor<f32>) -> tensor<2xf32>
  %mb = stablehlo.broadcast_in_dim %mx, dims = [0] : (tensor<2xf32>) -> tensor<2x4097xf32>
  %d = stablehlo.subtract %x, %mb : tensor<2x4097xf32>
  %e = stablehlo.exponential %d : tensor<2x4097xf32>
  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<2x4097xf32>, tensor<f32>) -> tensor<2xf32>
  %sb = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<2xf32>) -> tensor<2x4097xf32>
  %r = stablehlo.divide %e, %sb : tensor<2x4097xf32>
  %mx_u = stablehlo.reduce(%x2 init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<2x4097xf32>, tensor<f32>) -> tensor<2xf32>
  %mxb_u = stablehlo.optimization_barrier %mx_u : tensor<2xf32>
  %mb_u = stablehlo.broadcast_in_dim %mxb_u, dims = [0] : (tensor<2xf32>) -> tensor<2x4097xf32>
  %d_u = stablehlo.subtract %x2, %mb_u : tensor<2x4097xf32>
  %e_u = stablehlo.exponential %d_u : tensor<2x4097xf32>
  %s_u = stablehlo.reduce(%e_u init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<2x4097xf32>, tensor<f32>) -> tensor<2xf32>
  %sb__u = stablehlo.optimization_barrier %s_u : tensor<2xf32>
  %sb_u = stablehlo.broadcast_in_dim %sb__u, dims = [0] : (tensor<2xf32>) -> tensor<2x4097xf32>
  %r_u = stablehlo.divide %e_u, %sb_u : tensor<2x4097xf32>
  check.expect_eq %r, %r_u : tensor<2x4097xf32>
  %tot = stablehlo.reduce(%r init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<2x4097xf32>, tensor<f32>) -> tensor<2xf32>
  check.expect_almost_eq_const %tot, dense<1.0> : tensor<2xf32> {tolerance = 1e-05 : f64}
  func.return
}

// -----

// softmax over rows of 100, 300 rows, f32; fused against barriers between the stages
func.func @softmax_300x100_f32() {
  %xi = stablehlo.iota dim = 0 : tensor<300x100xf32>
  %xj = stablehlo.iota dim = 1 : tensor<300x100xf32>
  %xa = stablehlo.constant dense<1.37> : tensor<300x100xf32>
  %xb = stablehlo.constant dense<0.61> : tensor<300x100xf32>
  %xia = stablehlo.multiply %xi, %xa : tensor<300x100xf32>
  %xjb = stablehlo.multiply %xj, %xb : tensor<300x100xf32>
  %xs = stablehlo.add %xia, %xjb : tensor<300x100xf32>
  %xsn = stablehlo.sine %xs : tensor<300x100xf32>
  %xc = stablehlo.constant dense<6.0> : tensor<300x100xf32>
  %xf = stablehlo.multiply %xsn, %xc : tensor<300x100xf32>
  %x, %x2 = stablehlo.optimization_barrier %xf, %xf : tensor<300x100xf32>, tensor<300x100xf32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %mx = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<300x100xf32>, tensor<f32>) -> tensor<300xf32>
  %mb = stablehlo.broadcast_in_dim %mx, dims = [0] : (tensor<300xf32>) -> tensor<300x100xf32>
  %d = stablehlo.subtract %x, %mb : tensor<300x100xf32>
  %e = stablehlo.exponential %d : tensor<300x100xf32>
  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<300x100xf32>, tensor<f32>) -> tensor<300xf32>
  %sb = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<300xf32>) -> tensor<300x100xf32>
  %r = stablehlo.divide %e, %sb : tensor<300x100xf32>
  %mx_u = stablehlo.reduce(%x2 init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<300x100xf32>, tensor<f32>) -> tensor<300xf32>
  %mxb_u = stablehlo.optimization_barrier %mx_u : tensor<300xf32>
  %mb_u = stablehlo.broadcast_in_dim %mxb_u, dims = [0] : (tensor<300xf32>) -> tensor<300x100xf32>
  %d_u = stablehlo.subtract %x2, %mb_u : tensor<300x100xf32>
  %e_u = stablehlo.exponential %d_u : tensor<300x100xf32>
  %s_u = stablehlo.reduce(%e_u init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<300x100xf32>, tensor<f32>) -> tensor<300xf32>
  %sb__u = stablehlo.optimization_barrier %s_u : tensor<300xf32>
  %sb_u = stablehlo.broadcast_in_dim %sb__u, dims = [0] : (tensor<300xf32>) -> tensor<300x100xf32>
  %r_u = stablehlo.divide %e_u, %sb_u : tensor<300x100xf32>
  check.expect_eq %r, %r_u : tensor<300x100xf32>
  %tot = stablehlo.reduce(%r init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<300x100xf32>, tensor<f32>) -> tensor<300xf32>
  check.expect_almost_eq_const %tot, dense<1.0> : tensor<300xf32> {tolerance = 1e-05 : f64}
  func.return
}

// -----

// softmax over rows of 1000, 1 rows, f32; fused against barriers between the stages
func.func @softmax_1x1000_f32() {
  %xi = stablehlo.iota dim = 0 : tensor<1x1000xf32>
  %xj = stablehlo.iota dim = 1 : tensor<1x1000xf32>
  %xa = stablehlo.constant dense<1.37> : tensor<1x1000xf32>
  %xb = stablehlo.constant dense<0.61> : tensor<1x1000xf32>
  %xia = stablehlo.multiply %xi, %xa : tensor<1x1000xf32>
  %xjb = stablehlo.multiply %xj, %xb : tensor<1x1000xf32>
  %xs = stablehlo.add %xia, %xjb : tensor<1x1000xf32>
  %xsn = stablehlo.sine %xs : tensor<1x1000xf32>
  %xc = stablehlo.constant dense<6.0> : tensor<1x1000xf32>
  %xf = stablehlo.multiply %xsn, %xc : tensor<1x1000xf32>
  %x, %x2 = stablehlo.optimization_barrier %xf, %xf : tensor<1x1000xf32>, tensor<1x1000xf32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %mx = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<1x1000xf32>, tensor<f32>) -> tensor<1xf32>
  %mb = stablehlo.broadcast_in_dim %mx, dims = [0] : (tensor<1xf32>) -> tensor<1x1000xf32>
  %d = stablehlo.subtract %x, %mb : tensor<1x1000xf32>
  %e = stablehlo.exponential %d : tensor<1x1000xf32>
  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x1000xf32>, tensor<f32>) -> tensor<1xf32>
  %sb = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<1xf32>) -> tensor<1x1000xf32>
  %r = stablehlo.divide %e, %sb : tensor<1x1000xf32>
  %mx_u = stablehlo.reduce(%x2 init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<1x1000xf32>, tensor<f32>) -> tensor<1xf32>
  %mxb_u = stablehlo.optimization_barrier %mx_u : tensor<1xf32>
  %mb_u = stablehlo.broadcast_in_dim %mxb_u, dims = [0] : (tensor<1xf32>) -> tensor<1x1000xf32>
  %d_u = stablehlo.subtract %x2, %mb_u : tensor<1x1000xf32>
  %e_u = stablehlo.exponential %d_u : tensor<1x1000xf32>
  %s_u = stablehlo.reduce(%e_u init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x1000xf32>, tensor<f32>) -> tensor<1xf32>
  %sb__u = stablehlo.optimization_barrier %s_u : tensor<1xf32>
  %sb_u = stablehlo.broadcast_in_dim %sb__u, dims = [0] : (tensor<1xf32>) -> tensor<1x1000xf32>
  %r_u = stablehlo.divide %e_u, %sb_u : tensor<1x1000xf32>
  check.expect_eq %r, %r_u : tensor<1x1000xf32>
  %tot = stablehlo.reduce(%r init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<1x1000xf32>, tensor<f32>) -> tensor<1xf32>
  check.expect_almost_eq_const %tot, dense<1.0> : tensor<1xf32> {tolerance = 1e-05 : f64}
  func.return
}

// -----

// softmax over rows of 64, 2000 rows, f32; fused against barriers between the stages
func.func @softmax_2000x64_f32() {
  %xi = stablehlo.iota dim = 0 : tensor<2000x64xf32>
  %xj = stablehlo.iota dim = 1 : tensor<2000x64xf32>
  %xa = stablehlo.constant dense<1.37> : tensor<2000x64xf32>
  %xb = stablehlo.constant dense<0.61> : tensor<2000x64xf32>
  %xia = stablehlo.multiply %xi, %xa : tensor<2000x64xf32>
  %xjb = stablehlo.multiply %xj, %xb : tensor<2000x64xf32>
  %xs = stablehlo.add %xia, %xjb : tensor<2000x64xf32>
  %xsn = stablehlo.sine %xs : tensor<2000x64xf32>
  %xc = stablehlo.constant dense<6.0> : tensor<2000x64xf32>
  %xf = stablehlo.multiply %xsn, %xc : tensor<2000x64xf32>
  %x, %x2 = stablehlo.optimization_barrier %xf, %xf : tensor<2000x64xf32>, tensor<2000x64xf32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %mx = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<2000x64xf32>, tensor<f32>) -> tensor<2000xf32>
  %mb = stablehlo.broadcast_in_dim %mx, dims = [0] : (tensor<2000xf32>) -> tensor<2000x64xf32>
  %d = stablehlo.subtract %x, %mb : tensor<2000x64xf32>
  %e = stablehlo.exponential %d : tensor<2000x64xf32>
  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<2000x64xf32>, tensor<f32>) -> tensor<2000xf32>
  %sb = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<2000xf32>) -> tensor<2000x64xf32>
  %r = stablehlo.divide %e, %sb : tensor<2000x64xf32>
  %mx_u = stablehlo.reduce(%x2 init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<2000x64xf32>, tensor<f32>) -> tensor<2000xf32>
  %mxb_u = stablehlo.optimization_barrier %mx_u : tensor<2000xf32>
  %mb_u = stablehlo.broadcast_in_dim %mxb_u, dims = [0] : (tensor<2000xf32>) -> tensor<2000x64xf32>
  %d_u = stablehlo.subtract %x2, %mb_u : tensor<2000x64xf32>
  %e_u = stablehlo.exponential %d_u : tensor<2000x64xf32>
  %s_u = stablehlo.reduce(%e_u init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<2000x64xf32>, tensor<f32>) -> tensor<2000xf32>
  %sb__u = stablehlo.optimization_barrier %s_u : tensor<2000xf32>
  %sb_u = stablehlo.broadcast_in_dim %sb__u, dims = [0] : (tensor<2000xf32>) -> tensor<2000x64xf32>
  %r_u = stablehlo.divide %e_u, %sb_u : tensor<2000x64xf32>
  check.expect_eq %r, %r_u : tensor<2000x64xf32>
  %tot = stablehlo.reduce(%r init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<2000x64xf32>, tensor<f32>) -> tensor<2000xf32>
  check.expect_almost_eq_const %tot, dense<1.0> : tensor<2000xf32> {tolerance = 1e-05 : f64}
  func.return
}

// -----

// softmax over rows of 17, 9 rows, f64; fused against barriers between the stages
func.func @softmax_9x17_f64() {
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
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %ninf_t = stablehlo.convert %ninf : (tensor<f32>) -> tensor<f64>
  %zero = stablehlo.constant dense<0.0> : tensor<f64>
  %mx = stablehlo.reduce(%x init: %ninf_t) applies stablehlo.maximum across dimensions = [1] : (tensor<9x17xf64>, tensor<f64>) -> tensor<9xf64>
  %mb = stablehlo.broadcast_in_dim %mx, dims = [0] : (tensor<9xf64>) -> tensor<9x17xf64>
  %d = stablehlo.subtract %x, %mb : tensor<9x17xf64>
  %e = stablehlo.exponential %d : tensor<9x17xf64>
  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<9x17xf64>, tensor<f64>) -> tensor<9xf64>
  %sb = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<9xf64>) -> tensor<9x17xf64>
  %r = stablehlo.divide %e, %sb : tensor<9x17xf64>
  %mx_u = stablehlo.reduce(%x2 init: %ninf_t) applies stablehlo.maximum across dimensions = [1] : (tensor<9x17xf64>, tensor<f64>) -> tensor<9xf64>
  %mxb_u = stablehlo.optimization_barrier %mx_u : tensor<9xf64>
  %mb_u = stablehlo.broadcast_in_dim %mxb_u, dims = [0] : (tensor<9xf64>) -> tensor<9x17xf64>
  %d_u = stablehlo.subtract %x2, %mb_u : tensor<9x17xf64>
  %e_u = stablehlo.exponential %d_u : tensor<9x17xf64>
  %s_u = stablehlo.reduce(%e_u init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<9x17xf64>, tensor<f64>) -> tensor<9xf64>
  %sb__u = stablehlo.optimization_barrier %s_u : tensor<9xf64>
  %sb_u = stablehlo.broadcast_in_dim %sb__u, dims = [0] : (tensor<9xf64>) -> tensor<9x17xf64>
  %r_u = stablehlo.divide %e_u, %sb_u : tensor<9x17xf64>
  check.expect_eq %r, %r_u : tensor<9x17xf64>
  %tot = stablehlo.reduce(%r init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<9x17xf64>, tensor<f64>) -> tensor<9xf64>
  check.expect_almost_eq_const %tot, dense<1.0> : tensor<9xf64> {tolerance = 1e-12 : f64}
  func.return
}

// -----

// softmax over rows of 1000, 6 rows, f64; fused against barriers between the stages
func.func @softmax_6x1000_f64() {
  %xi = stablehlo.iota dim = 0 : tensor<6x1000xf32>
  %xj = stablehlo.iota dim = 1 : tensor<6x1000xf32>
  %xa = stablehlo.constant dense<1.37> : tensor<6x1000xf32>
  %xb = stablehlo.constant dense<0.61> : tensor<6x1000xf32>
  %xia = stablehlo.multiply %xi, %xa : tensor<6x1000xf32>
  %xjb = stablehlo.multiply %xj, %xb : tensor<6x1000xf32>
  %xs = stablehlo.add %xia, %xjb : tensor<6x1000xf32>
  %xsn = stablehlo.sine %xs : tensor<6x1000xf32>
  %xc = stablehlo.constant dense<6.0> : tensor<6x1000xf32>
  %xf = stablehlo.multiply %xsn, %xc : tensor<6x1000xf32>
  %xt = stablehlo.convert %xf : (tensor<6x1000xf32>) -> tensor<6x1000xf64>
  %x, %x2 = stablehlo.optimization_barrier %xt, %xt : tensor<6x1000xf64>, tensor<6x1000xf64>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %ninf_t = stablehlo.convert %ninf : (tensor<f32>) -> tensor<f64>
  %zero = stablehlo.constant dense<0.0> : tensor<f64>
  %mx = stablehlo.reduce(%x init: %ninf_t) applies stablehlo.maximum across dimensions = [1] : (tensor<6x1000xf64>, tensor<f64>) -> tensor<6xf64>
  %mb = stablehlo.broadcast_in_dim %mx, dims = [0] : (tensor<6xf64>) -> tensor<6x1000xf64>
  %d = stablehlo.subtract %x, %mb : tensor<6x1000xf64>
  %e = stablehlo.exponential %d : tensor<6x1000xf64>
  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<6x1000xf64>, tensor<f64>) -> tensor<6xf64>
  %sb = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<6xf64>) -> tensor<6x1000xf64>
  %r = stablehlo.divide %e, %sb : tensor<6x1000xf64>
  %mx_u = stablehlo.reduce(%x2 init: %ninf_t) applies stablehlo.maximum across dimensions = [1] : (tensor<6x1000xf64>, tensor<f64>) -> tensor<6xf64>
  %mxb_u = stablehlo.optimization_barrier %mx_u : tensor<6xf64>
  %mb_u = stablehlo.broadcast_in_dim %mxb_u, dims = [0] : (tensor<6xf64>) -> tensor<6x1000xf64>
  %d_u = stablehlo.subtract %x2, %mb_u : tensor<6x1000xf64>
  %e_u = stablehlo.exponential %d_u : tensor<6x1000xf64>
  %s_u = stablehlo.reduce(%e_u init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<6x1000xf64>, tensor<f64>) -> tensor<6xf64>
  %sb__u = stablehlo.optimization_barrier %s_u : tensor<6xf64>
  %sb_u = stablehlo.broadcast_in_dim %sb__u, dims = [0] : (tensor<6xf64>) -> tensor<6x1000xf64>
  %r_u = stablehlo.divide %e_u, %sb_u : tensor<6x1000xf64>
  check.expect_eq %r, %r_u : tensor<6x1000xf64>
  %tot = stablehlo.reduce(%r init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<6x1000xf64>, tensor<f64>) -> tensor<6xf64>
  check.expect_almost_eq_const %tot, dense<1.0> : tensor<6xf64> {tolerance = 1e-12 : f64}
  func.return
}

// -----

// softmax over rows of 4097, 3 rows, f64; fused against barriers between the stages
func.func @softmax_3x4097_f64() {
  %xi = stablehlo.iota dim = 0 : tensor<3x4097xf32>
  %xj = stablehlo.iota dim = 1 : tensor<3x4097xf32>
  %xa = stablehlo.constant dense<1.37> : tensor<3x4097xf32>
  %xb = stablehlo.constant dense<0.61> : tensor<3x4097xf32>
  %xia = stablehlo.multiply %xi, %xa : tensor<3x4097xf32>
  %xjb = stablehlo.multiply %xj, %xb : tensor<3x4097xf32>
  %xs = stablehlo.add %xia, %xjb : tensor<3x4097xf32>
  %xsn = stablehlo.sine %xs : tensor<3x4097xf32>
  %xc = stablehlo.constant dense<6.0> : tensor<3x4097xf32>
  %xf = stablehlo.multiply %xsn, %xc : tensor<3x4097xf32>
  %xt = stablehlo.convert %xf : (tensor<3x4097xf32>) -> tensor<3x4097xf64>
  %x, %x2 = stablehlo.optimization_barrier %xt, %xt : tensor<3x4097xf64>, tensor<3x4097xf64>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %ninf_t = stablehlo.convert %ninf : (tensor<f32>) -> tensor<f64>
  %zero = stablehlo.constant dense<0.0> : tensor<f64>
  %mx = stablehlo.reduce(%x init: %ninf_t) applies stablehlo.maximum across dimensions = [1] : (tensor<3x4097xf64>, tensor<f64>) -> tensor<3xf64>
  %mb = stablehlo.broadcast_in_dim %mx, dims = [0] : (tensor<3xf64>) -> tensor<3x4097xf64>
  %d = stablehlo.subtract %x, %mb : tensor<3x4097xf64>
  %e = stablehlo.exponential %d : tensor<3x4097xf64>
  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<3x4097xf64>, tensor<f64>) -> tensor<3xf64>
  %sb = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<3xf64>) -> tensor<3x4097xf64>
  %r = stablehlo.divide %e, %sb : tensor<3x4097xf64>
  %mx_u = stablehlo.reduce(%x2 init: %ninf_t) applies stablehlo.maximum across dimensions = [1] : (tensor<3x4097xf64>, tensor<f64>) -> tensor<3xf64>
  %mxb_u = stablehlo.optimization_barrier %mx_u : tensor<3xf64>
  %mb_u = stablehlo.broadcast_in_dim %mxb_u, dims = [0] : (tensor<3xf64>) -> tensor<3x4097xf64>
  %d_u = stablehlo.subtract %x2, %mb_u : tensor<3x4097xf64>
  %e_u = stablehlo.exponential %d_u : tensor<3x4097xf64>
  %s_u = stablehlo.reduce(%e_u init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<3x4097xf64>, tensor<f64>) -> tensor<3xf64>
  %sb__u = stablehlo.optimization_barrier %s_u : tensor<3xf64>
  %sb_u = stablehlo.broadcast_in_dim %sb__u, dims = [0] : (tensor<3xf64>) -> tensor<3x4097xf64>
  %r_u = stablehlo.divide %e_u, %sb_u : tensor<3x4097xf64>
  check.expect_eq %r, %r_u : tensor<3x4097xf64>
  %tot = stablehlo.reduce(%r init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<3x4097xf64>, tensor<f64>) -> tensor<3xf64>
  check.expect_almost_eq_const %tot, dense<1.0> : tensor<3xf64> {tolerance = 1e-12 : f64}
  func.return
}

// -----

// softmax over rows of 17, 5 rows, bf16; fused against barriers between the stages
func.func @softmax_5x17_bf16() {
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
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %ninf_t = stablehlo.convert %ninf : (tensor<f32>) -> tensor<bf16>
  %zero = stablehlo.constant dense<0.0> : tensor<bf16>
  %mx = stablehlo.reduce(%x init: %ninf_t) applies stablehlo.maximum across dimensions = [1] : (tensor<5x17xbf16>, tensor<bf16>) -> tensor<5xbf16>
  %mb = stablehlo.broadcast_in_dim %mx, dims = [0] : (tensor<5xbf16>) -> tensor<5x17xbf16>
  %d = stablehlo.subtract %x, %mb : tensor<5x17xbf16>
  %e = stablehlo.exponential %d : tensor<5x17xbf16>
  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<5x17xbf16>, tensor<bf16>) -> tensor<5xbf16>
  %sb = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<5xbf16>) -> tensor<5x17xbf16>
  %r = stablehlo.divide %e, %sb : tensor<5x17xbf16>
  %mx_u = stablehlo.reduce(%x2 init: %ninf_t) applies stablehlo.maximum across dimensions = [1] : (tensor<5x17xbf16>, tensor<bf16>) -> tensor<5xbf16>
  %mxb_u = stablehlo.optimization_barrier %mx_u : tensor<5xbf16>
  %mb_u = stablehlo.broadcast_in_dim %mxb_u, dims = [0] : (tensor<5xbf16>) -> tensor<5x17xbf16>
  %d_u = stablehlo.subtract %x2, %mb_u : tensor<5x17xbf16>
  %e_u = stablehlo.exponential %d_u : tensor<5x17xbf16>
  %s_u = stablehlo.reduce(%e_u init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<5x17xbf16>, tensor<bf16>) -> tensor<5xbf16>
  %sb__u = stablehlo.optimization_barrier %s_u : tensor<5xbf16>
  %sb_u = stablehlo.broadcast_in_dim %sb__u, dims = [0] : (tensor<5xbf16>) -> tensor<5x17xbf16>
  %r_u = stablehlo.divide %e_u, %sb_u : tensor<5x17xbf16>
  check.expect_eq %r, %r_u : tensor<5x17xbf16>
  func.return
}

// -----

// softmax over rows of 1000, 4 rows, bf16; fused against barriers between the stages
func.func @softmax_4x1000_bf16() {
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
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %ninf_t = stablehlo.convert %ninf : (tensor<f32>) -> tensor<bf16>
  %zero = stablehlo.constant dense<0.0> : tensor<bf16>
  %mx = stablehlo.reduce(%x init: %ninf_t) applies stablehlo.maximum across dimensions = [1] : (tensor<4x1000xbf16>, tensor<bf16>) -> tensor<4xbf16>
  %mb = stablehlo.broadcast_in_dim %mx, dims = [0] : (tensor<4xbf16>) -> tensor<4x1000xbf16>
  %d = stablehlo.subtract %x, %mb : tensor<4x1000xbf16>
  %e = stablehlo.exponential %d : tensor<4x1000xbf16>
  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<4x1000xbf16>, tensor<bf16>) -> tensor<4xbf16>
  %sb = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<4xbf16>) -> tensor<4x1000xbf16>
  %r = stablehlo.divide %e, %sb : tensor<4x1000xbf16>
  %mx_u = stablehlo.reduce(%x2 init: %ninf_t) applies stablehlo.maximum across dimensions = [1] : (tensor<4x1000xbf16>, tensor<bf16>) -> tensor<4xbf16>
  %mxb_u = stablehlo.optimization_barrier %mx_u : tensor<4xbf16>
  %mb_u = stablehlo.broadcast_in_dim %mxb_u, dims = [0] : (tensor<4xbf16>) -> tensor<4x1000xbf16>
  %d_u = stablehlo.subtract %x2, %mb_u : tensor<4x1000xbf16>
  %e_u = stablehlo.exponential %d_u : tensor<4x1000xbf16>
  %s_u = stablehlo.reduce(%e_u init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<4x1000xbf16>, tensor<bf16>) -> tensor<4xbf16>
  %sb__u = stablehlo.optimization_barrier %s_u : tensor<4xbf16>
  %sb_u = stablehlo.broadcast_in_dim %sb__u, dims = [0] : (tensor<4xbf16>) -> tensor<4x1000xbf16>
  %r_u = stablehlo.divide %e_u, %sb_u : tensor<4x1000xbf16>
  check.expect_eq %r, %r_u : tensor<4x1000xbf16>
  func.return
}

// -----

// softmax over rows of 4097, 2 rows, bf16; fused against barriers between the stages
func.func @softmax_2x4097_bf16() {
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
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %ninf_t = stablehlo.convert %ninf : (tensor<f32>) -> tensor<bf16>
  %zero = stablehlo.constant dense<0.0> : tensor<bf16>
  %mx = stablehlo.reduce(%x init: %ninf_t) applies stablehlo.maximum across dimensions = [1] : (tensor<2x4097xbf16>, tensor<bf16>) -> tensor<2xbf16>
  %mb = stablehlo.broadcast_in_dim %mx, dims = [0] : (tensor<2xbf16>) -> tensor<2x4097xbf16>
  %d = stablehlo.subtract %x, %mb : tensor<2x4097xbf16>
  %e = stablehlo.exponential %d : tensor<2x4097xbf16>
  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<2x4097xbf16>, tensor<bf16>) -> tensor<2xbf16>
  %sb = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<2xbf16>) -> tensor<2x4097xbf16>
  %r = stablehlo.divide %e, %sb : tensor<2x4097xbf16>
  %mx_u = stablehlo.reduce(%x2 init: %ninf_t) applies stablehlo.maximum across dimensions = [1] : (tensor<2x4097xbf16>, tensor<bf16>) -> tensor<2xbf16>
  %mxb_u = stablehlo.optimization_barrier %mx_u : tensor<2xbf16>
  %mb_u = stablehlo.broadcast_in_dim %mxb_u, dims = [0] : (tensor<2xbf16>) -> tensor<2x4097xbf16>
  %d_u = stablehlo.subtract %x2, %mb_u : tensor<2x4097xbf16>
  %e_u = stablehlo.exponential %d_u : tensor<2x4097xbf16>
  %s_u = stablehlo.reduce(%e_u init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<2x4097xbf16>, tensor<bf16>) -> tensor<2xbf16>
  %sb__u = stablehlo.optimization_barrier %s_u : tensor<2xbf16>
  %sb_u = stablehlo.broadcast_in_dim %sb__u, dims = [0] : (tensor<2xbf16>) -> tensor<2x4097xbf16>
  %r_u = stablehlo.divide %e_u, %sb_u : tensor<2x4097xbf16>
  check.expect_eq %r, %r_u : tensor<2x4097xbf16>
  func.return
}

// -----

// log_softmax over rows of 17, 7 rows, f32; fused against barriers between the stages
func.func @log_softmax_7x17_f32() {
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
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %mx = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<7x17xf32>, tensor<f32>) -> tensor<7xf32>
  %mb = stablehlo.broadcast_in_dim %mx, dims = [0] : (tensor<7xf32>) -> tensor<7x17xf32>
  %d = stablehlo.subtract %x, %mb : tensor<7x17xf32>
  %e = stablehlo.exponential %d : tensor<7x17xf32>
  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<7x17xf32>, tensor<f32>) -> tensor<7xf32>
  %l = stablehlo.log %s : tensor<7xf32>
  %lb = stablehlo.broadcast_in_dim %l, dims = [0] : (tensor<7xf32>) -> tensor<7x17xf32>
  %r = stablehlo.subtract %d, %lb : tensor<7x17xf32>
  %mx_u = stablehlo.reduce(%x2 init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<7x17xf32>, tensor<f32>) -> tensor<7xf32>
  %mxb_u = stablehlo.optimization_barrier %mx_u : tensor<7xf32>
  %mb_u = stablehlo.broadcast_in_dim %mxb_u, dims = [0] : (tensor<7xf32>) -> tensor<7x17xf32>
  %d_u = stablehlo.subtract %x2, %mb_u : tensor<7x17xf32>
  %e_u = stablehlo.exponential %d_u : tensor<7x17xf32>
  %s_u = stablehlo.reduce(%e_u init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<7x17xf32>, tensor<f32>) -> tensor<7xf32>
  %sb__u = stablehlo.optimization_barrier %s_u : tensor<7xf32>
  %l_u = stablehlo.log %sb__u : tensor<7xf32>
  %lb_u = stablehlo.broadcast_in_dim %l_u, dims = [0] : (tensor<7xf32>) -> tensor<7x17xf32>
  %r_u = stablehlo.subtract %d_u, %lb_u : tensor<7x17xf32>
  check.expect_eq %r, %r_u : tensor<7x17xf32>
  func.return
}

// -----

// log_softmax over rows of 1000, 3 rows, f32; fused against barriers between the stages
func.func @log_softmax_3x1000_f32() {
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
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %mx = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<3x1000xf32>, tensor<f32>) -> tensor<3xf32>
  %mb = stablehlo.broadcast_in_dim %mx, dims = [0] : (tensor<3xf32>) -> tensor<3x1000xf32>
  %d = stablehlo.subtract %x, %mb : tensor<3x1000xf32>
  %e = stablehlo.exponential %d : tensor<3x1000xf32>
  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<3x1000xf32>, tensor<f32>) -> tensor<3xf32>
  %l = stablehlo.log %s : tensor<3xf32>
  %lb = stablehlo.broadcast_in_dim %l, dims = [0] : (tensor<3xf32>) -> tensor<3x1000xf32>
  %r = stablehlo.subtract %d, %lb : tensor<3x1000xf32>
  %mx_u = stablehlo.reduce(%x2 init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<3x1000xf32>, tensor<f32>) -> tensor<3xf32>
  %mxb_u = stablehlo.optimization_barrier %mx_u : tensor<3xf32>
  %mb_u = stablehlo.broadcast_in_dim %mxb_u, dims = [0] : (tensor<3xf32>) -> tensor<3x1000xf32>
  %d_u = stablehlo.subtract %x2, %mb_u : tensor<3x1000xf32>
  %e_u = stablehlo.exponential %d_u : tensor<3x1000xf32>
  %s_u = stablehlo.reduce(%e_u init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<3x1000xf32>, tensor<f32>) -> tensor<3xf32>
  %sb__u = stablehlo.optimization_barrier %s_u : tensor<3xf32>
  %l_u = stablehlo.log %sb__u : tensor<3xf32>
  %lb_u = stablehlo.broadcast_in_dim %l_u, dims = [0] : (tensor<3xf32>) -> tensor<3x1000xf32>
  %r_u = stablehlo.subtract %d_u, %lb_u : tensor<3x1000xf32>
  check.expect_eq %r, %r_u : tensor<3x1000xf32>
  func.return
}

// -----

// log_softmax over rows of 4097, 2 rows, f64; fused against barriers between the stages
func.func @log_softmax_2x4097_f64() {
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
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %ninf_t = stablehlo.convert %ninf : (tensor<f32>) -> tensor<f64>
  %zero = stablehlo.constant dense<0.0> : tensor<f64>
  %mx = stablehlo.reduce(%x init: %ninf_t) applies stablehlo.maximum across dimensions = [1] : (tensor<2x4097xf64>, tensor<f64>) -> tensor<2xf64>
  %mb = stablehlo.broadcast_in_dim %mx, dims = [0] : (tensor<2xf64>) -> tensor<2x4097xf64>
  %d = stablehlo.subtract %x, %mb : tensor<2x4097xf64>
  %e = stablehlo.exponential %d : tensor<2x4097xf64>
  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<2x4097xf64>, tensor<f64>) -> tensor<2xf64>
  %l = stablehlo.log %s : tensor<2xf64>
  %lb = stablehlo.broadcast_in_dim %l, dims = [0] : (tensor<2xf64>) -> tensor<2x4097xf64>
  %r = stablehlo.subtract %d, %lb : tensor<2x4097xf64>
  %mx_u = stablehlo.reduce(%x2 init: %ninf_t) applies stablehlo.maximum across dimensions = [1] : (tensor<2x4097xf64>, tensor<f64>) -> tensor<2xf64>
  %mxb_u = stablehlo.optimization_barrier %mx_u : tensor<2xf64>
  %mb_u = stablehlo.broadcast_in_dim %mxb_u, dims = [0] : (tensor<2xf64>) -> tensor<2x4097xf64>
  %d_u = stablehlo.subtract %x2, %mb_u : tensor<2x4097xf64>
  %e_u = stablehlo.exponential %d_u : tensor<2x4097xf64>
  %s_u = stablehlo.reduce(%e_u init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<2x4097xf64>, tensor<f64>) -> tensor<2xf64>
  %sb__u = stablehlo.optimization_barrier %s_u : tensor<2xf64>
  %l_u = stablehlo.log %sb__u : tensor<2xf64>
  %lb_u = stablehlo.broadcast_in_dim %l_u, dims = [0] : (tensor<2xf64>) -> tensor<2x4097xf64>
  %r_u = stablehlo.subtract %d_u, %lb_u : tensor<2x4097xf64>
  check.expect_eq %r, %r_u : tensor<2x4097xf64>
  func.return
}

// -----

// log_softmax over rows of 300, 4 rows, bf16; fused against barriers between the stages
func.func @log_softmax_4x300_bf16() {
  %xi = stablehlo.iota dim = 0 : tensor<4x300xf32>
  %xj = stablehlo.iota dim = 1 : tensor<4x300xf32>
  %xa = stablehlo.constant dense<1.37> : tensor<4x300xf32>
  %xb = stablehlo.constant dense<0.61> : tensor<4x300xf32>
  %xia = stablehlo.multiply %xi, %xa : tensor<4x300xf32>
  %xjb = stablehlo.multiply %xj, %xb : tensor<4x300xf32>
  %xs = stablehlo.add %xia, %xjb : tensor<4x300xf32>
  %xsn = stablehlo.sine %xs : tensor<4x300xf32>
  %xc = stablehlo.constant dense<6.0> : tensor<4x300xf32>
  %xf = stablehlo.multiply %xsn, %xc : tensor<4x300xf32>
  %xt = stablehlo.convert %xf : (tensor<4x300xf32>) -> tensor<4x300xbf16>
  %x, %x2 = stablehlo.optimization_barrier %xt, %xt : tensor<4x300xbf16>, tensor<4x300xbf16>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %ninf_t = stablehlo.convert %ninf : (tensor<f32>) -> tensor<bf16>
  %zero = stablehlo.constant dense<0.0> : tensor<bf16>
  %mx = stablehlo.reduce(%x init: %ninf_t) applies stablehlo.maximum across dimensions = [1] : (tensor<4x300xbf16>, tensor<bf16>) -> tensor<4xbf16>
  %mb = stablehlo.broadcast_in_dim %mx, dims = [0] : (tensor<4xbf16>) -> tensor<4x300xbf16>
  %d = stablehlo.subtract %x, %mb : tensor<4x300xbf16>
  %e = stablehlo.exponential %d : tensor<4x300xbf16>
  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<4x300xbf16>, tensor<bf16>) -> tensor<4xbf16>
  %l = stablehlo.log %s : tensor<4xbf16>
  %lb = stablehlo.broadcast_in_dim %l, dims = [0] : (tensor<4xbf16>) -> tensor<4x300xbf16>
  %r = stablehlo.subtract %d, %lb : tensor<4x300xbf16>
  %mx_u = stablehlo.reduce(%x2 init: %ninf_t) applies stablehlo.maximum across dimensions = [1] : (tensor<4x300xbf16>, tensor<bf16>) -> tensor<4xbf16>
  %mxb_u = stablehlo.optimization_barrier %mx_u : tensor<4xbf16>
  %mb_u = stablehlo.broadcast_in_dim %mxb_u, dims = [0] : (tensor<4xbf16>) -> tensor<4x300xbf16>
  %d_u = stablehlo.subtract %x2, %mb_u : tensor<4x300xbf16>
  %e_u = stablehlo.exponential %d_u : tensor<4x300xbf16>
  %s_u = stablehlo.reduce(%e_u init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<4x300xbf16>, tensor<bf16>) -> tensor<4xbf16>
  %sb__u = stablehlo.optimization_barrier %s_u : tensor<4xbf16>
  %l_u = stablehlo.log %sb__u : tensor<4xbf16>
  %lb_u = stablehlo.broadcast_in_dim %l_u, dims = [0] : (tensor<4xbf16>) -> tensor<4x300xbf16>
  %r_u = stablehlo.subtract %d_u, %lb_u : tensor<4x300xbf16>
  check.expect_eq %r, %r_u : tensor<4x300xbf16>
  func.return
}
