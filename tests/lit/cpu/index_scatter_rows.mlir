// RUN: xlac run --split-input-file %s
// RUN: xlac compare --random-inputs --entry add_rows_f32 %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry partial_rows_f16_i64 %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry planes_i32 %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry batched_rows %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry columns_parallel %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry shifted_parallel %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry variadic_parallel %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry big_operand %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry one_row %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry rows_types %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --threads 1 --entry shifted_parallel %s | FileCheck %s --check-prefix=EXACT
// scatter whose update windows end in a contiguous run of the operand (the
// gradient of an embedding lookup: whole rows added into a table) reads
// each window's start indices once and applies the run as one inner loop,
// clipped to the chunk; big ones split the operand's columns among
// chunks, each walking all updates in order.  Results must be the
// interpreter's bit for bit: duplicate indices accumulate in row-major
// order of the updates, windows not wholly inside are skipped whole.  The
// random indices of `compare` lie in [-10, 10]: duplicates, negative and
// too large ones.
// EXACT: COMPARE {{.*}} max_ulp=0{{$}}

func.func @add_rows_f32(%x: tensor<8x16xf32>, %i: tensor<9x4x1xi32>, %u: tensor<9x4x16xf32>) -> tensor<8x16xf32> {
  %r = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 2>
  } : (tensor<8x16xf32>, tensor<9x4x1xi32>, tensor<9x4x16xf32>) -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// Windows of 6 of 9 columns from (row, col) starts: some over either end.
func.func @partial_rows_f16_i64(%x: tensor<6x9xf16>, %i: tensor<30x2xi64>, %u: tensor<30x6xf16>) -> tensor<6x9xf16> {
  %r = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<f16>, %b: tensor<f16>):
    %s = stablehlo.add %a, %b : tensor<f16>
    stablehlo.return %s : tensor<f16>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>
  } : (tensor<6x9xf16>, tensor<30x2xi64>, tensor<30x6xf16>) -> tensor<6x9xf16>
  return %r : tensor<6x9xf16>
}

// Whole planes (a run over two dimensions) with max; 2 of 3 rows of a
// plane from a (plane, row) start with multiply, some over the rows' end;
// 2x3 windows from (plane, row, column) starts, a run of one row, some
// over the columns' ends.
func.func @planes_i32(%x: tensor<7x3x4xi32>, %i: tensor<5x1xi32>, %u: tensor<5x3x4xi32>,
                      %j: tensor<5x2xi32>, %v: tensor<5x2x4xi32>, %k: tensor<5x3xi32>, %w: tensor<5x2x3xi32>)
    -> (tensor<7x3x4xi32>, tensor<7x3x4xi32>, tensor<7x3x4xi32>) {
  %a = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%p: tensor<i32>, %q: tensor<i32>):
    %s = stablehlo.maximum %p, %q : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1, 2], inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1>
  } : (tensor<7x3x4xi32>, tensor<5x1xi32>, tensor<5x3x4xi32>) -> tensor<7x3x4xi32>
  %b = "stablehlo.scatter"(%x, %j, %v) ({
  ^bb0(%p: tensor<i32>, %q: tensor<i32>):
    %s = stablehlo.multiply %p, %q : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1, 2], inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>
  } : (tensor<7x3x4xi32>, tensor<5x2xi32>, tensor<5x2x4xi32>) -> tensor<7x3x4xi32>
  %c = "stablehlo.scatter"(%x, %k, %w) ({
  ^bb0(%p: tensor<i32>, %q: tensor<i32>):
    %s = stablehlo.add %p, %q : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1, 2], inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0, 1, 2], index_vector_dim = 1>
  } : (tensor<7x3x4xi32>, tensor<5x3xi32>, tensor<5x2x3xi32>) -> tensor<7x3x4xi32>
  return %a, %b, %c : tensor<7x3x4xi32>, tensor<7x3x4xi32>, tensor<7x3x4xi32>
}

// Rows added per batch: batching dimension 0.
func.func @batched_rows(%x: tensor<3x7x8xf32>, %i: tensor<3x6xi32>, %u: tensor<3x6x8xf32>) -> tensor<3x7x8xf32> {
  %r = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [1],
      input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1],
      index_vector_dim = 2>
  } : (tensor<3x7x8xf32>, tensor<3x6xi32>, tensor<3x6x8xf32>) -> tensor<3x7x8xf32>
  return %r : tensor<3x7x8xf32>
}

// Big enough to split: 300 columns in chunks, 80000 update elements.
func.func @columns_parallel(%x: tensor<8x300xf32>, %i: tensor<400x1xi32>, %u: tensor<400x300xf32>) -> tensor<8x300xf32> {
  %r = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1>
  } : (tensor<8x300xf32>, tensor<400x1xi32>, tensor<400x300xf32>) -> tensor<8x300xf32>
  return %r : tensor<8x300xf32>
}

// Split columns with windows that start at different columns: overlapping
// windows reach one element from different update columns, and the chunk
// owning it must still apply them in order.
func.func @shifted_parallel(%x: tensor<8x300xf32>, %i: tensor<400x2xi32>, %u: tensor<400x200xf32>) -> tensor<8x300xf32> {
  %r = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>
  } : (tensor<8x300xf32>, tensor<400x2xi32>, tensor<400x200xf32>) -> tensor<8x300xf32>
  return %r : tensor<8x300xf32>
}

// Two operands updated together, split: f16 sums and the last i32 written.
func.func @variadic_parallel(%x: tensor<5x256xf16>, %y: tensor<5x256xi32>, %i: tensor<300xi64>,
                             %u: tensor<300x256xf16>, %v: tensor<300x256xi32>) -> (tensor<5x256xf16>, tensor<5x256xi32>) {
  %r:2 = "stablehlo.scatter"(%x, %y, %i, %u, %v) ({
  ^bb0(%a: tensor<f16>, %b: tensor<i32>, %c: tensor<f16>, %d: tensor<i32>):
    %s = stablehlo.add %a, %c : tensor<f16>
    stablehlo.return %s, %d : tensor<f16>, tensor<i32>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1>
  } : (tensor<5x256xf16>, tensor<5x256xi32>, tensor<300xi64>, tensor<300x256xf16>, tensor<300x256xi32>) -> (tensor<5x256xf16>, tensor<5x256xi32>)
  return %r#0, %r#1 : tensor<5x256xf16>, tensor<5x256xi32>
}

// An operand too big to copy in one piece, few updates (one chunk).
func.func @big_operand(%x: tensor<1100x64xf32>, %i: tensor<40x1xi32>, %u: tensor<40x64xf32>) -> tensor<1100x64xf32> {
  %r = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1>
  } : (tensor<1100x64xf32>, tensor<40x1xi32>, tensor<40x64xf32>) -> tensor<1100x64xf32>
  return %r : tensor<1100x64xf32>
}

// A single window: the update is one run.
func.func @one_row(%x: tensor<8x16xi32>, %i: tensor<1xi32>, %u: tensor<16xi32>) -> tensor<8x16xi32> {
  %r = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 0>
  } : (tensor<8x16xi32>, tensor<1xi32>, tensor<16xi32>) -> tensor<8x16xi32>
  return %r : tensor<8x16xi32>
}

// Other element types through the same run loop: complex sums, bf16 sums
// (rounded after every add), boolean xor.
func.func @rows_types(%c: tensor<6x5xcomplex<f32>>, %h: tensor<6x5xbf16>, %p: tensor<6x5xi1>, %i: tensor<7xi32>,
                      %cu: tensor<7x5xcomplex<f32>>, %hu: tensor<7x5xbf16>, %pu: tensor<7x5xi1>)
    -> (tensor<6x5xcomplex<f32>>, tensor<6x5xbf16>, tensor<6x5xi1>) {
  %a = "stablehlo.scatter"(%c, %i, %cu) ({
  ^bb0(%x: tensor<complex<f32>>, %y: tensor<complex<f32>>):
    %s = stablehlo.add %x, %y : tensor<complex<f32>>
    stablehlo.return %s : tensor<complex<f32>>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1>
  } : (tensor<6x5xcomplex<f32>>, tensor<7xi32>, tensor<7x5xcomplex<f32>>) -> tensor<6x5xcomplex<f32>>
  %b = "stablehlo.scatter"(%h, %i, %hu) ({
  ^bb0(%x: tensor<bf16>, %y: tensor<bf16>):
    %s = stablehlo.add %x, %y : tensor<bf16>
    stablehlo.return %s : tensor<bf16>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1>
  } : (tensor<6x5xbf16>, tensor<7xi32>, tensor<7x5xbf16>) -> tensor<6x5xbf16>
  %d = "stablehlo.scatter"(%p, %i, %pu) ({
  ^bb0(%x: tensor<i1>, %y: tensor<i1>):
    %s = stablehlo.xor %x, %y : tensor<i1>
    stablehlo.return %s : tensor<i1>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1>
  } : (tensor<6x5xi1>, tensor<7xi32>, tensor<7x5xi1>) -> tensor<6x5xi1>
  return %a, %b, %d : tensor<6x5xcomplex<f32>>, tensor<6x5xbf16>, tensor<6x5xi1>
}

// Rows 1 (twice), 7 (out of range) and -1 (skipped); f32 sums in update
// order: 1e8 + 1 + 1 - 1e8 is 0 in f32 in that order, not 2.
func.func @add_rows_order() {
  %x0 = stablehlo.constant dense<[[0.0, 1.0], [0.0, 2.0], [0.0, 3.0]]> : tensor<3x2xf32>
  %i0 = stablehlo.constant dense<[[1], [1], [7], [-1], [1], [1]]> : tensor<6x1xi32>
  %u0 = stablehlo.constant dense<[[1.0e8, 1.0], [1.0, 2.0], [5.0, 5.0], [6.0, 6.0], [1.0, 3.0], [-1.0e8, 4.0]]> : tensor<6x2xf32>
  %x, %i, %u = stablehlo.optimization_barrier %x0, %i0, %u0 : tensor<3x2xf32>, tensor<6x1xi32>, tensor<6x2xf32>
  %r = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1>
  } : (tensor<3x2xf32>, tensor<6x1xi32>, tensor<6x2xf32>) -> tensor<3x2xf32>
  check.expect_eq_const %r, dense<[[0.0, 1.0], [0.0, 12.0], [0.0, 3.0]]> : tensor<3x2xf32>
  func.return
}

// -----

// Windows of three columns from (row, col) starts: those that do not fit,
// (0, -1), (1, 3), (1, 5) and (3, 0), write nothing, not even their
// columns inside; (2, 2), (0, 0) and (1, 2) fit.  Values from JAX's CPU
// backend (XLA).
func.func @partial_rows_i64() {
  %x0 = stablehlo.constant dense<0> : tensor<3x5xi32>
  %i0 = stablehlo.constant dense<[[0, -1], [1, 3], [2, 2], [1, 5], [3, 0], [0, 0], [1, 2]]> : tensor<7x2xi64>
  %u0 = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12], [13, 14, 15], [16, 17, 18], [19, 20, 21]]> : tensor<7x3xi32>
  %x, %i, %u = stablehlo.optimization_barrier %x0, %i0, %u0 : tensor<3x5xi32>, tensor<7x2xi64>, tensor<7x3xi32>
  %r = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.add %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>
  } : (tensor<3x5xi32>, tensor<7x2xi64>, tensor<7x3xi32>) -> tensor<3x5xi32>
  check.expect_eq_const %r, dense<[[16, 17, 18, 0, 0], [0, 0, 19, 20, 21], [0, 0, 7, 8, 9]]> : tensor<3x5xi32>
  func.return
}

// -----

// Whole 2x2 planes with min; plane 3 is out of range.
func.func @planes_min_f16() {
  %x0 = stablehlo.constant dense<5.0> : tensor<3x2x2xf16>
  %i0 = stablehlo.constant dense<[2, 3, 0, 2]> : tensor<4xi32>
  %u0 = stablehlo.constant dense<[[[1.0, 9.0], [4.0, 6.0]], [[0.0, 0.0], [0.0, 0.0]], [[7.0, -1.0], [5.5, 2.0]], [[3.0, 0.5], [8.0, 4.5]]]> : tensor<4x2x2xf16>
  %x, %i, %u = stablehlo.optimization_barrier %x0, %i0, %u0 : tensor<3x2x2xf16>, tensor<4xi32>, tensor<4x2x2xf16>
  %r = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<f16>, %b: tensor<f16>):
    %s = stablehlo.minimum %a, %b : tensor<f16>
    stablehlo.return %s : tensor<f16>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1, 2], inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1>
  } : (tensor<3x2x2xf16>, tensor<4xi32>, tensor<4x2x2xf16>) -> tensor<3x2x2xf16>
  check.expect_eq_const %r, dense<[[[5.0, -1.0], [5.0, 2.0]], [[5.0, 5.0], [5.0, 5.0]], [[1.0, 0.5], [4.0, 4.5]]]> : tensor<3x2x2xf16>
  func.return
}

// -----

// The window dimension first in the updates: row-major order of the
// updates is column by column, so with overlapping windows the element at
// column 1 gets update (col 0 of index 1) before (col 1 of index 0); the
// replacing body keeps the last.  No run: element by element.
func.func @window_first() {
  %x0 = stablehlo.constant dense<0> : tensor<4xi32>
  %i0 = stablehlo.constant dense<[[0], [1]]> : tensor<2x1xi32>
  %u0 = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %x, %i, %u = stablehlo.optimization_barrier %x0, %i0, %u0 : tensor<4xi32>, tensor<2x1xi32>, tensor<2x2xi32>
  %r = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    stablehlo.return %b : tensor<i32>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], scatter_dims_to_operand_dims = [0],
      index_vector_dim = 1>
  } : (tensor<4xi32>, tensor<2x1xi32>, tensor<2x2xi32>) -> tensor<4xi32>
  check.expect_eq_const %r, dense<[1, 3, 4, 0]> : tensor<4xi32>
  func.return
}
