// Choosing what runs: @main when present, --entry, or else every public
// function without parameters (the style of StableHLO interpreter tests).
// RUN: xlac run --split-input-file %s | FileCheck %s
// RUN: xlac run --entry two %s 2>&1 | FileCheck %s --check-prefix=ENTRY
// RUN: not xlac run --entry nope %s 2>&1 | FileCheck %s --check-prefix=NOPE

func.func @one() -> tensor<i32> {
  %c = stablehlo.constant dense<1> : tensor<i32>
  func.return %c : tensor<i32>
}
func.func @two() -> tensor<2xi32> {
  %c = stablehlo.constant dense<[2, 2]> : tensor<2xi32>
  func.return %c : tensor<2xi32>
}
func.func private @hidden() -> tensor<i32> {
  %c = stablehlo.constant dense<3> : tensor<i32>
  func.return %c : tensor<i32>
}
func.func @takes_arg(%x: tensor<i32>) -> tensor<i32> {
  func.return %x : tensor<i32>
}
// CHECK: @one result[0]: tensor<i32> = 1
// CHECK-NEXT: @two result[0]: tensor<2xi32> = [2, 2]
// CHECK-NOT: hidden
// CHECK-NOT: takes_arg
// ENTRY: result[0]: tensor<2xi32> = [2, 2]
// NOPE: xlac: error: no function named @nope (the module has @one, @two, @hidden, @takes_arg, @helper, @main)

// -----

func.func @helper() -> tensor<i32> {
  %c = stablehlo.constant dense<4> : tensor<i32>
  func.return %c : tensor<i32>
}
func.func @main() -> (tensor<i32>, tensor<i1>) {
  %c = func.call @helper() : () -> tensor<i32>
  %t = stablehlo.constant dense<true> : tensor<i1>
  func.return %c, %t : tensor<i32>, tensor<i1>
}
// CHECK: result[0]: tensor<i32> = 4
// CHECK-NEXT: result[1]: tensor<i1> = true

// -----

// An empty chunk runs nothing.
