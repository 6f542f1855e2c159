// RUN: xlac run --split-input-file %s
// RUN: xlac run --split-input-file --backend=cpu --verbose %s 2>&1 | FileCheck %s
// RUN: xlac opt --split-input-file --pipeline=cpu %s | FileCheck %s --check-prefix=OPT
// Rank-3 operands: slices along the middle dimension are rank-2 tensors
// that dynamic_slice cuts out and reshapes, and dynamic_update_slice puts
// back, with positions in front of and behind the scanned dimension.
// OPT-NOT: chlo.scan
// CHECK: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 5 through the interpreter
// CHECK: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 2 through the interpreter

// Along dimension 1 of 2x3x4: a cumulative sum (f32), a running product
// (i16) and whether each running sum is positive (i1).
func.func @middle_dimension() {
  %i = stablehlo.iota dim = 0 : tensor<24xf32>
  %five = stablehlo.constant dense<5.0> : tensor<24xf32>
  %xf = stablehlo.subtract %i, %five : tensor<24xf32>
  %x0 = stablehlo.reshape %xf : (tensor<24xf32>) -> tensor<2x3x4xf32>
  %y0 = stablehlo.constant dense<[[[1, 2, 3, 4], [5, 1, 2, 3], [4, 5, 1, 2]],
                                  [[3, 4, 5, 1], [2, 3, 4, 5], [1, 2, 3, 4]]]> : tensor<2x3x4xi16>
  %x, %y = stablehlo.optimization_barrier %x0, %y0 : tensor<2x3x4xf32>, tensor<2x3x4xi16>
  %s0 = stablehlo.constant dense<0.0> : tensor<2x4xf32>
  %p0 = stablehlo.constant dense<1> : tensor<2x4xi16>
  %r:5 = chlo.scan(%x, %y) inits(%s0, %p0) dimension=1 {
  ^bb0(%a: tensor<2x4xf32>, %b: tensor<2x4xi16>, %s: tensor<2x4xf32>, %p: tensor<2x4xi16>):
    %ns = stablehlo.add %s, %a : tensor<2x4xf32>
    %np = stablehlo.multiply %p, %b : tensor<2x4xi16>
    %zero = stablehlo.constant dense<0.0> : tensor<2x4xf32>
    %pos = stablehlo.compare GT, %ns, %zero : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xi1>
    stablehlo.return %ns, %np, %pos, %ns, %np : tensor<2x4xf32>, tensor<2x4xi16>, tensor<2x4xi1>, tensor<2x4xf32>, tensor<2x4xi16>
  } : (tensor<2x3x4xf32>, tensor<2x3x4xi16>, tensor<2x4xf32>, tensor<2x4xi16>)
      -> (tensor<2x3x4xf32>, tensor<2x3x4xi16>, tensor<2x3x4xi1>, tensor<2x4xf32>, tensor<2x4xi16>)
  check.expect_eq_const %r#0, dense<[[[-5.0, -4.0, -3.0, -2.0], [-6.0, -4.0, -2.0, 0.0], [-3.0, 0.0, 3.0, 6.0]],
                                     [[7.0, 8.0, 9.0, 10.0], [18.0, 20.0, 22.0, 24.0], [33.0, 36.0, 39.0, 42.0]]]> : tensor<2x3x4xf32>
  check.expect_eq_const %r#1, dense<[[[1, 2, 3, 4], [5, 2, 6, 12], [20, 10, 6, 24]],
                                     [[3, 4, 5, 1], [6, 12, 20, 5], [6, 24, 60, 20]]]> : tensor<2x3x4xi16>
  check.expect_eq_const %r#2, dense<[[[false, false, false, false], [false, false, false, false], [false, false, true, true]],
                                     [[true, true, true, true], [true, true, true, true], [true, true, true, true]]]> : tensor<2x3x4xi1>
  check.expect_eq_const %r#3, dense<[[-3.0, 0.0, 3.0, 6.0], [33.0, 36.0, 39.0, 42.0]]> : tensor<2x4xf32>
  check.expect_eq_const %r#4, dense<[[20, 10, 6, 24], [6, 24, 60, 20]]> : tensor<2x4xi16>
  func.return
}

// -----

// Reverse along the middle dimension of 3x4x2 in i8, which wraps: the
// carry doubles and adds each slice, starting from the last position.
func.func @middle_reverse_i8() {
  %x0 = stablehlo.constant dense<[[[1, 2], [3, 4], [5, 6], [7, 8]],
                                  [[100, -100], [50, 50], [25, -25], [1, 1]],
                                  [[0, 0], [0, 1], [1, 0], [1, 1]]]> : tensor<3x4x2xi8>
  %x = stablehlo.optimization_barrier %x0 : tensor<3x4x2xi8>
  %z = stablehlo.constant dense<0> : tensor<3x2xi8>
  %r:2 = chlo.scan(%x) inits(%z) dimension=1 attributes {is_reverse = true} {
  ^bb0(%a: tensor<3x2xi8>, %c: tensor<3x2xi8>):
    %d = stablehlo.add %c, %c : tensor<3x2xi8>
    %n = stablehlo.add %d, %a : tensor<3x2xi8>
    stablehlo.return %n, %n : tensor<3x2xi8>, tensor<3x2xi8>
  } : (tensor<3x4x2xi8>, tensor<3x2xi8>) -> (tensor<3x4x2xi8>, tensor<3x2xi8>)
  // 7, 2*7+5=19, 2*19+3=41, 2*41+1=83; 8, 22, 48, 98
  // 1, 27, 104, 308-256=52; 1, -23, 4, -92
  // 1, 3, 6, 12; 1, 2, 5, 10
  check.expect_eq_const %r#0, dense<[[[83, 98], [41, 48], [19, 22], [7, 8]],
                                     [[52, -92], [104, 4], [27, -23], [1, 1]],
                                     [[12, 10], [6, 5], [3, 2], [1, 1]]]> : tensor<3x4x2xi8>
  check.expect_eq_const %r#1, dense<[[83, 98], [52, -92], [12, 10]]> : tensor<3x2xi8>
  func.return
}
