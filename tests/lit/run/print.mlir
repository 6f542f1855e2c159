// `xlac print` re-prints a module; its output parses and runs again.
// RUN: xlac print --split-input-file %s | FileCheck %s
// RUN: xlac print --split-input-file %s | xlac run --split-input-file - | FileCheck %s --check-prefix=EXEC
// RUN: xlac print --split-input-file --format=hlo %s | FileCheck %s --check-prefix=HLO

// CHECK: func.func @main
// CHECK: stablehlo.add
// EXEC: result[0]: tensor<2xi32> = [2, 4]
// EXEC-NEXT: result[0]: tensor<i1> = true
// HLO: ENTRY
// HLO: add(
// CHECK: // -----
// CHECK: func.func @main

func.func @main() -> tensor<2xi32> {
  %c = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %r = stablehlo.add %c, %c : tensor<2xi32>
  func.return %r : tensor<2xi32>
}

// -----

func.func @main() -> tensor<i1> {
  %c = stablehlo.constant dense<true> : tensor<i1>
  func.return %c : tensor<i1>
}
