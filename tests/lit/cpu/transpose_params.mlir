// Transposes of parameters on both backends with random inputs: parameters
// live in the caller's buffers, which need not start on a cache line (the
// blocked kernel then shifts its block grid so that whole blocks start on
// lines, with partial blocks before and after).  A transpose must be exact
// (0 ULP, identical integers), and each must run natively.
// RUN: xlac compare --random-inputs --entry f32_2d %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry f32_batch %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry f32_odd %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry nchw_to_nhwc %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry nhwc_to_nchw %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry f64_2d %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry i16_2d %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry bf16_nhwc %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry i8_2d %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry c64_2d %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry c128_batch %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac run --backend=cpu --verbose --random-inputs --entry f32_2d %s 2>&1 | FileCheck %s --check-prefix=NATIVE
// RUN: xlac run --backend=cpu --verbose --random-inputs --entry f32_batch %s 2>&1 | FileCheck %s --check-prefix=NATIVE
// RUN: xlac run --backend=cpu --verbose --random-inputs --entry f32_odd %s 2>&1 | FileCheck %s --check-prefix=NATIVE
// EXACT: COMPARE {{.*}} max_ulp=0{{$}}
// NATIVE: cpu: 1 ops native (0 fusions), 0 through the interpreter

func.func @f32_2d(%a: tensor<512x1024xf32>) -> tensor<1024x512xf32> {
  %r = stablehlo.transpose %a, dims = [1, 0] : (tensor<512x1024xf32>) -> tensor<1024x512xf32>
  return %r : tensor<1024x512xf32>
}

func.func @f32_batch(%a: tensor<4x256x320xf32>) -> tensor<4x320x256xf32> {
  %r = stablehlo.transpose %a, dims = [0, 2, 1] : (tensor<4x256x320xf32>) -> tensor<4x320x256xf32>
  return %r : tensor<4x320x256xf32>
}

func.func @f32_odd(%a: tensor<500x1000xf32>) -> tensor<1000x500xf32> {
  %r = stablehlo.transpose %a, dims = [1, 0] : (tensor<500x1000xf32>) -> tensor<1000x500xf32>
  return %r : tensor<1000x500xf32>
}

func.func @nchw_to_nhwc(%a: tensor<2x64x28x28xf32>) -> tensor<2x28x28x64xf32> {
  %r = stablehlo.transpose %a, dims = [0, 2, 3, 1] : (tensor<2x64x28x28xf32>) -> tensor<2x28x28x64xf32>
  return %r : tensor<2x28x28x64xf32>
}

func.func @nhwc_to_nchw(%a: tensor<2x28x28x64xf32>) -> tensor<2x64x28x28xf32> {
  %r = stablehlo.transpose %a, dims = [0, 3, 1, 2] : (tensor<2x28x28x64xf32>) -> tensor<2x64x28x28xf32>
  return %r : tensor<2x64x28x28xf32>
}

func.func @f64_2d(%a: tensor<256x384xf64>) -> tensor<384x256xf64> {
  %r = stablehlo.transpose %a, dims = [1, 0] : (tensor<256x384xf64>) -> tensor<384x256xf64>
  return %r : tensor<384x256xf64>
}

func.func @i16_2d(%a: tensor<512x512xi16>) -> tensor<512x512xi16> {
  %r = stablehlo.transpose %a, dims = [1, 0] : (tensor<512x512xi16>) -> tensor<512x512xi16>
  return %r : tensor<512x512xi16>
}

func.func @bf16_nhwc(%a: tensor<2x32x30x32xbf16>) -> tensor<2x30x32x32xbf16> {
  %r = stablehlo.transpose %a, dims = [0, 2, 3, 1] : (tensor<2x32x30x32xbf16>) -> tensor<2x30x32x32xbf16>
  return %r : tensor<2x30x32x32xbf16>
}

func.func @i8_2d(%a: tensor<512x640xi8>) -> tensor<640x512xi8> {
  %r = stablehlo.transpose %a, dims = [1, 0] : (tensor<512x640xi8>) -> tensor<640x512xi8>
  return %r : tensor<640x512xi8>
}

func.func @c64_2d(%a: tensor<300x200xcomplex<f32>>) -> tensor<200x300xcomplex<f32>> {
  %r = stablehlo.transpose %a, dims = [1, 0] : (tensor<300x200xcomplex<f32>>) -> tensor<200x300xcomplex<f32>>
  return %r : tensor<200x300xcomplex<f32>>
}

func.func @c128_batch(%a: tensor<3x64x48xcomplex<f64>>) -> tensor<3x48x64xcomplex<f64>> {
  %r = stablehlo.transpose %a, dims = [0, 2, 1] : (tensor<3x64x48xcomplex<f64>>) -> tensor<3x48x64xcomplex<f64>>
  return %r : tensor<3x48x64xcomplex<f64>>
}
