// RUN: xlac verify --verify-diagnostics --split-input-file %s

func.func @gather_dim(%a: tensor<2x2xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'stablehlo.all_gather' op all_gather_dim 2 is out of range for tensor<2x2xf32>}}
  %r = "stablehlo.all_gather"(%a) {all_gather_dim = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2x2xf32>) -> tensor<2x4xf32>
  func.return %r : tensor<2x4xf32>
}

// -----

func.func @duplicate_replica(%a: tensor<2xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{replica id #1 seen more than once}}
  %r = "stablehlo.all_gather"(%a) {all_gather_dim = 0 : i64, replica_groups = dense<[[0, 1], [1, 2]]> : tensor<2x2xi64>} : (tensor<2xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

func.func @global_ids(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{channel_id must be positive when use_global_device_ids is set}}
  %r = "stablehlo.all_reduce"(%a) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>, use_global_device_ids} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// -----

func.func @all_reduce_region(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'stablehlo.all_reduce' op element type f32 is not promotable to the reduction type f16}}
  %r = "stablehlo.all_reduce"(%a) ({
    ^bb0(%x: tensor<f16>, %y: tensor<f16>):
      %s = "stablehlo.add"(%x, %y) : (tensor<f16>, tensor<f16>) -> tensor<f16>
      "stablehlo.return"(%s) : (tensor<f16>) -> ()
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// -----

func.func @all_to_all_count(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{replica groups have 2 members but split_count is 4}}
  %r = "stablehlo.all_to_all"(%a) {split_dimension = 0 : i64, concat_dimension = 0 : i64, split_count = 4 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// -----

func.func @all_to_all_split(%a: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{split dimension has size 3, expected to be a multiple of split_count 2}}
  %r = "stablehlo.all_to_all"(%a) {split_dimension = 0 : i64, concat_dimension = 0 : i64, split_count = 2 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<3xf32>) -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}

// -----

func.func @permute_pairs(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{duplicate target 1 in source_target_pairs}}
  %r = "stablehlo.collective_permute"(%a) {source_target_pairs = dense<[[0, 1], [2, 1]]> : tensor<2x2xi64>} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// -----

func.func @reduce_scatter_shape(%a: tensor<4xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{result type tensor<3xf32> is not a scatter of tensor<4xf32> along dimension 0}}
  %r = "stablehlo.reduce_scatter"(%a) ({
    ^bb0(%x: tensor<f32>, %y: tensor<f32>):
      %s = "stablehlo.add"(%x, %y) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {scatter_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xf32>) -> tensor<3xf32>
  func.return %r : tensor<3xf32>
}

// -----

func.func @replica_id_type() -> tensor<i32> {
  // expected-error @+1 {{'stablehlo.replica_id' op result must be tensor<ui32>, got tensor<i32>}}
  %r = "stablehlo.replica_id"() : () -> tensor<i32>
  func.return %r : tensor<i32>
}

// -----

func.func @p(%a: tensor<2xf32>) -> tensor<2xf32> {
  func.return %a : tensor<2xf32>
}
func.func @run_parallel_args(%a: tensor<2xf32>) {
  // expected-error @+1 {{'interpreter.run_parallel' op has 1 operands but the programs take 2 arguments}}
  %r:2 = "interpreter.run_parallel"(%a) {programs = [[@p], [@p]]} : (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  func.return
}
