// --expect on complex results: an element passes when |got - expected| <=
// atol + rtol * |expected|, with the magnitudes of complex numbers; where
// the expected value has a NaN or an infinite part, each part is compared
// on its own (NaN only for NaN).
// RUN: rm -rf %t && xlac run %s --entry expected --output-dir %t > /dev/null
// RUN: xlac run %s --entry near --expect 0=@%t/result0.npy --expect 1=@%t/result1.npy | FileCheck %s --check-prefix=NEAR
// RUN: not xlac run %s --entry far --expect 0=@%t/result0.npy --expect 1=@%t/result1.npy | FileCheck %s --check-prefix=FAR
// A tolerance wide enough for both: |(8e-6, 8e-6)| = 1.13e-5.
// RUN: xlac run %s --entry far --expect 0=@%t/result0.npy --expect 1=@%t/result1.npy --atol 0.07 | FileCheck %s --check-prefix=WIDE

// NEAR: expect result[0]: ok, max abs error {{.*}} (atol 1e-05, rtol 0.0001)
// NEAR: expect result[1]: ok, max abs error {{.*}} (atol 1e-05, rtol 0.0001)

// FAR: expect result[0]: MISMATCH, 1 of 4 elements outside the tolerance (atol 1e-05, rtol 0.0001); element 1 is (-3, 0.5625), expected (-3, 0.5)
// Each part is within atol, the magnitude of the difference is not.
// FAR: expect result[1]: MISMATCH, 1 of 2 elements outside the tolerance (atol 1e-05, rtol 0.0001); element 1 is (8e-06, 8e-06), expected (0, 0)

// WIDE: expect result[0]: ok, max abs error 0.0625 (atol 0.07, rtol 0.0001)
// WIDE: expect result[1]: ok, max abs error 1.13e-05 (atol 0.07, rtol 0.0001)

func.func @expected() -> (tensor<4xcomplex<f32>>, tensor<2xcomplex<f64>>) {
  %a = stablehlo.constant dense<[(1.0, 2.0), (-3.0, 0.5), (0.0, 0.0), (0x7FC00000, 1.0)]> : tensor<4xcomplex<f32>>
  %b = stablehlo.constant dense<[(1000.0, -2000.0), (0.0, 0.0)]> : tensor<2xcomplex<f64>>
  func.return %a, %b : tensor<4xcomplex<f32>>, tensor<2xcomplex<f64>>
}

// Within the default tolerances (atol 1e-5, rtol 1e-4), never bit for bit.
func.func @near() -> (tensor<4xcomplex<f32>>, tensor<2xcomplex<f64>>) {
  %a = stablehlo.constant dense<[(1.000001, 2.000002), (-3.0, 0.5), (0.0, 0.000005), (0x7FC00000, 1.000001)]> : tensor<4xcomplex<f32>>
  %b = stablehlo.constant dense<[(1000.05, -2000.05), (0.000006, 0.000006)]> : tensor<2xcomplex<f64>>
  func.return %a, %b : tensor<4xcomplex<f32>>, tensor<2xcomplex<f64>>
}

func.func @far() -> (tensor<4xcomplex<f32>>, tensor<2xcomplex<f64>>) {
  %a = stablehlo.constant dense<[(1.0, 2.0), (-3.0, 0.5625), (0.0, 0.0), (0x7FC00000, 1.0)]> : tensor<4xcomplex<f32>>
  %b = stablehlo.constant dense<[(1000.0, -2000.0), (0.000008, 0.000008)]> : tensor<2xcomplex<f64>>
  func.return %a, %b : tensor<4xcomplex<f32>>, tensor<2xcomplex<f64>>
}
