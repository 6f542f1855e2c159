// RUN: xlac run --split-input-file %s

func.func @get_dimension_size() {
  %x = stablehlo.constant dense<> : tensor<4x0x7xf32>
  %a = stablehlo.get_dimension_size %x, dim = 0 : (tensor<4x0x7xf32>) -> tensor<i32>
  check.expect_eq_const %a, dense<4> : tensor<i32>
  %b = stablehlo.get_dimension_size %x, dim = 1 : (tensor<4x0x7xf32>) -> tensor<i32>
  check.expect_eq_const %b, dense<0> : tensor<i32>
  %c = stablehlo.get_dimension_size %x, dim = 2 : (tensor<4x0x7xf32>) -> tensor<i32>
  check.expect_eq_const %c, dense<7> : tensor<i32>
  func.return
}

// -----

func.func @tuples() {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %b = stablehlo.constant dense<3.0> : tensor<f32>
  %inner = stablehlo.tuple %b : tuple<tensor<f32>>
  %t = stablehlo.tuple %a, %inner : tuple<tensor<2xi32>, tuple<tensor<f32>>>
  %x = stablehlo.get_tuple_element %t[0] : (tuple<tensor<2xi32>, tuple<tensor<f32>>>) -> tensor<2xi32>
  %y = stablehlo.get_tuple_element %t[1] : (tuple<tensor<2xi32>, tuple<tensor<f32>>>) -> tuple<tensor<f32>>
  %z = stablehlo.get_tuple_element %y[0] : (tuple<tensor<f32>>) -> tensor<f32>
  check.expect_eq_const %x, dense<[1, 2]> : tensor<2xi32>
  check.expect_eq_const %z, dense<3.0> : tensor<f32>
  func.return
}

// -----

func.func @barrier_and_tokens() {
  %a = stablehlo.constant dense<1.0> : tensor<f32>
  %b = stablehlo.constant dense<[2, 3]> : tensor<2xi8>
  %r:2 = stablehlo.optimization_barrier %a, %b : tensor<f32>, tensor<2xi8>
  check.expect_eq_const %r#0, dense<1.0> : tensor<f32>
  check.expect_eq_const %r#1, dense<[2, 3]> : tensor<2xi8>
  %t0 = stablehlo.after_all : !stablehlo.token
  %t1 = stablehlo.after_all %t0, %t0 : !stablehlo.token
  func.return
}

// -----

func.func @constants_every_width() {
  %a = stablehlo.constant dense<[-2, 1]> : tensor<2xi2>
  %b = stablehlo.constant dense<18446744073709551615> : tensor<ui64>
  %c = stablehlo.constant dense<[0x7F800000, 0xFF800000]> : tensor<2xf32>
  %d = stablehlo.constant dense<[1.0, -0.5]> : tensor<2xf8E5M2>
  check.expect_eq_const %a, dense<[-2, 1]> : tensor<2xi2>
  check.expect_eq_const %b, dense<18446744073709551615> : tensor<ui64>
  check.expect_eq_const %c, dense<[0x7F800000, 0xFF800000]> : tensor<2xf32>
  check.expect_eq_const %d, dense<[1.0, -0.5]> : tensor<2xf8E5M2>
  func.return
}
