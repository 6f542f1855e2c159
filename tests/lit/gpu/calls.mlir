// Calls the inliner keeps ("noinline") run on the gpu backend inlined
// into the program (src/gpu/gpu.c): a function called twice, from a loop
// body, one calling another, against the reference interpreter on the
// same random inputs, exactly; and one in a run_parallel program
// (Inputs/calls_parallel.mlir, with its checks).
// XLAC-BACKENDS: gpu
// XLAC-SIMT: forward reverse random random:deferred
// RUN: %S/Inputs/sim.sh --check
// RUN: rm -rf %t && mkdir -p %t
// RUN: xlac run --backend=interp --random-inputs --seed 2 --output-dir %t/r %s > /dev/null
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 2 %s --verbose --expect 0=@%t/r/result0.npy \
// RUN:   --expect 1=@%t/r/result1.npy --expect 2=@%t/r/result2.npy --atol 0 --rtol 0 2>&1 | FileCheck %s
// CHECK: expect result[0]: ok, max abs error 0
// CHECK: expect result[1]: ok, max abs error 0
// CHECK: expect result[2]: ok, max abs error 0
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu %S/Inputs/calls_parallel.mlir 2>&1 | FileCheck %s --check-prefix=PAR
// PAR: 2 checks passed, 0 failed

func.func private @axpy(%a: tensor<f32>, %x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> attributes {noinline} {
  %ab = stablehlo.broadcast_in_dim %a, dims = [] : (tensor<f32>) -> tensor<64xf32>
  %m = stablehlo.multiply %ab, %x : tensor<64xf32>
  %r = stablehlo.add %m, %y : tensor<64xf32>
  func.return %r : tensor<64xf32>
}
func.func private @twice(%x: tensor<64xf32>) -> tensor<64xf32> attributes {noinline} {
  %two = stablehlo.constant dense<2.0> : tensor<f32>
  %r = func.call @axpy(%two, %x, %x) : (tensor<f32>, tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  func.return %r : tensor<64xf32>
}
func.func @main(%a: tensor<f32>, %x: tensor<64xf32>, %y: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) {
  %r0 = func.call @axpy(%a, %x, %y) : (tensor<f32>, tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %w:2 = stablehlo.while(%i = %i0, %v = %y) : tensor<i32>, tensor<64xf32>
  cond {
    %n = stablehlo.constant dense<3> : tensor<i32>
    %c = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %one : tensor<i32>
    %u = func.call @axpy(%a, %x, %v) : (tensor<f32>, tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    stablehlo.return %j, %u : tensor<i32>, tensor<64xf32>
  }
  %r2 = func.call @twice(%r0) : (tensor<64xf32>) -> tensor<64xf32>
  return %r0, %w#1, %r2 : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
}
