// RUN: not xlac run %s | FileCheck %s

func.func @main() {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %b = stablehlo.constant dense<[1, 3]> : tensor<2xi32>
  %p = interpreter.probe %a, probe_id = "x" : tensor<2xi32>
  // CHECK: check.expect_serialized_eq failed at {{.*}}:[[@LINE+1]]:3: element [1]: got 3, expected 2
  check.expect_serialized_eq %b, probe_id = "x" : tensor<2xi32>
  // CHECK: check.expect_serialized_eq failed at {{.*}}:[[@LINE+1]]:3: no value was recorded for probe 'x' (iteration 1)
  check.expect_serialized_eq %b, probe_id = "x", iter = 1 : tensor<2xi32>
  // CHECK: check.expect_serialized_eq failed at {{.*}}:[[@LINE+1]]:3: no value was recorded for probe 'y' (iteration 0)
  check.expect_serialized_eq %b, probe_id = "y" : tensor<2xi32>
  func.return
}
