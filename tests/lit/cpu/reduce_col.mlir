// RUN: xlac run --split-input-file %s
// Column reductions on the cpu backend (reduced dims outside the kept
// contiguous ones): each output accumulates its rows in order, the
// interpreter's order, so even inexact float sums match it bit for bit.
// The optimization barrier keeps the inputs from being folded.

func.func @columns_2d() {
  %i = stablehlo.iota dim = 0 : tensor<1000x40xi32>
  %j = stablehlo.iota dim = 1 : tensor<1000x40xi32>
  %s0 = stablehlo.add %i, %j : tensor<1000x40xi32>
  %s = stablehlo.optimization_barrier %s0 : tensor<1000x40xi32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %r = stablehlo.reduce(%s init: %z) applies stablehlo.add across dimensions = [0] : (tensor<1000x40xi32>, tensor<i32>) -> tensor<40xi32>
  %k = stablehlo.iota dim = 0 : tensor<40xi32>
  %thousand = stablehlo.constant dense<1000> : tensor<40xi32>
  %kk = stablehlo.multiply %k, %thousand : tensor<40xi32>
  %base = stablehlo.constant dense<499500> : tensor<40xi32>
  %want = stablehlo.add %kk, %base : tensor<40xi32>
  check.expect_eq %r, %want : tensor<40xi32>
  func.return
}

// -----

// Inexact float sums (0.1 steps): the result must equal the strictly
// sequential sum, computed here by a while loop.
func.func @columns_sequential_order() {
  %i = stablehlo.iota dim = 0 : tensor<300x33xf32>
  %j = stablehlo.iota dim = 1 : tensor<300x33xf32>
  %c = stablehlo.constant dense<0.1> : tensor<300x33xf32>
  %a = stablehlo.multiply %i, %c : tensor<300x33xf32>
  %x0 = stablehlo.add %a, %j : tensor<300x33xf32>
  %x = stablehlo.optimization_barrier %x0 : tensor<300x33xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<300x33xf32>, tensor<f32>) -> tensor<33xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<33xf32>
  %i0 = stablehlo.constant dense<0> : tensor<i64>
  %w:2 = stablehlo.while(%it = %i0, %acc = %zero) : tensor<i64>, tensor<33xf32>
    cond {
      %n = stablehlo.constant dense<300> : tensor<i64>
      %lt = stablehlo.compare LT, %it, %n : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %z64 = stablehlo.constant dense<0> : tensor<i64>
      %row = stablehlo.dynamic_slice %x, %it, %z64, sizes = [1, 33] : (tensor<300x33xf32>, tensor<i64>, tensor<i64>) -> tensor<1x33xf32>
      %row1 = stablehlo.reshape %row : (tensor<1x33xf32>) -> tensor<33xf32>
      %acc2 = stablehlo.add %acc, %row1 : tensor<33xf32>
      %one = stablehlo.constant dense<1> : tensor<i64>
      %it2 = stablehlo.add %it, %one : tensor<i64>
      stablehlo.return %it2, %acc2 : tensor<i64>, tensor<33xf32>
    }
  check.expect_eq %r, %w#1 : tensor<33xf32>
  func.return
}

// -----

// The reduced dim in the middle: [3, 500, 7] over dim 1, with a producer.
func.func @columns_middle() {
  %i = stablehlo.iota dim = 0 : tensor<3x500x7xi64>
  %j = stablehlo.iota dim = 1 : tensor<3x500x7xi64>
  %k = stablehlo.iota dim = 2 : tensor<3x500x7xi64>
  %ij = stablehlo.multiply %i, %j : tensor<3x500x7xi64>
  %x0 = stablehlo.add %ij, %k : tensor<3x500x7xi64>
  %x = stablehlo.optimization_barrier %x0 : tensor<3x500x7xi64>
  %two = stablehlo.constant dense<2> : tensor<3x500x7xi64>
  %y = stablehlo.multiply %x, %two : tensor<3x500x7xi64>
  %z = stablehlo.constant dense<1> : tensor<i64>
  %r = stablehlo.reduce(%y init: %z) applies stablehlo.add across dimensions = [1] : (tensor<3x500x7xi64>, tensor<i64>) -> tensor<3x7xi64>
  // 1 + 2 * (i * 124750 + 500 k)
  check.expect_eq_const %r, dense<[[1, 1001, 2001, 3001, 4001, 5001, 6001],
                                   [249501, 250501, 251501, 252501, 253501, 254501, 255501],
                                   [499001, 500001, 501001, 502001, 503001, 504001, 505001]]> : tensor<3x7xi64>
  %ninf = stablehlo.constant dense<-1000> : tensor<i64>
  %m = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [0, 1] : (tensor<3x500x7xi64>, tensor<i64>) -> tensor<7xi64>
  check.expect_eq_const %m, dense<[998, 999, 1000, 1001, 1002, 1003, 1004]> : tensor<7xi64>
  func.return
}

// -----

// Wide columns (several tiles of outputs) with a broadcast producer.
func.func @columns_wide() {
  %i = stablehlo.iota dim = 0 : tensor<50x2500xf32>
  %b0 = stablehlo.iota dim = 0 : tensor<2500xf32>
  %x, %b = stablehlo.optimization_barrier %i, %b0 : tensor<50x2500xf32>, tensor<2500xf32>
  %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<2500xf32>) -> tensor<50x2500xf32>
  %y = stablehlo.add %x, %bb : tensor<50x2500xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%y init: %z) applies stablehlo.add across dimensions = [0] : (tensor<50x2500xf32>, tensor<f32>) -> tensor<2500xf32>
  %fifty = stablehlo.constant dense<50.0> : tensor<2500xf32>
  %bk = stablehlo.multiply %b, %fifty : tensor<2500xf32>
  %c = stablehlo.constant dense<1225.0> : tensor<2500xf32>
  %want = stablehlo.add %bk, %c : tensor<2500xf32>
  check.expect_eq %r, %want : tensor<2500xf32>
  func.return
}
