// RUN: xlac run --split-input-file %s

func.func private @swap(%a: tensor<2xf32>, %b: tensor<i8>) -> (tensor<i8>, tensor<2xf32>) {
  func.return %b, %a : tensor<i8>, tensor<2xf32>
}

func.func @fact(%n: tensor<i64>) -> tensor<i64> {
  %one = stablehlo.constant dense<1> : tensor<i64>
  %le = stablehlo.compare LE, %n, %one : (tensor<i64>, tensor<i64>) -> tensor<i1>
  %r = "stablehlo.if"(%le) ({
    stablehlo.return %one : tensor<i64>
  }, {
    %m = stablehlo.subtract %n, %one : tensor<i64>
    %f = func.call @fact(%m) : (tensor<i64>) -> tensor<i64>
    %p = stablehlo.multiply %n, %f : tensor<i64>
    stablehlo.return %p : tensor<i64>
  }) : (tensor<i1>) -> tensor<i64>
  func.return %r : tensor<i64>
}

func.func @main() {
  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = stablehlo.constant dense<-7> : tensor<i8>
  %x, %y = func.call @swap(%a, %b) : (tensor<2xf32>, tensor<i8>) -> (tensor<i8>, tensor<2xf32>)
  check.expect_eq_const %x, dense<-7> : tensor<i8>
  check.expect_eq_const %y, dense<[1.0, 2.0]> : tensor<2xf32>
  // recursion
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
