// RUN: xlac run --split-input-file %s

func.func @pick(%i: tensor<i32>) -> tensor<i64> {
  %r = "stablehlo.case"(%i) ({
    %c = stablehlo.constant dense<10> : tensor<i64>
    stablehlo.return %c : tensor<i64>
  }, {
    %c = stablehlo.constant dense<11> : tensor<i64>
    stablehlo.return %c : tensor<i64>
  }, {
    %c = stablehlo.constant dense<12> : tensor<i64>
    stablehlo.return %c : tensor<i64>
  }) : (tensor<i32>) -> tensor<i64>
  func.return %r : tensor<i64>
}

func.func @main() {
  %m = stablehlo.constant dense<-2147483648> : tensor<i32>
  %n1 = stablehlo.constant dense<-1> : tensor<i32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %o = stablehlo.constant dense<1> : tensor<i32>
  %t = stablehlo.constant dense<2> : tensor<i32>
  %b = stablehlo.constant dense<3> : tensor<i32>
  %x = stablehlo.constant dense<2147483647> : tensor<i32>
  %r0 = func.call @pick(%m) : (tensor<i32>) -> tensor<i64>
  %r1 = func.call @pick(%n1) : (tensor<i32>) -> tensor<i64>
  %r2 = func.call @pick(%z) : (tensor<i32>) -> tensor<i64>
  %r3 = func.call @pick(%o) : (tensor<i32>) -> tensor<i64>
  %r4 = func.call @pick(%t) : (tensor<i32>) -> tensor<i64>
  %r5 = func.call @pick(%b) : (tensor<i32>) -> tensor<i64>
  %r6 = func.call @pick(%x) : (tensor<i32>) -> tensor<i64>
  // out-of-range indices, negative ones included, take the last branch
  check.expect_eq_const %r0, dense<12> : tensor<i64>
  check.expect_eq_const %r1, dense<12> : tensor<i64>
  check.expect_eq_const %r2, dense<10> : tensor<i64>
  check.expect_eq_const %r3, dense<11> : tensor<i64>
  check.expect_eq_const %r4, dense<12> : tensor<i64>
  check.expect_eq_const %r5, dense<12> : tensor<i64>
  check.expect_eq_const %r6, dense<12> : tensor<i64>
  func.return
}

// -----

// A single branch always runs.
func.func @main() {
  %i = stablehlo.constant dense<5> : tensor<i32>
  %r = "stablehlo.case"(%i) ({
    %c = stablehlo.constant dense<[true, false]> : tensor<2xi1>
    stablehlo.return %c : tensor<2xi1>
  }) : (tensor<i32>) -> tensor<2xi1>
  check.expect_eq_const %r, dense<[true, false]> : tensor<2xi1>
  func.return
}
