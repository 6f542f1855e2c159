// RUN: xlac run --split-input-file %s

func.func @triangular_solve_batched_right_upper_transpose() {
  // batch 0: A = [[2, 1], [*, 4]] (upper), x * A^T = b
  // batch 1: A = [[1, 2], [*, 1]] with unit diagonal ignored values
  %a = stablehlo.constant dense<[[[2.0, 1.0], [99.0, 4.0]], [[5.0, 2.0], [99.0, 7.0]]]> : tensor<2x2x2xf64>
  %b = stablehlo.constant dense<[[[4.0, 8.0]], [[5.0, 3.0]]]> : tensor<2x1x2xf64>
  %r = "stablehlo.triangular_solve"(%a, %b) {left_side = false, lower = false, unit_diagonal = false,
        transpose_a = #stablehlo<transpose TRANSPOSE>} : (tensor<2x2x2xf64>, tensor<2x1x2xf64>) -> tensor<2x1x2xf64>
  // batch 0: [2x0 + x1, 4x1] = [4, 8] -> x1 = 2, x0 = 1
  // batch 1: [5x0 + 2x1, 7x1] = [5, 3] -> x1 = 3/7, x0 = (5 - 6/7)/5 = 29/35
  check.expect_almost_eq_const %r, dense<[[[1.0, 2.0]], [[0.828571428571, 0.428571428571]]]> : tensor<2x1x2xf64>
  %u = "stablehlo.triangular_solve"(%a, %b) {left_side = false, lower = false, unit_diagonal = true,
        transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<2x2x2xf64>, tensor<2x1x2xf64>) -> tensor<2x1x2xf64>
  // x * [[1, a01], [0, 1]] = b -> x0 = b0, x1 = b1 - x0 * a01
  check.expect_almost_eq_const %u, dense<[[[4.0, 4.0]], [[5.0, -7.0]]]> : tensor<2x1x2xf64>
  func.return
}

// -----

func.func @triangular_solve_adjoint_right() {
  %a = stablehlo.constant dense<[[(1.0, 1.0), (0.0, 0.0)], [(2.0, 0.0), (0.0, 2.0)]]> : tensor<2x2xcomplex<f64>>
  %b = stablehlo.constant dense<[[(1.0, 0.0), (0.0, 1.0)]]> : tensor<1x2xcomplex<f64>>
  %r = "stablehlo.triangular_solve"(%a, %b) {left_side = false, lower = true, unit_diagonal = false,
        transpose_a = #stablehlo<transpose ADJOINT>} : (tensor<2x2xcomplex<f64>>, tensor<1x2xcomplex<f64>>) -> tensor<1x2xcomplex<f64>>
  // A^H = [[1-i, 2], [0, -2i]]; x A^H = [x0 (1-i), 2 x0 - 2i x1] = [1, i]
  // x0 = 1/(1-i) = (1+i)/2; 2 x0 - 2i x1 = i -> x1 = (1 + i - i)/(2i) = 1/(2i) = -0.5i
  check.expect_almost_eq_const %r, dense<[[(0.5, 0.5), (0.0, -0.5)]]> : tensor<1x2xcomplex<f64>>
  func.return
}

// -----

func.func @cholesky_spec_example_lower_and_upper() {
  %a = stablehlo.constant dense<[[1.0, 2.0, 3.0], [2.0, 20.0, 26.0], [3.0, 26.0, 70.0]]> : tensor<3x3xf32>
  %l = "stablehlo.cholesky"(%a) {lower = true} : (tensor<3x3xf32>) -> tensor<3x3xf32>
  check.expect_almost_eq_const %l, dense<[[1.0, 0.0, 0.0], [2.0, 4.0, 0.0], [3.0, 5.0, 6.0]]> : tensor<3x3xf32>
  %u = "stablehlo.cholesky"(%a) {lower = false} : (tensor<3x3xf32>) -> tensor<3x3xf32>
  check.expect_almost_eq_const %u, dense<[[1.0, 2.0, 3.0], [0.0, 4.0, 5.0], [0.0, 0.0, 6.0]]> : tensor<3x3xf32>
  func.return
}

// -----

func.func @cholesky_batched_complex() {
  // [[4, 2i], [-2i, 5]] = L L^H with L = [[2, 0], [-i, 2]]
  %a = stablehlo.constant dense<[[[(4.0, 0.0), (0.0, 2.0)], [(0.0, -2.0), (5.0, 0.0)]],
                                 [[(9.0, 0.0), (0.0, 0.0)], [(0.0, 0.0), (1.0, 0.0)]]]> : tensor<2x2x2xcomplex<f64>>
  %l = "stablehlo.cholesky"(%a) {lower = true} : (tensor<2x2x2xcomplex<f64>>) -> tensor<2x2x2xcomplex<f64>>
  check.expect_almost_eq_const %l, dense<[[[(2.0, 0.0), (0.0, 0.0)], [(0.0, -1.0), (2.0, 0.0)]],
                                          [[(3.0, 0.0), (0.0, 0.0)], [(0.0, 0.0), (1.0, 0.0)]]]> : tensor<2x2x2xcomplex<f64>>
  func.return
}
