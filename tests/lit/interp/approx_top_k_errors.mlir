// ApproxTopK calls whose parameters do not fit their operands are errors at
// the call, on every backend, before anything runs.
// RUN: not xlac run --random-inputs --split-input-file %s 2>&1 | FileCheck %s

func.func private @gt(%a: tensor<f32>, %b: tensor<f32>, %i: tensor<i32>, %j: tensor<i32>) -> tensor<i1> {
  %r = stablehlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
  stablehlo.return %r : tensor<i1>
}
func.func @main(%x: tensor<4x8xf32>, %i: tensor<4x8xi32>) -> (tensor<4x2xf32>, tensor<4x2xi32>) {
  %c = stablehlo.constant dense<-1> : tensor<i32>
  %f = stablehlo.constant dense<0.0> : tensor<f32>
  // CHECK: approx_top_k_errors.mlir:[[@LINE+1]]:{{[0-9]+}}: error: custom_call @ApproxTopK: reduction_dim 2 is not a dimension of its rank-2 inputs
  %v:2 = stablehlo.custom_call @ApproxTopK(%x, %i, %f, %c) {called_computations = [@gt], mhlo.backend_config = {reduction_dim = 2 : i64, top_k = 2 : i64}} : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<4x2xf32>, tensor<4x2xi32>)
  return %v#0, %v#1 : tensor<4x2xf32>, tensor<4x2xi32>
}

// -----

func.func private @gt(%a: tensor<f32>, %b: tensor<f32>, %i: tensor<i32>, %j: tensor<i32>) -> tensor<i1> {
  %r = stablehlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
  stablehlo.return %r : tensor<i1>
}
func.func @main(%x: tensor<4x8xf32>, %i: tensor<4x8xi32>) -> (tensor<4x2xf32>, tensor<4x2xi32>) {
  %c = stablehlo.constant dense<-1> : tensor<i32>
  %f = stablehlo.constant dense<0.0> : tensor<f32>
  // CHECK: approx_top_k_errors.mlir:[[@LINE+1]]:{{[0-9]+}}: error: custom_call @ApproxTopK: top_k 9 is not in [0, 8], the size of reduction dimension 1
  %v:2 = stablehlo.custom_call @ApproxTopK(%x, %i, %f, %c) {called_computations = [@gt], mhlo.backend_config = {reduction_dim = 1 : i64, top_k = 9 : i64}} : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<4x2xf32>, tensor<4x2xi32>)
  return %v#0, %v#1 : tensor<4x2xf32>, tensor<4x2xi32>
}

// -----

func.func private @gt(%a: tensor<f32>, %b: tensor<f32>, %i: tensor<i32>, %j: tensor<i32>) -> tensor<i1> {
  %r = stablehlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
  stablehlo.return %r : tensor<i1>
}
func.func @main(%x: tensor<4x8xf32>, %i: tensor<4x8xi32>) -> (tensor<4x2xf32>, tensor<4x2xi32>) {
  %c = stablehlo.constant dense<-1> : tensor<i32>
  %f = stablehlo.constant dense<0.0> : tensor<f32>
  // CHECK: approx_top_k_errors.mlir:[[@LINE+1]]:{{[0-9]+}}: error: custom_call @ApproxTopK: its results hold 2 elements along the reduction dimension; with aggregate_to_topk true that is top_k, 3
  %v:2 = stablehlo.custom_call @ApproxTopK(%x, %i, %f, %c) {called_computations = [@gt], mhlo.backend_config = {reduction_dim = 1 : i64, top_k = 3 : i64}} : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<4x2xf32>, tensor<4x2xi32>)
  return %v#0, %v#1 : tensor<4x2xf32>, tensor<4x2xi32>
}

// -----

func.func @main(%x: tensor<4x8xf32>, %i: tensor<4x8xi32>) -> (tensor<4x2xf32>, tensor<4x2xi32>) {
  %c = stablehlo.constant dense<-1> : tensor<i32>
  %f = stablehlo.constant dense<0.0> : tensor<f32>
  // CHECK: approx_top_k_errors.mlir:[[@LINE+1]]:{{[0-9]+}}: error: custom_call @ApproxTopK: called_computations must name one comparator taking a pair of scalars of each input's element type (4 arguments) and returning tensor<i1>
  %v:2 = stablehlo.custom_call @ApproxTopK(%x, %i, %f, %c) {mhlo.backend_config = {reduction_dim = 1 : i64, top_k = 2 : i64}} : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<4x2xf32>, tensor<4x2xi32>)
  return %v#0, %v#1 : tensor<4x2xf32>, tensor<4x2xi32>
}

// -----

func.func private @gt(%a: tensor<f32>, %b: tensor<f32>, %i: tensor<i32>, %j: tensor<i32>) -> tensor<i1> {
  %r = stablehlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
  stablehlo.return %r : tensor<i1>
}
func.func @main(%x: tensor<4x8xf32>, %i: tensor<4x8xi32>) -> (tensor<4x2xf32>, tensor<4x2xi32>) {
  %c = stablehlo.constant dense<-1> : tensor<i32>
  %f = stablehlo.constant dense<0.0> : tensor<f32>
  // CHECK: approx_top_k_errors.mlir:[[@LINE+1]]:{{[0-9]+}}: error: custom_call @ApproxTopK: its parameters (top_k, reduction_dim, ...) are read from a dictionary mhlo.backend_config or backend_config, and it has none
  %v:2 = stablehlo.custom_call @ApproxTopK(%x, %i, %f, %c) {called_computations = [@gt], backend_config = "top_k=2"} : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<4x2xf32>, tensor<4x2xi32>)
  return %v#0, %v#1 : tensor<4x2xf32>, tensor<4x2xi32>
}

// -----

func.func private @gt(%a: tensor<f32>, %b: tensor<f32>, %i: tensor<i32>, %j: tensor<i32>) -> tensor<i1> {
  %r = stablehlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
  stablehlo.return %r : tensor<i1>
}
func.func @main(%x: tensor<4x8xf32>, %i: tensor<4x8xi32>) -> (tensor<4x2xf32>, tensor<4x2xi32>) {
  %c = stablehlo.constant dense<-1> : tensor<i32>
  // CHECK: approx_top_k_errors.mlir:[[@LINE+1]]:{{[0-9]+}}: error: custom_call @ApproxTopK: operand #2, the initial value of input #0, must be a scalar of its element type
  %v:2 = stablehlo.custom_call @ApproxTopK(%x, %i, %c, %c) {called_computations = [@gt], mhlo.backend_config = {recall_target = 0.5 : f32, reduction_dim = 1 : i64, top_k = 2 : i64}} : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<i32>, tensor<i32>) -> (tensor<4x2xf32>, tensor<4x2xi32>)
  return %v#0, %v#1 : tensor<4x2xf32>, tensor<4x2xi32>
}

// -----

func.func private @gt(%a: tensor<f32>, %b: tensor<f32>, %i: tensor<i32>, %j: tensor<i32>) -> tensor<i1> {
  %r = stablehlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
  stablehlo.return %r : tensor<i1>
}
func.func @main(%x: tensor<4x8xf32>, %i: tensor<4x8xi32>) -> (tensor<4x2xf32>, tensor<4x2xi32>) {
  %c = stablehlo.constant dense<-1> : tensor<i32>
  %f = stablehlo.constant dense<0.0> : tensor<f32>
  // CHECK: approx_top_k_errors.mlir:[[@LINE+1]]:{{[0-9]+}}: error: custom_call @ApproxTopK: recall_target 1.5 is not in (0, 1]
  %v:2 = stablehlo.custom_call @ApproxTopK(%x, %i, %f, %c) {called_computations = [@gt], mhlo.backend_config = {recall_target = 1.5 : f32, reduction_dim = 1 : i64, top_k = 2 : i64}} : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<4x2xf32>, tensor<4x2xi32>)
  return %v#0, %v#1 : tensor<4x2xf32>, tensor<4x2xi32>
}
