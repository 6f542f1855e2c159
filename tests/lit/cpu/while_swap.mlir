// A while loop whose body permutes its state (a, b) -> (b, a): the compiled
// loop copies one value aside through the runtime (xlacrt_save_copy), which
// records a failed allocation in the run's status instead of crashing.
// RUN: xlac run %s | FileCheck %s
// RUN: XLAC_DEBUG_LLVM=1 xlac run --backend=cpu %s 2>&1 >/dev/null | FileCheck %s --check-prefix=IR
// CHECK: result[0]: tensor<3xf32> = [4, 5, 6]
// CHECK: result[1]: tensor<3xf32> = [1, 2, 3]
// IR: call ptr @xlacrt_save_copy
// IR: call void @xlacrt_restore_free
func.func @main() -> (tensor<3xf32>, tensor<3xf32>) {
  %a = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %b = stablehlo.constant dense<[4.0, 5.0, 6.0]> : tensor<3xf32>
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%x = %a, %y = %b, %i = %i0) : tensor<3xf32>, tensor<3xf32>, tensor<i32>
    cond {
      %n = stablehlo.constant dense<3> : tensor<i32>
      %c = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %one = stablehlo.constant dense<1> : tensor<i32>
      %j = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %y, %x, %j : tensor<3xf32>, tensor<3xf32>, tensor<i32>
    }
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>
}
