// Failed checks report the check, its location and the differing elements
// on stdout, do not stop the program, and make the run fail.
// RUN: not xlac run --split-input-file %s > %t.out 2> %t.err
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=SUMMARY < %t.err

func.func @main() {
  %a = stablehlo.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  // CHECK: check.expect_eq_const failed at {{.*}}check_fail.mlir:[[@LINE+1]]:3: element [0, 2]: got 3, expected 0 (2 of 6 elements differ)
  check.expect_eq_const %a, dense<[[1, 2, 0], [4, 5, 7]]> : tensor<2x3xi32>
  // CHECK-NEXT: element [1, 2]: got 6, expected 7
  check.expect_eq_const %a, dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  func.return
}

// -----

func.func @main() {
  %a = stablehlo.constant dense<[0.0, 1.0]> : tensor<2xf32>
  // CHECK: check.expect_eq_const failed at {{.*}}check_fail.mlir:[[@LINE+1]]:3: element [0]: got 0.0, expected -0.0 (0x80000000) (1 of 2 elements differ)
  check.expect_eq_const %a, dense<[-0.0, 1.0]> : tensor<2xf32>
  // CHECK: check.expect_almost_eq_const failed at {{.*}}check_fail.mlir:[[@LINE+1]]:3: element [1]: got 1.0, expected 1.001 (tolerance 0.0001) (1 of 2 elements differ)
  check.expect_almost_eq_const %a, dense<[0.0, 1.001]> : tensor<2xf32>
  %n = stablehlo.constant dense<0x7FC00000> : tensor<f32>
  %i = stablehlo.constant dense<0x7F800000> : tensor<f32>
  // CHECK: check.expect_almost_eq failed at {{.*}}check_fail.mlir:[[@LINE+1]]:3: value: got nan (0x7FC00000), expected inf (tolerance 0.0001)
  check.expect_almost_eq %n, %i : tensor<f32>
  // CHECK: check.expect_close failed at {{.*}}check_fail.mlir:[[@LINE+1]]:3: value: got nan (0x7FC00000), expected inf, ULP difference: not comparable (allowed 0..1)
  check.expect_close %n, %i : tensor<f32>, tensor<f32>
  %a0 = stablehlo.constant dense<[0.0, 0.0]> : tensor<2xf32>
  // CHECK: custom_call @check.expect_eq failed at {{.*}}check_fail.mlir:[[@LINE+1]]:3: element [1]: got 1.0, expected 0.0
  stablehlo.custom_call @check.expect_eq(%a, %a0) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
  func.return
}

// SUMMARY: 1 checks passed, 6 failed
