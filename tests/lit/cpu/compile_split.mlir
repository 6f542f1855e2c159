// Parallel code generation (codegen/jit_split.c): with XLAC_COMPILE_SPLIT_MIN=1
// every program of more than one function is cut, so this one's kernels
// (a product, row and column sums, elementwise ops, a loop's body) are
// compiled in parts on three threads and linked by name.  The weights
// (32x48 f32, 6144 bytes) are the executable's data, which the part that
// reads them declares and the linker resolves; the 4-element table is
// copied into the parts that use it.  Exact integer values, so every
// result is checked as it is.  A compile cache keeps the parts' objects in
// one entry, and a second process links them from there.
// RUN: env XLAC_COMPILE_THREADS=3 XLAC_COMPILE_SPLIT_MIN=1 xlac run --backend=cpu --verbose %s 2>&1 | FileCheck %s
// RUN: env XLAC_COMPILE_THREADS=1 xlac run --backend=cpu --verbose %s 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: env -u XLAC_COMPILE_SPLIT_MIN XLAC_COMPILE_THREADS=2 xlac run --backend=cpu --verbose %s 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: rm -rf %t && env XLAC_COMPILE_THREADS=3 XLAC_COMPILE_SPLIT_MIN=1 xlac run --backend=cpu --verbose --compile-cache %t %s 2>&1 | FileCheck %s
// RUN: env XLAC_COMPILE_THREADS=3 XLAC_COMPILE_SPLIT_MIN=1 xlac run --backend=cpu --verbose --compile-cache %t %s 2>&1 | FileCheck %s --check-prefix=HIT
// CHECK: machine code {{[0-9.]+}}; on 3 threads)
// CHECK: 4 checks passed, 0 failed
// HIT: compile cache hit
// HIT: 4 checks passed, 0 failed
// ONE-NOT: threads)
// ONE: 4 checks passed, 0 failed

func.func @main() {
  %i = stablehlo.iota dim = 0 : tensor<768xi32>
  %five = stablehlo.constant dense<5> : tensor<768xi32>
  %m = stablehlo.remainder %i, %five : tensor<768xi32>
  %xf = stablehlo.convert %m : (tensor<768xi32>) -> tensor<768xf32>
  %xr = stablehlo.reshape %xf : (tensor<768xf32>) -> tensor<24x32xf32>
  %x = stablehlo.optimization_barrier %xr : tensor<24x32xf32>
  %w = stablehlo.constant dense<[[-3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2], [3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1], [2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0], [1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1], [0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2], [-1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3], [-2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3], [-3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2], [3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1], [2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0], [1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1], [0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2], [-1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3], [-2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3], [-3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2], [3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1], [2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0], [1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1], [0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2], [-1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3], [-2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3], [-3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2], [3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1], [2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0], [1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1], [0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2], [-1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3], [-2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3], [-3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2], [3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1], [2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0], [1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1, 0, 1, 2, 3, -3, -2, -1]]> : tensor<32x48xf32>
  %d = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<24x32xf32>, tensor<32x48xf32>) -> tensor<24x48xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %rows = stablehlo.reduce(%d init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<24x48xf32>, tensor<f32>) -> tensor<24xf32>
  %z = stablehlo.constant dense<0.0> : tensor<24x48xf32>
  %pos = stablehlo.maximum %d, %z : tensor<24x48xf32>
  %cols = stablehlo.reduce(%pos init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<24x48xf32>, tensor<f32>) -> tensor<48xf32>
  %d4 = stablehlo.slice %d [0:24, 0:4] : (tensor<24x48xf32>) -> tensor<24x4xf32>
  %tab = stablehlo.constant dense<[1, -2, 3, -4]> : tensor<4xf32>
  %tb = stablehlo.broadcast_in_dim %tab, dims = [1] : (tensor<4xf32>) -> tensor<24x4xf32>
  %sc = stablehlo.multiply %d4, %tb : tensor<24x4xf32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%k = %c0, %a = %rows) : tensor<i32>, tensor<24xf32>
  cond {
    %three = stablehlo.constant dense<3> : tensor<i32>
    %c = stablehlo.compare LT, %k, %three : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %half = stablehlo.constant dense<0.5> : tensor<24xf32>
    %hundred = stablehlo.constant dense<100.0> : tensor<24xf32>
    %p = stablehlo.multiply %a, %half : tensor<24xf32>
    %q = stablehlo.subtract %a, %hundred : tensor<24xf32>
    %n = stablehlo.maximum %p, %q : tensor<24xf32>
    %k1 = stablehlo.add %k, %one : tensor<i32>
    stablehlo.return %k1, %n : tensor<i32>, tensor<24xf32>
  }
  check.expect_eq_const %rows, dense<[-20, -7, -14, -11, -8, -20, -7, -14, -11, -8, -20, -7, -14, -11, -8, -20, -7, -14, -11, -8, -20, -7, -14, -11]> : tensor<24xf32>
  check.expect_eq_const %cols, dense<[145, 28, 0, 0, 50, 120, 292, 145, 28, 0, 0, 50, 120, 292, 145, 28, 0, 0, 50, 120, 292, 145, 28, 0, 0, 50, 120, 292, 145, 28, 0, 0, 50, 120, 292, 145, 28, 0, 0, 50, 120, 292, 145, 28, 0, 0, 50, 120]> : tensor<48xf32>
  check.expect_eq_const %sc, dense<[[11, -4, -21, 64], [2, 6, -24, 52], [8, -4, -12, 40], [4, 6, -30, 68], [5, -4, -3, 16], [11, -4, -21, 64], [2, 6, -24, 52], [8, -4, -12, 40], [4, 6, -30, 68], [5, -4, -3, 16], [11, -4, -21, 64], [2, 6, -24, 52], [8, -4, -12, 40], [4, 6, -30, 68], [5, -4, -3, 16], [11, -4, -21, 64], [2, 6, -24, 52], [8, -4, -12, 40], [4, 6, -30, 68], [5, -4, -3, 16], [11, -4, -21, 64], [2, 6, -24, 52], [8, -4, -12, 40], [4, 6, -30, 68]]> : tensor<24x4xf32>
  check.expect_eq_const %r#1, dense<[-2.5, -0.875, -1.75, -1.375, -1, -2.5, -0.875, -1.75, -1.375, -1, -2.5, -0.875, -1.75, -1.375, -1, -2.5, -0.875, -1.75, -1.375, -1, -2.5, -0.875, -1.75, -1.375]> : tensor<24xf32>
  func.return
}
