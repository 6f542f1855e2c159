// RUN: xlac run --split-input-file %s
// RUN: xlac run --split-input-file --backend=cpu --threads=1 %s
// Transposes fused with their consumers (kLoop fusions: the transpose is
// read through the elemental generator, not the blocked kernel) next to
// standalone ones feeding the same consumers.  Values as in
// transpose_types.mlir.
// i32 [300, 260], permutation [1, 0]
func.func @loop_2d() {
  %v1 = stablehlo.iota dim = 0 : tensor<300x260xi32>
  %v2 = stablehlo.constant dense<260> : tensor<300x260xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<300x260xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<300x260xi32>
  %v5 = stablehlo.add %v3, %v4 : tensor<300x260xi32>
  %v6 = stablehlo.constant dense<40503> : tensor<300x260xi32>
  %v7 = stablehlo.multiply %v5, %v6 : tensor<300x260xi32>
  %v8 = stablehlo.optimization_barrier %v7 : tensor<300x260xi32>
  %v9 = stablehlo.transpose %v8, dims = [1, 0] : (tensor<300x260xi32>) -> tensor<260x300xi32>
  %v10 = stablehlo.iota dim = 0 : tensor<260x300xi32>
  %v11 = stablehlo.iota dim = 1 : tensor<260x300xi32>
  %v12 = stablehlo.constant dense<260> : tensor<260x300xi32>
  %v13 = stablehlo.multiply %v11, %v12 : tensor<260x300xi32>
  %v14 = stablehlo.add %v10, %v13 : tensor<260x300xi32>
  %v15 = stablehlo.constant dense<40503> : tensor<260x300xi32>
  %v16 = stablehlo.multiply %v14, %v15 : tensor<260x300xi32>
  %v17 = stablehlo.add %v9, %v9 : tensor<260x300xi32>
  %v18 = stablehlo.add %v16, %v16 : tensor<260x300xi32>
  check.expect_eq %v17, %v18 : tensor<260x300xi32>
  func.return
}

// -----

// i32 [2, 64, 20, 21], permutation [0, 2, 3, 1]
func.func @loop_nhwc() {
  %v1 = stablehlo.iota dim = 0 : tensor<2x64x20x21xi32>
  %v2 = stablehlo.constant dense<26880> : tensor<2x64x20x21xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<2x64x20x21xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<2x64x20x21xi32>
  %v5 = stablehlo.constant dense<420> : tensor<2x64x20x21xi32>
  %v6 = stablehlo.multiply %v4, %v5 : tensor<2x64x20x21xi32>
  %v7 = stablehlo.add %v3, %v6 : tensor<2x64x20x21xi32>
  %v8 = stablehlo.iota dim = 2 : tensor<2x64x20x21xi32>
  %v9 = stablehlo.constant dense<21> : tensor<2x64x20x21xi32>
  %v10 = stablehlo.multiply %v8, %v9 : tensor<2x64x20x21xi32>
  %v11 = stablehlo.add %v7, %v10 : tensor<2x64x20x21xi32>
  %v12 = stablehlo.iota dim = 3 : tensor<2x64x20x21xi32>
  %v13 = stablehlo.add %v11, %v12 : tensor<2x64x20x21xi32>
  %v14 = stablehlo.constant dense<40503> : tensor<2x64x20x21xi32>
  %v15 = stablehlo.multiply %v13, %v14 : tensor<2x64x20x21xi32>
  %v16 = stablehlo.optimization_barrier %v15 : tensor<2x64x20x21xi32>
  %v17 = stablehlo.transpose %v16, dims = [0, 2, 3, 1] : (tensor<2x64x20x21xi32>) -> tensor<2x20x21x64xi32>
  %v18 = stablehlo.iota dim = 0 : tensor<2x20x21x64xi32>
  %v19 = stablehlo.constant dense<26880> : tensor<2x20x21x64xi32>
  %v20 = stablehlo.multiply %v18, %v19 : tensor<2x20x21x64xi32>
  %v21 = stablehlo.iota dim = 1 : tensor<2x20x21x64xi32>
  %v22 = stablehlo.constant dense<21> : tensor<2x20x21x64xi32>
  %v23 = stablehlo.multiply %v21, %v22 : tensor<2x20x21x64xi32>
  %v24 = stablehlo.add %v20, %v23 : tensor<2x20x21x64xi32>
  %v25 = stablehlo.iota dim = 2 : tensor<2x20x21x64xi32>
  %v26 = stablehlo.add %v24, %v25 : tensor<2x20x21x64xi32>
  %v27 = stablehlo.iota dim = 3 : tensor<2x20x21x64xi32>
  %v28 = stablehlo.constant dense<420> : tensor<2x20x21x64xi32>
  %v29 = stablehlo.multiply %v27, %v28 : tensor<2x20x21x64xi32>
  %v30 = stablehlo.add %v26, %v29 : tensor<2x20x21x64xi32>
  %v31 = stablehlo.constant dense<40503> : tensor<2x20x21x64xi32>
  %v32 = stablehlo.multiply %v30, %v31 : tensor<2x20x21x64xi32>
  %v33 = stablehlo.add %v17, %v17 : tensor<2x20x21x64xi32>
  %v34 = stablehlo.add %v32, %v32 : tensor<2x20x21x64xi32>
  check.expect_eq %v33, %v34 : tensor<2x20x21x64xi32>
  func.return
}

// -----

// i32 [300, 260], permutation [1, 0]
func.func @standalone_2d() {
  %v1 = stablehlo.iota dim = 0 : tensor<300x260xi32>
  %v2 = stablehlo.constant dense<260> : tensor<300x260xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<300x260xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<300x260xi32>
  %v5 = stablehlo.add %v3, %v4 : tensor<300x260xi32>
  %v6 = stablehlo.constant dense<40503> : tensor<300x260xi32>
  %v7 = stablehlo.multiply %v5, %v6 : tensor<300x260xi32>
  %v8 = stablehlo.optimization_barrier %v7 : tensor<300x260xi32>
  %v9 = stablehlo.transpose %v8, dims = [1, 0] : (tensor<300x260xi32>) -> tensor<260x300xi32>
  %v10 = stablehlo.iota dim = 0 : tensor<260x300xi32>
  %v11 = stablehlo.iota dim = 1 : tensor<260x300xi32>
  %v12 = stablehlo.constant dense<260> : tensor<260x300xi32>
  %v13 = stablehlo.multiply %v11, %v12 : tensor<260x300xi32>
  %v14 = stablehlo.add %v10, %v13 : tensor<260x300xi32>
  %v15 = stablehlo.constant dense<40503> : tensor<260x300xi32>
  %v16 = stablehlo.multiply %v14, %v15 : tensor<260x300xi32>
  %v17 = stablehlo.optimization_barrier %v9 : tensor<260x300xi32>
  %v18 = stablehlo.add %v17, %v17 : tensor<260x300xi32>
  %v19 = stablehlo.add %v16, %v16 : tensor<260x300xi32>
  check.expect_eq %v18, %v19 : tensor<260x300xi32>
  func.return
}

// -----

// i32 [2, 20, 21, 64], permutation [0, 3, 1, 2]
func.func @standalone_nchw() {
  %v1 = stablehlo.iota dim = 0 : tensor<2x20x21x64xi32>
  %v2 = stablehlo.constant dense<26880> : tensor<2x20x21x64xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<2x20x21x64xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<2x20x21x64xi32>
  %v5 = stablehlo.constant dense<1344> : tensor<2x20x21x64xi32>
  %v6 = stablehlo.multiply %v4, %v5 : tensor<2x20x21x64xi32>
  %v7 = stablehlo.add %v3, %v6 : tensor<2x20x21x64xi32>
  %v8 = stablehlo.iota dim = 2 : tensor<2x20x21x64xi32>
  %v9 = stablehlo.constant dense<64> : tensor<2x20x21x64xi32>
  %v10 = stablehlo.multiply %v8, %v9 : tensor<2x20x21x64xi32>
  %v11 = stablehlo.add %v7, %v10 : tensor<2x20x21x64xi32>
  %v12 = stablehlo.iota dim = 3 : tensor<2x20x21x64xi32>
  %v13 = stablehlo.add %v11, %v12 : tensor<2x20x21x64xi32>
  %v14 = stablehlo.constant dense<40503> : tensor<2x20x21x64xi32>
  %v15 = stablehlo.multiply %v13, %v14 : tensor<2x20x21x64xi32>
  %v16 = stablehlo.optimization_barrier %v15 : tensor<2x20x21x64xi32>
  %v17 = stablehlo.transpose %v16, dims = [0, 3, 1, 2] : (tensor<2x20x21x64xi32>) -> tensor<2x64x20x21xi32>
  %v18 = stablehlo.iota dim = 0 : tensor<2x64x20x21xi32>
  %v19 = stablehlo.constant dense<26880> : tensor<2x64x20x21xi32>
  %v20 = stablehlo.multiply %v18, %v19 : tensor<2x64x20x21xi32>
  %v21 = stablehlo.iota dim = 1 : tensor<2x64x20x21xi32>
  %v22 = stablehlo.add %v20, %v21 : tensor<2x64x20x21xi32>
  %v23 = stablehlo.iota dim = 2 : tensor<2x64x20x21xi32>
  %v24 = stablehlo.constant dense<1344> : tensor<2x64x20x21xi32>
  %v25 = stablehlo.multiply %v23, %v24 : tensor<2x64x20x21xi32>
  %v26 = stablehlo.add %v22, %v25 : tensor<2x64x20x21xi32>
  %v27 = stablehlo.iota dim = 3 : tensor<2x64x20x21xi32>
  %v28 = stablehlo.constant dense<64> : tensor<2x64x20x21xi32>
  %v29 = stablehlo.multiply %v27, %v28 : tensor<2x64x20x21xi32>
  %v30 = stablehlo.add %v26, %v29 : tensor<2x64x20x21xi32>
  %v31 = stablehlo.constant dense<40503> : tensor<2x64x20x21xi32>
  %v32 = stablehlo.multiply %v30, %v31 : tensor<2x64x20x21xi32>
  %v33 = stablehlo.optimization_barrier %v17 : tensor<2x64x20x21xi32>
  %v34 = stablehlo.add %v33, %v33 : tensor<2x64x20x21xi32>
  %v35 = stablehlo.add %v32, %v32 : tensor<2x64x20x21xi32>
  check.expect_eq %v34, %v35 : tensor<2x64x20x21xi32>
  func.return
}

// -----

// i32 [300, 260], permutation [1, 0]
func.func @reduce_2d() {
  %v1 = stablehlo.iota dim = 0 : tensor<300x260xi32>
  %v2 = stablehlo.constant dense<260> : tensor<300x260xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<300x260xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<300x260xi32>
  %v5 = stablehlo.add %v3, %v4 : tensor<300x260xi32>
  %v6 = stablehlo.constant dense<40503> : tensor<300x260xi32>
  %v7 = stablehlo.multiply %v5, %v6 : tensor<300x260xi32>
  %v8 = stablehlo.optimization_barrier %v7 : tensor<300x260xi32>
  %v9 = stablehlo.transpose %v8, dims = [1, 0] : (tensor<300x260xi32>) -> tensor<260x300xi32>
  %v10 = stablehlo.iota dim = 0 : tensor<260x300xi32>
  %v11 = stablehlo.iota dim = 1 : tensor<260x300xi32>
  %v12 = stablehlo.constant dense<260> : tensor<260x300xi32>
  %v13 = stablehlo.multiply %v11, %v12 : tensor<260x300xi32>
  %v14 = stablehlo.add %v10, %v13 : tensor<260x300xi32>
  %v15 = stablehlo.constant dense<40503> : tensor<260x300xi32>
  %v16 = stablehlo.multiply %v14, %v15 : tensor<260x300xi32>
  %v17 = stablehlo.constant dense<0> : tensor<i32>
  %v18 = stablehlo.reduce(%v9 init: %v17) applies stablehlo.add across dimensions = [1] : (tensor<260x300xi32>, tensor<i32>) -> tensor<260xi32>
  %v19 = stablehlo.reduce(%v16 init: %v17) applies stablehlo.add across dimensions = [1] : (tensor<260x300xi32>, tensor<i32>) -> tensor<260xi32>
  check.expect_eq %v18, %v19 : tensor<260xi32>
  func.return
}

// -----

// i32 [4, 130, 70], permutation [2, 0, 1]
func.func @reduce_3d() {
  %v1 = stablehlo.iota dim = 0 : tensor<4x130x70xi32>
  %v2 = stablehlo.constant dense<9100> : tensor<4x130x70xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<4x130x70xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<4x130x70xi32>
  %v5 = stablehlo.constant dense<70> : tensor<4x130x70xi32>
  %v6 = stablehlo.multiply %v4, %v5 : tensor<4x130x70xi32>
  %v7 = stablehlo.add %v3, %v6 : tensor<4x130x70xi32>
  %v8 = stablehlo.iota dim = 2 : tensor<4x130x70xi32>
  %v9 = stablehlo.add %v7, %v8 : tensor<4x130x70xi32>
  %v10 = stablehlo.constant dense<40503> : tensor<4x130x70xi32>
  %v11 = stablehlo.multiply %v9, %v10 : tensor<4x130x70xi32>
  %v12 = stablehlo.optimization_barrier %v11 : tensor<4x130x70xi32>
  %v13 = stablehlo.transpose %v12, dims = [2, 0, 1] : (tensor<4x130x70xi32>) -> tensor<70x4x130xi32>
  %v14 = stablehlo.iota dim = 0 : tensor<70x4x130xi32>
  %v15 = stablehlo.iota dim = 1 : tensor<70x4x130xi32>
  %v16 = stablehlo.constant dense<9100> : tensor<70x4x130xi32>
  %v17 = stablehlo.multiply %v15, %v16 : tensor<70x4x130xi32>
  %v18 = stablehlo.add %v14, %v17 : tensor<70x4x130xi32>
  %v19 = stablehlo.iota dim = 2 : tensor<70x4x130xi32>
  %v20 = stablehlo.constant dense<70> : tensor<70x4x130xi32>
  %v21 = stablehlo.multiply %v19, %v20 : tensor<70x4x130xi32>
  %v22 = stablehlo.add %v18, %v21 : tensor<70x4x130xi32>
  %v23 = stablehlo.constant dense<40503> : tensor<70x4x130xi32>
  %v24 = stablehlo.multiply %v22, %v23 : tensor<70x4x130xi32>
  %v25 = stablehlo.constant dense<0> : tensor<i32>
  %v26 = stablehlo.reduce(%v13 init: %v25) applies stablehlo.add across dimensions = [2] : (tensor<70x4x130xi32>, tensor<i32>) -> tensor<70x4xi32>
  %v27 = stablehlo.reduce(%v24 init: %v25) applies stablehlo.add across dimensions = [2] : (tensor<70x4x130xi32>, tensor<i32>) -> tensor<70x4xi32>
  check.expect_eq %v26, %v27 : tensor<70x4xi32>
  func.return
}
