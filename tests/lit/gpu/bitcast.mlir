// bitcast_convert between widths on the gpu backend, against the
// interpreter on the same random inputs: i1 and wider types (element k is
// bit k), c128 and 2 x c64 both ways (the real part's bits first).  64
// i1s into an f64 is in simt_types.mlir (GPGPU-Sim gets it wrong).
// XLAC-BACKENDS: gpu
// XLAC-SIMT: forward reverse random random:deferred
// RUN: %S/Inputs/sim.sh --check
// RUN: %S/Inputs/sim.sh xlac compare --backend=gpu --random-inputs --seed 11 %s | FileCheck %s
// CHECK: result[0]: complex<f32>, identical (0 of 6 elements differ)
// CHECK: result[1]: complex<f64>, identical (0 of 5 elements differ)
// CHECK: result[2]: i1, identical (0 of 64 elements differ)
// CHECK: result[3]: i1, identical (0 of 64 elements differ)
// CHECK: COMPARE name={{.*}} max_ulp=0

func.func @main(%a: tensor<3xcomplex<f64>>, %b: tensor<5x2xcomplex<f32>>, %q: tensor<4xui16>) -> (tensor<3x2xcomplex<f32>>, tensor<5xcomplex<f64>>, tensor<4x16xi1>, tensor<2x32xi1>) {
  %0 = stablehlo.bitcast_convert %a : (tensor<3xcomplex<f64>>) -> tensor<3x2xcomplex<f32>>
  %2 = stablehlo.bitcast_convert %b : (tensor<5x2xcomplex<f32>>) -> tensor<5xcomplex<f64>>
  %7 = stablehlo.bitcast_convert %q : (tensor<4xui16>) -> tensor<4x16xi1>
  %8 = stablehlo.slice %a [0:2] : (tensor<3xcomplex<f64>>) -> tensor<2xcomplex<f64>>
  %9 = stablehlo.real %8 : (tensor<2xcomplex<f64>>) -> tensor<2xf64>
  %10 = stablehlo.convert %9 : (tensor<2xf64>) -> tensor<2xf32>
  %11 = stablehlo.bitcast_convert %10 : (tensor<2xf32>) -> tensor<2x32xi1>
  return %0, %2, %7, %11 : tensor<3x2xcomplex<f32>>, tensor<5xcomplex<f64>>, tensor<4x16xi1>, tensor<2x32xi1>
}
