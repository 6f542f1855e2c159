// reduce_window along one axis on the cpu backend.  jnp.cumsum, cumprod,
// cummax and cummin lower to a window spanning the whole axis with padding
// (N - 1, 0) (reverse: (0, N - 1)); these run as one pass per row.  Forward
// scans combine in the interpreter's order and match it exactly; reverse
// scans are exact for integers and for max/min, within rounding for float
// sums.  Windows that only look like scans (another padding, stride or
// dilation, an init that is not idempotent) must still be right.
// RUN: xlac compare --random-inputs --split-input-file %s | FileCheck %s
// RUN: xlac compare --random-inputs --split-input-file --threads=1 %s | FileCheck %s

// jnp.cumsum along the last axis of a matrix: a forward scan, the
// interpreter's order, so identical.  37 rows: groups of rows and a rest.
func.func @main(%x: tensor<37x300xf32>) -> tensor<37x300xf32> {
  %i = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %i) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 1, 300>, padding = dense<[[0, 0], [299, 0]]> : tensor<2x2xi64>} : (tensor<37x300xf32>, tensor<f32>) -> tensor<37x300xf32>
  return %r : tensor<37x300xf32>
}

// CHECK: COMPARE {{.*}} max_ulp=0{{$}}

// -----

// Along axis 0: the inner loop runs across the rows' 37 contiguous elements.
func.func @main(%x: tensor<300x37xf32>) -> tensor<300x37xf32> {
  %i = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %i) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 300, 1>, padding = dense<[[299, 0], [0, 0]]> : tensor<2x2xi64>} : (tensor<300x37xf32>, tensor<f32>) -> tensor<300x37xf32>
  return %r : tensor<300x37xf32>
}

// CHECK: COMPARE {{.*}} max_ulp=0{{$}}

// -----

// rank 1, f64
func.func @main(%x: tensor<1000xf64>) -> tensor<1000xf64> {
  %i = stablehlo.constant dense<0.0> : tensor<f64>
  %r = "stablehlo.reduce_window"(%x, %i) ({
  ^bb0(%a: tensor<f64>, %b: tensor<f64>):
    %s = stablehlo.add %a, %b : tensor<f64>
    stablehlo.return %s : tensor<f64>
  }) {window_dimensions = array<i64: 1000>, padding = dense<[[999, 0]]> : tensor<1x2xi64>} : (tensor<1000xf64>, tensor<f64>) -> tensor<1000xf64>
  return %r : tensor<1000xf64>
}

// CHECK: COMPARE {{.*}} max_ulp=0{{$}}

// -----

// rank 3, the middle axis; init -0.0
func.func @main(%x: tensor<3x50x20xf32>) -> tensor<3x50x20xf32> {
  %i = stablehlo.constant dense<-0.0> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %i) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 1, 50, 1>, padding = dense<[[0, 0], [49, 0], [0, 0]]> : tensor<3x2xi64>} : (tensor<3x50x20xf32>, tensor<f32>) -> tensor<3x50x20xf32>
  return %r : tensor<3x50x20xf32>
}

// CHECK: COMPARE {{.*}} max_ulp=0{{$}}

// -----

// Two chunks of rows: 64 rows in groups, then 3 rows one by one.
func.func @main(%x: tensor<67x1000xf32>) -> tensor<67x1000xf32> {
  %i = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %i) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 1, 1000>, padding = dense<[[0, 0], [999, 0]]> : tensor<2x2xi64>} : (tensor<67x1000xf32>, tensor<f32>) -> tensor<67x1000xf32>
  return %r : tensor<67x1000xf32>
}

// CHECK: COMPARE {{.*}} max_ulp=0{{$}}

// -----

// Axis 0 of a tall matrix: chunks of 64 columns (64, then 36).
func.func @main(%x: tensor<2000x100xf32>) -> tensor<2000x100xf32> {
  %i = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %i) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 2000, 1>, padding = dense<[[1999, 0], [0, 0]]> : tensor<2x2xi64>} : (tensor<2000x100xf32>, tensor<f32>) -> tensor<2000x100xf32>
  return %r : tensor<2000x100xf32>
}

// CHECK: COMPARE {{.*}} max_ulp=0{{$}}

// -----

// Reverse scans (padding after): integers are exact in any order.
func.func @main(%x: tensor<4x5x67xi32>) -> tensor<4x5x67xi32> {
  %i = stablehlo.constant dense<0> : tensor<i32>
  %r = "stablehlo.reduce_window"(%x, %i) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {window_dimensions = array<i64: 1, 1, 67>, padding = dense<[[0, 0], [0, 0], [0, 66]]> : tensor<3x2xi64>} : (tensor<4x5x67xi32>, tensor<i32>) -> tensor<4x5x67xi32>
  return %r : tensor<4x5x67xi32>
}

// CHECK: COMPARE {{.*}} max_ulp=0{{$}}

// -----

// reverse, axis 0 of rank 3
func.func @main(%x: tensor<40x3x17xi64>) -> tensor<40x3x17xi64> {
  %i = stablehlo.constant dense<0> : tensor<i64>
  %r = "stablehlo.reduce_window"(%x, %i) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %s = stablehlo.add %a, %b : tensor<i64>
    stablehlo.return %s : tensor<i64>
  }) {window_dimensions = array<i64: 40, 1, 1>, padding = dense<[[0, 39], [0, 0], [0, 0]]> : tensor<3x2xi64>} : (tensor<40x3x17xi64>, tensor<i64>) -> tensor<40x3x17xi64>
  return %r : tensor<40x3x17xi64>
}

// CHECK: COMPARE {{.*}} max_ulp=0{{$}}

// -----

// A reverse float scan sums from the end of the axis instead of the
// interpreter's left-to-right windows: equal up to rounding (|error| < 1e-4
// for 300 terms in [-1, 1)).
func.func @main(%x: tensor<2x300xf32>) -> tensor<2x300xf32> {
  %i = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %i) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 1, 300>, padding = dense<[[0, 0], [0, 299]]> : tensor<2x2xi64>} : (tensor<2x300xf32>, tensor<f32>) -> tensor<2x300xf32>
  return %r : tensor<2x300xf32>
}

// CHECK: result[0]: f32, max abs error {{0|[0-9.]+e-(0[5-9]|[1-9][0-9])}},
// CHECK: COMPARE

// -----

// The same on integers in [-8, 8] (inputs times 8, rounded): every partial
// sum is exact, so the order does not matter.
func.func @main(%x: tensor<300x5xf32>) -> tensor<300x5xf32> {
  %e = stablehlo.constant dense<8.0> : tensor<300x5xf32>
  %m = stablehlo.multiply %x, %e : tensor<300x5xf32>
  %y = stablehlo.round_nearest_even %m : tensor<300x5xf32>
  %i = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.reduce_window"(%y, %i) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 300, 1>, padding = dense<[[0, 299], [0, 0]]> : tensor<2x2xi64>} : (tensor<300x5xf32>, tensor<f32>) -> tensor<300x5xf32>
  return %r : tensor<300x5xf32>
}

// CHECK: COMPARE {{.*}} max_ulp=0{{$}}

// -----

// cumprod
func.func @main(%x: tensor<10x24xf32>) -> tensor<10x24xf32> {
  %i = stablehlo.constant dense<1.0> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %i) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.multiply %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 1, 24>, padding = dense<[[0, 0], [23, 0]]> : tensor<2x2xi64>} : (tensor<10x24xf32>, tensor<f32>) -> tensor<10x24xf32>
  return %r : tensor<10x24xf32>
}

// CHECK: COMPARE {{.*}} max_ulp=0{{$}}

// -----

// reverse cumprod on integers (wrapping)
func.func @main(%x: tensor<33x9xi32>) -> tensor<33x9xi32> {
  %i = stablehlo.constant dense<1> : tensor<i32>
  %r = "stablehlo.reduce_window"(%x, %i) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.multiply %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {window_dimensions = array<i64: 33, 1>, padding = dense<[[0, 32], [0, 0]]> : tensor<2x2xi64>} : (tensor<33x9xi32>, tensor<i32>) -> tensor<33x9xi32>
  return %r : tensor<33x9xi32>
}

// CHECK: COMPARE {{.*}} max_ulp=0{{$}}

// -----

// reverse cummax
func.func @main(%x: tensor<13x100xf32>) -> tensor<13x100xf32> {
  %i = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %i) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 1, 100>, padding = dense<[[0, 0], [0, 99]]> : tensor<2x2xi64>} : (tensor<13x100xf32>, tensor<f32>) -> tensor<13x100xf32>
  return %r : tensor<13x100xf32>
}

// CHECK: COMPARE {{.*}} max_ulp=0{{$}}

// -----

// cummin, bf16
func.func @main(%x: tensor<64x40xbf16>) -> tensor<64x40xbf16> {
  %i = stablehlo.constant dense<0x7F80> : tensor<bf16>
  %r = "stablehlo.reduce_window"(%x, %i) ({
  ^bb0(%a: tensor<bf16>, %b: tensor<bf16>):
    %s = stablehlo.minimum %a, %b : tensor<bf16>
    stablehlo.return %s : tensor<bf16>
  }) {window_dimensions = array<i64: 64, 1>, padding = dense<[[63, 0], [0, 0]]> : tensor<2x2xi64>} : (tensor<64x40xbf16>, tensor<bf16>) -> tensor<64x40xbf16>
  return %r : tensor<64x40xbf16>
}

// CHECK: COMPARE {{.*}} max_ulp=0{{$}}

// -----

// cumsum in f16, rounded after every add
func.func @main(%x: tensor<8x200xf16>) -> tensor<8x200xf16> {
  %i = stablehlo.constant dense<0.0> : tensor<f16>
  %r = "stablehlo.reduce_window"(%x, %i) ({
  ^bb0(%a: tensor<f16>, %b: tensor<f16>):
    %s = stablehlo.add %a, %b : tensor<f16>
    stablehlo.return %s : tensor<f16>
  }) {window_dimensions = array<i64: 1, 200>, padding = dense<[[0, 0], [199, 0]]> : tensor<2x2xi64>} : (tensor<8x200xf16>, tensor<f16>) -> tensor<8x200xf16>
  return %r : tensor<8x200xf16>
}

// CHECK: COMPARE {{.*}} max_ulp=0{{$}}

// -----

// cumulative or of booleans
func.func @main(%x: tensor<5x70xi1>) -> tensor<5x70xi1> {
  %i = stablehlo.constant dense<false> : tensor<i1>
  %r = "stablehlo.reduce_window"(%x, %i) ({
  ^bb0(%a: tensor<i1>, %b: tensor<i1>):
    %s = stablehlo.add %a, %b : tensor<i1>
    stablehlo.return %s : tensor<i1>
  }) {window_dimensions = array<i64: 1, 70>, padding = dense<[[0, 0], [69, 0]]> : tensor<2x2xi64>} : (tensor<5x70xi1>, tensor<i1>) -> tensor<5x70xi1>
  return %r : tensor<5x70xi1>
}

// CHECK: COMPARE {{.*}} max_ulp=0{{$}}

// -----

// reverse cummax, unsigned
func.func @main(%x: tensor<6x30xui8>) -> tensor<6x30xui8> {
  %i = stablehlo.constant dense<0> : tensor<ui8>
  %r = "stablehlo.reduce_window"(%x, %i) ({
  ^bb0(%a: tensor<ui8>, %b: tensor<ui8>):
    %s = stablehlo.maximum %a, %b : tensor<ui8>
    stablehlo.return %s : tensor<ui8>
  }) {window_dimensions = array<i64: 1, 30>, padding = dense<[[0, 0], [0, 29]]> : tensor<2x2xi64>} : (tensor<6x30xui8>, tensor<ui8>) -> tensor<6x30xui8>
  return %r : tensor<6x30xui8>
}

// CHECK: COMPARE {{.*}} max_ulp=0{{$}}

// -----

// a window longer than the axis (40 over 30)
func.func @main(%x: tensor<6x30xf32>) -> tensor<6x30xf32> {
  %i = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %i) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 1, 40>, padding = dense<[[0, 0], [39, 0]]> : tensor<2x2xi64>} : (tensor<6x30xf32>, tensor<f32>) -> tensor<6x30xf32>
  return %r : tensor<6x30xf32>
}

// CHECK: COMPARE {{.*}} max_ulp=0{{$}}

// -----

// An init that is not the identity but combines with itself to itself:
// max(0.5, ...) runs first in every window, forward and reverse.
func.func @main(%x: tensor<6x30xf32>) -> tensor<6x30xf32> {
  %i = stablehlo.constant dense<0.5> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %i) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 1, 30>, padding = dense<[[0, 0], [29, 0]]> : tensor<2x2xi64>} : (tensor<6x30xf32>, tensor<f32>) -> tensor<6x30xf32>
  return %r : tensor<6x30xf32>
}

// CHECK: COMPARE {{.*}} max_ulp=0{{$}}

// -----

func.func @main(%x: tensor<6x30xf32>) -> tensor<6x30xf32> {
  %i = stablehlo.constant dense<0.5> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %i) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 6, 1>, padding = dense<[[0, 5], [0, 0]]> : tensor<2x2xi64>} : (tensor<6x30xf32>, tensor<f32>) -> tensor<6x30xf32>
  return %r : tensor<6x30xf32>
}

// CHECK: COMPARE {{.*}} max_ulp=0{{$}}

// -----

// A non-idempotent init (1 + 1 != 1): the padding counts, so the window
// kernel runs.
func.func @main(%x: tensor<6x30xf32>) -> tensor<6x30xf32> {
  %i = stablehlo.constant dense<1.0> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %i) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 1, 30>, padding = dense<[[0, 0], [29, 0]]> : tensor<2x2xi64>} : (tensor<6x30xf32>, tensor<f32>) -> tensor<6x30xf32>
  return %r : tensor<6x30xf32>
}

// CHECK: COMPARE {{.*}} max_ulp=0{{$}}

// -----

// the same, reverse, integers
func.func @main(%x: tensor<6x30xi32>) -> tensor<6x30xi32> {
  %i = stablehlo.constant dense<3> : tensor<i32>
  %r = "stablehlo.reduce_window"(%x, %i) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {window_dimensions = array<i64: 1, 30>, padding = dense<[[0, 0], [0, 29]]> : tensor<2x2xi64>} : (tensor<6x30xi32>, tensor<i32>) -> tensor<6x30xi32>
  return %r : tensor<6x30xi32>
}

// CHECK: COMPARE {{.*}} max_ulp=0{{$}}

// -----

// Shorter windows are not scans: float sums keep the window kernel.
func.func @main(%x: tensor<6x30xf32>) -> tensor<6x30xf32> {
  %i = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %i) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 1, 29>, padding = dense<[[0, 0], [28, 0]]> : tensor<2x2xi64>} : (tensor<6x30xf32>, tensor<f32>) -> tensor<6x30xf32>
  return %r : tensor<6x30xf32>
}

// CHECK: COMPARE {{.*}} max_ulp=0{{$}}

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

// CHECK: COMPARE {{.*}} max_ulp=0{{$}}

// -----

// base dilation
func.func @main(%x: tensor<6x30xf32>) -> tensor<6x59xf32> {
  %i = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %i) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 1, 30>, padding = dense<[[0, 0], [29, 0]]> : tensor<2x2xi64>, base_dilations = array<i64: 1, 2>} : (tensor<6x30xf32>, tensor<f32>) -> tensor<6x59xf32>
  return %r : tensor<6x59xf32>
}

// CHECK: COMPARE {{.*}} max_ulp=0{{$}}

// -----

// padding split (28, 1)
func.func @main(%x: tensor<6x30xf32>) -> tensor<6x30xf32> {
  %i = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %i) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {window_dimensions = array<i64: 1, 30>, padding = dense<[[0, 0], [28, 1]]> : tensor<2x2xi64>} : (tensor<6x30xf32>, tensor<f32>) -> tensor<6x30xf32>
  return %r : tensor<6x30xf32>
}

// CHECK: COMPARE {{.*}} max_ulp=0{{$}}

// -----

// Integer sliding sums over long windows run incrementally (add the entering
// element, subtract the leaving one), exact with wrapping arithmetic.
func.func @main(%x: tensor<7x100xi32>) -> tensor<7x100xi32> {
  %i = stablehlo.constant dense<0> : tensor<i32>
  %r = "stablehlo.reduce_window"(%x, %i) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {window_dimensions = array<i64: 1, 16>, padding = dense<[[0, 0], [5, 10]]> : tensor<2x2xi64>} : (tensor<7x100xi32>, tensor<i32>) -> tensor<7x100xi32>
  return %r : tensor<7x100xi32>
}

// CHECK: COMPARE {{.*}} max_ulp=0{{$}}

// -----

// along axis 0, no padding
func.func @main(%x: tensor<100x7xi32>) -> tensor<81x7xi32> {
  %i = stablehlo.constant dense<0> : tensor<i32>
  %r = "stablehlo.reduce_window"(%x, %i) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {window_dimensions = array<i64: 20, 1>, padding = dense<[[0, 0], [0, 0]]> : tensor<2x2xi64>} : (tensor<100x7xi32>, tensor<i32>) -> tensor<81x7xi32>
  return %r : tensor<81x7xi32>
}

// CHECK: COMPARE {{.*}} max_ulp=0{{$}}

// -----

// a window longer than the axis, padded
func.func @main(%x: tensor<3x40xi64>) -> tensor<3x17xi64> {
  %i = stablehlo.constant dense<0> : tensor<i64>
  %r = "stablehlo.reduce_window"(%x, %i) ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %s = stablehlo.add %a, %b : tensor<i64>
    stablehlo.return %s : tensor<i64>
  }) {window_dimensions = array<i64: 1, 42>, padding = dense<[[0, 0], [10, 8]]> : tensor<2x2xi64>} : (tensor<3x40xi64>, tensor<i64>) -> tensor<3x17xi64>
  return %r : tensor<3x17xi64>
}

// CHECK: COMPARE {{.*}} max_ulp=0{{$}}

// -----

// a nonzero init: the window kernel
func.func @main(%x: tensor<3x40xi32>) -> tensor<3x40xi32> {
  %i = stablehlo.constant dense<7> : tensor<i32>
  %r = "stablehlo.reduce_window"(%x, %i) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {window_dimensions = array<i64: 1, 16>, padding = dense<[[0, 0], [5, 10]]> : tensor<2x2xi64>} : (tensor<3x40xi32>, tensor<i32>) -> tensor<3x40xi32>
  return %r : tensor<3x40xi32>
}

// CHECK: COMPARE {{.*}} max_ulp=0{{$}}

// -----

// max over sliding windows: the window kernel
func.func @main(%x: tensor<3x40xi32>) -> tensor<3x40xi32> {
  %i = stablehlo.constant dense<0> : tensor<i32>
  %r = "stablehlo.reduce_window"(%x, %i) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.maximum %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {window_dimensions = array<i64: 1, 16>, padding = dense<[[0, 0], [5, 10]]> : tensor<2x2xi64>} : (tensor<3x40xi32>, tensor<i32>) -> tensor<3x40xi32>
  return %r : tensor<3x40xi32>
}

// CHECK: COMPARE {{.*}} max_ulp=0{{$}}
