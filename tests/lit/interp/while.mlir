// RUN: xlac run --split-input-file %s

// Sum of 1..10 with two loop-carried values.
func.func @main() {
  %i0 = stablehlo.constant dense<1> : tensor<i64>
  %s0 = stablehlo.constant dense<0> : tensor<i64>
  %one = stablehlo.constant dense<1> : tensor<i64>
  %ten = stablehlo.constant dense<10> : tensor<i64>
  %i, %s = stablehlo.while(%a = %i0, %b = %s0) : tensor<i64>, tensor<i64>
  cond {
    %c = stablehlo.compare LE, %a, %ten : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %nb = stablehlo.add %b, %a : tensor<i64>
    %na = stablehlo.add %a, %one : tensor<i64>
    stablehlo.return %na, %nb : tensor<i64>, tensor<i64>
  }
  check.expect_eq_const %i, dense<11> : tensor<i64>
  check.expect_eq_const %s, dense<55> : tensor<i64>
  func.return
}

// -----

// A condition false from the start: the initial values come back unchanged.
func.func @main() {
  %x = stablehlo.constant dense<[1.5, -0.0, 0x7FC00000]> : tensor<3xf32>
  %f = stablehlo.constant dense<false> : tensor<i1>
  %r = stablehlo.while(%a = %x) : tensor<3xf32>
  cond {
    stablehlo.return %f : tensor<i1>
  } do {
    %n = stablehlo.negate %a : tensor<3xf32>
    stablehlo.return %n : tensor<3xf32>
  }
  check.expect_eq_const %r, dense<[1.5, -0.0, 0x7FC00000]> : tensor<3xf32>
  func.return
}

// -----

// Generic form, a zero-sized tensor carried along, nested loops.
func.func @main() {
  %e = stablehlo.constant dense<> : tensor<0xi32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %three = stablehlo.constant dense<3> : tensor<i32>
  %r:3 = "stablehlo.while"(%e, %z, %z) ({
  ^bb0(%a: tensor<0xi32>, %i: tensor<i32>, %acc: tensor<i32>):
    %c = stablehlo.compare LT, %i, %three : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%a: tensor<0xi32>, %i: tensor<i32>, %acc: tensor<i32>):
    %inner:2 = "stablehlo.while"(%z, %acc) ({
    ^bb0(%j: tensor<i32>, %t: tensor<i32>):
      %c = stablehlo.compare LT, %j, %three : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    }, {
    ^bb0(%j: tensor<i32>, %t: tensor<i32>):
      %nj = stablehlo.add %j, %one : tensor<i32>
      %nt = stablehlo.add %t, %one : tensor<i32>
      stablehlo.return %nj, %nt : tensor<i32>, tensor<i32>
    }) : (tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>)
    %ni = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %a, %ni, %inner#1 : tensor<0xi32>, tensor<i32>, tensor<i32>
  }) : (tensor<0xi32>, tensor<i32>, tensor<i32>) -> (tensor<0xi32>, tensor<i32>, tensor<i32>)
  check.expect_eq_const %r#0, dense<> : tensor<0xi32>
  check.expect_eq_const %r#1, dense<3> : tensor<i32>
  check.expect_eq_const %r#2, dense<9> : tensor<i32>
  func.return
}
