// RUN: xlac run --split-input-file %s

func.func @main() {
  %t = stablehlo.constant dense<true> : tensor<i1>
  %f = stablehlo.constant dense<false> : tensor<i1>
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %b = stablehlo.constant dense<[3, 4]> : tensor<2xi32>
  // branches may use values from the enclosing function
  %r1 = "stablehlo.if"(%t) ({
    stablehlo.return %a : tensor<2xi32>
  }, {
    stablehlo.return %b : tensor<2xi32>
  }) : (tensor<i1>) -> tensor<2xi32>
  %r2 = "stablehlo.if"(%f) ({
    stablehlo.return %a : tensor<2xi32>
  }, {
    %s = stablehlo.add %a, %b : tensor<2xi32>
    stablehlo.return %s : tensor<2xi32>
  }) : (tensor<i1>) -> tensor<2xi32>
  check.expect_eq_const %r1, dense<[1, 2]> : tensor<2xi32>
  check.expect_eq_const %r2, dense<[4, 6]> : tensor<2xi32>
  func.return
}

// -----

// Several results of different types; no results at all.
func.func @main() {
  %t = stablehlo.constant dense<true> : tensor<i1>
  %x, %y = "stablehlo.if"(%t) ({
    %c = stablehlo.constant dense<2.5> : tensor<f32>
    %d = stablehlo.constant dense<[255, 0]> : tensor<2xui8>
    stablehlo.return %c, %d : tensor<f32>, tensor<2xui8>
  }, {
    %c = stablehlo.constant dense<-2.5> : tensor<f32>
    %d = stablehlo.constant dense<[0, 255]> : tensor<2xui8>
    stablehlo.return %c, %d : tensor<f32>, tensor<2xui8>
  }) : (tensor<i1>) -> (tensor<f32>, tensor<2xui8>)
  check.expect_eq_const %x, dense<2.5> : tensor<f32>
  check.expect_eq_const %y, dense<[255, 0]> : tensor<2xui8>
  "stablehlo.if"(%t) ({
    stablehlo.return
  }, {
    stablehlo.return
  }) : (tensor<i1>) -> ()
  func.return
}
