// RUN: xlac run --split-input-file %s
// RUN: xlac compare --random-inputs --entry rows_f32 %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry rows_f16_i64 %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry planes_i32 %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry batched_rows %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry rows_mean %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry one_row %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry rows_types %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac run --backend=cpu --random-inputs --entry rows_f32 --xla_dump_to=%t %s > /dev/null
// RUN: FileCheck %s --check-prefix=RUNS < %t/module_0000.module.ir-no-opt.ll
// gather whose slices end in a contiguous run of the operand (embedding
// lookups: whole rows of a table) runs as a kernel of its own that reads
// each slice's start indices once and copies the run whole.  Results must
// be the interpreter's: clamped starts, partial windows, runs over several
// dimensions, batching dimensions, 32- and 64-bit indices.  The random
// indices of `compare` lie in [-10, 10], so they clamp at both ends.
// EXACT: COMPARE {{.*}} max_ulp=0{{$}}
// A row of rows_f32 is one copy of 16 floats.
// RUNS: call void @llvm.memcpy.p0.p0.i64({{.*}}, i64 64, i1 false)

func.func @rows_f32(%x: tensor<12x16xf32>, %i: tensor<7x3x1xi32>) -> tensor<7x3x16xf32> {
  %r = "stablehlo.gather"(%x, %i) {
    dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>,
    slice_sizes = array<i64: 1, 16>} : (tensor<12x16xf32>, tensor<7x3x1xi32>) -> tensor<7x3x16xf32>
  return %r : tensor<7x3x16xf32>
}

// Part of each row, from a clamped column start: a run of 5 of 9 columns.
func.func @rows_f16_i64(%x: tensor<8x9xf16>, %i: tensor<20x2xi64>) -> tensor<20x5xf16> {
  %r = "stablehlo.gather"(%x, %i) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0, 1], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 5>} : (tensor<8x9xf16>, tensor<20x2xi64>) -> tensor<20x5xf16>
  return %r : tensor<20x5xf16>
}

// Whole planes (a run over two dimensions); 2 of 3 rows of a plane from a
// clamped (plane, row) start, still one run; 2x3 windows from (plane, row,
// column) starts, a run of one row.
func.func @planes_i32(%x: tensor<5x3x4xi32>, %i: tensor<6x1xi32>, %j: tensor<6x2xi32>, %k: tensor<6x3xi32>)
    -> (tensor<6x3x4xi32>, tensor<6x2x4xi32>, tensor<6x2x3xi32>) {
  %a = "stablehlo.gather"(%x, %i) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 3, 4>} : (tensor<5x3x4xi32>, tensor<6x1xi32>) -> tensor<6x3x4xi32>
  %b = "stablehlo.gather"(%x, %j) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], collapsed_slice_dims = [0], start_index_map = [0, 1], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 2, 4>} : (tensor<5x3x4xi32>, tensor<6x2xi32>) -> tensor<6x2x4xi32>
  %c = "stablehlo.gather"(%x, %k) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], collapsed_slice_dims = [0], start_index_map = [0, 1, 2], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 2, 3>} : (tensor<5x3x4xi32>, tensor<6x3xi32>) -> tensor<6x2x3xi32>
  return %a, %b, %c : tensor<6x3x4xi32>, tensor<6x2x4xi32>, tensor<6x2x3xi32>
}

// take_along_axis of rows: batching dimension 0, one row per index.
func.func @batched_rows(%x: tensor<3x7x8xf32>, %i: tensor<3x4xi32>) -> tensor<3x4x8xf32> {
  %r = "stablehlo.gather"(%x, %i) {
    dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>,
    slice_sizes = array<i64: 1, 1, 8>} : (tensor<3x7x8xf32>, tensor<3x4xi32>) -> tensor<3x4x8xf32>
  return %r : tensor<3x4x8xf32>
}

// The embedding bag: rows gathered, then averaged over the bag.
func.func @rows_mean(%x: tensor<30x64xf32>, %i: tensor<4x5xi32>) -> tensor<4x64xf32> {
  %g = "stablehlo.gather"(%x, %i) {
    dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>,
    slice_sizes = array<i64: 1, 64>} : (tensor<30x64xf32>, tensor<4x5xi32>) -> tensor<4x5x64xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%g init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4x5x64xf32>, tensor<f32>) -> tensor<4x64xf32>
  %n = stablehlo.constant dense<5.0> : tensor<4x64xf32>
  %m = stablehlo.divide %s, %n : tensor<4x64xf32>
  return %m : tensor<4x64xf32>
}

// A single slice: the whole result is one run.
func.func @one_row(%x: tensor<12x16xi32>, %i: tensor<i32>) -> tensor<16xi32> {
  %r = "stablehlo.gather"(%x, %i) {
    dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 0>,
    slice_sizes = array<i64: 1, 16>} : (tensor<12x16xi32>, tensor<i32>) -> tensor<16xi32>
  return %r : tensor<16xi32>
}

// Runs copy storage: booleans, 4-bit integers and complex numbers too.
func.func @rows_types(%p: tensor<6x5xi1>, %q: tensor<6x5xi4>, %c: tensor<6x5xcomplex<f32>>, %i: tensor<7xi32>)
    -> (tensor<7x5xi1>, tensor<7x5xi4>, tensor<7x5xcomplex<f32>>) {
  %a = "stablehlo.gather"(%p, %i) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 5>} : (tensor<6x5xi1>, tensor<7xi32>) -> tensor<7x5xi1>
  %b = "stablehlo.gather"(%q, %i) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 5>} : (tensor<6x5xi4>, tensor<7xi32>) -> tensor<7x5xi4>
  %d = "stablehlo.gather"(%c, %i) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 5>} : (tensor<6x5xcomplex<f32>>, tensor<7xi32>) -> tensor<7x5xcomplex<f32>>
  return %a, %b, %d : tensor<7x5xi1>, tensor<7x5xi4>, tensor<7x5xcomplex<f32>>
}

// Rows 2, 0, clamped 9 -> 3 and clamped -1 -> 0, in a 2x2 batch.
func.func @rows_clamped() {
  %x0 = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0], [10.0, 11.0, 12.0]]> : tensor<4x3xf32>
  %i0 = stablehlo.constant dense<[[2, 0], [9, -1]]> : tensor<2x2xi32>
  %x, %i = stablehlo.optimization_barrier %x0, %i0 : tensor<4x3xf32>, tensor<2x2xi32>
  %r = "stablehlo.gather"(%x, %i) {
    dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>,
    slice_sizes = array<i64: 1, 3>} : (tensor<4x3xf32>, tensor<2x2xi32>) -> tensor<2x2x3xf32>
  check.expect_eq_const %r, dense<[[[7.0, 8.0, 9.0], [1.0, 2.0, 3.0]], [[10.0, 11.0, 12.0], [1.0, 2.0, 3.0]]]> : tensor<2x2x3xf32>
  func.return
}

// -----

// Two columns of a row from (row, col) starts, each clamped on its own:
// (1, 3) reads [1, 3..4], (5, -2) reads [3, 0..1], (0, 9) reads [0, 3..4].
func.func @partial_rows_i64() {
  %x0 = stablehlo.constant dense<[[0, 1, 2, 3, 4], [10, 11, 12, 13, 14], [20, 21, 22, 23, 24], [30, 31, 32, 33, 34]]> : tensor<4x5xi32>
  %i0 = stablehlo.constant dense<[[1, 3], [5, -2], [0, 9]]> : tensor<3x2xi64>
  %x, %i = stablehlo.optimization_barrier %x0, %i0 : tensor<4x5xi32>, tensor<3x2xi64>
  %r = "stablehlo.gather"(%x, %i) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0, 1], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 2>} : (tensor<4x5xi32>, tensor<3x2xi64>) -> tensor<3x2xi32>
  check.expect_eq_const %r, dense<[[13, 14], [30, 31], [3, 4]]> : tensor<3x2xi32>
  func.return
}

// -----

// Whole 2x2 planes: one run of four elements per index.
func.func @planes_f16() {
  %x0 = stablehlo.constant dense<[[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]], [[9.0, 10.0], [11.0, 12.0]]]> : tensor<3x2x2xf16>
  %i0 = stablehlo.constant dense<[2, -4, 1]> : tensor<3xi32>
  %x, %i = stablehlo.optimization_barrier %x0, %i0 : tensor<3x2x2xf16>, tensor<3xi32>
  %r = "stablehlo.gather"(%x, %i) {
    dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 2, 2>} : (tensor<3x2x2xf16>, tensor<3xi32>) -> tensor<3x2x2xf16>
  check.expect_eq_const %r, dense<[[[9.0, 10.0], [11.0, 12.0]], [[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]]> : tensor<3x2x2xf16>
  func.return
}

// -----

// The offset dimension first (rows land in columns): no run in the
// result, the loop kernel gathers element by element.
func.func @rows_transposed() {
  %x0 = stablehlo.constant dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32>
  %i0 = stablehlo.constant dense<[2, 0, 7]> : tensor<3xi32>
  %x, %i = stablehlo.optimization_barrier %x0, %i0 : tensor<3x2xi32>, tensor<3xi32>
  %r = "stablehlo.gather"(%x, %i) {
    dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>,
    slice_sizes = array<i64: 1, 2>} : (tensor<3x2xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  check.expect_eq_const %r, dense<[[5, 1, 5], [6, 2, 6]]> : tensor<2x3xi32>
  func.return
}
