// sort on the gpu backend (src/gpu/sort.c: one thread per row, the
// interpreter's stable merge sort; rows of 512 or more by parallel merge
// passes, a thread per element), run by GPGPU-Sim (skipped without it) and
// the SIMT harness against the reference interpreter, exactly: an argsort
// (keys with an iota payload) along the last dimension, and a descending
// sort along the first dimension of integer keys with many ties and a float
// payload (stability); the same two on long rows (3000 elements, 11 passes
// ending in the scratch copy; 700 along the first dimension of 2 columns,
// 10 passes ending in the results).
// XLAC-BACKENDS: gpu
// XLAC-SIMT: forward reverse random random:deferred
// RUN: %S/Inputs/sim.sh --check
// RUN: rm -rf %t && mkdir -p %t
// RUN: for e in argsort cols long_argsort long_cols; do \
// RUN:   xlac run --backend=interp --random-inputs --seed 3 --entry $e --output-dir %t/$e %s > /dev/null && \
// RUN:   %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 3 --entry $e %s \
// RUN:     --expect 0=@%t/$e/result0.npy --expect 1=@%t/$e/result1.npy --atol 0 --rtol 0 || exit 1; done \
// RUN:   | FileCheck %s
// CHECK: expect result[0]: ok, max abs error 0
// CHECK: expect result[1]: ok, equal
// CHECK: expect result[0]: ok, equal
// CHECK: expect result[1]: ok, max abs error 0
// CHECK: expect result[0]: ok, max abs error 0
// CHECK: expect result[1]: ok, equal
// CHECK: expect result[0]: ok, equal
// CHECK: expect result[1]: ok, max abs error 0

func.func @argsort(%x: tensor<6x37xf32>) -> (tensor<6x37xf32>, tensor<6x37xi32>) {
  %io = stablehlo.iota dim = 1 : tensor<6x37xi32>
  %r:2 = "stablehlo.sort"(%x, %io) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %lt = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) {dimension = 1 : i64, is_stable = true} : (tensor<6x37xf32>, tensor<6x37xi32>) -> (tensor<6x37xf32>, tensor<6x37xi32>)
  return %r#0, %r#1 : tensor<6x37xf32>, tensor<6x37xi32>
}
func.func @cols(%x: tensor<50x3xi32>, %y: tensor<50x3xf32>) -> (tensor<50x3xi32>, tensor<50x3xf32>) {
  %c3 = stablehlo.constant dense<3> : tensor<50x3xi32>
  %m = stablehlo.remainder %x, %c3 : tensor<50x3xi32>
  %r:2 = "stablehlo.sort"(%m, %y) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<f32>):
    %gt = stablehlo.compare GT, %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %gt : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<50x3xi32>, tensor<50x3xf32>) -> (tensor<50x3xi32>, tensor<50x3xf32>)
  return %r#0, %r#1 : tensor<50x3xi32>, tensor<50x3xf32>
}
func.func @long_argsort(%x: tensor<2x3000xf32>) -> (tensor<2x3000xf32>, tensor<2x3000xi32>) {
  %io = stablehlo.iota dim = 1 : tensor<2x3000xi32>
  %r:2 = "stablehlo.sort"(%x, %io) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %lt = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) {dimension = 1 : i64, is_stable = true} : (tensor<2x3000xf32>, tensor<2x3000xi32>) -> (tensor<2x3000xf32>, tensor<2x3000xi32>)
  return %r#0, %r#1 : tensor<2x3000xf32>, tensor<2x3000xi32>
}
func.func @long_cols(%x: tensor<700x2xi32>, %y: tensor<700x2xf32>) -> (tensor<700x2xi32>, tensor<700x2xf32>) {
  %c5 = stablehlo.constant dense<5> : tensor<700x2xi32>
  %m = stablehlo.remainder %x, %c5 : tensor<700x2xi32>
  %r:2 = "stablehlo.sort"(%m, %y) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<f32>):
    %gt = stablehlo.compare GT, %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %gt : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<700x2xi32>, tensor<700x2xf32>) -> (tensor<700x2xi32>, tensor<700x2xf32>)
  return %r#0, %r#1 : tensor<700x2xi32>, tensor<700x2xf32>
}
