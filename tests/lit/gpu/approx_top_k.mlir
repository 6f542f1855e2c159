// ApproxTopK (jax.lax.approx_max_k / approx_min_k) on the gpu backend: the
// exact top-k it becomes (passes/approx_top_k.c: a stable sort with the
// call's comparator, then a slice) against the reference interpreter, bit
// for bit, on random rows of 300 along either dimension, and by hand on
// rows of 5 on the SIMT harness only (the line testing XLAC_TEST_GPU):
// GPGPU-Sim does not finish a sort of rows of 5 (a plain stablehlo.sort of
// 6x5 neither; rows of 37 it does).
// XLAC-BACKENDS: gpu
// XLAC-SIMT: forward random
// RUN: %S/Inputs/sim.sh --check
// RUN: %S/Inputs/sim.sh xlac compare --backend=gpu --random-inputs --seed 7 --entry rows %s | FileCheck %s --check-prefix=ROWS
// ROWS-COUNT-4: result[{{[0-9]}}]: {{.*}}0 of {{[0-9]+}} elements differ
// ROWS: COMPARE name={{.*}} max_ulp=0
// RUN: if [ -n "${XLAC_TEST_GPU:-}" ]; then \
// RUN:   %S/Inputs/sim.sh xlac run --backend=gpu --entry small %s | FileCheck %s --check-prefix=SMALL; fi
// SMALL: result[0]: tensor<2x3xf32> = {{\[\[}}5, 5, 3], [9, 7, 0.5]]
// SMALL: result[1]: tensor<2x3xi32> = {{\[\[}}1, 3, 2], [4, 2, 3]]

func.func private @gt(%a: tensor<f32>, %b: tensor<f32>, %i: tensor<i32>, %j: tensor<i32>) -> tensor<i1> {
  %r = stablehlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
  stablehlo.return %r : tensor<i1>
}
func.func private @lt(%a: tensor<f32>, %b: tensor<f32>, %i: tensor<i32>, %j: tensor<i32>) -> tensor<i1> {
  %r = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
  stablehlo.return %r : tensor<i1>
}

func.func @rows(%x: tensor<6x300xf32>, %y: tensor<300x5xf32>) -> (tensor<6x8xf32>, tensor<6x8xi32>, tensor<256x5xf32>, tensor<256x5xi32>) {
  %c = stablehlo.constant dense<-1> : tensor<i32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %inf = stablehlo.constant dense<0x7F800000> : tensor<f32>
  %ix = stablehlo.iota dim = 1 : tensor<6x300xi32>
  %a:2 = stablehlo.custom_call @ApproxTopK(%x, %ix, %ninf, %c) {backend_config = "", called_computations = [@gt], mhlo.backend_config = {aggregate_to_topk = true, is_fallback = true, recall_target = 0.949999988 : f32, reduction_dim = 1 : i64, reduction_input_size_override = -1 : i64, top_k = 8 : i64}} : (tensor<6x300xf32>, tensor<6x300xi32>, tensor<f32>, tensor<i32>) -> (tensor<6x8xf32>, tensor<6x8xi32>)
  %iy = stablehlo.iota dim = 0 : tensor<300x5xi32>
  %b:2 = stablehlo.custom_call @ApproxTopK(%y, %iy, %inf, %c) {backend_config = "", called_computations = [@lt], mhlo.backend_config = {aggregate_to_topk = false, is_fallback = true, recall_target = 0.949999988 : f32, reduction_dim = 0 : i64, reduction_input_size_override = -1 : i64, top_k = 2 : i64}} : (tensor<300x5xf32>, tensor<300x5xi32>, tensor<f32>, tensor<i32>) -> (tensor<256x5xf32>, tensor<256x5xi32>)
  return %a#0, %a#1, %b#0, %b#1 : tensor<6x8xf32>, tensor<6x8xi32>, tensor<256x5xf32>, tensor<256x5xi32>
}

func.func @small() -> (tensor<2x3xf32>, tensor<2x3xi32>) {
  %x0 = stablehlo.constant dense<[[1.0, 5.0, 3.0, 5.0, -1.0], [0.0, -2.0, 7.0, 0.5, 9.0]]> : tensor<2x5xf32>
  %x = stablehlo.optimization_barrier %x0 : tensor<2x5xf32>
  %i = stablehlo.iota dim = 1 : tensor<2x5xi32>
  %c = stablehlo.constant dense<-1> : tensor<i32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %a:2 = stablehlo.custom_call @ApproxTopK(%x, %i, %ninf, %c) {backend_config = "", called_computations = [@gt], mhlo.backend_config = {aggregate_to_topk = true, is_fallback = true, recall_target = 0.949999988 : f32, reduction_dim = 1 : i64, reduction_input_size_override = -1 : i64, top_k = 3 : i64}} : (tensor<2x5xf32>, tensor<2x5xi32>, tensor<f32>, tensor<i32>) -> (tensor<2x3xf32>, tensor<2x3xi32>)
  return %a#0, %a#1 : tensor<2x3xf32>, tensor<2x3xi32>
}
