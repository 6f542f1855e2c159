// Inputs written as MLIR dense literals: --input NAME=dense<...> and the
// translator-style positional --args list.
// RUN: xlac run %s --args="[dense<[1, 2]> : tensor<2xi32>, dense<5> : tensor<2xi32>]" | FileCheck %s --check-prefix=ARGS
// RUN: xlac run %s --input a='dense<[0x7FFFFFFF, -1]>' --input b='dense<1> : tensor<2xi32>' | FileCheck %s --check-prefix=WRAP
// RUN: not xlac run %s --input a='dense<[1, 2, 3]>' --input b='dense<1>' 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not xlac run %s --input a='dense<1> : tensor<2xi64>' --input b='dense<1>' 2>&1 | FileCheck %s --check-prefix=TYPE
// RUN: not xlac run %s --args="dense<1>" 2>&1 | FileCheck %s --check-prefix=NOTLIST

func.func @main(%a: tensor<2xi32>, %b: tensor<2xi32>) -> tensor<2xi32> {
  %0 = stablehlo.add %a, %b : tensor<2xi32>
  func.return %0 : tensor<2xi32>
}

// ARGS: result[0]: tensor<2xi32> = [6, 7]
// WRAP: result[0]: tensor<2xi32> = [-2147483648, 0]
// The location is in the value as written (line 1), not in a wrapper.
// SHAPE: <input>:1:14: error: too many elements in dimension 0 (expected 2)
// SHAPE-NEXT: dense<[1, 2, 3]>
// SHAPE-NEXT: {{^}}             ^
// SHAPE: xlac: error: input 'a': cannot parse 'dense<[1, 2, 3]>' as a dense literal
// TYPE: xlac: error: input 'a': value has type tensor<2xi64>, but the parameter is tensor<2xi32>
// NOTLIST: --args expects a list like [dense<1> : tensor<2xi32>, ...]
