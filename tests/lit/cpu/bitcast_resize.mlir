// bitcast_convert between element types of different widths compiles
// natively (an index-mapping op: little-endian chunks along a minor
// dimension of the width ratio) on the cpu and gpu backends instead of
// going through the interpreter; the values are the interpreter's.
// RUN: xlac run %s --input x=[1.0,-2.5] --input h=[[1.0,0.0],[-2.0,65504.0]] | FileCheck %s
// CHECK: result[0]: tensor<2x2xf32> = {{\[\[}}0, 1.875], [0, -2.0625]]
// CHECK: result[1]: tensor<2x8xui8> = {{\[\[}}0, 0, 0, 0, 0, 0, 240, 63], [0, 0, 0, 0, 0, 0, 4, 192]]
// CHECK: result[2]: tensor<2xf64> = [1, -2.5]
// CHECK: result[3]: tensor<2xi32> = [15360, 2080358400]
// RUN: xlac run --backend=cpu --verbose %s --input x=[1.0,-2.5] --input h=[[1.0,0.0],[-2.0,65504.0]] 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CPU
// CPU: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 0 through the interpreter

func.func @main(%x: tensor<2xf64>, %h: tensor<2x2xf16>) -> (tensor<2x2xf32>, tensor<2x8xui8>, tensor<2xf64>, tensor<2xi32>) {
  %a = stablehlo.bitcast_convert %x : (tensor<2xf64>) -> tensor<2x2xf32>
  %b = stablehlo.bitcast_convert %x : (tensor<2xf64>) -> tensor<2x8xui8>
  %c = stablehlo.bitcast_convert %a : (tensor<2x2xf32>) -> tensor<2xf64>
  %d = stablehlo.bitcast_convert %h : (tensor<2x2xf16>) -> tensor<2xi32>
  return %a, %b, %c, %d : tensor<2x2xf32>, tensor<2x8xui8>, tensor<2xf64>, tensor<2xi32>
}
