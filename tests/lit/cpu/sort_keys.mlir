// RUN: xlac run --split-input-file %s
// sort with the keys-only comparators (one compare of the first operand):
// stable, NaN keys handled as the comparator says, other operands permuted
// along.  The optimization barrier keeps the inputs from being folded.

// Total order: -NaN < -inf < -1 < -0 < +0 < 1 < inf < +NaN.
func.func @sort_total_order() {
  %x0 = stablehlo.constant dense<[0x7FC00000, 1.0, -0.0, 0xFFC00000, 0.0, 0xFF800000, -1.0, 0x7F800000]> : tensor<8xf32>
  %x = stablehlo.optimization_barrier %x0 : tensor<8xf32>
  %r = "stablehlo.sort"(%x) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<8xf32>) -> tensor<8xf32>
  %bits = stablehlo.bitcast_convert %r : (tensor<8xf32>) -> tensor<8xi32>
  check.expect_eq_const %bits, dense<[-4194304, -8388608, -1082130432, -2147483648, 0, 1065353216, 2139095040, 2143289344]> : tensor<8xi32>
  func.return
}

// -----

// argsort, descending, with ties: equal keys keep their original order.
func.func @sort_argsort_stable_desc() {
  %k0 = stablehlo.constant dense<[3, 1, 3, 2, 1, 3]> : tensor<6xi32>
  %i0 = stablehlo.iota dim = 0 : tensor<6xi32>
  %k, %i = stablehlo.optimization_barrier %k0, %i0 : tensor<6xi32>, tensor<6xi32>
  %r:2 = "stablehlo.sort"(%k, %i) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<i32>, %d: tensor<i32>):
    %t = stablehlo.compare GT, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %t : tensor<i1>
  }) : (tensor<6xi32>, tensor<6xi32>) -> (tensor<6xi32>, tensor<6xi32>)
  check.expect_eq_const %r#0, dense<[3, 3, 3, 2, 1, 1]> : tensor<6xi32>
  check.expect_eq_const %r#1, dense<[0, 2, 5, 3, 1, 4]> : tensor<6xi32>
  func.return
}

// -----

// Swapped comparator arguments (b < a is descending), unsigned keys, along
// dimension 0 of a matrix, with an f16 operand permuted along.
func.func @sort_unsigned_columns() {
  %k0 = stablehlo.constant dense<[[1, 200], [255, 0], [7, 200]]> : tensor<3x2xui8>
  %v0 = stablehlo.constant dense<[[0.5, 1.5], [2.5, 3.5], [4.5, 5.5]]> : tensor<3x2xf16>
  %k, %v = stablehlo.optimization_barrier %k0, %v0 : tensor<3x2xui8>, tensor<3x2xf16>
  %r:2 = "stablehlo.sort"(%k, %v) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<ui8>, %b: tensor<ui8>, %c: tensor<f16>, %d: tensor<f16>):
    %t = stablehlo.compare LT, %b, %a, UNSIGNED : (tensor<ui8>, tensor<ui8>) -> tensor<i1>
    stablehlo.return %t : tensor<i1>
  }) : (tensor<3x2xui8>, tensor<3x2xf16>) -> (tensor<3x2xui8>, tensor<3x2xf16>)
  check.expect_eq_const %r#0, dense<[[255, 200], [7, 200], [1, 0]]> : tensor<3x2xui8>
  check.expect_eq_const %r#1, dense<[[2.5, 1.5], [4.5, 5.5], [0.5, 3.5]]> : tensor<3x2xf16>
  func.return
}

// -----

// IEEE comparison with NaN keys: NaN compares false both ways, so it acts as
// equal to everything; the merge order decides, exactly as the interpreter's.
func.func @sort_float_nan() {
  %x0 = stablehlo.constant dense<[3.0, 0x7FF8000000000000, 1.0, 2.0, 0x7FF8000000000000, 0.0, -1.0]> : tensor<7xf64>
  %x = stablehlo.optimization_barrier %x0 : tensor<7xf64>
  %r = "stablehlo.sort"(%x) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f64>, %b: tensor<f64>):
    %c = stablehlo.compare LT, %a, %b, FLOAT : (tensor<f64>, tensor<f64>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) : (tensor<7xf64>) -> tensor<7xf64>
  %bits = stablehlo.bitcast_convert %r : (tensor<7xf64>) -> tensor<7xi64>
  check.expect_eq_const %bits, dense<[4607182418800017408, 4611686018427387904, 4613937818241073152, 9221120237041090560, 9221120237041090560, -4616189618054758400, 0]> : tensor<7xi64>
  func.return
}

// -----

// A non-strict comparator (LE) on bf16 keys: ties move, as in the interpreter.
func.func @sort_le_bf16() {
  %k0 = stablehlo.constant dense<[2.0, 1.0, 2.0, 1.0]> : tensor<4xbf16>
  %i0 = stablehlo.iota dim = 0 : tensor<4xi32>
  %k, %i = stablehlo.optimization_barrier %k0, %i0 : tensor<4xbf16>, tensor<4xi32>
  %r:2 = "stablehlo.sort"(%k, %i) <{dimension = 0 : i64}> ({
  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>, %c: tensor<i32>, %d: tensor<i32>):
    %t = stablehlo.compare LE, %a, %b, FLOAT : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
    stablehlo.return %t : tensor<i1>
  }) : (tensor<4xbf16>, tensor<4xi32>) -> (tensor<4xbf16>, tensor<4xi32>)
  check.expect_eq_const %r#0, dense<[1.0, 1.0, 2.0, 2.0]> : tensor<4xbf16>
  check.expect_eq_const %r#1, dense<[3, 1, 2, 0]> : tensor<4xi32>
  func.return
}
