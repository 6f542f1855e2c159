// Shardy's meshes and shardings in text: read, kept in the IR and printed
// back in the canonical form Shardy prints (docs/ir.md, "Shardings").
// RUN: xlac print %s | FileCheck %s
// RUN: xlac print %s > %t.mlir
// RUN: xlac print %t.mlir | diff %t.mlir -
// RUN: xlac verify %s

// CHECK: module @sharded attributes {mhlo.num_partitions = 8 : i32} {
// CHECK-NEXT: sdy.mesh @mesh = <["x"=4, "y"=2]> {stablehlo.mesh = {axes = [{name = "x", size = 4 : i64}, {name = "y", size = 2 : i64}]}}
// Iota device ids are the default: dropped.
// CHECK-NEXT: sdy.mesh @iota = <["a"=2, "b"=2]>
// CHECK-NEXT: sdy.mesh @rev = <["a"=2, "b"=2], device_ids=[3, 2, 1, 0]>
// CHECK-NEXT: sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>
// CHECK-NEXT: sdy.mesh @empty = <[]>
// CHECK-NEXT: sdy.mesh @"odd name" = <["with \22quote\22"=2]>
module @sharded attributes {mhlo.num_partitions = 8 : i32} {
  sdy.mesh @mesh = <["x"=4, "y"=2]> {stablehlo.mesh = {axes = [{name = "x", size = 4 : i64}, {name = "y", size = 2 : i64}]}}
  sdy.mesh @iota = <["a"=2, "b"=2], device_ids=[0, 1, 2, 3]>
  sdy.mesh @rev = < [ "a" = 2 , "b"=2 ] , device_ids = [3,2,1,0] >
  sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>
  sdy.mesh @empty = <[]>
  sdy.mesh @"odd name" = <["with \22quote\22"=2]>

  // CHECK: func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}, %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2, "y"}p0, {?}p2], replicated={"x":(2)2}>}, %arg2: tensor<8xf32> {sdy.sharding = #sdy.sharding<@rev, [{"a", ?}], unreduced={"b"}>}, %arg3: tensor<8xf32> {sdy.sharding = #sdy.sharding<@rev, [{}], unreduced=max{"a", "b"}>}, %arg4: tensor<8xf32> {sdy.sharding = #sdy.sharding<@rev, [{}], unreduced={"a"}>}, %arg5: tensor<f32> {sdy.sharding = #sdy.sharding<@"odd name", [], replicated={"with \22quote\22"}>})
  // CHECK-SAME: -> (tensor<8x8xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<mesh<["z"=2]>, [{"z"}, {}]>}, tensor<8xf32>)
  func.func public @main(
      %arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
      %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding< @mesh , [ { "x" : ( 1 ) 2 , "y" } p0 , { ? } p2 ] , replicated = { "x":(2)2 } >},
      %arg2: tensor<8xf32> {sdy.sharding = #sdy.sharding<@rev, [{"a", ?}], unreduced={"b"}>},
      %arg3: tensor<8xf32> {sdy.sharding = #sdy.sharding<@rev, [{}], unreduced=max{"a", "b"}>},
      // a sum is the default reduction
      %arg4: tensor<8xf32> {sdy.sharding = #sdy.sharding<@rev, [{}], unreduced=sum{"a"}>},
      %arg5: tensor<f32> {sdy.sharding = #sdy.sharding<@"odd name", [], replicated={"with \22quote\22"}>})
      -> (tensor<8x8xf32> {jax.result_info = "result", sdy.sharding = #sdy.sharding<#sdy.mesh<["z"=2]>, [{"z"}, {}]>}, tensor<8xf32>) {
    // CHECK-NEXT: %0 = sdy.sharding_constraint %arg0 <@mesh, [{}, {"x", ?}p1]> : tensor<8x8xf32>
    %0 = sdy.sharding_constraint %arg0 <@mesh, [{}, {"x", ?}p1]> : tensor<8x8xf32>
    // CHECK-NEXT: %1 = sdy.sharding_constraint %0 <@mesh, [{"y"}, {}]> {foo = 1 : i32} : tensor<8x8xf32>
    %1 = sdy.sharding_constraint %0 <@mesh, [{"y"}, {}]> {foo = 1 : i32} : tensor<8x8xf32>
    // the generic form reads the same
    // CHECK-NEXT: %2 = sdy.sharding_constraint %1 <@mesh, [{}, {}]> : tensor<8x8xf32>
    %2 = "sdy.sharding_constraint"(%1) <{sharding = #sdy.sharding<@mesh, [{}, {}]>}> : (tensor<8x8xf32>) -> tensor<8x8xf32>
    // CHECK-NEXT: sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}], unreduced={"x"}>]>, sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=8}>
    %3 = stablehlo.add %2, %2 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}], unreduced={"x"}>]>, sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=8, j=8}>} : tensor<8x8xf32>
    // CHECK-NEXT: sdy.sharding = #sdy.sharding_per_value<[<mesh<["a"=2]>, [{"a"}, {}]>, <@maximal_mesh_0, []>]>
    %4:2 = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<mesh<["a"=2]>, [{"a"}, {}]>, <@maximal_mesh_0, []>]>} %3, %arg2 : tensor<8x8xf32>, tensor<8xf32>
    // an op without results may have one sharding: where it runs
    // CHECK-NEXT: "stablehlo.custom_call"(%arg5) {call_target_name = "foo", has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>]>}
    stablehlo.custom_call @foo(%arg5) {has_side_effect = true, sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>]>} : (tensor<f32>) -> ()
    return %4#0, %4#1 : tensor<8x8xf32>, tensor<8xf32>
  }
}
