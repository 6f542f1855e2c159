// RUN: xlac compare --random-inputs --entry fill_result %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --threads 1 --entry fill_result %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry chain %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --threads 1 --entry chain %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry kept %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry self_update %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry two_results %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry windows_2d %s | FileCheck %s --check-prefix=EXACT
// RUN: rm -rf %t && xlac run --backend=cpu --random-inputs --entry fill_result %s --xla_dump_to=%t/fill >/dev/null
// RUN: xlac run --backend=cpu --random-inputs --entry chain %s --xla_dump_to=%t/chain >/dev/null
// RUN: xlac run --backend=cpu --random-inputs --entry kept %s --xla_dump_to=%t/kept >/dev/null
// RUN: cat %t/fill/*buffer-assignment.txt | FileCheck %s --check-prefix=FILL
// RUN: cat %t/chain/*buffer-assignment.txt | FileCheck %s --check-prefix=CHAIN
// RUN: cat %t/kept/*buffer-assignment.txt | FileCheck %s --check-prefix=KEPT
// A scatter starts from a copy of its operand.  When the operand dies at
// the scatter, the result takes its storage and nothing is copied; when
// the result is returned, the operand (here a fill of zeros, as in the
// gradient of an embedding lookup) is computed straight into the result
// buffer.  An operand read again later, or one that is also the updates,
// keeps its own storage.  Values are the interpreter's bit for bit, on
// one thread and on the pool (the big operands are copied and updated in
// column chunks); the random indices lie in [-10, 10]: duplicates,
// negative and too large ones.
// EXACT: COMPARE {{.*}} max_ulp=0{{$}}
// FILL: tensor<1200x64xf32> {{.*}} result 0 {{.*}} shares
// FILL: peak temp bytes: 0
// CHAIN: %{{[0-9]+}}({{[0-9a-z_]+}}) tensor<1200x64xf32> {{.*}} temp {{.*}}
// CHAIN-NEXT: %{{[0-9]+}}({{[0-9a-z_]+}}) tensor<1200x64xf32> {{.*}} temp {{.*}} shares
// KEPT-NOT: shares

func.func @fill_result(%i: tensor<40x1xi32>, %u: tensor<40x64xf32>) -> tensor<1200x64xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %x = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<f32>) -> tensor<1200x64xf32>
  %r = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1>
  } : (tensor<1200x64xf32>, tensor<40x1xi32>, tensor<40x64xf32>) -> tensor<1200x64xf32>
  return %r : tensor<1200x64xf32>
}

// The operand dies at the scatter; the result is read by the next op.
func.func @chain(%t: tensor<1200x64xf32>, %i: tensor<40x1xi32>, %u: tensor<40x64xf32>) -> tensor<1200x64xf32> {
  %x = stablehlo.negate %t : tensor<1200x64xf32>
  %r = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1>
  } : (tensor<1200x64xf32>, tensor<40x1xi32>, tensor<40x64xf32>) -> tensor<1200x64xf32>
  %y = stablehlo.abs %r : tensor<1200x64xf32>
  return %y : tensor<1200x64xf32>
}

// The operand (a square root, which fusion does not recompute) is read
// again after the scatter: it keeps its storage and values.
func.func @kept(%t: tensor<300x8xf32>, %i: tensor<40x1xi32>, %u: tensor<40x8xf32>) -> (tensor<300x8xf32>, tensor<300x8xf32>) {
  %q = stablehlo.abs %t : tensor<300x8xf32>
  %x = stablehlo.sqrt %q : tensor<300x8xf32>
  %r = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1>
  } : (tensor<300x8xf32>, tensor<40x1xi32>, tensor<40x8xf32>) -> tensor<300x8xf32>
  %y = stablehlo.abs %r : tensor<300x8xf32>
  %w = stablehlo.add %x, %r : tensor<300x8xf32>
  return %y, %w : tensor<300x8xf32>, tensor<300x8xf32>
}

// The operand is also the updates: every row is added into the rows the
// indices name, reading rows that earlier updates have not changed.
func.func @self_update(%t: tensor<16x8xf32>, %i: tensor<16x1xi32>) -> tensor<16x8xf32> {
  %x = stablehlo.negate %t : tensor<16x8xf32>
  %r = "stablehlo.scatter"(%x, %i, %x) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1>
  } : (tensor<16x8xf32>, tensor<16x1xi32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  %y = stablehlo.negate %r : tensor<16x8xf32>
  return %y : tensor<16x8xf32>
}

// Two operands, one dying at the scatter and one returned as well.
func.func @two_results(%t: tensor<600x8xf32>, %i: tensor<40x1xi32>, %u: tensor<40x8xf32>, %v: tensor<40x8xi32>) -> (tensor<600x8xf32>, tensor<600x8xi32>, tensor<600x8xi32>) {
  %x = stablehlo.negate %t : tensor<600x8xf32>
  %c = stablehlo.constant dense<3> : tensor<i32>
  %n = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<600x8xi32>
  %r:2 = "stablehlo.scatter"(%x, %n, %i, %u, %v) ({
  ^bb0(%a: tensor<f32>, %b: tensor<i32>, %a2: tensor<f32>, %b2: tensor<i32>):
    %s = stablehlo.add %a, %a2 : tensor<f32>
    %p = stablehlo.multiply %b, %b2 : tensor<i32>
    stablehlo.return %s, %p : tensor<f32>, tensor<i32>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0],
      scatter_dims_to_operand_dims = [0], index_vector_dim = 1>
  } : (tensor<600x8xf32>, tensor<600x8xi32>, tensor<40x1xi32>, tensor<40x8xf32>, tensor<40x8xi32>) -> (tensor<600x8xf32>, tensor<600x8xi32>)
  return %r#0, %r#1, %n : tensor<600x8xf32>, tensor<600x8xi32>, tensor<600x8xi32>
}

// Windows of two dimensions whose indices are not a trailing run of the
// operand, on an operand that dies there.
func.func @windows_2d(%t: tensor<6x5x4xf32>, %i: tensor<3x2xi32>, %u: tensor<3x2x3xf32>) -> tensor<6x5x4xf32> {
  %x = stablehlo.negate %t : tensor<6x5x4xf32>
  %r = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {
    scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1, 2], inserted_window_dims = [1],
      scatter_dims_to_operand_dims = [1, 0], index_vector_dim = 1>
  } : (tensor<6x5x4xf32>, tensor<3x2xi32>, tensor<3x2x3xf32>) -> tensor<6x5x4xf32>
  %y = stablehlo.negate %r : tensor<6x5x4xf32>
  return %y : tensor<6x5x4xf32>
}
