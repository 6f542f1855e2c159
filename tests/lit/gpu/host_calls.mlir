// Custom calls whose targets live on the host run on the gpu backend as
// host steps between the kernels (src/gpu/host.c): the operands are
// copied back, the interpreter runs the call, the results go back to the
// device.  The LAPACK eigenvalue routine of JAX's CPU lowering (geev) fed
// and followed by kernels, against the interpreter on the same random
// inputs; --verbose counts the host steps.  (XLA's TopK is rewritten into
// a sort, which runs on the device.)  An unknown target is still an error
// at the op.
// XLAC-BACKENDS: gpu
// XLAC-SIMT: forward reverse random random:deferred
// RUN: %S/Inputs/sim.sh --check
// RUN: rm -rf %t && mkdir -p %t
// RUN: xlac run --backend=interp --random-inputs --seed 5 --entry topk --output-dir %t/t %s > /dev/null
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 5 --entry topk %s \
// RUN:   --expect 0=@%t/t/result0.npy --expect 1=@%t/t/result1.npy 2>&1 | FileCheck %s --check-prefix=TOPK
// TOPK: expect result[0]: ok
// TOPK: expect result[1]: ok, equal
// RUN: xlac run --backend=interp --random-inputs --seed 6 --entry eig --output-dir %t/e %s > /dev/null
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --verbose --random-inputs --seed 6 --entry eig %s \
// RUN:   --expect 0=@%t/e/result0.npy --expect 1=@%t/e/result1.npy --atol 1e-5 --rtol 1e-5 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EIG
// EIG: gpu: {{[0-9]+}} kernels ({{[0-9]+}} fusions), 1 ops on the host, PTX for
// EIG: expect result[0]: ok
// EIG: expect result[1]: ok
// RUN: not xlac run --backend=gpu --random-inputs --entry unknown %s 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: host_calls.mlir:[[@LINE+24]]:8: error: custom_call target 'xlac_nowhere' has no gpu implementation

func.func private @greater(%a: tensor<f32>, %b: tensor<f32>, %i: tensor<i32>, %j: tensor<i32>) -> tensor<i1> {
  %r = stablehlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
  func.return %r : tensor<i1>
}

func.func @topk(%x: tensor<6x40xf32>) -> (tensor<6x5xf32>, tensor<6x5xi32>) {
  %e = stablehlo.exponential %x : tensor<6x40xf32>
  %v, %i = stablehlo.custom_call @TopK(%e) {called_computations = [@greater]} : (tensor<6x40xf32>) -> (tensor<6x5xf32>, tensor<6x5xi32>)
  %t = stablehlo.tanh %v : tensor<6x5xf32>
  return %t, %i : tensor<6x5xf32>, tensor<6x5xi32>
}

func.func @eig(%a: tensor<4x4xf64>) -> (tensor<4xf64>, tensor<4xf64>) {
  %s = stablehlo.transpose %a, dims = [1, 0] : (tensor<4x4xf64>) -> tensor<4x4xf64>
  %m = stablehlo.add %a, %s : tensor<4x4xf64>
  %r:5 = stablehlo.custom_call @lapack_dgeev_ffi(%m) {mhlo.backend_config = {compute_left = 78 : ui8, compute_right = 78 : ui8}} : (tensor<4x4xf64>) -> (tensor<4xf64>, tensor<4xf64>, tensor<4x4xcomplex<f64>>, tensor<4x4xcomplex<f64>>, tensor<i32>)
  %two = stablehlo.constant dense<2.0> : tensor<4xf64>
  %w = stablehlo.multiply %r#0, %two : tensor<4xf64>
  return %w, %r#1 : tensor<4xf64>, tensor<4xf64>
}

func.func @unknown(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = stablehlo.custom_call @xlac_nowhere(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %c : tensor<4xf32>
}
