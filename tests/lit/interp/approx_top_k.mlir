// RUN: xlac run --split-input-file %s

// XLA's ApproxTopK custom call (jax.lax.approx_max_k / approx_min_k, as JAX
// 0.10 writes it: the operand and an iota, then their initial values) is an
// exact top-k: the inputs sorted along reduction_dim by the comparator,
// ties in index order, the first top_k kept.  Expected values by hand.
func.func private @gt(%a: tensor<f32>, %b: tensor<f32>, %i: tensor<i32>, %j: tensor<i32>) -> tensor<i1> {
  %r = stablehlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
  stablehlo.return %r : tensor<i1>
}

func.func @main() {
  %x = stablehlo.constant dense<[[1.0, 5.0, 3.0, 5.0, -1.0], [0.0, -2.0, 7.0, 0.5, 9.0], [-4.0, -3.0, -2.0, -1.0, -5.0]]> : tensor<3x5xf32>
  %iota = stablehlo.iota dim = 1 : tensor<3x5xi32>
  %c = stablehlo.constant dense<-1> : tensor<i32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %v:2 = stablehlo.custom_call @ApproxTopK(%x, %iota, %ninf, %c) {backend_config = "", called_computations = [@gt], mhlo.backend_config = {aggregate_to_topk = true, is_fallback = true, recall_target = 0.949999988 : f32, reduction_dim = 1 : i64, reduction_input_size_override = -1 : i64, top_k = 3 : i64}} : (tensor<3x5xf32>, tensor<3x5xi32>, tensor<f32>, tensor<i32>) -> (tensor<3x3xf32>, tensor<3x3xi32>)
  check.expect_eq_const %v#0, dense<[[5.0, 5.0, 3.0], [9.0, 7.0, 0.5], [-1.0, -2.0, -3.0]]> : tensor<3x3xf32>
  check.expect_eq_const %v#1, dense<[[1, 3, 2], [4, 2, 3], [3, 2, 1]]> : tensor<3x3xi32>
  func.return
}

// -----

// approx_min_k along dimension 0, with aggregate_to_topk false: the results
// keep as many as their type asks for (JAX sizes them from the recall
// target), all of them exact and in order; the parameters in a dictionary
// backend_config.
func.func private @lt(%a: tensor<f32>, %b: tensor<f32>, %i: tensor<i32>, %j: tensor<i32>) -> tensor<i1> {
  %r = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
  stablehlo.return %r : tensor<i1>
}

func.func @main() {
  %x = stablehlo.constant dense<[[4.0, 0.0], [2.0, 1.0], [8.0, -1.0], [2.0, 3.0], [-6.0, 2.0]]> : tensor<5x2xf32>
  %iota = stablehlo.iota dim = 0 : tensor<5x2xi32>
  %c = stablehlo.constant dense<-1> : tensor<i32>
  %inf = stablehlo.constant dense<0x7F800000> : tensor<f32>
  %v:2 = stablehlo.custom_call @ApproxTopK(%x, %iota, %inf, %c) {called_computations = [@lt], backend_config = {aggregate_to_topk = false, recall_target = 0.9 : f32, reduction_dim = 0 : i64, top_k = 2 : i64}, api_version = 4 : i32} : (tensor<5x2xf32>, tensor<5x2xi32>, tensor<f32>, tensor<i32>) -> (tensor<4x2xf32>, tensor<4x2xi32>)
  check.expect_eq_const %v#0, dense<[[-6.0, -1.0], [2.0, 0.0], [2.0, 1.0], [4.0, 2.0]]> : tensor<4x2xf32>
  check.expect_eq_const %v#1, dense<[[4, 2], [1, 0], [3, 1], [0, 4]]> : tensor<4x2xi32>
  func.return
}

// -----

// One input (values alone), bf16, rank 3, the middle dimension.
func.func private @gt(%a: tensor<bf16>, %b: tensor<bf16>) -> tensor<i1> {
  %r = stablehlo.compare GT, %a, %b : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
  stablehlo.return %r : tensor<i1>
}

func.func @main() {
  %x = stablehlo.constant dense<[[[1.0, 2.0], [3.0, -1.0], [2.0, 4.0]]]> : tensor<1x3x2xbf16>
  %ninf = stablehlo.constant dense<0xFF80> : tensor<bf16>
  %v = stablehlo.custom_call @ApproxTopK(%x, %ninf) {called_computations = [@gt], mhlo.backend_config = {reduction_dim = 1 : i64, top_k = 1 : i64}} : (tensor<1x3x2xbf16>, tensor<bf16>) -> tensor<1x1x2xbf16>
  check.expect_eq_const %v, dense<[[[3.0, 4.0]]]> : tensor<1x1x2xbf16>
  func.return
}
