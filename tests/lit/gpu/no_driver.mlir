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
// UNSUP: no_driver.mlir:[[@LINE+13]]:8: error: 'chlo.ragged_dot' is not supported by the gpu backend yet (these element types (f32, f64, integer and pred results only); docs/gpu.md lists what is)
// UNSUP: no_driver.mlir:[[@LINE+16]]:8: error: 'chlo.lgamma' needs 'xlacrt_lgamma' (a host library function), which the gpu backend has no device code for yet
// UNSUP-NOT: no CUDA driver
// RUN: not xlac run --backend=tpu %s 2>&1 | FileCheck %s --check-prefix=BACKEND
// BACKEND: unknown backend 'tpu' (available: cpu, interp, gpu)

func.func @ew(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = stablehlo.exponential %x : tensor<8xf32>
  return %0 : tensor<8xf32>
}

func.func @unsupported(%l: tensor<11x5xf16>, %r: tensor<3x5x7xf16>, %g: tensor<3xi64>, %p: tensor<16xf64>) -> (tensor<11x7xf16>, tensor<16xf64>) {
  %e = stablehlo.exponential %l : tensor<11x5xf16>
  %d = "chlo.ragged_dot"(%e, %r, %g) {ragged_dot_dimension_numbers = #chlo.ragged_dot<
      lhs_batching_dimensions = [], rhs_batching_dimensions = [], lhs_contracting_dimensions = [1],
      rhs_contracting_dimensions = [1], lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>}
    : (tensor<11x5xf16>, tensor<3x5x7xf16>, tensor<3xi64>) -> tensor<11x7xf16>
  %q = chlo.lgamma %p : tensor<16xf64> -> tensor<16xf64>
  return %d, %q : tensor<11x7xf16>, tensor<16xf64>
}
