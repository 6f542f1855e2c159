// Chunks for names.hlo: a named module, an unnamed one with one function,
// and an unnamed one with two public functions (compiled one at a time).
module @first {
  func.func @main() {
    %a = stablehlo.iota dim = 0 : tensor<4xf32>
    %b = stablehlo.add %a, %a : tensor<4xf32>
    check.expect_almost_eq_const %b, dense<[0.0, 2.0, 4.0, 6.0]> : tensor<4xf32>
    return
  }
}

// -----

func.func @second_fn() {
  %a = stablehlo.iota dim = 0 : tensor<2xi32>
  check.expect_eq_const %a, dense<[0, 1]> : tensor<2xi32>
  return
}

// -----

func.func @f() {
  %a = stablehlo.constant dense<1> : tensor<i32>
  check.expect_eq_const %a, dense<1> : tensor<i32>
  return
}
func.func @g() {
  %a = stablehlo.constant dense<2> : tensor<i32>
  check.expect_eq_const %a, dense<2> : tensor<i32>
  return
}
