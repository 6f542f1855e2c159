// RUN: xlac run --split-input-file %s

func.func private @swap(%a: tensor<2xf32>, %b: tensor<i8>) -> (tensor<i8>, tensor<2xf32>) {
  func.return %b, %a : tensor<i8>, tensor<2xf32>
}

func.func private @times(%a: tensor<i64>, %b: tensor<i64>) -> tensor<i64> {
  %p = stablehlo.multiply %a, %b : tensor<i64>
  func.return %p : tensor<i64>
}

// n! by a loop whose body calls @times (recursion does not verify)
func.func @fact(%n: tensor<i64>) -> tensor<i64> {
  %one = stablehlo.constant dense<1> : tensor<i64>
  %r:2 = "stablehlo.while"(%n, %one) ({
  ^bb0(%i: tensor<i64>, %acc: tensor<i64>):
    %gt = stablehlo.compare GT, %i, %one : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %gt : tensor<i1>
  }, {
  ^bb0(%i: tensor<i64>, %acc: tensor<i64>):
    %p = func.call @times(%acc, %i) : (tensor<i64>, tensor<i64>) -> tensor<i64>
    %m = stablehlo.subtract %i, %one : tensor<i64>
    stablehlo.return %m, %p : tensor<i64>, tensor<i64>
  }) : (tensor<i64>, tensor<i64>) -> (tensor<i64>, tensor<i64>)
  func.return %r#1 : tensor<i64>
}

func.func @main() {
  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = stablehlo.constant dense<-7> : tensor<i8>
  %x, %y = func.call @swap(%a, %b) : (tensor<2xf32>, tensor<i8>) -> (tensor<i8>, tensor<2xf32>)
  check.expect_eq_const %x, dense<-7> : tensor<i8>
  check.expect_eq_const %y, dense<[1.0, 2.0]> : tensor<2xf32>
  // a call inside a loop body
  %n = stablehlo.constant dense<20> : tensor<i64>
  %f = func.call @fact(%n) : (tensor<i64>) -> tensor<i64>
  check.expect_eq_const %f, dense<2432902008176640000> : tensor<i64>
  func.return
}

// -----

// Composite ops run their decomposition.
func.func private @scale.impl(%x: tensor<3xf64>) -> tensor<3xf64> {
  %c = stablehlo.constant dense<2.0> : tensor<3xf64>
  %r = stablehlo.multiply %x, %c : tensor<3xf64>
  func.return %r : tensor<3xf64>
}

func.func @main() {
  %x = stablehlo.constant dense<[1.0, -0.5, 0x7FF0000000000000]> : tensor<3xf64>
  %r = stablehlo.composite "my.scale" %x {
    composite_attributes = {factor = 2.0 : f64},
    decomposition = @scale.impl,
    version = 1 : i32
  } : (tensor<3xf64>) -> tensor<3xf64>
  check.expect_eq_const %r, dense<[2.0, -1.0, 0x7FF0000000000000]> : tensor<3xf64>
  func.return
}
