// chlo.ragged_dot with 16-bit float and complex results on the gpu backend
// (src/gpu/ragged.c: one thread per output, summing in double or double
// complex in the interpreter's order, rounded once), against the reference
// interpreter on the same random inputs: f16 rows (mode 1) of f16 and of
// f32 operands, a bf16 weight gradient (mode 2, the ragged dimension
// contracted), f8E4M3FN rows of f32 operands, complex64 rows, complex128 batches with the ragged
// dimension among them (mode 3), a c64 result of f32 operands.  Group
// sizes are constants: an empty group, one beyond the rows, a negative one.
// The 16-bit and f8 results must be the interpreter's bit for bit (max
// abs error 0: each rounded once from the same double sum).  On the SIMT harness only: the simulator has no f16 compares
// (docs/gpu.md).
// XLAC-BACKENDS: gpu
// XLAC-SIMT: forward reverse random random:deferred
// XLAC-SIMT-ONLY
// RUN: rm -rf %t && mkdir -p %t
// RUN: for e in rows_f16 rows_f16_of_f32 contract_bf16 rows_f8; do \
// RUN:   xlac run --backend=interp --random-inputs --seed 5 --entry $e --output-dir %t/$e %s > /dev/null && \
// RUN:   %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 5 --entry $e %s \
// RUN:     --expect 0=@%t/$e/result0.npy --atol 0 --rtol 0 2>&1 || exit 1; done | FileCheck %s --check-prefix=EXACT
// EXACT: expect result[0]: ok, max abs error 0
// EXACT: expect result[0]: ok, max abs error 0
// EXACT: expect result[0]: ok, max abs error 0
// EXACT: expect result[0]: ok, max abs error 0
// RUN: for e in rows_c64 batch_c128 rows_c64_of_f32; do \
// RUN:   xlac run --backend=interp --random-inputs --seed 5 --entry $e --output-dir %t/$e %s > /dev/null && \
// RUN:   %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 5 --entry $e %s \
// RUN:     --expect 0=@%t/$e/result0.npy --atol 1e-6 --rtol 1e-6 2>&1 || exit 1; done | FileCheck %s --check-prefix=CPLX
// CPLX: expect result[0]: ok
// CPLX: expect result[0]: ok
// CPLX: expect result[0]: ok

func.func @rows_f16(%l: tensor<12x8xf16>, %r: tensor<4x8x5xf16>) -> tensor<12x5xf16> {
  %g = stablehlo.constant dense<[3, 0, 5, 6]> : tensor<4xi32>
  %d = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1],
      lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>
  } : (tensor<12x8xf16>, tensor<4x8x5xf16>, tensor<4xi32>) -> tensor<12x5xf16>
  return %d : tensor<12x5xf16>
}
func.func @rows_f16_of_f32(%l: tensor<9x33xf32>, %r: tensor<3x33x4xf32>) -> tensor<9x4xf16> {
  %g = stablehlo.constant dense<[2, -1, 4]> : tensor<3xi64>
  %d = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1],
      lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>
  } : (tensor<9x33xf32>, tensor<3x33x4xf32>, tensor<3xi64>) -> tensor<9x4xf16>
  return %d : tensor<9x4xf16>
}
func.func @contract_bf16(%l: tensor<6x16xbf16>, %r: tensor<16x4xbf16>) -> tensor<3x6x4xbf16> {
  %g = stablehlo.constant dense<[7, 0, 6]> : tensor<3xi32>
  %d = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0],
      lhs_ragged_dimensions = [1], rhs_group_dimensions = []>
  } : (tensor<6x16xbf16>, tensor<16x4xbf16>, tensor<3xi32>) -> tensor<3x6x4xbf16>
  return %d : tensor<3x6x4xbf16>
}
func.func @rows_c64(%l: tensor<7x4xcomplex<f32>>, %r: tensor<2x4x3xcomplex<f32>>) -> tensor<7x3xcomplex<f32>> {
  %g = stablehlo.constant dense<[3, 3]> : tensor<2xi32>
  %d = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1],
      lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>
  } : (tensor<7x4xcomplex<f32>>, tensor<2x4x3xcomplex<f32>>, tensor<2xi32>) -> tensor<7x3xcomplex<f32>>
  return %d : tensor<7x3xcomplex<f32>>
}
func.func @batch_c128(%l: tensor<4x2x3xcomplex<f64>>, %r: tensor<4x3x2xcomplex<f64>>) -> tensor<4x2x2xcomplex<f64>> {
  %g = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %d = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0],
      lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1],
      lhs_ragged_dimensions = [0], rhs_group_dimensions = []>
  } : (tensor<4x2x3xcomplex<f64>>, tensor<4x3x2xcomplex<f64>>, tensor<2xi32>) -> tensor<4x2x2xcomplex<f64>>
  return %d : tensor<4x2x2xcomplex<f64>>
}
func.func @rows_c64_of_f32(%l: tensor<5x6xf32>, %r: tensor<2x6x3xf32>) -> tensor<5x3xcomplex<f32>> {
  %g = stablehlo.constant dense<[2, 2]> : tensor<2xi32>
  %d = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1],
      lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>
  } : (tensor<5x6xf32>, tensor<2x6x3xf32>, tensor<2xi32>) -> tensor<5x3xcomplex<f32>>
  return %d : tensor<5x3xcomplex<f32>>
}
func.func @rows_f8(%l: tensor<9x33xf32>, %r: tensor<3x33x4xf32>) -> tensor<9x4xf8E4M3FN> {
  %g = stablehlo.constant dense<[2, 3, 4]> : tensor<3xi64>
  %d = "chlo.ragged_dot"(%l, %r, %g) {
    ragged_dot_dimension_numbers = #chlo.ragged_dot<lhs_batching_dimensions = [], rhs_batching_dimensions = [],
      lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1],
      lhs_ragged_dimensions = [0], rhs_group_dimensions = [0]>
  } : (tensor<9x33xf32>, tensor<3x33x4xf32>, tensor<3xi64>) -> tensor<9x4xf8E4M3FN>
  return %d : tensor<9x4xf8E4M3FN>
}
