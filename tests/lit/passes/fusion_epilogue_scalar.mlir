// A dot's epilogue fuses with it only if every op of the epilogue has a
// vector path in the cpu backend: an epilogue runs over the product after
// the GEMM wrote it, so a scalar one (a call per element) costs what a
// separate loop costs, and the fused kernel gains nothing.  f64 lgamma,
// bessel_i1e, f64 power and complex functions are such calls; the product
// then stays a plain dot_general and the epilogue a kLoop fusion.  f64 tanh
// and f32 power (inline, math_approx.c) fuse.  Both ways the results are
// the interpreter's.
// RUN: xlac opt --pass fusion --split-input-file %s | FileCheck %s
// RUN: xlac compare --random-inputs --split-input-file %s | FileCheck %s --check-prefix=CMP
// CMP-COUNT-5: max abs error {{(0|[0-9.]+e-(0[5-9]|[1-9][0-9]))}},

// CHECK-LABEL: func.func @main
// CHECK-NEXT: %[[D:[0-9]+]] = "stablehlo.dot_general"(%arg0, %arg1)
// CHECK-NEXT: "func.call"(%arg2, %[[D]]) {{.*}}kLoop
func.func @main(%x: tensor<8x16xf64>, %w: tensor<16x32xf64>, %b: tensor<32xf64>) -> tensor<8x32xf64> {
  %d = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<8x16xf64>, tensor<16x32xf64>) -> tensor<8x32xf64>
  %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<32xf64>) -> tensor<8x32xf64>
  %y = stablehlo.add %d, %bb : tensor<8x32xf64>
  %r = chlo.lgamma %y : tensor<8x32xf64> -> tensor<8x32xf64>
  return %r : tensor<8x32xf64>
}

// -----

// CHECK-LABEL: func.func @main
// CHECK-NEXT: %[[D:[0-9]+]] = "stablehlo.dot_general"(%arg0, %arg1)
// CHECK-NEXT: "func.call"(%[[D]]) {{.*}}kLoop
func.func @main(%x: tensor<8x16xf32>, %w: tensor<16x32xf32>) -> tensor<8x32xf32> {
  %d = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %e = stablehlo.exponential %d : tensor<8x32xf32>
  %r = chlo.bessel_i1e %e : tensor<8x32xf32> -> tensor<8x32xf32>
  return %r : tensor<8x32xf32>
}

// -----

// CHECK-LABEL: func.func @main
// CHECK-NEXT: %[[D:[0-9]+]] = "stablehlo.dot_general"(%arg0, %arg1)
// CHECK-NEXT: "func.call"(%[[D]]) {{.*}}kLoop
func.func @main(%x: tensor<8x16xf64>, %w: tensor<16x32xf64>) -> tensor<8x32xf64> {
  %d = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<8x16xf64>, tensor<16x32xf64>) -> tensor<8x32xf64>
  %a = stablehlo.abs %d : tensor<8x32xf64>
  %p = stablehlo.constant dense<1.5> : tensor<8x32xf64>
  %r = stablehlo.power %a, %p : tensor<8x32xf64>
  return %r : tensor<8x32xf64>
}

// -----

// CHECK-LABEL: func.func @main
// CHECK-NEXT: "func.call"(%arg0, %arg1) {{.*}}kOutput
// CHECK-NEXT: func.return
func.func @main(%x: tensor<8x16xf32>, %w: tensor<16x32xf32>) -> tensor<8x32xf32> {
  %d = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %a = stablehlo.abs %d : tensor<8x32xf32>
  %p = stablehlo.constant dense<1.5> : tensor<8x32xf32>
  %r = stablehlo.power %a, %p : tensor<8x32xf32>
  return %r : tensor<8x32xf32>
}

// -----

// CHECK-LABEL: func.func @main
// CHECK-NEXT: "func.call"(%arg0, %arg1) {{.*}}kOutput
// CHECK-NEXT: func.return
func.func @main(%x: tensor<8x16xf64>, %w: tensor<16x32xf64>) -> tensor<8x32xf64> {
  %d = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<8x16xf64>, tensor<16x32xf64>) -> tensor<8x32xf64>
  %r = stablehlo.tanh %d : tensor<8x32xf64>
  return %r : tensor<8x32xf64>
}
