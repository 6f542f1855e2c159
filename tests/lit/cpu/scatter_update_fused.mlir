// A scatter whose updates an op shortly before it computes (a loop fusion
// or one elementwise or index-mapping op, its result used by the scatter
// alone) computes those updates itself, element by element, in its own
// kernel (cpu/kernel_index.c, scatter_update_src): an embedding bag's
// gradient is its output gradient broadcast over the bag, 20 times the
// size, never written out.  The producer is left alone when it reads the
// storage the scatter writes, or its result has another user.  Every
// entry against the interpreter on the same random inputs (indices in
// [-10, 10]: windows out of range are skipped, duplicates add in order),
// exact but for reads_operand's exponential (1 ULP).
// RUN: for e in bag_grad scaled scalar_updates reads_operand two_users; do \
// RUN:   xlac compare --random-inputs --seed 4 --entry $e %s || exit 1; done | FileCheck %s
// CHECK-COUNT-5: COMPARE {{.*}} max_ulp={{[01]}}{{$}}
// The bag's gradient: the scatter's kernel and nothing else (no kernel
// for the broadcast).
// RUN: rm -rf %t && xlac run --backend=cpu --random-inputs --entry bag_grad --xla_dump_to=%t %s > /dev/null
// RUN: FileCheck %s --check-prefix=ONE < %t/module_0000.module.ir-no-opt.ll
// ONE-COUNT-1: define internal void @kernel.
// ONE-NOT: define internal void @kernel.
// Updates that read the table the scatter writes are computed apart.
// RUN: rm -rf %t && xlac run --backend=cpu --random-inputs --entry reads_operand --xla_dump_to=%t %s > /dev/null
// RUN: FileCheck %s --check-prefix=TWO < %t/module_0000.module.ir-no-opt.ll
// TWO-COUNT-4: define internal void @kernel.

func.func @bag_grad(%dy: tensor<6x16xf32>, %ids: tensor<6x5x1xi32>, %t: tensor<30x16xf32>) -> tensor<30x16xf32> {
  %u = stablehlo.broadcast_in_dim %dy, dims = [0, 2] : (tensor<6x16xf32>) -> tensor<6x5x16xf32>
  %r = "stablehlo.scatter"(%t, %ids, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>} : (tensor<30x16xf32>, tensor<6x5x1xi32>, tensor<6x5x16xf32>) -> tensor<30x16xf32>
  return %r : tensor<30x16xf32>
}

// A loop fusion of the broadcast and a scale, into zeros.
func.func @scaled(%dy: tensor<6x16xf32>, %ids: tensor<6x5x1xi32>) -> tensor<30x16xf32> {
  %b = stablehlo.broadcast_in_dim %dy, dims = [0, 2] : (tensor<6x16xf32>) -> tensor<6x5x16xf32>
  %k = stablehlo.constant dense<0.25> : tensor<6x5x16xf32>
  %u = stablehlo.multiply %b, %k : tensor<6x5x16xf32>
  %z = stablehlo.constant dense<0.0> : tensor<30x16xf32>
  %r = "stablehlo.scatter"(%z, %ids, %u) ({
  ^bb0(%a: tensor<f32>, %c: tensor<f32>):
    %s = stablehlo.add %a, %c : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>} : (tensor<30x16xf32>, tensor<6x5x1xi32>, tensor<6x5x16xf32>) -> tensor<30x16xf32>
  return %r : tensor<30x16xf32>
}

// Scalar updates (no window): one element per index pair, replaced.
func.func @scalar_updates(%x: tensor<12x9xi32>, %ids: tensor<20x2xi32>, %v: tensor<20xi32>) -> tensor<12x9xi32> {
  %one = stablehlo.constant dense<3> : tensor<20xi32>
  %u = stablehlo.multiply %v, %one : tensor<20xi32>
  %r = "stablehlo.scatter"(%x, %ids, %u) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    stablehlo.return %b : tensor<i32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>} : (tensor<12x9xi32>, tensor<20x2xi32>, tensor<20xi32>) -> tensor<12x9xi32>
  return %r : tensor<12x9xi32>
}

// The updates are rows of the table itself, which the scatter updates in
// place (a temp that dies there): they must be read before any row
// changes, so they are computed apart.
func.func @reads_operand(%t0: tensor<30x16xf32>, %ids: tensor<8x1xi32>) -> tensor<30x16xf32> {
  %t = stablehlo.exponential %t0 : tensor<30x16xf32>
  %w = stablehlo.slice %t [0:8, 0:16] : (tensor<30x16xf32>) -> tensor<8x16xf32>
  %two = stablehlo.constant dense<2.0> : tensor<8x16xf32>
  %u = stablehlo.multiply %w, %two : tensor<8x16xf32>
  %r = "stablehlo.scatter"(%t, %ids, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<30x16xf32>, tensor<8x1xi32>, tensor<8x16xf32>) -> tensor<30x16xf32>
  %r2 = stablehlo.add %r, %r : tensor<30x16xf32>
  return %r2 : tensor<30x16xf32>
}

// The updates are also returned: computed once, into their buffer.
func.func @two_users(%dy: tensor<6x16xf32>, %ids: tensor<6x5x1xi32>, %t: tensor<30x16xf32>) -> (tensor<30x16xf32>, tensor<6x5x16xf32>) {
  %u = stablehlo.broadcast_in_dim %dy, dims = [0, 2] : (tensor<6x16xf32>) -> tensor<6x5x16xf32>
  %r = "stablehlo.scatter"(%t, %ids, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 2>} : (tensor<30x16xf32>, tensor<6x5x1xi32>, tensor<6x5x16xf32>) -> tensor<30x16xf32>
  return %r, %u : tensor<30x16xf32>, tensor<6x5x16xf32>
}
