// Which reduce_windows the cpu backend computes along one axis in one pass
// (the kernel's loops are named scan*), seen in the LLVM IR it dumps;
// window_scan.mlir checks the results.
// RUN: rm -rf %t && xlac run --backend=cpu --random-inputs --split-input-file --xla_dump_to=%t %s > /dev/null
// RUN: FileCheck %s --check-prefix=ROWS < %t/module_0000.main.ir-no-opt.ll
// RUN: FileCheck %s --check-prefix=INNER < %t/module_0001.main.ir-no-opt.ll
// RUN: FileCheck %s --check-prefix=ROWS < %t/module_0002.main.ir-no-opt.ll
// RUN: FileCheck %s --check-prefix=ROWS < %t/module_0003.main.ir-no-opt.ll
// RUN: FileCheck %s --check-prefix=NONE < %t/module_0004.main.ir-no-opt.ll
// RUN: FileCheck %s --check-prefix=NONE < %t/module_0005.main.ir-no-opt.ll
// ROWS: {{^}}scan.rows:
// INNER: {{^}}scan.inner:
// NONE-NOT: {{^}}scan

// cumsum along the last axis: rows advance in groups
func.func @main(%x: tensor<16x300xf32>) -> tensor<16x300xf32> {
  %i = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %i) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 1, 300>, padding = dense<[[0, 0], [299, 0]]> : tensor<2x2xi64>} : (tensor<16x300xf32>, tensor<f32>) -> tensor<16x300xf32>
  return %r : tensor<16x300xf32>
}

// -----

// along axis 0: the inner loop runs across each row
func.func @main(%x: tensor<300x16xf32>) -> tensor<300x16xf32> {
  %i = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %i) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 300, 1>, padding = dense<[[299, 0], [0, 0]]> : tensor<2x2xi64>} : (tensor<300x16xf32>, tensor<f32>) -> tensor<300x16xf32>
  return %r : tensor<300x16xf32>
}

// -----

// reverse cummax
func.func @main(%x: tensor<4x9x50xi32>) -> tensor<4x9x50xi32> {
  %i = stablehlo.constant dense<-2147483648> : tensor<i32>
  %r = "stablehlo.reduce_window"(%x, %i) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.maximum %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {window_dimensions = array<i64: 1, 1, 50>, padding = dense<[[0, 0], [0, 0], [0, 49]]> : tensor<3x2xi64>} : (tensor<4x9x50xi32>, tensor<i32>) -> tensor<4x9x50xi32>
  return %r : tensor<4x9x50xi32>
}

// -----

// an integer sliding sum
func.func @main(%x: tensor<7x100xi32>) -> tensor<7x100xi32> {
  %i = stablehlo.constant dense<0> : tensor<i32>
  %r = "stablehlo.reduce_window"(%x, %i) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {window_dimensions = array<i64: 1, 16>, padding = dense<[[0, 0], [5, 10]]> : tensor<2x2xi64>} : (tensor<7x100xi32>, tensor<i32>) -> tensor<7x100xi32>
  return %r : tensor<7x100xi32>
}

// -----

// a float sliding sum is not incremental
func.func @main(%x: tensor<7x100xf32>) -> tensor<7x100xf32> {
  %i = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %i) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 1, 16>, padding = dense<[[0, 0], [5, 10]]> : tensor<2x2xi64>} : (tensor<7x100xf32>, tensor<f32>) -> tensor<7x100xf32>
  return %r : tensor<7x100xf32>
}

// -----

// stride 2
func.func @main(%x: tensor<6x30xf32>) -> tensor<6x15xf32> {
  %i = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %i) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 1, 30>, padding = dense<[[0, 0], [29, 0]]> : tensor<2x2xi64>, window_strides = array<i64: 1, 2>} : (tensor<6x30xf32>, tensor<f32>) -> tensor<6x15xf32>
  return %r : tensor<6x15xf32>
}
