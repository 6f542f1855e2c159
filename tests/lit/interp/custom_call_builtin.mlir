// RUN: xlac run %s
// RUN: not xlac run --entry=fails %s 2>&1 | FileCheck %s

// The custom-call targets JAX emits that xlac implements itself: sharding
// and memory-space annotations pass their operands through, AllocateBuffer
// gives a tensor (zeros), InspectSharding does nothing on one device (the
// form JAX emits for several devices returns its operand), and
// shape_assertion fails with its message when its predicate is false.

func.func @main() {
  %x = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %s = stablehlo.custom_call @Sharding(%x) {mhlo.sharding = "{replicated}"} : (tensor<4xf32>) -> tensor<4xf32>
  %f = stablehlo.custom_call @SPMDFullToShardShape(%s) {mhlo.sharding = "{manual}"} : (tensor<4xf32>) -> tensor<4xf32>
  %g = stablehlo.custom_call @SPMDShardToFullShape(%f) {mhlo.sharding = "{replicated}"} : (tensor<4xf32>) -> tensor<4xf32>
  %h = stablehlo.custom_call @MoveToHost(%g) : (tensor<4xf32>) -> tensor<4xf32>
  %d = stablehlo.custom_call @MoveToDevice(%h) : (tensor<4xf32>) -> tensor<4xf32>
  %p = stablehlo.custom_call @annotate_device_placement(%d) {has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "pinned_host"}} : (tensor<4xf32>) -> tensor<4xf32>
  %l:2 = stablehlo.custom_call @xla.sdy.GlobalToLocalShape(%p, %x) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  %y = stablehlo.add %l#0, %l#1 : tensor<4xf32>
  stablehlo.custom_call @InspectSharding(%y) {has_side_effect = true} : (tensor<4xf32>) -> ()
  %q = stablehlo.custom_call @InspectSharding(%y) {api_version = 1 : i32, backend_config = "\10\05j", has_side_effect = true} : (tensor<4xf32>) -> tensor<4xf32>
  check.expect_eq_const %q, dense<[2.0, 4.0, 6.0, 8.0]> : tensor<4xf32>
  %t = stablehlo.constant dense<true> : tensor<i1>
  %n = stablehlo.constant dense<4> : tensor<i32>
  stablehlo.custom_call @shape_assertion(%t, %n) {error_message = "never shown {0}", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
  %z = stablehlo.custom_call @AllocateBuffer() : () -> tensor<2x2xi32>
  check.expect_eq_const %y, dense<[2.0, 4.0, 6.0, 8.0]> : tensor<4xf32>
  check.expect_eq_const %z, dense<0> : tensor<2x2xi32>
  func.return
}

func.func @fails() {
  %a = stablehlo.constant dense<[true, false]> : tensor<2xi1>
  %n = stablehlo.constant dense<3> : tensor<i64>
  // CHECK: custom_call_builtin.mlir:[[@LINE+1]]:{{[0-9]+}}: error: runtime error: custom_call @shape_assertion: Input shapes do not match: 'b' = 3 must be even
  stablehlo.custom_call @shape_assertion(%a, %n) {error_message = "Input shapes do not match: 'b' = {0} must be even", has_side_effect = true} : (tensor<2xi1>, tensor<i64>) -> ()
  func.return
}
