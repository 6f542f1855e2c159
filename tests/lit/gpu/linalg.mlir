// triangular_solve on the gpu backend (src/gpu/linalg.c): one thread per
// system substituting in the interpreter's order in double, checked
// against the interpreter on the same random inputs: left and right sides,
// lower and upper, transposed, unit diagonal, batched, f32, f64 and
// complex64 (adjoint), and a right-hand side fused from elementwise work.  (The diagonal is moved
// away from zero so the systems are well conditioned.)
// XLAC-BACKENDS: gpu
// XLAC-SIMT: forward reverse random random:deferred
// RUN: %S/Inputs/sim.sh --check
// RUN: rm -rf %t && mkdir -p %t
// RUN: for e in left_lower right_upper_t unit_adjoint f64_batched c64_adjoint; do \
// RUN:   xlac run --backend=interp --random-inputs --seed 4 --entry $e --output-dir %t/$e %s > /dev/null && \
// RUN:   %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 4 --entry $e %s \
// RUN:     --expect 0=@%t/$e/result0.npy --atol 1e-6 --rtol 1e-6 || exit 1; \
// RUN: done | FileCheck %s
// CHECK-COUNT-5: expect result[0]: ok
// CHECK-NOT: MISMATCH

func.func @left_lower(%a: tensor<6x6xf32>, %b: tensor<6x5xf32>) -> tensor<6x5xf32> {
  %i = stablehlo.iota dim = 0 : tensor<6x6xi32>
  %j = stablehlo.iota dim = 1 : tensor<6x6xi32>
  %d = stablehlo.compare EQ, %i, %j : (tensor<6x6xi32>, tensor<6x6xi32>) -> tensor<6x6xi1>
  %four = stablehlo.constant dense<4.0> : tensor<6x6xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<6x6xf32>
  %s = stablehlo.select %d, %four, %zero : tensor<6x6xi1>, tensor<6x6xf32>
  %a2 = stablehlo.add %a, %s : tensor<6x6xf32>
  %b2 = stablehlo.exponential %b : tensor<6x5xf32>
  %x = "stablehlo.triangular_solve"(%a2, %b2) {left_side = true, lower = true, unit_diagonal = false,
       transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<6x6xf32>, tensor<6x5xf32>) -> tensor<6x5xf32>
  return %x : tensor<6x5xf32>
}

func.func @right_upper_t(%a: tensor<5x5xf32>, %b: tensor<7x5xf32>) -> tensor<7x5xf32> {
  %i = stablehlo.iota dim = 0 : tensor<5x5xi32>
  %j = stablehlo.iota dim = 1 : tensor<5x5xi32>
  %d = stablehlo.compare EQ, %i, %j : (tensor<5x5xi32>, tensor<5x5xi32>) -> tensor<5x5xi1>
  %four = stablehlo.constant dense<4.0> : tensor<5x5xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<5x5xf32>
  %s = stablehlo.select %d, %four, %zero : tensor<5x5xi1>, tensor<5x5xf32>
  %a2 = stablehlo.add %a, %s : tensor<5x5xf32>
  %x = "stablehlo.triangular_solve"(%a2, %b) {left_side = false, lower = false, unit_diagonal = false,
       transpose_a = #stablehlo<transpose TRANSPOSE>} : (tensor<5x5xf32>, tensor<7x5xf32>) -> tensor<7x5xf32>
  return %x : tensor<7x5xf32>
}

func.func @unit_adjoint(%a: tensor<4x4xf32>, %b: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %x = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = true,
       transpose_a = #stablehlo<transpose ADJOINT>} : (tensor<4x4xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  return %x : tensor<4x3xf32>
}

func.func @f64_batched(%a: tensor<3x8x8xf64>, %b: tensor<3x8x2xf64>) -> tensor<3x8x2xf64> {
  %i = stablehlo.iota dim = 1 : tensor<3x8x8xi32>
  %j = stablehlo.iota dim = 2 : tensor<3x8x8xi32>
  %d = stablehlo.compare EQ, %i, %j : (tensor<3x8x8xi32>, tensor<3x8x8xi32>) -> tensor<3x8x8xi1>
  %four = stablehlo.constant dense<4.0> : tensor<3x8x8xf64>
  %zero = stablehlo.constant dense<0.0> : tensor<3x8x8xf64>
  %s = stablehlo.select %d, %four, %zero : tensor<3x8x8xi1>, tensor<3x8x8xf64>
  %a2 = stablehlo.add %a, %s : tensor<3x8x8xf64>
  %x = "stablehlo.triangular_solve"(%a2, %b) {left_side = true, lower = false, unit_diagonal = false,
       transpose_a = #stablehlo<transpose NO_TRANSPOSE>} : (tensor<3x8x8xf64>, tensor<3x8x2xf64>) -> tensor<3x8x2xf64>
  return %x : tensor<3x8x2xf64>
}

func.func @c64_adjoint(%a: tensor<2x5x5xcomplex<f32>>, %b: tensor<2x4x5xcomplex<f32>>) -> tensor<2x4x5xcomplex<f32>> {
  %i = stablehlo.iota dim = 1 : tensor<2x5x5xi32>
  %j = stablehlo.iota dim = 2 : tensor<2x5x5xi32>
  %d = stablehlo.compare EQ, %i, %j : (tensor<2x5x5xi32>, tensor<2x5x5xi32>) -> tensor<2x5x5xi1>
  %four = stablehlo.constant dense<(4.0, 1.0)> : tensor<2x5x5xcomplex<f32>>
  %zero = stablehlo.constant dense<(0.0, 0.0)> : tensor<2x5x5xcomplex<f32>>
  %s = stablehlo.select %d, %four, %zero : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f32>>
  %a2 = stablehlo.add %a, %s : tensor<2x5x5xcomplex<f32>>
  %x = "stablehlo.triangular_solve"(%a2, %b) {left_side = false, lower = true, unit_diagonal = false,
       transpose_a = #stablehlo<transpose ADJOINT>} : (tensor<2x5x5xcomplex<f32>>, tensor<2x4x5xcomplex<f32>>) -> tensor<2x4x5xcomplex<f32>>
  return %x : tensor<2x4x5xcomplex<f32>>
}
