// A while loop with several state values prints as HLO's one-tuple loop
// (the state packed into a tuple, each computation unpacking it) and runs
// the same from the printed text.
// RUN: xlac print --format=hlo %s | FileCheck %s
// RUN: xlac print --format=hlo %s | xlac print --format=hlo - | FileCheck %s
// RUN: xlac run %s --input x=[1.5,-0.5] | FileCheck %s --check-prefix=OUT
// RUN: xlac print --format=hlo %s | xlac run - --input x=[1.5,-0.5] | FileCheck %s --check-prefix=OUT

// CHECK: %[[COND:[^ ]*]] ([[CP:[^:]*]]: (s32[], f32[2], f32[2])) -> pred[] {
// CHECK-NEXT: %[[CP]] = (s32[], f32[2]{0}, f32[2]{0}) parameter(0)
// CHECK-NEXT: = s32[] get-tuple-element(%[[CP]]), index=0
// CHECK-NEXT: = f32[2]{0} get-tuple-element(%[[CP]]), index=1
// CHECK: %[[BODY:[^ ]*]] ([[BP:[^:]*]]: (s32[], f32[2], f32[2])) -> (s32[], f32[2], f32[2]) {
// CHECK-NEXT: %[[BP]] = (s32[], f32[2]{0}, f32[2]{0}) parameter(0)
// CHECK: ENTRY
// CHECK: %[[INIT:[^ ]*]] = (s32[], f32[2]{0}, f32[2]{0}) tuple(
// CHECK-NEXT: = (s32[], f32[2]{0}, f32[2]{0}) while(%[[INIT]]), condition=%[[COND]], body=%[[BODY]]

// OUT-DAG: tensor<i32> = 10
// OUT-DAG: tensor<2xf32> = [15, -5]

func.func @main(%x: tensor<2xf32>) -> (tensor<i32>, tensor<2xf32>) {
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %zero = stablehlo.constant dense<0.0> : tensor<2xf32>
  %r:3 = stablehlo.while(%i = %i0, %acc = %zero, %step = %x) : tensor<i32>, tensor<2xf32>, tensor<2xf32>
    cond {
      %ten = stablehlo.constant dense<10> : tensor<i32>
      %c = stablehlo.compare LT, %i, %ten : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %i1 = stablehlo.add %i, %one : tensor<i32>
      %a1 = stablehlo.add %acc, %step : tensor<2xf32>
      stablehlo.return %i1, %a1, %step : tensor<i32>, tensor<2xf32>, tensor<2xf32>
    }
  func.return %r#0, %r#1 : tensor<i32>, tensor<2xf32>
}
