// `xlac verify --verify-diagnostics` compares diagnostics with annotations.
// RUN: xlac verify --verify-diagnostics --split-input-file %s
// Without the annotations taken into account the same file fails.
// RUN: not xlac verify --split-input-file %s 2>&1 | FileCheck %s --check-prefix=PLAIN
// PLAIN: error:
// A wrong expectation and an unexpected diagnostic are both reported.
// RUN: sed 's/@+1 {{use of/@+2 {{use of/' %s > %t.mlir
// RUN: not xlac verify --verify-diagnostics --split-input-file %t.mlir 2>&1 | FileCheck %s --check-prefix=WRONG
// WRONG: error: expected error "use of undefined value" was not produced
// WRONG: error: unexpected error: {{.*}}undefined value

func.func @main() {
  // expected-error @+1 {{use of undefined value}}
  %r = stablehlo.add %nope, %nope : tensor<i32>
  func.return
}

// -----

func.func @main() -> tensor<i32> {
  %c = stablehlo.constant dense<1> : tensor<i32>
  func.return %c : tensor<i32>
}
