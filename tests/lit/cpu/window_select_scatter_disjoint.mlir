// select_and_scatter whose windows do not overlap (every stride at least
// the window's size: max pooling's gradient) runs on the pool, chunks of
// source rows, with the search along a row written for the vectorizer:
// each result element receives at most one source element, so the order
// of the scatters makes no difference and results are the interpreter's
// bits.  Compared with the interpreter on random inputs: NHWC 2x2 stride 2
// (the CNN's pooling), SAME padding on odd sizes, gaps between windows
// (stride 3 over 2x2), windows along the innermost dimension (stride 2,
// and padded there), rows longer than the search's 256-element block, a
// 1-D case, GT and LE selects, a max scatter, f64, i32 (ties) and bf16.
// RUN: xlac compare --random-inputs --split-input-file %s | FileCheck %s
// CHECK-COUNT-10: max_ulp=0
// The pooling gradient's kernels run on the pool: a fill, then the scatter.
// RUN: rm -rf %t && mkdir -p %t && xlac run --backend=cpu --random-inputs --xla_dump_to=%t %s --split-input-file > /dev/null
// RUN: cat %t/module_0000.*ir-no-opt.ll | FileCheck %s --check-prefix=IR
// IR: call void @xlacrt_parallel_for({{.*}}, i64 {{[0-9]+}}, ptr {{.*}}@kernel
// IR: call void @xlacrt_parallel_for({{.*}}, i64 {{[0-9]+}}, ptr {{.*}}@kernel

func.func @main(%x: tensor<16x32x32x32xf32>, %s: tensor<16x16x16x32xf32>) -> tensor<16x32x32x32xf32> {
  %i = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.select_and_scatter"(%x, %s, %i) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }, {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %m = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>} : (tensor<16x32x32x32xf32>, tensor<16x16x16x32xf32>, tensor<f32>) -> tensor<16x32x32x32xf32>
  return %r : tensor<16x32x32x32xf32>
}

// -----

// SAME padding: 7x7 pooled 2x2 stride 2 into 4x4, the last window half outside
func.func @main(%x: tensor<2x7x7x5xf32>, %s: tensor<2x4x4x5xf32>) -> tensor<2x7x7x5xf32> {
  %i = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.select_and_scatter"(%x, %s, %i) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }, {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %m = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>,
      padding = dense<[[0, 0], [0, 1], [0, 1], [0, 0]]> : tensor<4x2xi64>} : (tensor<2x7x7x5xf32>, tensor<2x4x4x5xf32>, tensor<f32>) -> tensor<2x7x7x5xf32>
  return %r : tensor<2x7x7x5xf32>
}

// -----

// gaps: 2x2 windows every 3 rows and columns (elements in no window keep
// the init value), GT (the last maximum), init 1.5
func.func @main(%x: tensor<3x8x8x4xf32>, %s: tensor<3x3x3x4xf32>) -> tensor<3x8x8x4xf32> {
  %i = stablehlo.constant dense<1.5> : tensor<f32>
  %r = "stablehlo.select_and_scatter"(%x, %s, %i) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = stablehlo.compare GT, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }, {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %m = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 3, 3, 1>} : (tensor<3x8x8x4xf32>, tensor<3x3x3x4xf32>, tensor<f32>) -> tensor<3x8x8x4xf32>
  return %r : tensor<3x8x8x4xf32>
}

// -----

// windows along the innermost dimension (NCHW pooling), LE (min pooling)
func.func @main(%x: tensor<2x3x10x12xf32>, %s: tensor<2x3x5x6xf32>) -> tensor<2x3x10x12xf32> {
  %i = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.select_and_scatter"(%x, %s, %i) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = stablehlo.compare LE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }, {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %m = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 1, 1, 2, 2>, window_strides = array<i64: 1, 1, 2, 2>} : (tensor<2x3x10x12xf32>, tensor<2x3x5x6xf32>, tensor<f32>) -> tensor<2x3x10x12xf32>
  return %r : tensor<2x3x10x12xf32>
}

// -----

// padded along the innermost dimension on both sides, 3-wide windows
// every 3, a max scatter
func.func @main(%x: tensor<4x11xf32>, %s: tensor<4x5xf32>) -> tensor<4x11xf32> {
  %i = stablehlo.constant dense<-2.0> : tensor<f32>
  %r = "stablehlo.select_and_scatter"(%x, %s, %i) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }, {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %m = stablehlo.maximum %a, %b : tensor<f32>
      stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 1, 3>, window_strides = array<i64: 1, 3>,
      padding = dense<[[0, 0], [2, 2]]> : tensor<2x2xi64>} : (tensor<4x11xf32>, tensor<4x5xf32>, tensor<f32>) -> tensor<4x11xf32>
  return %r : tensor<4x11xf32>
}

// -----

// rows of 600 channels: the search goes by blocks of 256
func.func @main(%x: tensor<2x4x4x600xf32>, %s: tensor<2x2x2x600xf32>) -> tensor<2x4x4x600xf32> {
  %i = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.select_and_scatter"(%x, %s, %i) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }, {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %m = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>} : (tensor<2x4x4x600xf32>, tensor<2x2x2x600xf32>, tensor<f32>) -> tensor<2x4x4x600xf32>
  return %r : tensor<2x4x4x600xf32>
}

// -----

// 1-D, the whole tensor one row
func.func @main(%x: tensor<9xf32>, %s: tensor<4xf32>) -> tensor<9xf32> {
  %i = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.select_and_scatter"(%x, %s, %i) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %c = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }, {
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %m = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 2>, window_strides = array<i64: 2>} : (tensor<9xf32>, tensor<4xf32>, tensor<f32>) -> tensor<9xf32>
  return %r : tensor<9xf32>
}

// -----

// f64
func.func @main(%x: tensor<2x6x6x3xf64>, %s: tensor<2x3x3x3xf64>) -> tensor<2x6x6x3xf64> {
  %i = stablehlo.constant dense<0.0> : tensor<f64>
  %r = "stablehlo.select_and_scatter"(%x, %s, %i) ({
    ^bb0(%a: tensor<f64>, %b: tensor<f64>):
      %c = stablehlo.compare GE, %a, %b, FLOAT : (tensor<f64>, tensor<f64>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }, {
    ^bb0(%a: tensor<f64>, %b: tensor<f64>):
      %m = stablehlo.add %a, %b : tensor<f64>
      stablehlo.return %m : tensor<f64>
  }) {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>} : (tensor<2x6x6x3xf64>, tensor<2x3x3x3xf64>, tensor<f64>) -> tensor<2x6x6x3xf64>
  return %r : tensor<2x6x6x3xf64>
}

// -----

// i32 operand of a few values (ties everywhere: GE keeps the first)
func.func @main(%x0: tensor<2x8x8x16xi32>, %s: tensor<2x4x4x16xi32>) -> tensor<2x8x8x16xi32> {
  %three = stablehlo.constant dense<3> : tensor<2x8x8x16xi32>
  %x = stablehlo.remainder %x0, %three : tensor<2x8x8x16xi32>
  %i = stablehlo.constant dense<0> : tensor<i32>
  %r = "stablehlo.select_and_scatter"(%x, %s, %i) ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %c = stablehlo.compare GE, %a, %b, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }, {
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %m = stablehlo.add %a, %b : tensor<i32>
      stablehlo.return %m : tensor<i32>
  }) {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>} : (tensor<2x8x8x16xi32>, tensor<2x4x4x16xi32>, tensor<i32>) -> tensor<2x8x8x16xi32>
  return %r : tensor<2x8x8x16xi32>
}

// -----

// bf16
func.func @main(%x: tensor<2x4x4x8xbf16>, %s: tensor<2x2x2x8xbf16>) -> tensor<2x4x4x8xbf16> {
  %i = stablehlo.constant dense<0.0> : tensor<bf16>
  %r = "stablehlo.select_and_scatter"(%x, %s, %i) ({
    ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
      %c = stablehlo.compare GE, %a, %b, FLOAT : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
  }, {
    ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
      %m = stablehlo.add %a, %b : tensor<bf16>
      stablehlo.return %m : tensor<bf16>
  }) {window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>} : (tensor<2x4x4x8xbf16>, tensor<2x2x2x8xbf16>, tensor<bf16>) -> tensor<2x4x4x8xbf16>
  return %r : tensor<2x4x4x8xbf16>
}
