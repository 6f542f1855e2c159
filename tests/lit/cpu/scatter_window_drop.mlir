// RUN: xlac run %s
// RUN: xlac compare --random-inputs --entry jvp %s | FileCheck %s --check-prefix=CMP
// CMP: COMPARE {{.*}} max_ulp=0{{$}}
// A scatter update window that sticks out of the operand (here the window
// of two elements starting at 9 of 10) is skipped whole: its element that
// would land inside (9) is left alone too.  JAX relies on it: scatter's
// "drop" mode lowers to a plain scatter, and the JVP of lax.scatter_max
// below (what JAX emits for jax.jvp of scatter_max with indices 6, 7 and 9
// and windows of two) adds a tangent at 9 that the window at 9 must not
// reach.  Writing the inside part gave tangent 0.25 at 9 where JAX's CPU
// backend gives 1.5, and second-order gradients of scatter_max off by 20%.
// Expected values are JAX's CPU backend's.

func.func @jvp(%x: tensor<10xf32>, %y: tensor<3x2xf32>, %tx: tensor<10xf32>, %ty: tensor<3x2xf32>)
    -> (tensor<10xf32>, tensor<10xf32>) {
  %c = stablehlo.constant dense<[[6], [7], [9]]> : tensor<3x1xi32>
  %out = "stablehlo.scatter"(%x, %c, %y) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}
    : (tensor<10xf32>, tensor<3x1xi32>, tensor<3x2xf32>) -> tensor<10xf32>
  %init = "stablehlo.gather"(%x, %c) {dimension_numbers = #stablehlo.gather<offset_dims = [1], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 2>}
    : (tensor<10xf32>, tensor<3x1xi32>) -> tensor<3x2xf32>
  %target = "stablehlo.gather"(%out, %c) {dimension_numbers = #stablehlo.gather<offset_dims = [1], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 2>}
    : (tensor<10xf32>, tensor<3x1xi32>) -> tensor<3x2xf32>
  %won = stablehlo.compare EQ, %y, %target, FLOAT : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x2xi1>
  %kept = stablehlo.compare EQ, %init, %target, FLOAT : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x2xi1>
  %z10 = stablehlo.constant dense<0.0> : tensor<10xf32>
  %one = stablehlo.constant dense<1.0> : tensor<3x2xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<3x2xf32>
  %mone = stablehlo.constant dense<-1.0> : tensor<3x2xf32>
  %wonf = stablehlo.select %won, %one, %zero : tensor<3x2xi1>, tensor<3x2xf32>
  %nupd_s = "stablehlo.scatter"(%z10, %c, %wonf) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}
    : (tensor<10xf32>, tensor<3x1xi32>, tensor<3x2xf32>) -> tensor<10xf32>
  %nupd = "stablehlo.gather"(%nupd_s, %c) {dimension_numbers = #stablehlo.gather<offset_dims = [1], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 2>}
    : (tensor<10xf32>, tensor<3x1xi32>) -> tensor<3x2xf32>
  %nref_s = "stablehlo.scatter"(%z10, %c, %one) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}
    : (tensor<10xf32>, tensor<3x1xi32>, tensor<3x2xf32>) -> tensor<10xf32>
  %nref = "stablehlo.gather"(%nref_s, %c) {dimension_numbers = #stablehlo.gather<offset_dims = [1], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 2>}
    : (tensor<10xf32>, tensor<3x1xi32>) -> tensor<3x2xf32>
  %nupd1 = stablehlo.add %nupd, %one : tensor<3x2xf32>
  %inv1 = stablehlo.divide %one, %nupd1 : tensor<3x2xf32>
  %inv0 = stablehlo.divide %one, %nupd : tensor<3x2xf32>
  %unorm = stablehlo.select %kept, %inv1, %inv0 : tensor<3x2xi1>, tensor<3x2xf32>
  %ucoef = stablehlo.select %won, %unorm, %zero : tensor<3x2xi1>, tensor<3x2xf32>
  %onorm = stablehlo.select %kept, %inv1, %zero : tensor<3x2xi1>, tensor<3x2xf32>
  %onorm1 = stablehlo.add %mone, %onorm : tensor<3x2xf32>
  %ocoef = stablehlo.divide %onorm1, %nref : tensor<3x2xf32>
  %txg = "stablehlo.gather"(%tx, %c) {dimension_numbers = #stablehlo.gather<offset_dims = [1], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 2>}
    : (tensor<10xf32>, tensor<3x1xi32>) -> tensor<3x2xf32>
  %t0 = stablehlo.multiply %txg, %ocoef : tensor<3x2xf32>
  %t1 = stablehlo.multiply %ty, %ucoef : tensor<3x2xf32>
  %tu = stablehlo.add %t0, %t1 : tensor<3x2xf32>
  %tout = "stablehlo.scatter"(%tx, %c, %tu) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}
    : (tensor<10xf32>, tensor<3x1xi32>, tensor<3x2xf32>) -> tensor<10xf32>
  return %out, %tout : tensor<10xf32>, tensor<10xf32>
}

// @main checks @jvp, then plain scatters with windows partly out at
// either end: windows of two at 9 and -1 write nothing, those at 6 and 7
// (7 twice) take the max; whole rows (3x4 windows of a 5x4 operand, one
// run) from starts 2 (fits), 3 and -1 (skipped).  Values from JAX's CPU
// backend.
func.func @main() {
  %x0 = stablehlo.constant dense<[-1.32, 1.85, -0.32, -2.33, -1.95, 2.95, -0.86, -1.69, -0.62, 3.33]> : tensor<10xf32>
  %y0 = stablehlo.constant dense<[[6.68, 1.14], [1.82, 1.66], [1.37, -0.95]]> : tensor<3x2xf32>
  %tx0 = stablehlo.constant dense<[-1.0, -0.75, -0.5, -0.25, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5]> : tensor<10xf32>
  %ty0 = stablehlo.constant dense<[[0.5, -0.25], [1.5, 2.0], [-3.0, 4.0]]> : tensor<3x2xf32>
  %x, %y, %tx, %ty = stablehlo.optimization_barrier %x0, %y0, %tx0, %ty0 : tensor<10xf32>, tensor<3x2xf32>, tensor<10xf32>, tensor<3x2xf32>
  %r:2 = func.call @jvp(%x, %y, %tx, %ty) : (tensor<10xf32>, tensor<3x2xf32>, tensor<10xf32>, tensor<3x2xf32>) -> (tensor<10xf32>, tensor<10xf32>)
  check.expect_eq_const %r#0, dense<[-1.32, 1.85, -0.32, -2.33, -1.95, 2.95, 6.68, 1.82, 1.66, 3.33]> : tensor<10xf32>
  check.expect_almost_eq_const %r#1, dense<[-1.0, -0.75, -0.5, -0.25, 0.25, 0.5, 0.5, 1.5, 2.0, 1.5]> : tensor<10xf32>
  %w0 = stablehlo.constant dense<0.0> : tensor<10xf32>
  %i0 = stablehlo.constant dense<[[6], [7], [9], [-1], [7]]> : tensor<5x1xi32>
  %u0 = stablehlo.constant dense<[[5.0, 6.0], [7.0, 8.0], [9.0, 10.0], [11.0, 12.0], [1.0, 9.5]]> : tensor<5x2xf32>
  %w, %i, %u = stablehlo.optimization_barrier %w0, %i0, %u0 : tensor<10xf32>, tensor<5x1xi32>, tensor<5x2xf32>
  %m = "stablehlo.scatter"(%w, %i, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}
    : (tensor<10xf32>, tensor<5x1xi32>, tensor<5x2xf32>) -> tensor<10xf32>
  check.expect_eq_const %m, dense<[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 5.0, 7.0, 9.5, 0.0]> : tensor<10xf32>
  %a0 = stablehlo.constant dense<1> : tensor<5x4xi32>
  %j0 = stablehlo.constant dense<[[2], [3], [-1]]> : tensor<3x1xi32>
  %v0 = stablehlo.constant dense<7> : tensor<3x3x4xi32>
  %a, %j, %v = stablehlo.optimization_barrier %a0, %j0, %v0 : tensor<5x4xi32>, tensor<3x1xi32>, tensor<3x3x4xi32>
  %s = "stablehlo.scatter"(%a, %j, %v) ({
  ^bb0(%p: tensor<i32>, %q: tensor<i32>):
    %t = stablehlo.add %p, %q : tensor<i32>
    stablehlo.return %t : tensor<i32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1, 2], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}
    : (tensor<5x4xi32>, tensor<3x1xi32>, tensor<3x3x4xi32>) -> tensor<5x4xi32>
  check.expect_eq_const %s, dense<[[1, 1, 1, 1], [1, 1, 1, 1], [8, 8, 8, 8], [8, 8, 8, 8], [8, 8, 8, 8]]> : tensor<5x4xi32>
  func.return
}
