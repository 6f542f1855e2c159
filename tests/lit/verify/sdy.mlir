// RUN: xlac verify --verify-diagnostics --split-input-file %s
// Shardy's meshes and shardings (src/ir/sharding.h, docs/ir.md "Shardings").

sdy.mesh @mesh = <["x"=4, "y"=2]>
// expected-error @+1 {{function @unknown_mesh argument 0: unknown mesh: @other}}
func.func @unknown_mesh(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@other, [{"x"}]>}) {
  func.return
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>
// expected-error @+1 {{function @unknown_axis result 0: unknown axis "z" (not an axis of the mesh)}}
func.func @unknown_axis(%a: tensor<8xf32>) -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z"}]>}) {
  func.return %a : tensor<8xf32>
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>
// expected-error @+1 {{function @rank argument 0: the sharding has 1 dimension shardings but the tensor has rank 2}}
func.func @rank(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
  func.return
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>
// expected-error @+1 {{function @twice argument 0: axis "x" is used twice}}
func.func @twice(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y", "x"}]>}) {
  func.return
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>
// expected-error @+1 {{function @replicated_twice argument 0: axis "y" is used twice}}
func.func @replicated_twice(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}], replicated={"y"}>}) {
  func.return
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>
// expected-error @+1 {{function @sub_and_whole argument 0: both a sub-axis and the whole of axis "x" are used}}
func.func @sub_and_whole(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2}, {"x"}]>}) {
  func.return
}

// -----

sdy.mesh @mesh = <["x"=8]>
// expected-error @+1 {{function @overlap argument 0: overlapping sub-axes "x":(1)4 and "x":(2)4}}
func.func @overlap(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)4}, {"x":(2)4}]>}) {
  func.return
}

// -----

sdy.mesh @mesh = <["x"=8]>
// expected-error @+1 {{function @mergeable argument 0: consecutive sub-axes "x":(1)2, "x":(2)2 make one sub-axis}}
func.func @mergeable(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)2, "x":(2)2}]>}) {
  func.return
}

// -----

sdy.mesh @mesh = <["x"=8]>
// expected-error @+1 {{function @pre_size argument 0: sub-axis "x":(0)2: the pre-size must be at least 1}}
func.func @pre_size(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(0)2}]>}) {
  func.return
}

// -----

sdy.mesh @mesh = <["x"=8]>
// expected-error @+1 {{function @sub_size argument 0: sub-axis "x":(2)1: the size must be greater than 1}}
func.func @sub_size(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(2)1}]>}) {
  func.return
}

// -----

sdy.mesh @mesh = <["x"=8]>
// expected-error @+1 {{function @sub_divides argument 0: sub-axis "x":(3)2 does not divide its axis evenly}}
func.func @sub_divides(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(3)2}]>}) {
  func.return
}

// -----

sdy.mesh @mesh = <["x"=8]>
// expected-error @+1 {{function @sub_whole argument 0: sub-axis "x":(1)8 is the whole axis}}
func.func @sub_whole(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":(1)8}]>}) {
  func.return
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>
// expected-error @+1 {{function @priority argument 0: dimension 1 is empty and closed but has a priority}}
func.func @priority(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}p1]>}) {
  func.return
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>
// expected-error @+1 {{function @order argument 0: replicated axes are not in mesh order ("y" before "x")}}
func.func @order(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], replicated={"y", "x"}>}) {
  func.return
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>
// expected-error @+1 {{function @unreduced_order argument 0: unreduced axes are not in mesh order}}
func.func @unreduced_order(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"y", "x"}>}) {
  func.return
}

// -----

sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>
// expected-error @+1 {{function @maximal argument 0: a sharding over a maximal mesh (one device) has no dimension shardings}}
func.func @maximal(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@maximal_mesh_0, [{}]>}) {
  func.return
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>
// expected-error @+1 {{function @kind argument 0: 'sdy.sharding' must be a #sdy.sharding}}
func.func @kind(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>}) {
  func.return
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>
func.func @constraint_rank(%a: tensor<8x8xf32>) {
  // expected-error @+1 {{'sdy.sharding_constraint' op sharding: the sharding has 1 dimension shardings but the tensor has rank 2}}
  %0 = sdy.sharding_constraint %a <@mesh, [{"x"}]> : tensor<8x8xf32>
  func.return
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>
func.func @constraint_mesh(%a: tensor<8xf32>) {
  // expected-error @+1 {{'sdy.sharding_constraint' op sharding: unknown mesh: @nowhere}}
  %0 = sdy.sharding_constraint %a <@nowhere, [{"x"}]> : tensor<8xf32>
  func.return
}

// -----

func.func @constraint_type(%a: tensor<8xf32>) {
  // expected-error @+1 {{'sdy.sharding_constraint' op result type tensor<8xi32> differs from operand type tensor<8xf32>}}
  %0 = "sdy.sharding_constraint"(%a) {sharding = #sdy.sharding<mesh<["x"=2]>, [{"x"}]>} : (tensor<8xf32>) -> tensor<8xi32>
  func.return
}

// -----

func.func @constraint_attr(%a: tensor<8xf32>) {
  // expected-error @+1 {{'sdy.sharding_constraint' op requires a 'sharding' attribute that is a #sdy.sharding}}
  %0 = "sdy.sharding_constraint"(%a) {sharding = "x"} : (tensor<8xf32>) -> tensor<8xf32>
  func.return
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>
func.func @per_value_count(%a: tensor<8xf32>) {
  // expected-error @+1 {{'stablehlo.add' op has 1 results but 'sdy.sharding' gives 2 shardings}}
  %0 = stablehlo.add %a, %a {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>, <@mesh, [{}]>]>} : tensor<8xf32>
  func.return
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>
func.func @per_value_axis(%a: tensor<8xf32>, %b: tensor<8xf32>) {
  // expected-error @+1 {{'stablehlo.optimization_barrier' op sharding of result 1: unknown axis "q"}}
  %0:2 = stablehlo.optimization_barrier {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>, <@mesh, [{"q"}]>]>} %a, %b : tensor<8xf32>, tensor<8xf32>
  func.return
}

// -----

sdy.mesh @mesh = <["x"=4, "y"=2]>
func.func @per_value_kind(%a: tensor<8xf32>) {
  // expected-error @+1 {{'stablehlo.add' op attribute 'sdy.sharding' must be a #sdy.sharding_per_value}}
  %0 = stablehlo.add %a, %a {sdy.sharding = #sdy.sharding<@mesh, [{}]>} : tensor<8xf32>
  func.return
}

// -----

func.func @inline_mesh(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=2, "x"=2]>, [{}]>}) {
  func.return
}
// expected-error @-3 {{function @inline_mesh argument 0: inline mesh: the mesh has two axes named "x"}}

// -----

// expected-error @+1 {{'sdy.mesh' op @zero: axis "a" has size 0: an axis has at least 1 device}}
sdy.mesh @zero = <["a"=2, "b"=2, "a"=0]>

// -----

// expected-error @+1 {{'sdy.mesh' op @dup: the mesh has two axes named "a"}}
sdy.mesh @dup = <["a"=2, "b"=2, "a"=4]>

// -----

// expected-error @+1 {{'sdy.mesh' op @count: the mesh has 4 devices (the product of its axis sizes) but 6 device ids}}
sdy.mesh @count = <["a"=2, "b"=2], device_ids=[0, 2, 1, 3, 4, 5]>

// -----

// expected-error @+1 {{'sdy.mesh' op @perm: the device ids are not a permutation of 0..1}}
sdy.mesh @perm = <["a"=2], device_ids=[1, 1]>

// -----

// expected-error @+1 {{'sdy.mesh' op @neg: device id -1 is negative}}
sdy.mesh @neg = <[], device_ids=[-1]>

// -----

// expected-error @+1 {{'sdy.mesh' op @two: a mesh without axes has at most one device id, not 2}}
sdy.mesh @two = <[], device_ids=[1, 0]>

// -----

// expected-error @+1 {{redefinition of symbol named 'f'}}
sdy.mesh @f = <["a"=2]>
func.func @f() {
  func.return
}
