// A gather whose slices are whole rows of a one-dimensional operand: the
// run of contiguous elements ends at the operand's first dimension, and
// the result's batch dimension before it is no part of it (what
// jnp.searchsorted over one bin compiles to; the run once took the batch
// dimension too and read past the operand).  Also a scatter of such rows.
// (Parameters, not constants, so that nothing is folded.)
// RUN: xlac run %s --input 'x=[-0.5]' --input 'i=[[0],[0],[0],[0],[1],[1],[0],[0]]' --input 'y=[1,2]' \
// RUN:   --input 'j=[[1],[0],[5],[1]]' --input 'u=[[1],[2],[3],[4]]'
func.func @main(%x: tensor<1xf32>, %i: tensor<8x1xui32>, %y: tensor<2xf32>, %j: tensor<4x1xi32>, %u: tensor<4x1xf32>) {
  %g = "stablehlo.gather"(%x, %i) {dimension_numbers = #stablehlo.gather<offset_dims = [1], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1>} : (tensor<1xf32>, tensor<8x1xui32>) -> tensor<8x1xf32>
  check.expect_eq_const %g, dense<-0.5> : tensor<8x1xf32>
  %h = "stablehlo.gather"(%y, %j) {dimension_numbers = #stablehlo.gather<offset_dims = [1], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 2>} : (tensor<2xf32>, tensor<4x1xi32>) -> tensor<4x2xf32>
  check.expect_eq_const %h, dense<[[1.0, 2.0], [1.0, 2.0], [1.0, 2.0], [1.0, 2.0]]> : tensor<4x2xf32>
  %k = stablehlo.constant dense<[[0], [0], [0], [0]]> : tensor<4x1xi32>
  %s = "stablehlo.scatter"(%x, %k, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %t = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<1xf32>, tensor<4x1xi32>, tensor<4x1xf32>) -> tensor<1xf32>
  check.expect_eq_const %s, dense<[9.5]> : tensor<1xf32>
  func.return
}
