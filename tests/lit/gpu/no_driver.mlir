// --backend=gpu without a CUDA driver, or with a library that is not one:
// a clean error and exit status 1.  Ops the gpu backend has no kernel for
// are errors at the op, found while compiling, before any driver is needed.
// XLAC-BACKENDS: gpu
// RUN: env XLAC_CUDA_DRIVER=/nonexistent/libcuda.so.1 not xlac run --backend=gpu --random-inputs --entry ew %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NONE
// RUN: env XLAC_CUDA_DRIVER=/nonexistent/libcuda.so.1 not xlac compare --backend=gpu --random-inputs --entry ew %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NONE
// RUN: env XLAC_CUDA_DRIVER=/nonexistent/libcuda.so.1 XLAC_BACKEND=gpu not xlac run --random-inputs --entry ew %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NONE
// NONE: xlac: error: no CUDA driver (cannot load '/nonexistent/libcuda.so.1', named by XLAC_CUDA_DRIVER:
// RUN: env XLAC_CUDA_DRIVER=libm.so.6 not xlac run --backend=gpu --random-inputs --entry ew %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOTDRV
// NOTDRV: xlac: error: no usable CUDA driver ('libm.so.6' has no cuInit
// Where the machine has no libcuda.so.1 at all, the default message:
// RUN: if ldconfig -p 2>/dev/null | grep -qF 'libcuda.so.1 '; then exit 0; fi; \
// RUN:   env -u XLAC_CUDA_DRIVER not xlac run --backend=gpu --random-inputs --entry ew %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DEFAULT
// DEFAULT: xlac: error: no CUDA driver (libcuda.so.1 not found)
// RUN: env XLAC_CUDA_DRIVER=/nonexistent/libcuda.so.1 not xlac run --backend=gpu --random-inputs --entry unsupported %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=UNSUP
// UNSUP: no_driver.mlir:[[@LINE+12]]:8: error: 'stablehlo.sort' is not supported by the gpu backend yet (docs/gpu.md lists what is)
// UNSUP: no_driver.mlir:[[@LINE+22]]:8: error: 'chlo.lgamma' needs 'xlacrt_lgamma' (a host library function), which the gpu backend has no device code for yet
// UNSUP-NOT: no CUDA driver
// RUN: not xlac run --backend=tpu %s 2>&1 | FileCheck %s --check-prefix=BACKEND
// BACKEND: unknown backend 'tpu' (available: cpu, interp, gpu)

func.func @ew(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.exponential %x : tensor<8xf32>
  return %0 : tensor<8xf32>
}

func.func @unsupported(%x: tensor<16xf32>, %p: tensor<16xf64>) -> (tensor<16xf32>, tensor<16xf64>) {
  %r = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %g = stablehlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %c = "stablehlo.if"(%g) ({
      %t = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %t : tensor<i1>
    }, {
      stablehlo.return %g : tensor<i1>
    }) : (tensor<i1>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<16xf32>) -> tensor<16xf32>
  %q = chlo.lgamma %p : tensor<16xf64> -> tensor<16xf64>
  return %r, %q : tensor<16xf32>, tensor<16xf64>
}
