// RUN: xlac run --split-input-file %s
// sort with general comparators, compiled into a function the runtime's
// merge sort calls: results identical to the interpreter's.

// JAX's float comparator: -0 and NaN canonicalized, then a total order, so
// -0 and +0 tie (stable) and every NaN sorts last.
func.func @sort_jax_float() {
  %x0 = stablehlo.constant dense<[0.0, 0x7FC00000, -0.0, -2.0, 0xFFC00000, 5.0]> : tensor<6xf32>
  %i0 = stablehlo.iota dim = 0 : tensor<6xi32>
  %x, %i = stablehlo.optimization_barrier %x0, %i0 : tensor<6xf32>, tensor<6xi32>
  %r:2 = "stablehlo.sort"(%x, %i) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %z = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %nan = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %1 = stablehlo.compare EQ, %a, %z, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %2 = stablehlo.select %1, %z, %a : tensor<i1>, tensor<f32>
    %3 = stablehlo.compare NE, %a, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %4 = stablehlo.select %3, %nan, %2 : tensor<i1>, tensor<f32>
    %5 = stablehlo.compare EQ, %b, %z, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %6 = stablehlo.select %5, %z, %b : tensor<i1>, tensor<f32>
    %7 = stablehlo.compare NE, %b, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %8 = stablehlo.select %7, %nan, %6 : tensor<i1>, tensor<f32>
    %9 = stablehlo.compare LT, %4, %8, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %9 : tensor<i1>
  }) : (tensor<6xf32>, tensor<6xi32>) -> (tensor<6xf32>, tensor<6xi32>)
  check.expect_eq_const %r#1, dense<[3, 0, 2, 5, 1, 4]> : tensor<6xi32>
  func.return
}

// -----

// Two keys, lexicographic (lax.sort with num_keys=2), along dimension 1,
// with a third operand permuted along.
func.func @sort_two_keys() {
  %a0 = stablehlo.constant dense<[[2, 1, 2, 1], [0, 0, 0, 0]]> : tensor<2x4xi32>
  %b0 = stablehlo.constant dense<[[5, 9, 4, 9], [3, 1, 2, 1]]> : tensor<2x4xi64>
  %c0 = stablehlo.iota dim = 1 : tensor<2x4xui16>
  %a, %b, %c = stablehlo.optimization_barrier %a0, %b0, %c0 : tensor<2x4xi32>, tensor<2x4xi64>, tensor<2x4xui16>
  %r:3 = "stablehlo.sort"(%a, %b, %c) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%p: tensor<i32>, %q: tensor<i32>, %s: tensor<i64>, %t: tensor<i64>, %u: tensor<ui16>, %v: tensor<ui16>):
    %lt = stablehlo.compare LT, %p, %q, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %eq = stablehlo.compare EQ, %p, %q, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %lt2 = stablehlo.compare LT, %s, %t, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %and = stablehlo.and %eq, %lt2 : tensor<i1>
    %or = stablehlo.or %lt, %and : tensor<i1>
    stablehlo.return %or : tensor<i1>
  }) : (tensor<2x4xi32>, tensor<2x4xi64>, tensor<2x4xui16>) -> (tensor<2x4xi32>, tensor<2x4xi64>, tensor<2x4xui16>)
  check.expect_eq_const %r#0, dense<[[1, 1, 2, 2], [0, 0, 0, 0]]> : tensor<2x4xi32>
  check.expect_eq_const %r#1, dense<[[9, 9, 4, 5], [1, 1, 2, 3]]> : tensor<2x4xi64>
  check.expect_eq_const %r#2, dense<[[1, 3, 2, 0], [1, 3, 2, 0]]> : tensor<2x4xui16>
  func.return
}

// -----

// A comparator on the second operand only (sort by value, keys follow).
func.func @sort_by_second() {
  %k0 = stablehlo.constant dense<[10, 20, 30]> : tensor<3xi8>
  %v0 = stablehlo.constant dense<[3.0, -1.0, 2.0]> : tensor<3xf32>
  %k, %v = stablehlo.optimization_barrier %k0, %v0 : tensor<3xi8>, tensor<3xf32>
  %r:2 = "stablehlo.sort"(%k, %v) <{dimension = 0 : i64}> ({
  ^bb0(%a: tensor<i8>, %b: tensor<i8>, %c: tensor<f32>, %d: tensor<f32>):
    %t = stablehlo.compare LT, %c, %d, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %t : tensor<i1>
  }) : (tensor<3xi8>, tensor<3xf32>) -> (tensor<3xi8>, tensor<3xf32>)
  check.expect_eq_const %r#0, dense<[20, 30, 10]> : tensor<3xi8>
  check.expect_eq_const %r#1, dense<[-1.0, 2.0, 3.0]> : tensor<3xf32>
  func.return
}
