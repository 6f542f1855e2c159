// Element types, tuple/token/quantized types and every dense literal form.
// RUN: xlac print %s > %t1 && xlac print %t1 > %t2 && diff %t1 %t2
// RUN: FileCheck %s < %t1
// CHECK-LABEL: func.func @types
// CHECK-SAME: %arg0: tensor<2xi2>, %arg1: tensor<ui4>, %arg2: tensor<0x3xbf16>, %arg3: tensor<f8E4M3FN>, %arg4: tensor<2xf8E5M2>, %arg5: tensor<f4E2M1FN>, %arg6: tensor<complex<f64>>
// CHECK-SAME: %arg7: tuple<tensor<f32>, tuple<>>, %arg8: !stablehlo.token, %arg9: tensor<4x!quant.uniform<i8:f32, 0.10000000000000001:-30>>
// CHECK-SAME: %arg10: tensor<2x2x!quant.uniform<i8:f32:1, {0.10000000000000001:-30,0.5:-20}>>
func.func @types(%a: tensor<2xi2>, %b: tensor<ui4>, %c: tensor<0x3xbf16>, %d: tensor<f8E4M3FN>, %e: tensor<2xf8E5M2>,
                 %f: tensor<f4E2M1FN>, %g: tensor<complex<f64>>, %h: tuple<tensor<f32>, tuple<>>, %t: !stablehlo.token,
                 %q: tensor<4x!quant.uniform<i8:f32, 0.1:-30>>,
                 %r: tensor<2x2x!quant.uniform<i8:f32:1, {0.1:-30, 0.5:-20}>>) {
  func.return
}
// CHECK-LABEL: func.func @literals
func.func @literals() {
  // CHECK: dense<[1.0, 2.0]> : tensor<2xf32>
  %0 = stablehlo.constant dense<"0x0000803F00000040"> : tensor<2xf32>
  // CHECK: dense<[true, false, true]> : tensor<3xi1>
  %1 = stablehlo.constant dense<"0x010001"> : tensor<3xi1>
  // CHECK: dense<[0x7F800000, 0xFFC00000, -0.0]> : tensor<3xf32>
  %2 = stablehlo.constant dense<[0x7F800000, 0xFFC00000, -0.0]> : tensor<3xf32>
  // CHECK: dense<(1.5, -2.0)> : tensor<complex<f32>>
  %3 = stablehlo.constant dense<(1.5, -2.0)> : tensor<complex<f32>>
  // CHECK: dense<[]> : tensor<0xf32>
  %4 = stablehlo.constant dense<> : tensor<0xf32>
  // CHECK: dense<-1> : tensor<2x3xi64>
  %5 = stablehlo.constant dense<-1> : tensor<2x3xi64>
  // CHECK{LITERAL}: dense<[[1, 2], [3, 4]]> : tensor<2x2xui8>
  %6 = stablehlo.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xui8>
  // CHECK: dense<-1> : tensor<i8>
  %7 = stablehlo.constant dense<255> : tensor<i8>
  // CHECK: dense<0.1> : tensor<bf16>
  %8 = stablehlo.constant dense<0.1> : tensor<bf16>
  // CHECK: dense<[1, 2]> : tensor<2xi8>
  %9 = stablehlo.constant() <{value = dense<[1, 2]> : tensor<2xi8>}> : () -> tensor<2x!quant.uniform<i8:f32, 2.0:15>>
  // CHECK: {a = array<i64: 1, 2>, b = array<i1: true>, c = [1, 2], d = 3 : i64, e = 2.5 : f32, f = "s", g = @sym, h, i = {j = 1}, k = #stablehlo<precision HIGH>, l = #stablehlo.channel_handle<handle = 1, type = 0>, m = #foo.bar<"opaque" -> x>}
  "check.expect_eq"(%5, %5) {a = array<i64: 1, 2>, b = array<i1: true>, c = [1, 2], d = 3 : i64, e = 2.5 : f32, f = "s", g = @sym, h, i = {j = 1}, k = #stablehlo<precision HIGH>, l = #stablehlo.channel_handle<handle = 1, type = 0>, m = #foo.bar<"opaque" -> x>} : (tensor<2x3xi64>, tensor<2x3xi64>) -> ()
  func.return
}
