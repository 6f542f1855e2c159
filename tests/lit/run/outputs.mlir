// RUN: rm -rf %t && xlac run %s --output-dir %t/a/b | FileCheck %s
// RUN: xlac run %s --entry check_outputs --input x=@%t/a/b/result0.npy --input y=@%t/a/b/result1.npy --input t=@%t/a/b/result2_0.npy --input u=@%t/a/b/result2_1.npy
// RUN: xlac run %s --print-all | FileCheck %s --check-prefix=ALL
// RUN: not xlac run %s --output-dir %s 2>&1 | FileCheck %s --check-prefix=NOTDIR

// CHECK: result[0]: tensor<2x2xbf16> = {{\[\[}}1.5, -2], [0, 3.140625]]
// CHECK-NEXT: result[1]: tensor<3000xi32> = [0, 1, 2, ..., 2997, 2998, 2999]
// CHECK-NEXT: result[2]: tuple(tensor<complex<f32>> = (1, -1), tensor<2xi1> = [true, false])
// ALL: result[1]: tensor<3000xi32> = [0, 1, 2, 3, 4, 5, 6, 7,
// NOTDIR: error: cannot create directory

func.func @main() -> (tensor<2x2xbf16>, tensor<3000xi32>, tuple<tensor<complex<f32>>, tensor<2xi1>>) {
  %a = stablehlo.constant dense<[[1.5, -2.0], [0.0, 3.14]]> : tensor<2x2xbf16>
  %b = stablehlo.iota dim = 0 : tensor<3000xi32>
  %c = stablehlo.constant dense<(1.0, -1.0)> : tensor<complex<f32>>
  %d = stablehlo.constant dense<[true, false]> : tensor<2xi1>
  %t = stablehlo.tuple %c, %d : tuple<tensor<complex<f32>>, tensor<2xi1>>
  func.return %a, %b, %t : tensor<2x2xbf16>, tensor<3000xi32>, tuple<tensor<complex<f32>>, tensor<2xi1>>
}

func.func @check_outputs(%x: tensor<2x2xbf16>, %y: tensor<3000xi32>, %t: tensor<complex<f32>>, %u: tensor<2xi1>) {
  check.expect_eq_const %x, dense<[[1.5, -2.0], [0.0, 3.14]]> : tensor<2x2xbf16>
  %b = stablehlo.iota dim = 0 : tensor<3000xi32>
  check.expect_eq %y, %b : tensor<3000xi32>
  check.expect_eq_const %t, dense<(1.0, -1.0)> : tensor<complex<f32>>
  check.expect_eq_const %u, dense<[true, false]> : tensor<2xi1>
  func.return
}
