// RUN: xlac run --split-input-file %s
// RUN: xlac run --split-input-file --backend=cpu --threads=1 %s
// Permutations of rank 2 to 5.  The cpu backend drops dimensions of size 1
// and merges dimensions that stay adjacent and in order, then transposes
// the operand's contiguous dimension against the result's contiguous one,
// the other dimensions being a batch (NCHW <-> NHWC becomes a batch of
// matrix transposes).  Permutations that keep the last dimension last stay
// with the loop kernel.  Values as in transpose_types.mlir.
// f32 [3, 300, 200], permutation [0, 2, 1]
func.func @f32_3x300x200_p021() {
  %v1 = stablehlo.iota dim = 0 : tensor<3x300x200xi32>
  %v2 = stablehlo.constant dense<60000> : tensor<3x300x200xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<3x300x200xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<3x300x200xi32>
  %v5 = stablehlo.constant dense<200> : tensor<3x300x200xi32>
  %v6 = stablehlo.multiply %v4, %v5 : tensor<3x300x200xi32>
  %v7 = stablehlo.add %v3, %v6 : tensor<3x300x200xi32>
  %v8 = stablehlo.iota dim = 2 : tensor<3x300x200xi32>
  %v9 = stablehlo.add %v7, %v8 : tensor<3x300x200xi32>
  %v10 = stablehlo.constant dense<40503> : tensor<3x300x200xi32>
  %v11 = stablehlo.multiply %v9, %v10 : tensor<3x300x200xi32>
  %v12 = stablehlo.bitcast_convert %v11 : (tensor<3x300x200xi32>) -> tensor<3x300x200xf32>
  %v13 = stablehlo.optimization_barrier %v12 : tensor<3x300x200xf32>
  %v14 = stablehlo.transpose %v13, dims = [0, 2, 1] : (tensor<3x300x200xf32>) -> tensor<3x200x300xf32>
  %v15 = stablehlo.iota dim = 0 : tensor<3x200x300xi32>
  %v16 = stablehlo.constant dense<60000> : tensor<3x200x300xi32>
  %v17 = stablehlo.multiply %v15, %v16 : tensor<3x200x300xi32>
  %v18 = stablehlo.iota dim = 1 : tensor<3x200x300xi32>
  %v19 = stablehlo.add %v17, %v18 : tensor<3x200x300xi32>
  %v20 = stablehlo.iota dim = 2 : tensor<3x200x300xi32>
  %v21 = stablehlo.constant dense<200> : tensor<3x200x300xi32>
  %v22 = stablehlo.multiply %v20, %v21 : tensor<3x200x300xi32>
  %v23 = stablehlo.add %v19, %v22 : tensor<3x200x300xi32>
  %v24 = stablehlo.constant dense<40503> : tensor<3x200x300xi32>
  %v25 = stablehlo.multiply %v23, %v24 : tensor<3x200x300xi32>
  %v26 = stablehlo.optimization_barrier %v14 : tensor<3x200x300xf32>
  %v27 = stablehlo.bitcast_convert %v26 : (tensor<3x200x300xf32>) -> tensor<3x200x300xi32>
  check.expect_eq %v27, %v25 : tensor<3x200x300xi32>
  func.return
}

// -----

// f64 [3, 300, 200], permutation [0, 2, 1]
func.func @f64_3x300x200_p021() {
  %v1 = stablehlo.iota dim = 0 : tensor<3x300x200xi32>
  %v2 = stablehlo.constant dense<60000> : tensor<3x300x200xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<3x300x200xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<3x300x200xi32>
  %v5 = stablehlo.constant dense<200> : tensor<3x300x200xi32>
  %v6 = stablehlo.multiply %v4, %v5 : tensor<3x300x200xi32>
  %v7 = stablehlo.add %v3, %v6 : tensor<3x300x200xi32>
  %v8 = stablehlo.iota dim = 2 : tensor<3x300x200xi32>
  %v9 = stablehlo.add %v7, %v8 : tensor<3x300x200xi32>
  %v10 = stablehlo.constant dense<40503> : tensor<3x300x200xi32>
  %v11 = stablehlo.multiply %v9, %v10 : tensor<3x300x200xi32>
  %v12 = stablehlo.convert %v11 : (tensor<3x300x200xi32>) -> tensor<3x300x200xi64>
  %v13 = stablehlo.bitcast_convert %v12 : (tensor<3x300x200xi64>) -> tensor<3x300x200xf64>
  %v14 = stablehlo.optimization_barrier %v13 : tensor<3x300x200xf64>
  %v15 = stablehlo.transpose %v14, dims = [0, 2, 1] : (tensor<3x300x200xf64>) -> tensor<3x200x300xf64>
  %v16 = stablehlo.iota dim = 0 : tensor<3x200x300xi32>
  %v17 = stablehlo.constant dense<60000> : tensor<3x200x300xi32>
  %v18 = stablehlo.multiply %v16, %v17 : tensor<3x200x300xi32>
  %v19 = stablehlo.iota dim = 1 : tensor<3x200x300xi32>
  %v20 = stablehlo.add %v18, %v19 : tensor<3x200x300xi32>
  %v21 = stablehlo.iota dim = 2 : tensor<3x200x300xi32>
  %v22 = stablehlo.constant dense<200> : tensor<3x200x300xi32>
  %v23 = stablehlo.multiply %v21, %v22 : tensor<3x200x300xi32>
  %v24 = stablehlo.add %v20, %v23 : tensor<3x200x300xi32>
  %v25 = stablehlo.constant dense<40503> : tensor<3x200x300xi32>
  %v26 = stablehlo.multiply %v24, %v25 : tensor<3x200x300xi32>
  %v27 = stablehlo.convert %v26 : (tensor<3x200x300xi32>) -> tensor<3x200x300xi64>
  %v28 = stablehlo.optimization_barrier %v15 : tensor<3x200x300xf64>
  %v29 = stablehlo.bitcast_convert %v28 : (tensor<3x200x300xf64>) -> tensor<3x200x300xi64>
  check.expect_eq %v29, %v27 : tensor<3x200x300xi64>
  func.return
}

// -----

// f32 [40, 50, 33], permutation [2, 0, 1]
func.func @f32_40x50x33_p201() {
  %v1 = stablehlo.iota dim = 0 : tensor<40x50x33xi32>
  %v2 = stablehlo.constant dense<1650> : tensor<40x50x33xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<40x50x33xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<40x50x33xi32>
  %v5 = stablehlo.constant dense<33> : tensor<40x50x33xi32>
  %v6 = stablehlo.multiply %v4, %v5 : tensor<40x50x33xi32>
  %v7 = stablehlo.add %v3, %v6 : tensor<40x50x33xi32>
  %v8 = stablehlo.iota dim = 2 : tensor<40x50x33xi32>
  %v9 = stablehlo.add %v7, %v8 : tensor<40x50x33xi32>
  %v10 = stablehlo.constant dense<40503> : tensor<40x50x33xi32>
  %v11 = stablehlo.multiply %v9, %v10 : tensor<40x50x33xi32>
  %v12 = stablehlo.bitcast_convert %v11 : (tensor<40x50x33xi32>) -> tensor<40x50x33xf32>
  %v13 = stablehlo.optimization_barrier %v12 : tensor<40x50x33xf32>
  %v14 = stablehlo.transpose %v13, dims = [2, 0, 1] : (tensor<40x50x33xf32>) -> tensor<33x40x50xf32>
  %v15 = stablehlo.iota dim = 0 : tensor<33x40x50xi32>
  %v16 = stablehlo.iota dim = 1 : tensor<33x40x50xi32>
  %v17 = stablehlo.constant dense<1650> : tensor<33x40x50xi32>
  %v18 = stablehlo.multiply %v16, %v17 : tensor<33x40x50xi32>
  %v19 = stablehlo.add %v15, %v18 : tensor<33x40x50xi32>
  %v20 = stablehlo.iota dim = 2 : tensor<33x40x50xi32>
  %v21 = stablehlo.constant dense<33> : tensor<33x40x50xi32>
  %v22 = stablehlo.multiply %v20, %v21 : tensor<33x40x50xi32>
  %v23 = stablehlo.add %v19, %v22 : tensor<33x40x50xi32>
  %v24 = stablehlo.constant dense<40503> : tensor<33x40x50xi32>
  %v25 = stablehlo.multiply %v23, %v24 : tensor<33x40x50xi32>
  %v26 = stablehlo.optimization_barrier %v14 : tensor<33x40x50xf32>
  %v27 = stablehlo.bitcast_convert %v26 : (tensor<33x40x50xf32>) -> tensor<33x40x50xi32>
  check.expect_eq %v27, %v25 : tensor<33x40x50xi32>
  func.return
}

// -----

// f32 [40, 50, 33], permutation [1, 2, 0]
func.func @f32_40x50x33_p120() {
  %v1 = stablehlo.iota dim = 0 : tensor<40x50x33xi32>
  %v2 = stablehlo.constant dense<1650> : tensor<40x50x33xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<40x50x33xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<40x50x33xi32>
  %v5 = stablehlo.constant dense<33> : tensor<40x50x33xi32>
  %v6 = stablehlo.multiply %v4, %v5 : tensor<40x50x33xi32>
  %v7 = stablehlo.add %v3, %v6 : tensor<40x50x33xi32>
  %v8 = stablehlo.iota dim = 2 : tensor<40x50x33xi32>
  %v9 = stablehlo.add %v7, %v8 : tensor<40x50x33xi32>
  %v10 = stablehlo.constant dense<40503> : tensor<40x50x33xi32>
  %v11 = stablehlo.multiply %v9, %v10 : tensor<40x50x33xi32>
  %v12 = stablehlo.bitcast_convert %v11 : (tensor<40x50x33xi32>) -> tensor<40x50x33xf32>
  %v13 = stablehlo.optimization_barrier %v12 : tensor<40x50x33xf32>
  %v14 = stablehlo.transpose %v13, dims = [1, 2, 0] : (tensor<40x50x33xf32>) -> tensor<50x33x40xf32>
  %v15 = stablehlo.iota dim = 0 : tensor<50x33x40xi32>
  %v16 = stablehlo.constant dense<33> : tensor<50x33x40xi32>
  %v17 = stablehlo.multiply %v15, %v16 : tensor<50x33x40xi32>
  %v18 = stablehlo.iota dim = 1 : tensor<50x33x40xi32>
  %v19 = stablehlo.add %v17, %v18 : tensor<50x33x40xi32>
  %v20 = stablehlo.iota dim = 2 : tensor<50x33x40xi32>
  %v21 = stablehlo.constant dense<1650> : tensor<50x33x40xi32>
  %v22 = stablehlo.multiply %v20, %v21 : tensor<50x33x40xi32>
  %v23 = stablehlo.add %v19, %v22 : tensor<50x33x40xi32>
  %v24 = stablehlo.constant dense<40503> : tensor<50x33x40xi32>
  %v25 = stablehlo.multiply %v23, %v24 : tensor<50x33x40xi32>
  %v26 = stablehlo.optimization_barrier %v14 : tensor<50x33x40xf32>
  %v27 = stablehlo.bitcast_convert %v26 : (tensor<50x33x40xf32>) -> tensor<50x33x40xi32>
  check.expect_eq %v27, %v25 : tensor<50x33x40xi32>
  func.return
}

// -----

// f32 [40, 50, 33], permutation [2, 1, 0]
func.func @f32_40x50x33_p210() {
  %v1 = stablehlo.iota dim = 0 : tensor<40x50x33xi32>
  %v2 = stablehlo.constant dense<1650> : tensor<40x50x33xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<40x50x33xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<40x50x33xi32>
  %v5 = stablehlo.constant dense<33> : tensor<40x50x33xi32>
  %v6 = stablehlo.multiply %v4, %v5 : tensor<40x50x33xi32>
  %v7 = stablehlo.add %v3, %v6 : tensor<40x50x33xi32>
  %v8 = stablehlo.iota dim = 2 : tensor<40x50x33xi32>
  %v9 = stablehlo.add %v7, %v8 : tensor<40x50x33xi32>
  %v10 = stablehlo.constant dense<40503> : tensor<40x50x33xi32>
  %v11 = stablehlo.multiply %v9, %v10 : tensor<40x50x33xi32>
  %v12 = stablehlo.bitcast_convert %v11 : (tensor<40x50x33xi32>) -> tensor<40x50x33xf32>
  %v13 = stablehlo.optimization_barrier %v12 : tensor<40x50x33xf32>
  %v14 = stablehlo.transpose %v13, dims = [2, 1, 0] : (tensor<40x50x33xf32>) -> tensor<33x50x40xf32>
  %v15 = stablehlo.iota dim = 0 : tensor<33x50x40xi32>
  %v16 = stablehlo.iota dim = 1 : tensor<33x50x40xi32>
  %v17 = stablehlo.constant dense<33> : tensor<33x50x40xi32>
  %v18 = stablehlo.multiply %v16, %v17 : tensor<33x50x40xi32>
  %v19 = stablehlo.add %v15, %v18 : tensor<33x50x40xi32>
  %v20 = stablehlo.iota dim = 2 : tensor<33x50x40xi32>
  %v21 = stablehlo.constant dense<1650> : tensor<33x50x40xi32>
  %v22 = stablehlo.multiply %v20, %v21 : tensor<33x50x40xi32>
  %v23 = stablehlo.add %v19, %v22 : tensor<33x50x40xi32>
  %v24 = stablehlo.constant dense<40503> : tensor<33x50x40xi32>
  %v25 = stablehlo.multiply %v23, %v24 : tensor<33x50x40xi32>
  %v26 = stablehlo.optimization_barrier %v14 : tensor<33x50x40xf32>
  %v27 = stablehlo.bitcast_convert %v26 : (tensor<33x50x40xf32>) -> tensor<33x50x40xi32>
  check.expect_eq %v27, %v25 : tensor<33x50x40xi32>
  func.return
}

// -----

// i8 [40, 50, 33], permutation [1, 2, 0]
func.func @i8_40x50x33_p120() {
  %v1 = stablehlo.iota dim = 0 : tensor<40x50x33xi32>
  %v2 = stablehlo.constant dense<1650> : tensor<40x50x33xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<40x50x33xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<40x50x33xi32>
  %v5 = stablehlo.constant dense<33> : tensor<40x50x33xi32>
  %v6 = stablehlo.multiply %v4, %v5 : tensor<40x50x33xi32>
  %v7 = stablehlo.add %v3, %v6 : tensor<40x50x33xi32>
  %v8 = stablehlo.iota dim = 2 : tensor<40x50x33xi32>
  %v9 = stablehlo.add %v7, %v8 : tensor<40x50x33xi32>
  %v10 = stablehlo.constant dense<40503> : tensor<40x50x33xi32>
  %v11 = stablehlo.multiply %v9, %v10 : tensor<40x50x33xi32>
  %v12 = stablehlo.convert %v11 : (tensor<40x50x33xi32>) -> tensor<40x50x33xi8>
  %v13 = stablehlo.optimization_barrier %v12 : tensor<40x50x33xi8>
  %v14 = stablehlo.transpose %v13, dims = [1, 2, 0] : (tensor<40x50x33xi8>) -> tensor<50x33x40xi8>
  %v15 = stablehlo.iota dim = 0 : tensor<50x33x40xi32>
  %v16 = stablehlo.constant dense<33> : tensor<50x33x40xi32>
  %v17 = stablehlo.multiply %v15, %v16 : tensor<50x33x40xi32>
  %v18 = stablehlo.iota dim = 1 : tensor<50x33x40xi32>
  %v19 = stablehlo.add %v17, %v18 : tensor<50x33x40xi32>
  %v20 = stablehlo.iota dim = 2 : tensor<50x33x40xi32>
  %v21 = stablehlo.constant dense<1650> : tensor<50x33x40xi32>
  %v22 = stablehlo.multiply %v20, %v21 : tensor<50x33x40xi32>
  %v23 = stablehlo.add %v19, %v22 : tensor<50x33x40xi32>
  %v24 = stablehlo.constant dense<40503> : tensor<50x33x40xi32>
  %v25 = stablehlo.multiply %v23, %v24 : tensor<50x33x40xi32>
  %v26 = stablehlo.convert %v25 : (tensor<50x33x40xi32>) -> tensor<50x33x40xi8>
  %v27 = stablehlo.optimization_barrier %v14 : tensor<50x33x40xi8>
  check.expect_eq %v27, %v26 : tensor<50x33x40xi8>
  func.return
}

// -----

// f32 [2, 64, 23, 19], permutation [0, 2, 3, 1]
func.func @f32_2x64x23x19_p0231() {
  %v1 = stablehlo.iota dim = 0 : tensor<2x64x23x19xi32>
  %v2 = stablehlo.constant dense<27968> : tensor<2x64x23x19xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<2x64x23x19xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<2x64x23x19xi32>
  %v5 = stablehlo.constant dense<437> : tensor<2x64x23x19xi32>
  %v6 = stablehlo.multiply %v4, %v5 : tensor<2x64x23x19xi32>
  %v7 = stablehlo.add %v3, %v6 : tensor<2x64x23x19xi32>
  %v8 = stablehlo.iota dim = 2 : tensor<2x64x23x19xi32>
  %v9 = stablehlo.constant dense<19> : tensor<2x64x23x19xi32>
  %v10 = stablehlo.multiply %v8, %v9 : tensor<2x64x23x19xi32>
  %v11 = stablehlo.add %v7, %v10 : tensor<2x64x23x19xi32>
  %v12 = stablehlo.iota dim = 3 : tensor<2x64x23x19xi32>
  %v13 = stablehlo.add %v11, %v12 : tensor<2x64x23x19xi32>
  %v14 = stablehlo.constant dense<40503> : tensor<2x64x23x19xi32>
  %v15 = stablehlo.multiply %v13, %v14 : tensor<2x64x23x19xi32>
  %v16 = stablehlo.bitcast_convert %v15 : (tensor<2x64x23x19xi32>) -> tensor<2x64x23x19xf32>
  %v17 = stablehlo.optimization_barrier %v16 : tensor<2x64x23x19xf32>
  %v18 = stablehlo.transpose %v17, dims = [0, 2, 3, 1] : (tensor<2x64x23x19xf32>) -> tensor<2x23x19x64xf32>
  %v19 = stablehlo.iota dim = 0 : tensor<2x23x19x64xi32>
  %v20 = stablehlo.constant dense<27968> : tensor<2x23x19x64xi32>
  %v21 = stablehlo.multiply %v19, %v20 : tensor<2x23x19x64xi32>
  %v22 = stablehlo.iota dim = 1 : tensor<2x23x19x64xi32>
  %v23 = stablehlo.constant dense<19> : tensor<2x23x19x64xi32>
  %v24 = stablehlo.multiply %v22, %v23 : tensor<2x23x19x64xi32>
  %v25 = stablehlo.add %v21, %v24 : tensor<2x23x19x64xi32>
  %v26 = stablehlo.iota dim = 2 : tensor<2x23x19x64xi32>
  %v27 = stablehlo.add %v25, %v26 : tensor<2x23x19x64xi32>
  %v28 = stablehlo.iota dim = 3 : tensor<2x23x19x64xi32>
  %v29 = stablehlo.constant dense<437> : tensor<2x23x19x64xi32>
  %v30 = stablehlo.multiply %v28, %v29 : tensor<2x23x19x64xi32>
  %v31 = stablehlo.add %v27, %v30 : tensor<2x23x19x64xi32>
  %v32 = stablehlo.constant dense<40503> : tensor<2x23x19x64xi32>
  %v33 = stablehlo.multiply %v31, %v32 : tensor<2x23x19x64xi32>
  %v34 = stablehlo.optimization_barrier %v18 : tensor<2x23x19x64xf32>
  %v35 = stablehlo.bitcast_convert %v34 : (tensor<2x23x19x64xf32>) -> tensor<2x23x19x64xi32>
  check.expect_eq %v35, %v33 : tensor<2x23x19x64xi32>
  func.return
}

// -----

// f32 [2, 23, 19, 64], permutation [0, 3, 1, 2]
func.func @f32_2x23x19x64_p0312() {
  %v1 = stablehlo.iota dim = 0 : tensor<2x23x19x64xi32>
  %v2 = stablehlo.constant dense<27968> : tensor<2x23x19x64xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<2x23x19x64xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<2x23x19x64xi32>
  %v5 = stablehlo.constant dense<1216> : tensor<2x23x19x64xi32>
  %v6 = stablehlo.multiply %v4, %v5 : tensor<2x23x19x64xi32>
  %v7 = stablehlo.add %v3, %v6 : tensor<2x23x19x64xi32>
  %v8 = stablehlo.iota dim = 2 : tensor<2x23x19x64xi32>
  %v9 = stablehlo.constant dense<64> : tensor<2x23x19x64xi32>
  %v10 = stablehlo.multiply %v8, %v9 : tensor<2x23x19x64xi32>
  %v11 = stablehlo.add %v7, %v10 : tensor<2x23x19x64xi32>
  %v12 = stablehlo.iota dim = 3 : tensor<2x23x19x64xi32>
  %v13 = stablehlo.add %v11, %v12 : tensor<2x23x19x64xi32>
  %v14 = stablehlo.constant dense<40503> : tensor<2x23x19x64xi32>
  %v15 = stablehlo.multiply %v13, %v14 : tensor<2x23x19x64xi32>
  %v16 = stablehlo.bitcast_convert %v15 : (tensor<2x23x19x64xi32>) -> tensor<2x23x19x64xf32>
  %v17 = stablehlo.optimization_barrier %v16 : tensor<2x23x19x64xf32>
  %v18 = stablehlo.transpose %v17, dims = [0, 3, 1, 2] : (tensor<2x23x19x64xf32>) -> tensor<2x64x23x19xf32>
  %v19 = stablehlo.iota dim = 0 : tensor<2x64x23x19xi32>
  %v20 = stablehlo.constant dense<27968> : tensor<2x64x23x19xi32>
  %v21 = stablehlo.multiply %v19, %v20 : tensor<2x64x23x19xi32>
  %v22 = stablehlo.iota dim = 1 : tensor<2x64x23x19xi32>
  %v23 = stablehlo.add %v21, %v22 : tensor<2x64x23x19xi32>
  %v24 = stablehlo.iota dim = 2 : tensor<2x64x23x19xi32>
  %v25 = stablehlo.constant dense<1216> : tensor<2x64x23x19xi32>
  %v26 = stablehlo.multiply %v24, %v25 : tensor<2x64x23x19xi32>
  %v27 = stablehlo.add %v23, %v26 : tensor<2x64x23x19xi32>
  %v28 = stablehlo.iota dim = 3 : tensor<2x64x23x19xi32>
  %v29 = stablehlo.constant dense<64> : tensor<2x64x23x19xi32>
  %v30 = stablehlo.multiply %v28, %v29 : tensor<2x64x23x19xi32>
  %v31 = stablehlo.add %v27, %v30 : tensor<2x64x23x19xi32>
  %v32 = stablehlo.constant dense<40503> : tensor<2x64x23x19xi32>
  %v33 = stablehlo.multiply %v31, %v32 : tensor<2x64x23x19xi32>
  %v34 = stablehlo.optimization_barrier %v18 : tensor<2x64x23x19xf32>
  %v35 = stablehlo.bitcast_convert %v34 : (tensor<2x64x23x19xf32>) -> tensor<2x64x23x19xi32>
  check.expect_eq %v35, %v33 : tensor<2x64x23x19xi32>
  func.return
}

// -----

// bf16 [2, 48, 20, 20], permutation [0, 2, 3, 1]
func.func @bf16_2x48x20x20_p0231() {
  %v1 = stablehlo.iota dim = 0 : tensor<2x48x20x20xi32>
  %v2 = stablehlo.constant dense<19200> : tensor<2x48x20x20xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<2x48x20x20xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<2x48x20x20xi32>
  %v5 = stablehlo.constant dense<400> : tensor<2x48x20x20xi32>
  %v6 = stablehlo.multiply %v4, %v5 : tensor<2x48x20x20xi32>
  %v7 = stablehlo.add %v3, %v6 : tensor<2x48x20x20xi32>
  %v8 = stablehlo.iota dim = 2 : tensor<2x48x20x20xi32>
  %v9 = stablehlo.constant dense<20> : tensor<2x48x20x20xi32>
  %v10 = stablehlo.multiply %v8, %v9 : tensor<2x48x20x20xi32>
  %v11 = stablehlo.add %v7, %v10 : tensor<2x48x20x20xi32>
  %v12 = stablehlo.iota dim = 3 : tensor<2x48x20x20xi32>
  %v13 = stablehlo.add %v11, %v12 : tensor<2x48x20x20xi32>
  %v14 = stablehlo.constant dense<40503> : tensor<2x48x20x20xi32>
  %v15 = stablehlo.multiply %v13, %v14 : tensor<2x48x20x20xi32>
  %v16 = stablehlo.convert %v15 : (tensor<2x48x20x20xi32>) -> tensor<2x48x20x20xi16>
  %v17 = stablehlo.bitcast_convert %v16 : (tensor<2x48x20x20xi16>) -> tensor<2x48x20x20xbf16>
  %v18 = stablehlo.optimization_barrier %v17 : tensor<2x48x20x20xbf16>
  %v19 = stablehlo.transpose %v18, dims = [0, 2, 3, 1] : (tensor<2x48x20x20xbf16>) -> tensor<2x20x20x48xbf16>
  %v20 = stablehlo.iota dim = 0 : tensor<2x20x20x48xi32>
  %v21 = stablehlo.constant dense<19200> : tensor<2x20x20x48xi32>
  %v22 = stablehlo.multiply %v20, %v21 : tensor<2x20x20x48xi32>
  %v23 = stablehlo.iota dim = 1 : tensor<2x20x20x48xi32>
  %v24 = stablehlo.constant dense<20> : tensor<2x20x20x48xi32>
  %v25 = stablehlo.multiply %v23, %v24 : tensor<2x20x20x48xi32>
  %v26 = stablehlo.add %v22, %v25 : tensor<2x20x20x48xi32>
  %v27 = stablehlo.iota dim = 2 : tensor<2x20x20x48xi32>
  %v28 = stablehlo.add %v26, %v27 : tensor<2x20x20x48xi32>
  %v29 = stablehlo.iota dim = 3 : tensor<2x20x20x48xi32>
  %v30 = stablehlo.constant dense<400> : tensor<2x20x20x48xi32>
  %v31 = stablehlo.multiply %v29, %v30 : tensor<2x20x20x48xi32>
  %v32 = stablehlo.add %v28, %v31 : tensor<2x20x20x48xi32>
  %v33 = stablehlo.constant dense<40503> : tensor<2x20x20x48xi32>
  %v34 = stablehlo.multiply %v32, %v33 : tensor<2x20x20x48xi32>
  %v35 = stablehlo.convert %v34 : (tensor<2x20x20x48xi32>) -> tensor<2x20x20x48xi16>
  %v36 = stablehlo.optimization_barrier %v19 : tensor<2x20x20x48xbf16>
  %v37 = stablehlo.bitcast_convert %v36 : (tensor<2x20x20x48xbf16>) -> tensor<2x20x20x48xi16>
  check.expect_eq %v37, %v35 : tensor<2x20x20x48xi16>
  func.return
}

// -----

// f32 [6, 17, 19, 23], permutation [3, 1, 0, 2]
func.func @f32_6x17x19x23_p3102() {
  %v1 = stablehlo.iota dim = 0 : tensor<6x17x19x23xi32>
  %v2 = stablehlo.constant dense<7429> : tensor<6x17x19x23xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<6x17x19x23xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<6x17x19x23xi32>
  %v5 = stablehlo.constant dense<437> : tensor<6x17x19x23xi32>
  %v6 = stablehlo.multiply %v4, %v5 : tensor<6x17x19x23xi32>
  %v7 = stablehlo.add %v3, %v6 : tensor<6x17x19x23xi32>
  %v8 = stablehlo.iota dim = 2 : tensor<6x17x19x23xi32>
  %v9 = stablehlo.constant dense<23> : tensor<6x17x19x23xi32>
  %v10 = stablehlo.multiply %v8, %v9 : tensor<6x17x19x23xi32>
  %v11 = stablehlo.add %v7, %v10 : tensor<6x17x19x23xi32>
  %v12 = stablehlo.iota dim = 3 : tensor<6x17x19x23xi32>
  %v13 = stablehlo.add %v11, %v12 : tensor<6x17x19x23xi32>
  %v14 = stablehlo.constant dense<40503> : tensor<6x17x19x23xi32>
  %v15 = stablehlo.multiply %v13, %v14 : tensor<6x17x19x23xi32>
  %v16 = stablehlo.bitcast_convert %v15 : (tensor<6x17x19x23xi32>) -> tensor<6x17x19x23xf32>
  %v17 = stablehlo.optimization_barrier %v16 : tensor<6x17x19x23xf32>
  %v18 = stablehlo.transpose %v17, dims = [3, 1, 0, 2] : (tensor<6x17x19x23xf32>) -> tensor<23x17x6x19xf32>
  %v19 = stablehlo.iota dim = 0 : tensor<23x17x6x19xi32>
  %v20 = stablehlo.iota dim = 1 : tensor<23x17x6x19xi32>
  %v21 = stablehlo.constant dense<437> : tensor<23x17x6x19xi32>
  %v22 = stablehlo.multiply %v20, %v21 : tensor<23x17x6x19xi32>
  %v23 = stablehlo.add %v19, %v22 : tensor<23x17x6x19xi32>
  %v24 = stablehlo.iota dim = 2 : tensor<23x17x6x19xi32>
  %v25 = stablehlo.constant dense<7429> : tensor<23x17x6x19xi32>
  %v26 = stablehlo.multiply %v24, %v25 : tensor<23x17x6x19xi32>
  %v27 = stablehlo.add %v23, %v26 : tensor<23x17x6x19xi32>
  %v28 = stablehlo.iota dim = 3 : tensor<23x17x6x19xi32>
  %v29 = stablehlo.constant dense<23> : tensor<23x17x6x19xi32>
  %v30 = stablehlo.multiply %v28, %v29 : tensor<23x17x6x19xi32>
  %v31 = stablehlo.add %v27, %v30 : tensor<23x17x6x19xi32>
  %v32 = stablehlo.constant dense<40503> : tensor<23x17x6x19xi32>
  %v33 = stablehlo.multiply %v31, %v32 : tensor<23x17x6x19xi32>
  %v34 = stablehlo.optimization_barrier %v18 : tensor<23x17x6x19xf32>
  %v35 = stablehlo.bitcast_convert %v34 : (tensor<23x17x6x19xf32>) -> tensor<23x17x6x19xi32>
  check.expect_eq %v35, %v33 : tensor<23x17x6x19xi32>
  func.return
}

// -----

// f32 [6, 17, 19, 23], permutation [0, 2, 1, 3]
func.func @f32_6x17x19x23_p0213() {
  %v1 = stablehlo.iota dim = 0 : tensor<6x17x19x23xi32>
  %v2 = stablehlo.constant dense<7429> : tensor<6x17x19x23xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<6x17x19x23xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<6x17x19x23xi32>
  %v5 = stablehlo.constant dense<437> : tensor<6x17x19x23xi32>
  %v6 = stablehlo.multiply %v4, %v5 : tensor<6x17x19x23xi32>
  %v7 = stablehlo.add %v3, %v6 : tensor<6x17x19x23xi32>
  %v8 = stablehlo.iota dim = 2 : tensor<6x17x19x23xi32>
  %v9 = stablehlo.constant dense<23> : tensor<6x17x19x23xi32>
  %v10 = stablehlo.multiply %v8, %v9 : tensor<6x17x19x23xi32>
  %v11 = stablehlo.add %v7, %v10 : tensor<6x17x19x23xi32>
  %v12 = stablehlo.iota dim = 3 : tensor<6x17x19x23xi32>
  %v13 = stablehlo.add %v11, %v12 : tensor<6x17x19x23xi32>
  %v14 = stablehlo.constant dense<40503> : tensor<6x17x19x23xi32>
  %v15 = stablehlo.multiply %v13, %v14 : tensor<6x17x19x23xi32>
  %v16 = stablehlo.bitcast_convert %v15 : (tensor<6x17x19x23xi32>) -> tensor<6x17x19x23xf32>
  %v17 = stablehlo.optimization_barrier %v16 : tensor<6x17x19x23xf32>
  %v18 = stablehlo.transpose %v17, dims = [0, 2, 1, 3] : (tensor<6x17x19x23xf32>) -> tensor<6x19x17x23xf32>
  %v19 = stablehlo.iota dim = 0 : tensor<6x19x17x23xi32>
  %v20 = stablehlo.constant dense<7429> : tensor<6x19x17x23xi32>
  %v21 = stablehlo.multiply %v19, %v20 : tensor<6x19x17x23xi32>
  %v22 = stablehlo.iota dim = 1 : tensor<6x19x17x23xi32>
  %v23 = stablehlo.constant dense<23> : tensor<6x19x17x23xi32>
  %v24 = stablehlo.multiply %v22, %v23 : tensor<6x19x17x23xi32>
  %v25 = stablehlo.add %v21, %v24 : tensor<6x19x17x23xi32>
  %v26 = stablehlo.iota dim = 2 : tensor<6x19x17x23xi32>
  %v27 = stablehlo.constant dense<437> : tensor<6x19x17x23xi32>
  %v28 = stablehlo.multiply %v26, %v27 : tensor<6x19x17x23xi32>
  %v29 = stablehlo.add %v25, %v28 : tensor<6x19x17x23xi32>
  %v30 = stablehlo.iota dim = 3 : tensor<6x19x17x23xi32>
  %v31 = stablehlo.add %v29, %v30 : tensor<6x19x17x23xi32>
  %v32 = stablehlo.constant dense<40503> : tensor<6x19x17x23xi32>
  %v33 = stablehlo.multiply %v31, %v32 : tensor<6x19x17x23xi32>
  %v34 = stablehlo.optimization_barrier %v18 : tensor<6x19x17x23xf32>
  %v35 = stablehlo.bitcast_convert %v34 : (tensor<6x19x17x23xf32>) -> tensor<6x19x17x23xi32>
  check.expect_eq %v35, %v33 : tensor<6x19x17x23xi32>
  func.return
}

// -----

// i16 [17, 6, 19, 23], permutation [1, 3, 2, 0]
func.func @i16_17x6x19x23_p1320() {
  %v1 = stablehlo.iota dim = 0 : tensor<17x6x19x23xi32>
  %v2 = stablehlo.constant dense<2622> : tensor<17x6x19x23xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<17x6x19x23xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<17x6x19x23xi32>
  %v5 = stablehlo.constant dense<437> : tensor<17x6x19x23xi32>
  %v6 = stablehlo.multiply %v4, %v5 : tensor<17x6x19x23xi32>
  %v7 = stablehlo.add %v3, %v6 : tensor<17x6x19x23xi32>
  %v8 = stablehlo.iota dim = 2 : tensor<17x6x19x23xi32>
  %v9 = stablehlo.constant dense<23> : tensor<17x6x19x23xi32>
  %v10 = stablehlo.multiply %v8, %v9 : tensor<17x6x19x23xi32>
  %v11 = stablehlo.add %v7, %v10 : tensor<17x6x19x23xi32>
  %v12 = stablehlo.iota dim = 3 : tensor<17x6x19x23xi32>
  %v13 = stablehlo.add %v11, %v12 : tensor<17x6x19x23xi32>
  %v14 = stablehlo.constant dense<40503> : tensor<17x6x19x23xi32>
  %v15 = stablehlo.multiply %v13, %v14 : tensor<17x6x19x23xi32>
  %v16 = stablehlo.convert %v15 : (tensor<17x6x19x23xi32>) -> tensor<17x6x19x23xi16>
  %v17 = stablehlo.optimization_barrier %v16 : tensor<17x6x19x23xi16>
  %v18 = stablehlo.transpose %v17, dims = [1, 3, 2, 0] : (tensor<17x6x19x23xi16>) -> tensor<6x23x19x17xi16>
  %v19 = stablehlo.iota dim = 0 : tensor<6x23x19x17xi32>
  %v20 = stablehlo.constant dense<437> : tensor<6x23x19x17xi32>
  %v21 = stablehlo.multiply %v19, %v20 : tensor<6x23x19x17xi32>
  %v22 = stablehlo.iota dim = 1 : tensor<6x23x19x17xi32>
  %v23 = stablehlo.add %v21, %v22 : tensor<6x23x19x17xi32>
  %v24 = stablehlo.iota dim = 2 : tensor<6x23x19x17xi32>
  %v25 = stablehlo.constant dense<23> : tensor<6x23x19x17xi32>
  %v26 = stablehlo.multiply %v24, %v25 : tensor<6x23x19x17xi32>
  %v27 = stablehlo.add %v23, %v26 : tensor<6x23x19x17xi32>
  %v28 = stablehlo.iota dim = 3 : tensor<6x23x19x17xi32>
  %v29 = stablehlo.constant dense<2622> : tensor<6x23x19x17xi32>
  %v30 = stablehlo.multiply %v28, %v29 : tensor<6x23x19x17xi32>
  %v31 = stablehlo.add %v27, %v30 : tensor<6x23x19x17xi32>
  %v32 = stablehlo.constant dense<40503> : tensor<6x23x19x17xi32>
  %v33 = stablehlo.multiply %v31, %v32 : tensor<6x23x19x17xi32>
  %v34 = stablehlo.convert %v33 : (tensor<6x23x19x17xi32>) -> tensor<6x23x19x17xi16>
  %v35 = stablehlo.optimization_barrier %v18 : tensor<6x23x19x17xi16>
  check.expect_eq %v35, %v34 : tensor<6x23x19x17xi16>
  func.return
}

// -----

// f32 [1, 300, 1, 200], permutation [3, 2, 0, 1]
func.func @f32_1x300x1x200_p3201() {
  %v1 = stablehlo.iota dim = 1 : tensor<1x300x1x200xi32>
  %v2 = stablehlo.constant dense<200> : tensor<1x300x1x200xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<1x300x1x200xi32>
  %v4 = stablehlo.iota dim = 3 : tensor<1x300x1x200xi32>
  %v5 = stablehlo.add %v3, %v4 : tensor<1x300x1x200xi32>
  %v6 = stablehlo.constant dense<40503> : tensor<1x300x1x200xi32>
  %v7 = stablehlo.multiply %v5, %v6 : tensor<1x300x1x200xi32>
  %v8 = stablehlo.bitcast_convert %v7 : (tensor<1x300x1x200xi32>) -> tensor<1x300x1x200xf32>
  %v9 = stablehlo.optimization_barrier %v8 : tensor<1x300x1x200xf32>
  %v10 = stablehlo.transpose %v9, dims = [3, 2, 0, 1] : (tensor<1x300x1x200xf32>) -> tensor<200x1x1x300xf32>
  %v11 = stablehlo.iota dim = 0 : tensor<200x1x1x300xi32>
  %v12 = stablehlo.iota dim = 3 : tensor<200x1x1x300xi32>
  %v13 = stablehlo.constant dense<200> : tensor<200x1x1x300xi32>
  %v14 = stablehlo.multiply %v12, %v13 : tensor<200x1x1x300xi32>
  %v15 = stablehlo.add %v11, %v14 : tensor<200x1x1x300xi32>
  %v16 = stablehlo.constant dense<40503> : tensor<200x1x1x300xi32>
  %v17 = stablehlo.multiply %v15, %v16 : tensor<200x1x1x300xi32>
  %v18 = stablehlo.optimization_barrier %v10 : tensor<200x1x1x300xf32>
  %v19 = stablehlo.bitcast_convert %v18 : (tensor<200x1x1x300xf32>) -> tensor<200x1x1x300xi32>
  check.expect_eq %v19, %v17 : tensor<200x1x1x300xi32>
  func.return
}

// -----

// f32 [4, 5, 7, 11, 13], permutation [4, 2, 0, 3, 1]
func.func @f32_4x5x7x11x13_p42031() {
  %v1 = stablehlo.iota dim = 0 : tensor<4x5x7x11x13xi32>
  %v2 = stablehlo.constant dense<5005> : tensor<4x5x7x11x13xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<4x5x7x11x13xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<4x5x7x11x13xi32>
  %v5 = stablehlo.constant dense<1001> : tensor<4x5x7x11x13xi32>
  %v6 = stablehlo.multiply %v4, %v5 : tensor<4x5x7x11x13xi32>
  %v7 = stablehlo.add %v3, %v6 : tensor<4x5x7x11x13xi32>
  %v8 = stablehlo.iota dim = 2 : tensor<4x5x7x11x13xi32>
  %v9 = stablehlo.constant dense<143> : tensor<4x5x7x11x13xi32>
  %v10 = stablehlo.multiply %v8, %v9 : tensor<4x5x7x11x13xi32>
  %v11 = stablehlo.add %v7, %v10 : tensor<4x5x7x11x13xi32>
  %v12 = stablehlo.iota dim = 3 : tensor<4x5x7x11x13xi32>
  %v13 = stablehlo.constant dense<13> : tensor<4x5x7x11x13xi32>
  %v14 = stablehlo.multiply %v12, %v13 : tensor<4x5x7x11x13xi32>
  %v15 = stablehlo.add %v11, %v14 : tensor<4x5x7x11x13xi32>
  %v16 = stablehlo.iota dim = 4 : tensor<4x5x7x11x13xi32>
  %v17 = stablehlo.add %v15, %v16 : tensor<4x5x7x11x13xi32>
  %v18 = stablehlo.constant dense<40503> : tensor<4x5x7x11x13xi32>
  %v19 = stablehlo.multiply %v17, %v18 : tensor<4x5x7x11x13xi32>
  %v20 = stablehlo.bitcast_convert %v19 : (tensor<4x5x7x11x13xi32>) -> tensor<4x5x7x11x13xf32>
  %v21 = stablehlo.optimization_barrier %v20 : tensor<4x5x7x11x13xf32>
  %v22 = stablehlo.transpose %v21, dims = [4, 2, 0, 3, 1] : (tensor<4x5x7x11x13xf32>) -> tensor<13x7x4x11x5xf32>
  %v23 = stablehlo.iota dim = 0 : tensor<13x7x4x11x5xi32>
  %v24 = stablehlo.iota dim = 1 : tensor<13x7x4x11x5xi32>
  %v25 = stablehlo.constant dense<143> : tensor<13x7x4x11x5xi32>
  %v26 = stablehlo.multiply %v24, %v25 : tensor<13x7x4x11x5xi32>
  %v27 = stablehlo.add %v23, %v26 : tensor<13x7x4x11x5xi32>
  %v28 = stablehlo.iota dim = 2 : tensor<13x7x4x11x5xi32>
  %v29 = stablehlo.constant dense<5005> : tensor<13x7x4x11x5xi32>
  %v30 = stablehlo.multiply %v28, %v29 : tensor<13x7x4x11x5xi32>
  %v31 = stablehlo.add %v27, %v30 : tensor<13x7x4x11x5xi32>
  %v32 = stablehlo.iota dim = 3 : tensor<13x7x4x11x5xi32>
  %v33 = stablehlo.constant dense<13> : tensor<13x7x4x11x5xi32>
  %v34 = stablehlo.multiply %v32, %v33 : tensor<13x7x4x11x5xi32>
  %v35 = stablehlo.add %v31, %v34 : tensor<13x7x4x11x5xi32>
  %v36 = stablehlo.iota dim = 4 : tensor<13x7x4x11x5xi32>
  %v37 = stablehlo.constant dense<1001> : tensor<13x7x4x11x5xi32>
  %v38 = stablehlo.multiply %v36, %v37 : tensor<13x7x4x11x5xi32>
  %v39 = stablehlo.add %v35, %v38 : tensor<13x7x4x11x5xi32>
  %v40 = stablehlo.constant dense<40503> : tensor<13x7x4x11x5xi32>
  %v41 = stablehlo.multiply %v39, %v40 : tensor<13x7x4x11x5xi32>
  %v42 = stablehlo.optimization_barrier %v22 : tensor<13x7x4x11x5xf32>
  %v43 = stablehlo.bitcast_convert %v42 : (tensor<13x7x4x11x5xf32>) -> tensor<13x7x4x11x5xi32>
  check.expect_eq %v43, %v41 : tensor<13x7x4x11x5xi32>
  func.return
}

// -----

// f32 [4, 5, 7, 11, 13], permutation [0, 1, 4, 2, 3]
func.func @f32_4x5x7x11x13_p01423() {
  %v1 = stablehlo.iota dim = 0 : tensor<4x5x7x11x13xi32>
  %v2 = stablehlo.constant dense<5005> : tensor<4x5x7x11x13xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<4x5x7x11x13xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<4x5x7x11x13xi32>
  %v5 = stablehlo.constant dense<1001> : tensor<4x5x7x11x13xi32>
  %v6 = stablehlo.multiply %v4, %v5 : tensor<4x5x7x11x13xi32>
  %v7 = stablehlo.add %v3, %v6 : tensor<4x5x7x11x13xi32>
  %v8 = stablehlo.iota dim = 2 : tensor<4x5x7x11x13xi32>
  %v9 = stablehlo.constant dense<143> : tensor<4x5x7x11x13xi32>
  %v10 = stablehlo.multiply %v8, %v9 : tensor<4x5x7x11x13xi32>
  %v11 = stablehlo.add %v7, %v10 : tensor<4x5x7x11x13xi32>
  %v12 = stablehlo.iota dim = 3 : tensor<4x5x7x11x13xi32>
  %v13 = stablehlo.constant dense<13> : tensor<4x5x7x11x13xi32>
  %v14 = stablehlo.multiply %v12, %v13 : tensor<4x5x7x11x13xi32>
  %v15 = stablehlo.add %v11, %v14 : tensor<4x5x7x11x13xi32>
  %v16 = stablehlo.iota dim = 4 : tensor<4x5x7x11x13xi32>
  %v17 = stablehlo.add %v15, %v16 : tensor<4x5x7x11x13xi32>
  %v18 = stablehlo.constant dense<40503> : tensor<4x5x7x11x13xi32>
  %v19 = stablehlo.multiply %v17, %v18 : tensor<4x5x7x11x13xi32>
  %v20 = stablehlo.bitcast_convert %v19 : (tensor<4x5x7x11x13xi32>) -> tensor<4x5x7x11x13xf32>
  %v21 = stablehlo.optimization_barrier %v20 : tensor<4x5x7x11x13xf32>
  %v22 = stablehlo.transpose %v21, dims = [0, 1, 4, 2, 3] : (tensor<4x5x7x11x13xf32>) -> tensor<4x5x13x7x11xf32>
  %v23 = stablehlo.iota dim = 0 : tensor<4x5x13x7x11xi32>
  %v24 = stablehlo.constant dense<5005> : tensor<4x5x13x7x11xi32>
  %v25 = stablehlo.multiply %v23, %v24 : tensor<4x5x13x7x11xi32>
  %v26 = stablehlo.iota dim = 1 : tensor<4x5x13x7x11xi32>
  %v27 = stablehlo.constant dense<1001> : tensor<4x5x13x7x11xi32>
  %v28 = stablehlo.multiply %v26, %v27 : tensor<4x5x13x7x11xi32>
  %v29 = stablehlo.add %v25, %v28 : tensor<4x5x13x7x11xi32>
  %v30 = stablehlo.iota dim = 2 : tensor<4x5x13x7x11xi32>
  %v31 = stablehlo.add %v29, %v30 : tensor<4x5x13x7x11xi32>
  %v32 = stablehlo.iota dim = 3 : tensor<4x5x13x7x11xi32>
  %v33 = stablehlo.constant dense<143> : tensor<4x5x13x7x11xi32>
  %v34 = stablehlo.multiply %v32, %v33 : tensor<4x5x13x7x11xi32>
  %v35 = stablehlo.add %v31, %v34 : tensor<4x5x13x7x11xi32>
  %v36 = stablehlo.iota dim = 4 : tensor<4x5x13x7x11xi32>
  %v37 = stablehlo.constant dense<13> : tensor<4x5x13x7x11xi32>
  %v38 = stablehlo.multiply %v36, %v37 : tensor<4x5x13x7x11xi32>
  %v39 = stablehlo.add %v35, %v38 : tensor<4x5x13x7x11xi32>
  %v40 = stablehlo.constant dense<40503> : tensor<4x5x13x7x11xi32>
  %v41 = stablehlo.multiply %v39, %v40 : tensor<4x5x13x7x11xi32>
  %v42 = stablehlo.optimization_barrier %v22 : tensor<4x5x13x7x11xf32>
  %v43 = stablehlo.bitcast_convert %v42 : (tensor<4x5x13x7x11xf32>) -> tensor<4x5x13x7x11xi32>
  check.expect_eq %v43, %v41 : tensor<4x5x13x7x11xi32>
  func.return
}

// -----

// f64 [9, 5, 7, 3, 13], permutation [3, 4, 1, 2, 0]
func.func @f64_9x5x7x3x13_p34120() {
  %v1 = stablehlo.iota dim = 0 : tensor<9x5x7x3x13xi32>
  %v2 = stablehlo.constant dense<1365> : tensor<9x5x7x3x13xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<9x5x7x3x13xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<9x5x7x3x13xi32>
  %v5 = stablehlo.constant dense<273> : tensor<9x5x7x3x13xi32>
  %v6 = stablehlo.multiply %v4, %v5 : tensor<9x5x7x3x13xi32>
  %v7 = stablehlo.add %v3, %v6 : tensor<9x5x7x3x13xi32>
  %v8 = stablehlo.iota dim = 2 : tensor<9x5x7x3x13xi32>
  %v9 = stablehlo.constant dense<39> : tensor<9x5x7x3x13xi32>
  %v10 = stablehlo.multiply %v8, %v9 : tensor<9x5x7x3x13xi32>
  %v11 = stablehlo.add %v7, %v10 : tensor<9x5x7x3x13xi32>
  %v12 = stablehlo.iota dim = 3 : tensor<9x5x7x3x13xi32>
  %v13 = stablehlo.constant dense<13> : tensor<9x5x7x3x13xi32>
  %v14 = stablehlo.multiply %v12, %v13 : tensor<9x5x7x3x13xi32>
  %v15 = stablehlo.add %v11, %v14 : tensor<9x5x7x3x13xi32>
  %v16 = stablehlo.iota dim = 4 : tensor<9x5x7x3x13xi32>
  %v17 = stablehlo.add %v15, %v16 : tensor<9x5x7x3x13xi32>
  %v18 = stablehlo.constant dense<40503> : tensor<9x5x7x3x13xi32>
  %v19 = stablehlo.multiply %v17, %v18 : tensor<9x5x7x3x13xi32>
  %v20 = stablehlo.convert %v19 : (tensor<9x5x7x3x13xi32>) -> tensor<9x5x7x3x13xi64>
  %v21 = stablehlo.bitcast_convert %v20 : (tensor<9x5x7x3x13xi64>) -> tensor<9x5x7x3x13xf64>
  %v22 = stablehlo.optimization_barrier %v21 : tensor<9x5x7x3x13xf64>
  %v23 = stablehlo.transpose %v22, dims = [3, 4, 1, 2, 0] : (tensor<9x5x7x3x13xf64>) -> tensor<3x13x5x7x9xf64>
  %v24 = stablehlo.iota dim = 0 : tensor<3x13x5x7x9xi32>
  %v25 = stablehlo.constant dense<13> : tensor<3x13x5x7x9xi32>
  %v26 = stablehlo.multiply %v24, %v25 : tensor<3x13x5x7x9xi32>
  %v27 = stablehlo.iota dim = 1 : tensor<3x13x5x7x9xi32>
  %v28 = stablehlo.add %v26, %v27 : tensor<3x13x5x7x9xi32>
  %v29 = stablehlo.iota dim = 2 : tensor<3x13x5x7x9xi32>
  %v30 = stablehlo.constant dense<273> : tensor<3x13x5x7x9xi32>
  %v31 = stablehlo.multiply %v29, %v30 : tensor<3x13x5x7x9xi32>
  %v32 = stablehlo.add %v28, %v31 : tensor<3x13x5x7x9xi32>
  %v33 = stablehlo.iota dim = 3 : tensor<3x13x5x7x9xi32>
  %v34 = stablehlo.constant dense<39> : tensor<3x13x5x7x9xi32>
  %v35 = stablehlo.multiply %v33, %v34 : tensor<3x13x5x7x9xi32>
  %v36 = stablehlo.add %v32, %v35 : tensor<3x13x5x7x9xi32>
  %v37 = stablehlo.iota dim = 4 : tensor<3x13x5x7x9xi32>
  %v38 = stablehlo.constant dense<1365> : tensor<3x13x5x7x9xi32>
  %v39 = stablehlo.multiply %v37, %v38 : tensor<3x13x5x7x9xi32>
  %v40 = stablehlo.add %v36, %v39 : tensor<3x13x5x7x9xi32>
  %v41 = stablehlo.constant dense<40503> : tensor<3x13x5x7x9xi32>
  %v42 = stablehlo.multiply %v40, %v41 : tensor<3x13x5x7x9xi32>
  %v43 = stablehlo.convert %v42 : (tensor<3x13x5x7x9xi32>) -> tensor<3x13x5x7x9xi64>
  %v44 = stablehlo.optimization_barrier %v23 : tensor<3x13x5x7x9xf64>
  %v45 = stablehlo.bitcast_convert %v44 : (tensor<3x13x5x7x9xf64>) -> tensor<3x13x5x7x9xi64>
  check.expect_eq %v45, %v43 : tensor<3x13x5x7x9xi64>
  func.return
}

// -----

// f32 [3, 20, 5, 4, 24], permutation [4, 2, 0, 3, 1]
func.func @f32_3x20x5x4x24_p42031() {
  %v1 = stablehlo.iota dim = 0 : tensor<3x20x5x4x24xi32>
  %v2 = stablehlo.constant dense<9600> : tensor<3x20x5x4x24xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<3x20x5x4x24xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<3x20x5x4x24xi32>
  %v5 = stablehlo.constant dense<480> : tensor<3x20x5x4x24xi32>
  %v6 = stablehlo.multiply %v4, %v5 : tensor<3x20x5x4x24xi32>
  %v7 = stablehlo.add %v3, %v6 : tensor<3x20x5x4x24xi32>
  %v8 = stablehlo.iota dim = 2 : tensor<3x20x5x4x24xi32>
  %v9 = stablehlo.constant dense<96> : tensor<3x20x5x4x24xi32>
  %v10 = stablehlo.multiply %v8, %v9 : tensor<3x20x5x4x24xi32>
  %v11 = stablehlo.add %v7, %v10 : tensor<3x20x5x4x24xi32>
  %v12 = stablehlo.iota dim = 3 : tensor<3x20x5x4x24xi32>
  %v13 = stablehlo.constant dense<24> : tensor<3x20x5x4x24xi32>
  %v14 = stablehlo.multiply %v12, %v13 : tensor<3x20x5x4x24xi32>
  %v15 = stablehlo.add %v11, %v14 : tensor<3x20x5x4x24xi32>
  %v16 = stablehlo.iota dim = 4 : tensor<3x20x5x4x24xi32>
  %v17 = stablehlo.add %v15, %v16 : tensor<3x20x5x4x24xi32>
  %v18 = stablehlo.constant dense<40503> : tensor<3x20x5x4x24xi32>
  %v19 = stablehlo.multiply %v17, %v18 : tensor<3x20x5x4x24xi32>
  %v20 = stablehlo.bitcast_convert %v19 : (tensor<3x20x5x4x24xi32>) -> tensor<3x20x5x4x24xf32>
  %v21 = stablehlo.optimization_barrier %v20 : tensor<3x20x5x4x24xf32>
  %v22 = stablehlo.transpose %v21, dims = [4, 2, 0, 3, 1] : (tensor<3x20x5x4x24xf32>) -> tensor<24x5x3x4x20xf32>
  %v23 = stablehlo.iota dim = 0 : tensor<24x5x3x4x20xi32>
  %v24 = stablehlo.iota dim = 1 : tensor<24x5x3x4x20xi32>
  %v25 = stablehlo.constant dense<96> : tensor<24x5x3x4x20xi32>
  %v26 = stablehlo.multiply %v24, %v25 : tensor<24x5x3x4x20xi32>
  %v27 = stablehlo.add %v23, %v26 : tensor<24x5x3x4x20xi32>
  %v28 = stablehlo.iota dim = 2 : tensor<24x5x3x4x20xi32>
  %v29 = stablehlo.constant dense<9600> : tensor<24x5x3x4x20xi32>
  %v30 = stablehlo.multiply %v28, %v29 : tensor<24x5x3x4x20xi32>
  %v31 = stablehlo.add %v27, %v30 : tensor<24x5x3x4x20xi32>
  %v32 = stablehlo.iota dim = 3 : tensor<24x5x3x4x20xi32>
  %v33 = stablehlo.constant dense<24> : tensor<24x5x3x4x20xi32>
  %v34 = stablehlo.multiply %v32, %v33 : tensor<24x5x3x4x20xi32>
  %v35 = stablehlo.add %v31, %v34 : tensor<24x5x3x4x20xi32>
  %v36 = stablehlo.iota dim = 4 : tensor<24x5x3x4x20xi32>
  %v37 = stablehlo.constant dense<480> : tensor<24x5x3x4x20xi32>
  %v38 = stablehlo.multiply %v36, %v37 : tensor<24x5x3x4x20xi32>
  %v39 = stablehlo.add %v35, %v38 : tensor<24x5x3x4x20xi32>
  %v40 = stablehlo.constant dense<40503> : tensor<24x5x3x4x20xi32>
  %v41 = stablehlo.multiply %v39, %v40 : tensor<24x5x3x4x20xi32>
  %v42 = stablehlo.optimization_barrier %v22 : tensor<24x5x3x4x20xf32>
  %v43 = stablehlo.bitcast_convert %v42 : (tensor<24x5x3x4x20xf32>) -> tensor<24x5x3x4x20xi32>
  check.expect_eq %v43, %v41 : tensor<24x5x3x4x20xi32>
  func.return
}

// -----

// i8 [8, 17, 10, 3, 20], permutation [2, 4, 3, 0, 1]
func.func @i8_8x17x10x3x20_p24301() {
  %v1 = stablehlo.iota dim = 0 : tensor<8x17x10x3x20xi32>
  %v2 = stablehlo.constant dense<10200> : tensor<8x17x10x3x20xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<8x17x10x3x20xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<8x17x10x3x20xi32>
  %v5 = stablehlo.constant dense<600> : tensor<8x17x10x3x20xi32>
  %v6 = stablehlo.multiply %v4, %v5 : tensor<8x17x10x3x20xi32>
  %v7 = stablehlo.add %v3, %v6 : tensor<8x17x10x3x20xi32>
  %v8 = stablehlo.iota dim = 2 : tensor<8x17x10x3x20xi32>
  %v9 = stablehlo.constant dense<60> : tensor<8x17x10x3x20xi32>
  %v10 = stablehlo.multiply %v8, %v9 : tensor<8x17x10x3x20xi32>
  %v11 = stablehlo.add %v7, %v10 : tensor<8x17x10x3x20xi32>
  %v12 = stablehlo.iota dim = 3 : tensor<8x17x10x3x20xi32>
  %v13 = stablehlo.constant dense<20> : tensor<8x17x10x3x20xi32>
  %v14 = stablehlo.multiply %v12, %v13 : tensor<8x17x10x3x20xi32>
  %v15 = stablehlo.add %v11, %v14 : tensor<8x17x10x3x20xi32>
  %v16 = stablehlo.iota dim = 4 : tensor<8x17x10x3x20xi32>
  %v17 = stablehlo.add %v15, %v16 : tensor<8x17x10x3x20xi32>
  %v18 = stablehlo.constant dense<40503> : tensor<8x17x10x3x20xi32>
  %v19 = stablehlo.multiply %v17, %v18 : tensor<8x17x10x3x20xi32>
  %v20 = stablehlo.convert %v19 : (tensor<8x17x10x3x20xi32>) -> tensor<8x17x10x3x20xi8>
  %v21 = stablehlo.optimization_barrier %v20 : tensor<8x17x10x3x20xi8>
  %v22 = stablehlo.transpose %v21, dims = [2, 4, 3, 0, 1] : (tensor<8x17x10x3x20xi8>) -> tensor<10x20x3x8x17xi8>
  %v23 = stablehlo.iota dim = 0 : tensor<10x20x3x8x17xi32>
  %v24 = stablehlo.constant dense<60> : tensor<10x20x3x8x17xi32>
  %v25 = stablehlo.multiply %v23, %v24 : tensor<10x20x3x8x17xi32>
  %v26 = stablehlo.iota dim = 1 : tensor<10x20x3x8x17xi32>
  %v27 = stablehlo.add %v25, %v26 : tensor<10x20x3x8x17xi32>
  %v28 = stablehlo.iota dim = 2 : tensor<10x20x3x8x17xi32>
  %v29 = stablehlo.constant dense<20> : tensor<10x20x3x8x17xi32>
  %v30 = stablehlo.multiply %v28, %v29 : tensor<10x20x3x8x17xi32>
  %v31 = stablehlo.add %v27, %v30 : tensor<10x20x3x8x17xi32>
  %v32 = stablehlo.iota dim = 3 : tensor<10x20x3x8x17xi32>
  %v33 = stablehlo.constant dense<10200> : tensor<10x20x3x8x17xi32>
  %v34 = stablehlo.multiply %v32, %v33 : tensor<10x20x3x8x17xi32>
  %v35 = stablehlo.add %v31, %v34 : tensor<10x20x3x8x17xi32>
  %v36 = stablehlo.iota dim = 4 : tensor<10x20x3x8x17xi32>
  %v37 = stablehlo.constant dense<600> : tensor<10x20x3x8x17xi32>
  %v38 = stablehlo.multiply %v36, %v37 : tensor<10x20x3x8x17xi32>
  %v39 = stablehlo.add %v35, %v38 : tensor<10x20x3x8x17xi32>
  %v40 = stablehlo.constant dense<40503> : tensor<10x20x3x8x17xi32>
  %v41 = stablehlo.multiply %v39, %v40 : tensor<10x20x3x8x17xi32>
  %v42 = stablehlo.convert %v41 : (tensor<10x20x3x8x17xi32>) -> tensor<10x20x3x8x17xi8>
  %v43 = stablehlo.optimization_barrier %v22 : tensor<10x20x3x8x17xi8>
  check.expect_eq %v43, %v42 : tensor<10x20x3x8x17xi8>
  func.return
}
