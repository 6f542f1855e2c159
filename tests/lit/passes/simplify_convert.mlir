// Convert chains: a chain whose first step keeps every value collapses
// (to nothing when it comes back to the source type); a chain that rounds,
// wraps or saturates on the way stays.
// RUN: xlac opt --pass simplify %s | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t/a %t/b
// RUN: xlac run %s --output-dir %t/a --args="[dense<[-0.0, 0x7FC00000, 3.4e38, 1.0e-45, 0.1]> : tensor<5xf32>, dense<[1.0e300, 0.1, -0.0, 5.0e-324, 16777217.0]> : tensor<5xf64>, dense<[-128, -1, 0, 1, 127]> : tensor<5xi8>, dense<[-2147483648, 300, -129, 255, 65536]> : tensor<5xi32>, dense<[65504.0, -0.0, 6.0e-8, 0x7E00, 1.0e-3]> : tensor<5xf16>, dense<[-32768, 300, -200, 255, 32767]> : tensor<5xi16>, dense<[0, 255, 128, 1, 7]> : tensor<5xui8>, dense<[true, false, true, true, false]> : tensor<5xi1>]" > /dev/null
// RUN: xlac opt --pass simplify %s | xlac run - --output-dir %t/b --args="[dense<[-0.0, 0x7FC00000, 3.4e38, 1.0e-45, 0.1]> : tensor<5xf32>, dense<[1.0e300, 0.1, -0.0, 5.0e-324, 16777217.0]> : tensor<5xf64>, dense<[-128, -1, 0, 1, 127]> : tensor<5xi8>, dense<[-2147483648, 300, -129, 255, 65536]> : tensor<5xi32>, dense<[65504.0, -0.0, 6.0e-8, 0x7E00, 1.0e-3]> : tensor<5xf16>, dense<[-32768, 300, -200, 255, 32767]> : tensor<5xi16>, dense<[0, 255, 128, 1, 7]> : tensor<5xui8>, dense<[true, false, true, true, false]> : tensor<5xi1>]" > /dev/null
// RUN: diff -r %t/a %t/b

// CHECK-LABEL: func.func @main
func.func @main(%f: tensor<5xf32>, %d: tensor<5xf64>, %b: tensor<5xi8>, %w: tensor<5xi32>, %h: tensor<5xf16>,
                %s: tensor<5xi16>, %u: tensor<5xui8>, %p: tensor<5xi1>)
    -> (tensor<5xf32>, tensor<5xf64>, tensor<5xi8>, tensor<5xi32>, tensor<5xf64>, tensor<5xi8>, tensor<5xf32>,
        tensor<5xf32>, tensor<5xui8>, tensor<5xi1>, tensor<5xf16>, tensor<5xi16>) {
  // f32 -> f64 -> f32 is the identity
  %a0 = stablehlo.convert %f : (tensor<5xf32>) -> tensor<5xf64>
  %r0 = stablehlo.convert %a0 : (tensor<5xf64>) -> tensor<5xf32>
  // f64 -> f32 rounds: f64 -> f32 -> f64 stays
  // CHECK: %[[D1:[0-9]+]] = "stablehlo.convert"(%arg1) : (tensor<5xf64>) -> tensor<5xf32>
  // CHECK-NEXT: %[[D2:[0-9]+]] = "stablehlo.convert"(%[[D1]]) : (tensor<5xf32>) -> tensor<5xf64>
  %a1 = stablehlo.convert %d : (tensor<5xf64>) -> tensor<5xf32>
  %r1 = stablehlo.convert %a1 : (tensor<5xf32>) -> tensor<5xf64>
  // i8 -> i32 -> i8 is the identity
  %a2 = stablehlo.convert %b : (tensor<5xi8>) -> tensor<5xi32>
  %r2 = stablehlo.convert %a2 : (tensor<5xi32>) -> tensor<5xi8>
  // i32 -> i8 wraps: stays
  // CHECK-NEXT: %[[W1:[0-9]+]] = "stablehlo.convert"(%arg3) : (tensor<5xi32>) -> tensor<5xi8>
  // CHECK-NEXT: %[[W2:[0-9]+]] = "stablehlo.convert"(%[[W1]]) : (tensor<5xi8>) -> tensor<5xi32>
  %a3 = stablehlo.convert %w : (tensor<5xi32>) -> tensor<5xi8>
  %r3 = stablehlo.convert %a3 : (tensor<5xi8>) -> tensor<5xi32>
  // f16 -> f32 -> f64 is f16 -> f64
  // CHECK-NEXT: %[[H:[0-9]+]] = "stablehlo.convert"(%arg4) : (tensor<5xf16>) -> tensor<5xf64>
  %a4 = stablehlo.convert %h : (tensor<5xf16>) -> tensor<5xf32>
  %r4 = stablehlo.convert %a4 : (tensor<5xf32>) -> tensor<5xf64>
  // i16 -> f32 -> i8: float -> int saturates where int -> int wraps, so it stays
  // CHECK-NEXT: %[[S1:[0-9]+]] = "stablehlo.convert"(%arg5) : (tensor<5xi16>) -> tensor<5xf32>
  // CHECK-NEXT: %[[S2:[0-9]+]] = "stablehlo.convert"(%[[S1]]) : (tensor<5xf32>) -> tensor<5xi8>
  %a5 = stablehlo.convert %s : (tensor<5xi16>) -> tensor<5xf32>
  %r5 = stablehlo.convert %a5 : (tensor<5xf32>) -> tensor<5xi8>
  // i8 -> i16 -> f32 is i8 -> f32
  // CHECK-NEXT: %[[B:[0-9]+]] = "stablehlo.convert"(%arg2) : (tensor<5xi8>) -> tensor<5xf32>
  %a6 = stablehlo.convert %b : (tensor<5xi8>) -> tensor<5xi16>
  %r6 = stablehlo.convert %a6 : (tensor<5xi16>) -> tensor<5xf32>
  // convert to the same type
  %r7 = stablehlo.convert %f : (tensor<5xf32>) -> tensor<5xf32>
  // ui8 -> i16 -> ui8 and i1 -> f32 -> i1 are identities
  %a8 = stablehlo.convert %u : (tensor<5xui8>) -> tensor<5xi16>
  %r8 = stablehlo.convert %a8 : (tensor<5xi16>) -> tensor<5xui8>
  %a9 = stablehlo.convert %p : (tensor<5xi1>) -> tensor<5xf32>
  %r9 = stablehlo.convert %a9 : (tensor<5xf32>) -> tensor<5xi1>
  // f16 -> bf16 loses range and bf16 -> f16 digits: stays
  // CHECK-NEXT: %[[HB:[0-9]+]] = "stablehlo.convert"(%arg4) : (tensor<5xf16>) -> tensor<5xbf16>
  // CHECK-NEXT: %[[HB2:[0-9]+]] = "stablehlo.convert"(%[[HB]]) : (tensor<5xbf16>) -> tensor<5xf16>
  %a10 = stablehlo.convert %h : (tensor<5xf16>) -> tensor<5xbf16>
  %r10 = stablehlo.convert %a10 : (tensor<5xbf16>) -> tensor<5xf16>
  // i16 -> ui16 -> i16 is not lossless in the first step: stays
  // CHECK-NEXT: %[[SU:[0-9]+]] = "stablehlo.convert"(%arg5) : (tensor<5xi16>) -> tensor<5xui32>
  // CHECK-NEXT: %[[SU2:[0-9]+]] = "stablehlo.convert"(%[[SU]]) : (tensor<5xui32>) -> tensor<5xi16>
  %a11 = stablehlo.convert %s : (tensor<5xi16>) -> tensor<5xui32>
  %r11 = stablehlo.convert %a11 : (tensor<5xui32>) -> tensor<5xi16>
  // CHECK-NEXT: func.return %arg0, %[[D2]], %arg2, %[[W2]], %[[H]], %[[S2]], %[[B]], %arg0, %arg6, %arg7, %[[HB2]], %[[SU2]] :
  func.return %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11
    : tensor<5xf32>, tensor<5xf64>, tensor<5xi8>, tensor<5xi32>, tensor<5xf64>, tensor<5xi8>, tensor<5xf32>,
      tensor<5xf32>, tensor<5xui8>, tensor<5xi1>, tensor<5xf16>, tensor<5xi16>
}
