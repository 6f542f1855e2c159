// RUN: xlac run --split-input-file %s
// Reductions whose body is more than one simple op: argmax/argmin as JAX
// emits them (a variadic reduce over values and an iota, compare + select),
// with ties (the first index wins), NaNs (the first NaN wins) and signed
// zeros; variadic reduces of two and three operands over several
// dimensions; and a non-associative body, whose result depends on the
// order the elements are folded in (the cpu backend must match the
// interpreter's row-major left fold bit for bit).

func.func @argmax_rows() {
  %x0 = stablehlo.constant dense<[[1.0, 3.0, 3.0, 2.0, 0.0, -1.0],
                                  [5.0, 1.0, 0x7FC00000, 9.0, 0x7FC00001, 2.0],
                                  [-0.0, 0.0, -1.0, -2.0, -3.0, -4.0],
                                  [0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000, 0xFF800000]]> : tensor<4x6xf32>
  %x = stablehlo.optimization_barrier %x0 : tensor<4x6xf32>
  %iota = stablehlo.iota dim = 1 : tensor<4x6xi32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.reduce(%x init: %ninf), (%iota init: %c0) across dimensions = [1] : (tensor<4x6xf32>, tensor<4x6xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%ai: tensor<i32>, %bi: tensor<i32>) {
    %gt = stablehlo.compare GT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %nan = stablehlo.compare NE, %a, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %p = stablehlo.or %gt, %nan : tensor<i1>
    %eq = stablehlo.compare EQ, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %lt = stablehlo.compare LT, %ai, %bi, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %tie = stablehlo.and %eq, %lt : tensor<i1>
    %q = stablehlo.or %p, %tie : tensor<i1>
    %v = stablehlo.select %p, %a, %b : tensor<i1>, tensor<f32>
    %i = stablehlo.select %q, %ai, %bi : tensor<i1>, tensor<i32>
    stablehlo.return %v, %i : tensor<f32>, tensor<i32>
  }
  check.expect_eq_const %r#1, dense<[1, 2, 0, 0]> : tensor<4xi32>
  %bits = stablehlo.bitcast_convert %r#0 : (tensor<4xf32>) -> tensor<4xi32>
  // row 2: the value select takes the later of two equal zeros (+0)
  check.expect_eq_const %bits, dense<[1077936128, 2143289344, 0, -8388608]> : tensor<4xi32>
  func.return
}

// -----

func.func @argmin_columns_int() {
  %x0 = stablehlo.constant dense<[[4, -7, 2], [3, -7, 2], [3, 8, -9], [10, -8, 2]]> : tensor<4x3xi32>
  %x = stablehlo.optimization_barrier %x0 : tensor<4x3xi32>
  %iota = stablehlo.iota dim = 0 : tensor<4x3xi64>
  %big = stablehlo.constant dense<2147483647> : tensor<i32>
  %c0 = stablehlo.constant dense<0> : tensor<i64>
  %r:2 = stablehlo.reduce(%x init: %big), (%iota init: %c0) across dimensions = [0] : (tensor<4x3xi32>, tensor<4x3xi64>, tensor<i32>, tensor<i64>) -> (tensor<3xi32>, tensor<3xi64>)
   reducer(%a: tensor<i32>, %b: tensor<i32>) (%ai: tensor<i64>, %bi: tensor<i64>) {
    %lt = stablehlo.compare LT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %eq = stablehlo.compare EQ, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %ilt = stablehlo.compare LT, %ai, %bi, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %tie = stablehlo.and %eq, %ilt : tensor<i1>
    %q = stablehlo.or %lt, %tie : tensor<i1>
    %v = stablehlo.select %q, %a, %b : tensor<i1>, tensor<i32>
    %i = stablehlo.select %q, %ai, %bi : tensor<i1>, tensor<i64>
    stablehlo.return %v, %i : tensor<i32>, tensor<i64>
  }
  check.expect_eq_const %r#0, dense<[3, -8, -9]> : tensor<3xi32>
  check.expect_eq_const %r#1, dense<[1, 3, 2]> : tensor<3xi64>
  func.return
}

// -----

// A large argmax (a row reduction) and argmin over a middle dimension (a
// column reduction) checked against a computation without reduce bodies.
func.func @argmax_large() {
  %i = stablehlo.iota dim = 1 : tensor<64x1000xi32>
  %r = stablehlo.iota dim = 0 : tensor<64x1000xi32>
  // the row r peaks at column (r * 37) mod 1000, twice when r is even
  %c37 = stablehlo.constant dense<37> : tensor<64x1000xi32>
  %c1000 = stablehlo.constant dense<1000> : tensor<64x1000xi32>
  %peak = stablehlo.remainder %c37, %c1000 : tensor<64x1000xi32>
  %pr = stablehlo.multiply %r, %peak : tensor<64x1000xi32>
  %p = stablehlo.remainder %pr, %c1000 : tensor<64x1000xi32>
  %d = stablehlo.subtract %i, %p : tensor<64x1000xi32>
  %ad = stablehlo.abs %d : tensor<64x1000xi32>
  %neg = stablehlo.negate %ad : tensor<64x1000xi32>
  %xf = stablehlo.convert %neg : (tensor<64x1000xi32>) -> tensor<64x1000xf32>
  %x = stablehlo.optimization_barrier %xf : tensor<64x1000xf32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %m:2 = stablehlo.reduce(%x init: %ninf), (%i init: %c0) across dimensions = [1] : (tensor<64x1000xf32>, tensor<64x1000xi32>, tensor<f32>, tensor<i32>) -> (tensor<64xf32>, tensor<64xi32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%ai: tensor<i32>, %bi: tensor<i32>) {
    %gt = stablehlo.compare GT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %nan = stablehlo.compare NE, %a, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %pp = stablehlo.or %gt, %nan : tensor<i1>
    %eq = stablehlo.compare EQ, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %lt = stablehlo.compare LT, %ai, %bi, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %tie = stablehlo.and %eq, %lt : tensor<i1>
    %q = stablehlo.or %pp, %tie : tensor<i1>
    %v = stablehlo.select %pp, %a, %b : tensor<i1>, tensor<f32>
    %ii = stablehlo.select %q, %ai, %bi : tensor<i1>, tensor<i32>
    stablehlo.return %v, %ii : tensor<f32>, tensor<i32>
  }
  %want = stablehlo.slice %p [0:64, 0:1] : (tensor<64x1000xi32>) -> tensor<64x1xi32>
  %w = stablehlo.reshape %want : (tensor<64x1xi32>) -> tensor<64xi32>
  check.expect_eq %m#1, %w : tensor<64xi32>
  %z = stablehlo.constant dense<0.0> : tensor<64xf32>
  check.expect_eq %m#0, %z : tensor<64xf32>
  func.return
}

// -----

// Three operands over two of three dimensions: sum, running max, count of
// positives, with a body mixing types.
func.func @variadic_three() {
  %a0 = stablehlo.iota dim = 0 : tensor<3x4x5xf32>
  %b0 = stablehlo.iota dim = 2 : tensor<3x4x5xi32>
  %c0 = stablehlo.iota dim = 1 : tensor<3x4x5xi8>
  %a, %b, %c = stablehlo.optimization_barrier %a0, %b0, %c0 : tensor<3x4x5xf32>, tensor<3x4x5xi32>, tensor<3x4x5xi8>
  %za = stablehlo.constant dense<0.5> : tensor<f32>
  %zb = stablehlo.constant dense<-100> : tensor<i32>
  %zc = stablehlo.constant dense<0> : tensor<i8>
  %r:3 = stablehlo.reduce(%a init: %za), (%b init: %zb), (%c init: %zc) across dimensions = [0, 2] : (tensor<3x4x5xf32>, tensor<3x4x5xi32>, tensor<3x4x5xi8>, tensor<f32>, tensor<i32>, tensor<i8>) -> (tensor<4xf32>, tensor<4xi32>, tensor<4xi8>)
   reducer(%x: tensor<f32>, %y: tensor<f32>) (%u: tensor<i32>, %v: tensor<i32>) (%s: tensor<i8>, %t: tensor<i8>) {
    %sum = stablehlo.add %x, %y : tensor<f32>
    %mx = stablehlo.maximum %u, %v : tensor<i32>
    %one = stablehlo.constant dense<1> : tensor<i8>
    %zero = stablehlo.constant dense<0> : tensor<i8>
    %pos = stablehlo.compare GT, %t, %zero, SIGNED : (tensor<i8>, tensor<i8>) -> tensor<i1>
    %inc = stablehlo.select %pos, %one, %zero : tensor<i1>, tensor<i8>
    %cnt = stablehlo.add %s, %inc : tensor<i8>
    stablehlo.return %sum, %mx, %cnt : tensor<f32>, tensor<i32>, tensor<i8>
  }
  check.expect_eq_const %r#0, dense<[15.5, 15.5, 15.5, 15.5]> : tensor<4xf32>
  check.expect_eq_const %r#1, dense<4> : tensor<4xi32>
  check.expect_eq_const %r#2, dense<[0, 15, 15, 15]> : tensor<4xi8>
  func.return
}

// -----

// A non-associative body, a * 0.5 + b: the result is the interpreter's
// left fold, element by element in row-major order.
func.func @non_associative() {
  %i = stablehlo.iota dim = 1 : tensor<3x7x200xf32>
  %j = stablehlo.iota dim = 2 : tensor<3x7x200xf32>
  %k = stablehlo.iota dim = 0 : tensor<3x7x200xf32>
  %s = stablehlo.constant dense<0.37> : tensor<3x7x200xf32>
  %ij = stablehlo.multiply %i, %j : tensor<3x7x200xf32>
  %ijs = stablehlo.multiply %ij, %s : tensor<3x7x200xf32>
  %x0 = stablehlo.add %ijs, %k : tensor<3x7x200xf32>
  %x = stablehlo.optimization_barrier %x0 : tensor<3x7x200xf32>
  %z = stablehlo.constant dense<1.0> : tensor<f32>
  %r = stablehlo.reduce(%x init: %z) across dimensions = [2] : (tensor<3x7x200xf32>, tensor<f32>) -> tensor<3x7xf32>
   reducer(%a: tensor<f32>, %b: tensor<f32>) {
    %h = stablehlo.constant dense<0.5> : tensor<f32>
    %ah = stablehlo.multiply %a, %h : tensor<f32>
    %n = stablehlo.add %ah, %b : tensor<f32>
    stablehlo.return %n : tensor<f32>
  }
  %c = stablehlo.reduce(%x init: %z) across dimensions = [0, 1] : (tensor<3x7x200xf32>, tensor<f32>) -> tensor<200xf32>
   reducer(%a: tensor<f32>, %b: tensor<f32>) {
    %h = stablehlo.constant dense<0.5> : tensor<f32>
    %ah = stablehlo.multiply %a, %h : tensor<f32>
    %n = stablehlo.add %ah, %b : tensor<f32>
    stablehlo.return %n : tensor<f32>
  }
  %rs = stablehlo.slice %r [0:3:2, 0:7:3] : (tensor<3x7xf32>) -> tensor<2x3xf32>
  check.expect_eq_const %rs, dense<[[0.0, 439.56, 879.12], [4.0, 443.56, 883.12]]> : tensor<2x3xf32>
  %cs = stablehlo.slice %c [0:200:50] : (tensor<200xf32>) -> tensor<4xf32>
  check.expect_eq_const %cs, dense<[3.9842534, 191.02353, 378.0628, 565.1021]> : tensor<4xf32>
  func.return
}
