// RUN: xlac run --split-input-file %s
// RUN: xlac run --split-input-file --backend=cpu %s
// RUN: xlac run --split-input-file --backend=cpu --threads=1 %s
// Products with a vector (M == 1 or N == 1) on the cpu backend go to the
// runtime's gemv, not the GEMM: matrix-vector (dot products of rows),
// vector-matrix (sums of scaled rows), with the matrix stored either way,
// f32, f64 and widened bf16, sizes with ragged tails and several chunks.
// Entries are small integers (A[i, j] = (3i + 5j) mod 7 - 3, x[j] =
// j mod 5 - 2), so every sum is exact whatever its order and the results
// equal the interpreter's bit for bit.  The barriers keep the operands
// from being folded or fused.
// Matrix-vector, A [300, 130]: two chunks of rows, a ragged tail of 2 past the 16 lanes.
func.func @mv_f32_300x130_0() {
  %a_i = stablehlo.iota dim = 0 : tensor<300x130xi32>
  %a_j = stablehlo.iota dim = 1 : tensor<300x130xi32>
  %a_3 = stablehlo.constant dense<3> : tensor<300x130xi32>
  %a_5 = stablehlo.constant dense<5> : tensor<300x130xi32>
  %a_7 = stablehlo.constant dense<7> : tensor<300x130xi32>
  %a_p = stablehlo.multiply %a_i, %a_3 : tensor<300x130xi32>
  %a_q = stablehlo.multiply %a_j, %a_5 : tensor<300x130xi32>
  %a_s = stablehlo.add %a_p, %a_q : tensor<300x130xi32>
  %a_m = stablehlo.remainder %a_s, %a_7 : tensor<300x130xi32>
  %a_d = stablehlo.subtract %a_m, %a_3 : tensor<300x130xi32>
  %a_f = stablehlo.convert %a_d : (tensor<300x130xi32>) -> tensor<300x130xf32>
  %x_i = stablehlo.iota dim = 0 : tensor<130xi32>
  %x_5 = stablehlo.constant dense<5> : tensor<130xi32>
  %x_2 = stablehlo.constant dense<2> : tensor<130xi32>
  %x_m = stablehlo.remainder %x_i, %x_5 : tensor<130xi32>
  %x_d = stablehlo.subtract %x_m, %x_2 : tensor<130xi32>
  %x_f = stablehlo.convert %x_d : (tensor<130xi32>) -> tensor<130xf32>
  %A, %X = stablehlo.optimization_barrier %a_f, %x_f : tensor<300x130xf32>, tensor<130xf32>
  %r = "stablehlo.dot_general"(%A, %X) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, xlac.canonical} : (tensor<300x130xf32>, tensor<130xf32>) -> tensor<300xf32>
  check.expect_eq_const %r, dense<[5, 5, -2, 5, 5, -9, -9, 5, 5, -2, 5, 5, -9, -9, 5, 5, -2, 5, 5, -9, -9, 5, 5, -2, 5, 5, -9, -9, 5, 5, -2, 5, 5, -9, -9, 5, 5, -2, 5, 5, -9, -9, 5, 5, -2, 5, 5, -9, -9, 5, 5, -2, 5, 5, -9, -9, 5, 5, -2, 5, 5, -9, -9, 5, 5, -2, 5, 5, -9, -9, 5, 5, -2, 5, 5, -9, -9, 5, 5, -2, 5, 5, -9, -9, 5, 5, -2, 5, 5, -9, -9, 5, 5, -2, 5, 5, -9, -9, 5, 5, -2, 5, 5, -9, -9, 5, 5, -2, 5, 5, -9, -9, 5, 5, -2, 5, 5, -9, -9, 5, 5, -2, 5, 5, -9, -9, 5, 5, -2, 5, 5, -9, -9, 5, 5, -2, 5, 5, -9, -9, 5, 5, -2, 5, 5, -9, -9, 5, 5, -2, 5, 5, -9, -9, 5, 5, -2, 5, 5, -9, -9, 5, 5, -2, 5, 5, -9, -9, 5, 5, -2, 5, 5, -9, -9, 5, 5, -2, 5, 5, -9, -9, 5, 5, -2, 5, 5, -9, -9, 5, 5, -2, 5, 5, -9, -9, 5, 5, -2, 5, 5, -9, -9, 5, 5, -2, 5, 5, -9, -9, 5, 5, -2, 5, 5, -9, -9, 5, 5, -2, 5, 5, -9, -9, 5, 5, -2, 5, 5, -9, -9, 5, 5, -2, 5, 5, -9, -9, 5, 5, -2, 5, 5, -9, -9, 5, 5, -2, 5, 5, -9, -9, 5, 5, -2, 5, 5, -9, -9, 5, 5, -2, 5, 5, -9, -9, 5, 5, -2, 5, 5, -9, -9, 5, 5, -2, 5, 5, -9, -9, 5, 5, -2, 5, 5, -9, -9, 5, 5, -2, 5, 5, -9, -9, 5, 5, -2, 5, 5, -9]> : tensor<300xf32>
  func.return
}

// -----

// Matrix-vector with A stored transposed ([130, 37]): a sum of scaled rows.
func.func @mv_f32_37x130_1() {
  %a_i = stablehlo.iota dim = 0 : tensor<130x37xi32>
  %a_j = stablehlo.iota dim = 1 : tensor<130x37xi32>
  %a_3 = stablehlo.constant dense<3> : tensor<130x37xi32>
  %a_5 = stablehlo.constant dense<5> : tensor<130x37xi32>
  %a_7 = stablehlo.constant dense<7> : tensor<130x37xi32>
  %a_p = stablehlo.multiply %a_j, %a_3 : tensor<130x37xi32>
  %a_q = stablehlo.multiply %a_i, %a_5 : tensor<130x37xi32>
  %a_s = stablehlo.add %a_p, %a_q : tensor<130x37xi32>
  %a_m = stablehlo.remainder %a_s, %a_7 : tensor<130x37xi32>
  %a_d = stablehlo.subtract %a_m, %a_3 : tensor<130x37xi32>
  %a_f = stablehlo.convert %a_d : (tensor<130x37xi32>) -> tensor<130x37xf32>
  %x_i = stablehlo.iota dim = 0 : tensor<130xi32>
  %x_5 = stablehlo.constant dense<5> : tensor<130xi32>
  %x_2 = stablehlo.constant dense<2> : tensor<130xi32>
  %x_m = stablehlo.remainder %x_i, %x_5 : tensor<130xi32>
  %x_d = stablehlo.subtract %x_m, %x_2 : tensor<130xi32>
  %x_f = stablehlo.convert %x_d : (tensor<130xi32>) -> tensor<130xf32>
  %A, %X = stablehlo.optimization_barrier %a_f, %x_f : tensor<130x37xf32>, tensor<130xf32>
  %r = "stablehlo.dot_general"(%A, %X) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>, xlac.canonical} : (tensor<130x37xf32>, tensor<130xf32>) -> tensor<37xf32>
  check.expect_eq_const %r, dense<[5, 5, -2, 5, 5, -9, -9, 5, 5, -2, 5, 5, -9, -9, 5, 5, -2, 5, 5, -9, -9, 5, 5, -2, 5, 5, -9, -9, 5, 5, -2, 5, 5, -9, -9, 5, 5]> : tensor<37xf32>
  func.return
}

// -----

// Vector-matrix, B [40, 700]: two blocks of columns.
func.func @vm_f32_40x700_0() {
  %b_i = stablehlo.iota dim = 0 : tensor<40x700xi32>
  %b_j = stablehlo.iota dim = 1 : tensor<40x700xi32>
  %b_3 = stablehlo.constant dense<3> : tensor<40x700xi32>
  %b_5 = stablehlo.constant dense<5> : tensor<40x700xi32>
  %b_7 = stablehlo.constant dense<7> : tensor<40x700xi32>
  %b_p = stablehlo.multiply %b_i, %b_3 : tensor<40x700xi32>
  %b_q = stablehlo.multiply %b_j, %b_5 : tensor<40x700xi32>
  %b_s = stablehlo.add %b_p, %b_q : tensor<40x700xi32>
  %b_m = stablehlo.remainder %b_s, %b_7 : tensor<40x700xi32>
  %b_d = stablehlo.subtract %b_m, %b_3 : tensor<40x700xi32>
  %b_f = stablehlo.convert %b_d : (tensor<40x700xi32>) -> tensor<40x700xf32>
  %x_i = stablehlo.iota dim = 0 : tensor<40xi32>
  %x_5 = stablehlo.constant dense<5> : tensor<40xi32>
  %x_2 = stablehlo.constant dense<2> : tensor<40xi32>
  %x_m = stablehlo.remainder %x_i, %x_5 : tensor<40xi32>
  %x_d = stablehlo.subtract %x_m, %x_2 : tensor<40xi32>
  %x_f = stablehlo.convert %x_d : (tensor<40xi32>) -> tensor<40xf32>
  %X, %B = stablehlo.optimization_barrier %x_f, %b_f : tensor<40xf32>, tensor<40x700xf32>
  %r = "stablehlo.dot_general"(%X, %B) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>, xlac.canonical} : (tensor<40xf32>, tensor<40x700xf32>) -> tensor<700xf32>
  check.expect_eq_const %r, dense<[9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5, 9, -5, -5, 9, -5, 2, -5]> : tensor<700xf32>
  func.return
}

// -----

// Vector-matrix with B stored transposed ([33, 45]): dot products of rows.
func.func @vm_f32_45x33_1() {
  %b_i = stablehlo.iota dim = 0 : tensor<33x45xi32>
  %b_j = stablehlo.iota dim = 1 : tensor<33x45xi32>
  %b_3 = stablehlo.constant dense<3> : tensor<33x45xi32>
  %b_5 = stablehlo.constant dense<5> : tensor<33x45xi32>
  %b_7 = stablehlo.constant dense<7> : tensor<33x45xi32>
  %b_p = stablehlo.multiply %b_j, %b_3 : tensor<33x45xi32>
  %b_q = stablehlo.multiply %b_i, %b_5 : tensor<33x45xi32>
  %b_s = stablehlo.add %b_p, %b_q : tensor<33x45xi32>
  %b_m = stablehlo.remainder %b_s, %b_7 : tensor<33x45xi32>
  %b_d = stablehlo.subtract %b_m, %b_3 : tensor<33x45xi32>
  %b_f = stablehlo.convert %b_d : (tensor<33x45xi32>) -> tensor<33x45xf32>
  %x_i = stablehlo.iota dim = 0 : tensor<45xi32>
  %x_5 = stablehlo.constant dense<5> : tensor<45xi32>
  %x_2 = stablehlo.constant dense<2> : tensor<45xi32>
  %x_m = stablehlo.remainder %x_i, %x_5 : tensor<45xi32>
  %x_d = stablehlo.subtract %x_m, %x_2 : tensor<45xi32>
  %x_f = stablehlo.convert %x_d : (tensor<45xi32>) -> tensor<45xf32>
  %X, %B = stablehlo.optimization_barrier %x_f, %b_f : tensor<45xf32>, tensor<33x45xf32>
  %r = "stablehlo.dot_general"(%X, %B) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [1]>, xlac.canonical} : (tensor<45xf32>, tensor<33x45xf32>) -> tensor<33xf32>
  check.expect_eq_const %r, dense<[18, -10, -3, 4, 4, -3, -10, 18, -10, -3, 4, 4, -3, -10, 18, -10, -3, 4, 4, -3, -10, 18, -10, -3, 4, 4, -3, -10, 18, -10, -3, 4, 4]> : tensor<33xf32>
  func.return
}

// -----

// f64 matrix-vector.
func.func @mv_f64_70x51_0() {
  %a_i = stablehlo.iota dim = 0 : tensor<70x51xi32>
  %a_j = stablehlo.iota dim = 1 : tensor<70x51xi32>
  %a_3 = stablehlo.constant dense<3> : tensor<70x51xi32>
  %a_5 = stablehlo.constant dense<5> : tensor<70x51xi32>
  %a_7 = stablehlo.constant dense<7> : tensor<70x51xi32>
  %a_p = stablehlo.multiply %a_i, %a_3 : tensor<70x51xi32>
  %a_q = stablehlo.multiply %a_j, %a_5 : tensor<70x51xi32>
  %a_s = stablehlo.add %a_p, %a_q : tensor<70x51xi32>
  %a_m = stablehlo.remainder %a_s, %a_7 : tensor<70x51xi32>
  %a_d = stablehlo.subtract %a_m, %a_3 : tensor<70x51xi32>
  %a_f = stablehlo.convert %a_d : (tensor<70x51xi32>) -> tensor<70x51xf64>
  %x_i = stablehlo.iota dim = 0 : tensor<51xi32>
  %x_5 = stablehlo.constant dense<5> : tensor<51xi32>
  %x_2 = stablehlo.constant dense<2> : tensor<51xi32>
  %x_m = stablehlo.remainder %x_i, %x_5 : tensor<51xi32>
  %x_d = stablehlo.subtract %x_m, %x_2 : tensor<51xi32>
  %x_f = stablehlo.convert %x_d : (tensor<51xi32>) -> tensor<51xf64>
  %A, %X = stablehlo.optimization_barrier %a_f, %x_f : tensor<70x51xf64>, tensor<51xf64>
  %r = "stablehlo.dot_general"(%A, %X) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, xlac.canonical} : (tensor<70x51xf64>, tensor<51xf64>) -> tensor<70xf64>
  check.expect_eq_const %r, dense<[-1, 14, 1, 2, -4, -10, -2, -1, 14, 1, 2, -4, -10, -2, -1, 14, 1, 2, -4, -10, -2, -1, 14, 1, 2, -4, -10, -2, -1, 14, 1, 2, -4, -10, -2, -1, 14, 1, 2, -4, -10, -2, -1, 14, 1, 2, -4, -10, -2, -1, 14, 1, 2, -4, -10, -2, -1, 14, 1, 2, -4, -10, -2, -1, 14, 1, 2, -4, -10, -2]> : tensor<70xf64>
  func.return
}

// -----

// f64 vector-matrix, B stored transposed.
func.func @vm_f64_19x600_1() {
  %b_i = stablehlo.iota dim = 0 : tensor<600x19xi32>
  %b_j = stablehlo.iota dim = 1 : tensor<600x19xi32>
  %b_3 = stablehlo.constant dense<3> : tensor<600x19xi32>
  %b_5 = stablehlo.constant dense<5> : tensor<600x19xi32>
  %b_7 = stablehlo.constant dense<7> : tensor<600x19xi32>
  %b_p = stablehlo.multiply %b_j, %b_3 : tensor<600x19xi32>
  %b_q = stablehlo.multiply %b_i, %b_5 : tensor<600x19xi32>
  %b_s = stablehlo.add %b_p, %b_q : tensor<600x19xi32>
  %b_m = stablehlo.remainder %b_s, %b_7 : tensor<600x19xi32>
  %b_d = stablehlo.subtract %b_m, %b_3 : tensor<600x19xi32>
  %b_f = stablehlo.convert %b_d : (tensor<600x19xi32>) -> tensor<600x19xf64>
  %x_i = stablehlo.iota dim = 0 : tensor<19xi32>
  %x_5 = stablehlo.constant dense<5> : tensor<19xi32>
  %x_2 = stablehlo.constant dense<2> : tensor<19xi32>
  %x_m = stablehlo.remainder %x_i, %x_5 : tensor<19xi32>
  %x_d = stablehlo.subtract %x_m, %x_2 : tensor<19xi32>
  %x_f = stablehlo.convert %x_d : (tensor<19xi32>) -> tensor<19xf64>
  %X, %B = stablehlo.optimization_barrier %x_f, %b_f : tensor<19xf64>, tensor<600x19xf64>
  %r = "stablehlo.dot_general"(%X, %B) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [1]>, xlac.canonical} : (tensor<19xf64>, tensor<600x19xf64>) -> tensor<600xf64>
  check.expect_eq_const %r, dense<[12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14, -3, -13, 12, 2, -15, 3, 14]> : tensor<600xf64>
  func.return
}

// -----

// bf16 operands are widened to f32 first, the result rounded back (small sums stay exact).
func.func @mv_bf16_20x24_0() {
  %a_i = stablehlo.iota dim = 0 : tensor<20x24xi32>
  %a_j = stablehlo.iota dim = 1 : tensor<20x24xi32>
  %a_3 = stablehlo.constant dense<3> : tensor<20x24xi32>
  %a_5 = stablehlo.constant dense<5> : tensor<20x24xi32>
  %a_7 = stablehlo.constant dense<7> : tensor<20x24xi32>
  %a_p = stablehlo.multiply %a_i, %a_3 : tensor<20x24xi32>
  %a_q = stablehlo.multiply %a_j, %a_5 : tensor<20x24xi32>
  %a_s = stablehlo.add %a_p, %a_q : tensor<20x24xi32>
  %a_m = stablehlo.remainder %a_s, %a_7 : tensor<20x24xi32>
  %a_d = stablehlo.subtract %a_m, %a_3 : tensor<20x24xi32>
  %a_f = stablehlo.convert %a_d : (tensor<20x24xi32>) -> tensor<20x24xbf16>
  %x_i = stablehlo.iota dim = 0 : tensor<24xi32>
  %x_5 = stablehlo.constant dense<5> : tensor<24xi32>
  %x_2 = stablehlo.constant dense<2> : tensor<24xi32>
  %x_m = stablehlo.remainder %x_i, %x_5 : tensor<24xi32>
  %x_d = stablehlo.subtract %x_m, %x_2 : tensor<24xi32>
  %x_f = stablehlo.convert %x_d : (tensor<24xi32>) -> tensor<24xbf16>
  %A, %X = stablehlo.optimization_barrier %a_f, %x_f : tensor<20x24xbf16>, tensor<24xbf16>
  %r = "stablehlo.dot_general"(%A, %X) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, xlac.canonical} : (tensor<20x24xbf16>, tensor<24xbf16>) -> tensor<20xbf16>
  check.expect_eq_const %r, dense<[9, 3, 4, 5, -1, -7, -13, 9, 3, 4, 5, -1, -7, -13, 9, 3, 4, 5, -1, -7]> : tensor<20xbf16>
  func.return
}

// -----

// A matrix with one row: both M and N are 1, a single dot product.
func.func @mv_f32_1x1000_0() {
  %a_i = stablehlo.iota dim = 0 : tensor<1x1000xi32>
  %a_j = stablehlo.iota dim = 1 : tensor<1x1000xi32>
  %a_3 = stablehlo.constant dense<3> : tensor<1x1000xi32>
  %a_5 = stablehlo.constant dense<5> : tensor<1x1000xi32>
  %a_7 = stablehlo.constant dense<7> : tensor<1x1000xi32>
  %a_p = stablehlo.multiply %a_i, %a_3 : tensor<1x1000xi32>
  %a_q = stablehlo.multiply %a_j, %a_5 : tensor<1x1000xi32>
  %a_s = stablehlo.add %a_p, %a_q : tensor<1x1000xi32>
  %a_m = stablehlo.remainder %a_s, %a_7 : tensor<1x1000xi32>
  %a_d = stablehlo.subtract %a_m, %a_3 : tensor<1x1000xi32>
  %a_f = stablehlo.convert %a_d : (tensor<1x1000xi32>) -> tensor<1x1000xf32>
  %x_i = stablehlo.iota dim = 0 : tensor<1000xi32>
  %x_5 = stablehlo.constant dense<5> : tensor<1000xi32>
  %x_2 = stablehlo.constant dense<2> : tensor<1000xi32>
  %x_m = stablehlo.remainder %x_i, %x_5 : tensor<1000xi32>
  %x_d = stablehlo.subtract %x_m, %x_2 : tensor<1000xi32>
  %x_f = stablehlo.convert %x_d : (tensor<1000xi32>) -> tensor<1000xf32>
  %A, %X = stablehlo.optimization_barrier %a_f, %x_f : tensor<1x1000xf32>, tensor<1000xf32>
  %r = "stablehlo.dot_general"(%A, %X) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, xlac.canonical} : (tensor<1x1000xf32>, tensor<1000xf32>) -> tensor<1xf32>
  check.expect_eq_const %r, dense<[4]> : tensor<1xf32>
  func.return
}

// -----

// Nothing to sum: K = 0 gives zeros.
func.func @mv_f32_5x0_0() {
  %a_i = stablehlo.iota dim = 0 : tensor<5x0xi32>
  %a_j = stablehlo.iota dim = 1 : tensor<5x0xi32>
  %a_3 = stablehlo.constant dense<3> : tensor<5x0xi32>
  %a_5 = stablehlo.constant dense<5> : tensor<5x0xi32>
  %a_7 = stablehlo.constant dense<7> : tensor<5x0xi32>
  %a_p = stablehlo.multiply %a_i, %a_3 : tensor<5x0xi32>
  %a_q = stablehlo.multiply %a_j, %a_5 : tensor<5x0xi32>
  %a_s = stablehlo.add %a_p, %a_q : tensor<5x0xi32>
  %a_m = stablehlo.remainder %a_s, %a_7 : tensor<5x0xi32>
  %a_d = stablehlo.subtract %a_m, %a_3 : tensor<5x0xi32>
  %a_f = stablehlo.convert %a_d : (tensor<5x0xi32>) -> tensor<5x0xf32>
  %x_i = stablehlo.iota dim = 0 : tensor<0xi32>
  %x_5 = stablehlo.constant dense<5> : tensor<0xi32>
  %x_2 = stablehlo.constant dense<2> : tensor<0xi32>
  %x_m = stablehlo.remainder %x_i, %x_5 : tensor<0xi32>
  %x_d = stablehlo.subtract %x_m, %x_2 : tensor<0xi32>
  %x_f = stablehlo.convert %x_d : (tensor<0xi32>) -> tensor<0xf32>
  %A, %X = stablehlo.optimization_barrier %a_f, %x_f : tensor<5x0xf32>, tensor<0xf32>
  %r = "stablehlo.dot_general"(%A, %X) {dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, xlac.canonical} : (tensor<5x0xf32>, tensor<0xf32>) -> tensor<5xf32>
  check.expect_eq_const %r, dense<0.0> : tensor<5xf32>
  func.return
}
