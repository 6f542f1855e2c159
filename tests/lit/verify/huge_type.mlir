// RUN: not xlac verify --split-input-file %s 2>&1 | FileCheck %s
// A tensor type whose element count or byte size does not fit in int64 is
// an error at the type, never an overflow.  (The parsers bound sizes
// already; the verifier checks every type again for IR built otherwise:
// tests/unit/test_verify.c.)

// CHECK: huge_type.mlir:[[@LINE+1]]:41: error: tensor has too many elements
func.func @main(%a: tensor<100000000000x100000000000x1000xf32>) -> tensor<100000000000x100000000000x1000xf32> {
  func.return %a : tensor<100000000000x100000000000x1000xf32>
}

// -----

// CHECK: huge_type.mlir:[[@LINE+2]]:53: error: tensor has too many elements
func.func @main() {
  %r = stablehlo.iota dim = 0 : tensor<100000000000x100000000000x1000xf32>
  func.return
}
