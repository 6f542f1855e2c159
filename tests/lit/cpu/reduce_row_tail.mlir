// Row reductions whose rows end in a partial step of known length fold
// that step only up to the last vector it reaches, of the widest vectors
// among the kernel's roots: 16 lanes of f32, 32 of i16, 64 of i8.  Rows of
// 100, 37 and 300 elements (a full step of 256 and a tail of 44), i8 and
// i16 sums beside an f32 maximum over the same rows, compared with the
// interpreter: integer sums and maxima are exact.
// RUN: xlac compare --random-inputs --split-input-file %s | FileCheck %s
// RUN: xlac compare --random-inputs --split-input-file --threads 1 %s | FileCheck %s
// CHECK-COUNT-3: max_ulp=0

func.func @main(%x: tensor<64x100xi8>) -> (tensor<64xi8>, tensor<64xf32>) {
  %z = stablehlo.constant dense<0> : tensor<i8>
  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<64x100xi8>, tensor<i8>) -> tensor<64xi8>
  %f = stablehlo.convert %x : (tensor<64x100xi8>) -> tensor<64x100xf32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %m = stablehlo.reduce(%f init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<64x100xf32>, tensor<f32>) -> tensor<64xf32>
  return %s, %m : tensor<64xi8>, tensor<64xf32>
}

// -----

func.func @main(%x: tensor<33x37xi16>) -> tensor<33xi16> {
  %z = stablehlo.constant dense<0> : tensor<i16>
  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<33x37xi16>, tensor<i16>) -> tensor<33xi16>
  return %s : tensor<33xi16>
}

// -----

func.func @main(%x: tensor<20x300xi8>) -> (tensor<20xi8>, tensor<20xi8>) {
  %z = stablehlo.constant dense<0> : tensor<i8>
  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<20x300xi8>, tensor<i8>) -> tensor<20xi8>
  %lo = stablehlo.constant dense<-128> : tensor<i8>
  %m = stablehlo.reduce(%x init: %lo) applies stablehlo.maximum across dimensions = [1] : (tensor<20x300xi8>, tensor<i8>) -> tensor<20xi8>
  return %s, %m : tensor<20xi8>, tensor<20xi8>
}
