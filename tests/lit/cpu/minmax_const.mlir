// maximum and minimum against a constant (ReLU's 0, clamp bounds) compile
// to a compare and a select instead of llvm.maximum/minimum
// (codegen/emit_scalar.c); the results must keep IEEE maximum/minimum's
// rules bit for bit: NaN propagates, -0 < +0, against +0, -0, 6 and -1.5,
// the constant on either side, over zeros of both signs, subnormals,
// infinities and NaN (NaNs compared as NaN, whatever their payload).
// Folding is off so the kernels compute them; the GPU backend (on the
// SIMT harness) shares the generator.
// RUN: XLAC_FOLD=0 xlac compare %s | FileCheck %s
// RUN: XLAC_CUDA_DRIVER=simt:random XLAC_FOLD=0 xlac compare --backend=gpu %s | FileCheck %s
// RUN: rm -rf %t && XLAC_FOLD=0 xlac run --backend=cpu --xla_dump_to=%t %s > /dev/null
// RUN: not grep -E '@llvm\.(maximum|minimum)' %t/module_0000.main.ir-no-opt.ll
// CHECK: result[0]: i32, identical
// CHECK: result[1]: i32, identical
// CHECK: result[2]: i32, identical
// CHECK: result[3]: i32, identical
// CHECK: result[4]: i32, identical
// CHECK: result[5]: i32, identical
// CHECK: result[6]: i32, identical
// CHECK: result[7]: i32, identical
// CHECK: result[8]: i32, identical
// CHECK: result[9]: i32, identical
// CHECK: result[10]: i32, identical
// CHECK: result[11]: i32, identical
// CHECK: result[12]: i32, identical
// CHECK: result[13]: i32, identical
// CHECK: result[14]: i32, identical
// CHECK: result[15]: i32, identical
func.func @main() -> (tensor<64xi32>, tensor<64xi32>, tensor<64xi32>, tensor<64xi32>, tensor<64xi32>, tensor<64xi32>, tensor<64xi32>, tensor<64xi32>, tensor<64xi32>, tensor<64xi32>, tensor<64xi32>, tensor<64xi32>, tensor<64xi32>, tensor<64xi32>, tensor<64xi32>, tensor<64xi32>) {
  %x = stablehlo.constant dense<[0.0, -0.0, 1.0, -1.0, 6.0, 7.0, -1.5, -2.0, 1.000000000e-40, -1.000000000e-40, 0x7F800000, 0xFF800000, 0x7FC00000, 3.4e+38, -3.4e+38, 5.9999995, -1.4999999, 0.5, -0.5, 2.5, -6.0, 1.000000000e-45, -1.000000000e-45, 100.0, 0.0, -0.0, 1.0, -1.0, 6.0, 7.0, -1.5, -2.0, 1.000000000e-40, -1.000000000e-40, 0x7F800000, 0xFF800000, 0x7FC00000, 3.4e+38, -3.4e+38, 5.9999995, -1.4999999, 0.5, -0.5, 2.5, -6.0, 1.000000000e-45, -1.000000000e-45, 100.0, 0.0, -0.0, 1.0, -1.0, 6.0, 7.0, -1.5, -2.0, 1.000000000e-40, -1.000000000e-40, 0x7F800000, 0xFF800000, 0x7FC00000, 3.4e+38, -3.4e+38, 5.9999995]> : tensor<64xf32>
  %c_pz = stablehlo.constant dense<0.0> : tensor<64xf32>
  %c_nz = stablehlo.constant dense<-0.0> : tensor<64xf32>
  %c_six = stablehlo.constant dense<6.0> : tensor<64xf32>
  %c_neg = stablehlo.constant dense<-1.5> : tensor<64xf32>
  %maximum_pz_r = stablehlo.maximum %x, %c_pz : tensor<64xf32>
  %maximum_pz_l = stablehlo.maximum %c_pz, %x : tensor<64xf32>
  %minimum_pz_r = stablehlo.minimum %x, %c_pz : tensor<64xf32>
  %minimum_pz_l = stablehlo.minimum %c_pz, %x : tensor<64xf32>
  %maximum_nz_r = stablehlo.maximum %x, %c_nz : tensor<64xf32>
  %maximum_nz_l = stablehlo.maximum %c_nz, %x : tensor<64xf32>
  %minimum_nz_r = stablehlo.minimum %x, %c_nz : tensor<64xf32>
  %minimum_nz_l = stablehlo.minimum %c_nz, %x : tensor<64xf32>
  %maximum_six_r = stablehlo.maximum %x, %c_six : tensor<64xf32>
  %maximum_six_l = stablehlo.maximum %c_six, %x : tensor<64xf32>
  %minimum_six_r = stablehlo.minimum %x, %c_six : tensor<64xf32>
  %minimum_six_l = stablehlo.minimum %c_six, %x : tensor<64xf32>
  %maximum_neg_r = stablehlo.maximum %x, %c_neg : tensor<64xf32>
  %maximum_neg_l = stablehlo.maximum %c_neg, %x : tensor<64xf32>
  %minimum_neg_r = stablehlo.minimum %x, %c_neg : tensor<64xf32>
  %minimum_neg_l = stablehlo.minimum %c_neg, %x : tensor<64xf32>
  %nan = stablehlo.constant dense<0x7FC00000> : tensor<64xf32>
  %maximum_pz_r_isnan = stablehlo.compare NE, %maximum_pz_r, %maximum_pz_r : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xi1>
  %maximum_pz_r_c = stablehlo.select %maximum_pz_r_isnan, %nan, %maximum_pz_r : tensor<64xi1>, tensor<64xf32>
  %maximum_pz_r_b = stablehlo.bitcast_convert %maximum_pz_r_c : (tensor<64xf32>) -> tensor<64xi32>
  %maximum_pz_l_isnan = stablehlo.compare NE, %maximum_pz_l, %maximum_pz_l : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xi1>
  %maximum_pz_l_c = stablehlo.select %maximum_pz_l_isnan, %nan, %maximum_pz_l : tensor<64xi1>, tensor<64xf32>
  %maximum_pz_l_b = stablehlo.bitcast_convert %maximum_pz_l_c : (tensor<64xf32>) -> tensor<64xi32>
  %minimum_pz_r_isnan = stablehlo.compare NE, %minimum_pz_r, %minimum_pz_r : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xi1>
  %minimum_pz_r_c = stablehlo.select %minimum_pz_r_isnan, %nan, %minimum_pz_r : tensor<64xi1>, tensor<64xf32>
  %minimum_pz_r_b = stablehlo.bitcast_convert %minimum_pz_r_c : (tensor<64xf32>) -> tensor<64xi32>
  %minimum_pz_l_isnan = stablehlo.compare NE, %minimum_pz_l, %minimum_pz_l : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xi1>
  %minimum_pz_l_c = stablehlo.select %minimum_pz_l_isnan, %nan, %minimum_pz_l : tensor<64xi1>, tensor<64xf32>
  %minimum_pz_l_b = stablehlo.bitcast_convert %minimum_pz_l_c : (tensor<64xf32>) -> tensor<64xi32>
  %maximum_nz_r_isnan = stablehlo.compare NE, %maximum_nz_r, %maximum_nz_r : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xi1>
  %maximum_nz_r_c = stablehlo.select %maximum_nz_r_isnan, %nan, %maximum_nz_r : tensor<64xi1>, tensor<64xf32>
  %maximum_nz_r_b = stablehlo.bitcast_convert %maximum_nz_r_c : (tensor<64xf32>) -> tensor<64xi32>
  %maximum_nz_l_isnan = stablehlo.compare NE, %maximum_nz_l, %maximum_nz_l : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xi1>
  %maximum_nz_l_c = stablehlo.select %maximum_nz_l_isnan, %nan, %maximum_nz_l : tensor<64xi1>, tensor<64xf32>
  %maximum_nz_l_b = stablehlo.bitcast_convert %maximum_nz_l_c : (tensor<64xf32>) -> tensor<64xi32>
  %minimum_nz_r_isnan = stablehlo.compare NE, %minimum_nz_r, %minimum_nz_r : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xi1>
  %minimum_nz_r_c = stablehlo.select %minimum_nz_r_isnan, %nan, %minimum_nz_r : tensor<64xi1>, tensor<64xf32>
  %minimum_nz_r_b = stablehlo.bitcast_convert %minimum_nz_r_c : (tensor<64xf32>) -> tensor<64xi32>
  %minimum_nz_l_isnan = stablehlo.compare NE, %minimum_nz_l, %minimum_nz_l : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xi1>
  %minimum_nz_l_c = stablehlo.select %minimum_nz_l_isnan, %nan, %minimum_nz_l : tensor<64xi1>, tensor<64xf32>
  %minimum_nz_l_b = stablehlo.bitcast_convert %minimum_nz_l_c : (tensor<64xf32>) -> tensor<64xi32>
  %maximum_six_r_isnan = stablehlo.compare NE, %maximum_six_r, %maximum_six_r : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xi1>
  %maximum_six_r_c = stablehlo.select %maximum_six_r_isnan, %nan, %maximum_six_r : tensor<64xi1>, tensor<64xf32>
  %maximum_six_r_b = stablehlo.bitcast_convert %maximum_six_r_c : (tensor<64xf32>) -> tensor<64xi32>
  %maximum_six_l_isnan = stablehlo.compare NE, %maximum_six_l, %maximum_six_l : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xi1>
  %maximum_six_l_c = stablehlo.select %maximum_six_l_isnan, %nan, %maximum_six_l : tensor<64xi1>, tensor<64xf32>
  %maximum_six_l_b = stablehlo.bitcast_convert %maximum_six_l_c : (tensor<64xf32>) -> tensor<64xi32>
  %minimum_six_r_isnan = stablehlo.compare NE, %minimum_six_r, %minimum_six_r : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xi1>
  %minimum_six_r_c = stablehlo.select %minimum_six_r_isnan, %nan, %minimum_six_r : tensor<64xi1>, tensor<64xf32>
  %minimum_six_r_b = stablehlo.bitcast_convert %minimum_six_r_c : (tensor<64xf32>) -> tensor<64xi32>
  %minimum_six_l_isnan = stablehlo.compare NE, %minimum_six_l, %minimum_six_l : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xi1>
  %minimum_six_l_c = stablehlo.select %minimum_six_l_isnan, %nan, %minimum_six_l : tensor<64xi1>, tensor<64xf32>
  %minimum_six_l_b = stablehlo.bitcast_convert %minimum_six_l_c : (tensor<64xf32>) -> tensor<64xi32>
  %maximum_neg_r_isnan = stablehlo.compare NE, %maximum_neg_r, %maximum_neg_r : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xi1>
  %maximum_neg_r_c = stablehlo.select %maximum_neg_r_isnan, %nan, %maximum_neg_r : tensor<64xi1>, tensor<64xf32>
  %maximum_neg_r_b = stablehlo.bitcast_convert %maximum_neg_r_c : (tensor<64xf32>) -> tensor<64xi32>
  %maximum_neg_l_isnan = stablehlo.compare NE, %maximum_neg_l, %maximum_neg_l : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xi1>
  %maximum_neg_l_c = stablehlo.select %maximum_neg_l_isnan, %nan, %maximum_neg_l : tensor<64xi1>, tensor<64xf32>
  %maximum_neg_l_b = stablehlo.bitcast_convert %maximum_neg_l_c : (tensor<64xf32>) -> tensor<64xi32>
  %minimum_neg_r_isnan = stablehlo.compare NE, %minimum_neg_r, %minimum_neg_r : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xi1>
  %minimum_neg_r_c = stablehlo.select %minimum_neg_r_isnan, %nan, %minimum_neg_r : tensor<64xi1>, tensor<64xf32>
  %minimum_neg_r_b = stablehlo.bitcast_convert %minimum_neg_r_c : (tensor<64xf32>) -> tensor<64xi32>
  %minimum_neg_l_isnan = stablehlo.compare NE, %minimum_neg_l, %minimum_neg_l : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xi1>
  %minimum_neg_l_c = stablehlo.select %minimum_neg_l_isnan, %nan, %minimum_neg_l : tensor<64xi1>, tensor<64xf32>
  %minimum_neg_l_b = stablehlo.bitcast_convert %minimum_neg_l_c : (tensor<64xf32>) -> tensor<64xi32>
  return %maximum_pz_r_b, %maximum_pz_l_b, %minimum_pz_r_b, %minimum_pz_l_b, %maximum_nz_r_b, %maximum_nz_l_b, %minimum_nz_r_b, %minimum_nz_l_b, %maximum_six_r_b, %maximum_six_l_b, %minimum_six_r_b, %minimum_six_l_b, %maximum_neg_r_b, %maximum_neg_l_b, %minimum_neg_r_b, %minimum_neg_l_b : tensor<64xi32>, tensor<64xi32>, tensor<64xi32>, tensor<64xi32>, tensor<64xi32>, tensor<64xi32>, tensor<64xi32>, tensor<64xi32>, tensor<64xi32>, tensor<64xi32>, tensor<64xi32>, tensor<64xi32>, tensor<64xi32>, tensor<64xi32>, tensor<64xi32>, tensor<64xi32>
}
