// RUN: xlac run %s
// RUN: xlac run --backend=cpu --verbose %s 2>&1 | FileCheck %s --check-prefix=CPU
// RUN: xlac opt --pass chlo-decompose %s | FileCheck %s
// chlo.erf is left alone by chlo-decompose: the code generator emits it
// inline for every float type (codegen/math_approx.c).  Both backends agree
// with the expected values (computed in double and rounded) within 2 ulp (the check op
// itself runs in the interpreter).
// CHECK-LABEL: func.func @main
// CHECK: chlo.erf
// CPU: cpu: 1 ops native ({{[0-9]+}} fusions), 1 through the interpreter
func.func @main() {
  %x_f32 = stablehlo.constant dense<[0.0, -0.0, 0x7F800000, 0xFF800000, 0x7FC00000, 1.0, -1.0, 0.5, -0.5, 1.0e-30, -1.0e-30, 1.0e-45, 3.4e+38, -3.4e+38, 2.0, 0.999999, -0.999999, 1.000001, 3.9, 88.5, -89.0, 1.0e+10, 1.0e+20, -1.0e+20, 0.1, -0.3, 0.75, 5.0, 12.0, -7.5, 1.0e-05, 0.9999]> : tensor<32xf32>
  %x = stablehlo.optimization_barrier %x_f32 : tensor<32xf32>
  %r_f32 = chlo.erf %x : tensor<32xf32> -> tensor<32xf32>
  %e_f32 = stablehlo.constant dense<[0.0, -0.0, 1.0, -1.0, 0x7FC00000, 0.8427008, -0.8427008, 0.5204999, -0.5204999, 1.1283791e-30, -1.1283791e-30, 1.0e-45, 1.0, -1.0, 0.9953223, 0.84270036, -0.84270036, 0.8427012, 0.99999994, 1.0, -1.0, 1.0, 1.0, -1.0, 0.112462915, -0.32862678, 0.71115565, 1.0, 1.0, -1.0, 1.12837915e-05, 0.8426593]> : tensor<32xf32>
  check.expect_close %r_f32, %e_f32, max_ulp_difference = 2 : tensor<32xf32>, tensor<32xf32>
  func.return
}
