// RUN: xlac run %s | FileCheck %s

func.func @main() {
  %a = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi8>
  // CHECK: %a: tensor<2x2xi8> = {{\[\[}}1, 2], [3, 4]]
  interpreter.print %a : tensor<2x2xi8>
  %b = stablehlo.constant dense<[0.1, -2.5, 0x7FC00000, 0xFF800000, -0.0]> : tensor<5xf32>
  // CHECK-NEXT: %b: tensor<5xf32> = [0.1, -2.5, nan, -inf, -0]
  interpreter.print %b : tensor<5xf32>
  %c = stablehlo.constant dense<(1.5, -2.0)> : tensor<complex<f64>>
  // CHECK-NEXT: %c: tensor<complex<f64>> = (1.5, -2)
  interpreter.print %c : tensor<complex<f64>>
  %d = stablehlo.iota dim = 0 : tensor<2000xui16>
  // CHECK-NEXT: %d: tensor<2000xui16> = [0, 1, 2, ..., 1997, 1998, 1999]
  interpreter.print %d : tensor<2000xui16>
  %e = stablehlo.constant dense<true> : tensor<i1>
  // CHECK-NEXT: %e: tensor<i1> = true
  interpreter.print %e : tensor<i1>
  func.return
}
