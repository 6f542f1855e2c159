// Large results are written with streaming stores, whole cache lines at a
// time after a scalar head up to the first line boundary and before a
// scalar tail.  A tiny threshold puts these small programs on that path:
// lengths below one line, odd lengths, several chunks, every element width.
// RUN: env XLAC_STREAMING_MIN_BYTES=1 xlac compare --random-inputs --split-input-file %s | FileCheck %s
// CHECK-COUNT-8: max_ulp=0

func.func @main(%x: tensor<5xf32>, %y: tensor<5xf32>) -> tensor<5xf32> {
  %a = stablehlo.multiply %x, %y : tensor<5xf32>
  %b = stablehlo.add %a, %x : tensor<5xf32>
  return %b : tensor<5xf32>
}

// -----

func.func @main(%x: tensor<131101xf32>, %y: tensor<131101xf32>) -> tensor<131101xf32> {
  %a = stablehlo.multiply %x, %y : tensor<131101xf32>
  %b = stablehlo.maximum %a, %x : tensor<131101xf32>
  return %b : tensor<131101xf32>
}

// -----

func.func @main(%x: tensor<1000x37xf64>) -> tensor<1000x37xf64> {
  %a = stablehlo.multiply %x, %x : tensor<1000x37xf64>
  %b = stablehlo.add %a, %x : tensor<1000x37xf64>
  return %b : tensor<1000x37xf64>
}

// -----

func.func @main(%x: tensor<70001xi8>, %y: tensor<70001xi8>) -> tensor<70001xi8> {
  %a = stablehlo.add %x, %y : tensor<70001xi8>
  return %a : tensor<70001xi8>
}

// -----

func.func @main(%x: tensor<4099xbf16>, %y: tensor<4099xbf16>) -> tensor<4099xbf16> {
  %a = stablehlo.multiply %x, %y : tensor<4099xbf16>
  return %a : tensor<4099xbf16>
}

// -----

func.func @main(%x: tensor<3x5x7xi16>) -> tensor<3x5x7xi16> {
  %a = stablehlo.negate %x : tensor<3x5x7xi16>
  return %a : tensor<3x5x7xi16>
}

// -----

// A broadcast operand and an iota in the fusion: the index of each element
// still reaches the elemental generator unchanged.
func.func @main(%x: tensor<2049xf32>, %s: tensor<f32>) -> tensor<2049xf32> {
  %b = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<2049xf32>
  %i = stablehlo.iota dim = 0 : tensor<2049xf32>
  %a = stablehlo.multiply %x, %b : tensor<2049xf32>
  %c = stablehlo.add %a, %i : tensor<2049xf32>
  return %c : tensor<2049xf32>
}

// -----

func.func @main(%x: tensor<65537xi64>) -> tensor<65537xi64> {
  %c = stablehlo.constant dense<3> : tensor<65537xi64>
  %a = stablehlo.multiply %x, %c : tensor<65537xi64>
  return %a : tensor<65537xi64>
}
