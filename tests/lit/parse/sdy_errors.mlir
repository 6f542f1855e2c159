// Malformed Shardy meshes and shardings: one error at the offending
// character, never a crash.
// RUN: not xlac print --split-input-file %s 2>&1 | FileCheck %s

sdy.mesh @mesh = <["x"=4]>
// CHECK: sdy_errors.mlir:[[@LINE+1]]:76: error: expected '>' to end the sharding, found '}'
func.func @f(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]}) {
  func.return
}

// -----
sdy.mesh @mesh = <["x"=4]>
// CHECK: sdy_errors.mlir:[[@LINE+1]]:62: error: expected a mesh name (@mesh) or an inline mesh (mesh<[...]>), found '"'
func.func @f(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<"mesh", [{"x"}]>}) {
  func.return
}

// -----
sdy.mesh @mesh = <["x"=4, "y"=2]>
// CHECK: sdy_errors.mlir:[[@LINE+1]]:75: error: expected '}' or ', ?' to end a dimension sharding, found '"'
func.func @f(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x" "y"}]>}) {
  func.return
}

// -----
// CHECK: sdy_errors.mlir:[[@LINE+1]]:23: error: expected '=' after the axis name, found ']'
sdy.mesh @mesh = <["x"]>

// -----
// CHECK: sdy_errors.mlir:[[@LINE+1]]:27: error: expected 'device_ids'
sdy.mesh @mesh = <["x"=2], devices=[0, 1]>

// -----
sdy.mesh @mesh = <["x"=4, "y"=2]>
// CHECK: sdy_errors.mlir:[[@LINE+1]]:92: error: expected 'replicated={...}' or 'unreduced={...}' (each at most once)
func.func @f(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], replicated={"x"}, replicated={"y"}>}) {
  func.return
}

// -----
sdy.mesh @mesh = <["x"=4]>
func.func @f(%a: tensor<8xf32>) {
  // CHECK: sdy_errors.mlir:[[@LINE+1]]:35: error: expected the sharding ('<@mesh, [...]>'), found ':'
  %0 = sdy.sharding_constraint %a : tensor<8xf32>
  func.return
}

// -----
sdy.mesh @mesh = <["x"=4]>
// CHECK: sdy_errors.mlir:[[@LINE+1]]:10: error: redefinition of mesh '@mesh'
sdy.mesh @mesh = <["y"=4]>

// -----
sdy.mesh @mesh = <["x"=4]>
// CHECK: sdy_errors.mlir:[[@LINE+1]]:75: error: expected '(' to begin a sub-axis' pre-size, found '1'
func.func @f(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x":1)2}]>}) {
  func.return
}

// -----
// CHECK: sdy_errors.mlir:[[@LINE+1]]:22: error: unknown escape in a string
sdy.mesh @mesh = <["x\q"=4]>

// -----
sdy.mesh @mesh = <["x"=4]>
// CHECK: sdy_errors.mlir:[[@LINE+1]]:76: error: the priority is too large
func.func @f(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}p99999999999999999999]>}) {
  func.return
}

// -----
// CHECK: sdy_errors.mlir:[[@LINE+1]]:10: error: expected the mesh's name (@name)
sdy.mesh = <["x"=4]>

// -----
// CHECK: sdy_errors.mlir:[[@LINE+1]]:86: error: expected ']' to end the list of shardings, found '}'
func.func @f(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>}) {
  func.return
}

// -----
// CHECK: sdy_errors.mlir:[[@LINE+2]]:1: error: expected a device id (an integer), found the end of the attribute
sdy.mesh @mesh = <["x"=4], device_ids=[0, 1,
