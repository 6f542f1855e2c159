// RUN: xlac run %s --input alpha=3.14 --input x=[1,2,3,4] --input y=[10.5,20.5,30.5,40.5] | FileCheck %s
// RUN: xlac run %s --input %alpha=3.14 --input 1=[1,2,3,4] --input y=[10.5,20.5,30.5,40.5] | FileCheck %s
// RUN: not xlac run %s --input alpha=3.14 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not xlac run %s --input alpha=[3.14] --input x=[1,2,3,4] --input y=[1,2,3,4] 2>&1 | FileCheck %s --check-prefix=SCALAR
// RUN: not xlac run %s --input alpha=1 --input alpha=2 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not xlac run %s --input beta=1 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not xlac run %s --input 3=1 2>&1 | FileCheck %s --check-prefix=UNKNOWN3
// RUN: xlac run %s --random-inputs --seed 5 --input alpha=0 --input y=[1,-2,3,-4.5] | FileCheck %s --check-prefix=RANDOM

// CHECK: result[0]: tensor<4xf32> = [13.64, 26.78, 39.92, 53.06]
// CHECK-NOT: result[1]

// MISSING: xlac: error: missing inputs for @main: x, y
// MISSING: #0 %alpha: tensor<f32>
// MISSING: #1 %x: tensor<4xf32>
// MISSING: #2 %y: tensor<4xf32>
// SCALAR: error: input 'alpha': value has shape [1], but the parameter is tensor<f32>
// TWICE: error: parameter 'alpha' is given more than once
// UNKNOWN: error: @main has no parameter 'beta'
// UNKNOWN3: error: @main has no parameter '3'
// RANDOM: result[0]: tensor<4xf32> = [1, -2, 3, -4.5]

func.func @main(%alpha: tensor<f32>, %x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %a = stablehlo.broadcast_in_dim %alpha, dims = [] : (tensor<f32>) -> tensor<4xf32>
  %ax = stablehlo.multiply %a, %x : tensor<4xf32>
  %r = stablehlo.add %ax, %y : tensor<4xf32>
  func.return %r : tensor<4xf32>
}
