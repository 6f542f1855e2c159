// rsqrt (math_approx.c) corrected once from an exactly formed residual:
// f32 from the target's reciprocal square root estimate (an fdiv marked
// arcp+ninf of llvm.sqrt, which x86 turns into rsqrt14 or rsqrtps and a
// Newton step on vectors), f64 from an integer estimate and Newton steps;
// vector code with no double square root and no exact division, for f32,
// f64 and the 16-bit floats (computed in f32), within one ULP of the
// interpreter's 1/sqrt over many binades (docs/math.md: 0.500 ULP for f32
// and f64, f16 and bf16 always the correctly rounded value).  Special
// values are in math_special_values.mlir.
// RUN: rm -rf %t && xlac run --backend=cpu --random-inputs --xla_dump_to=%t %s > /dev/null
// RUN: FileCheck %s < %t/module_0000.main.ir-with-opt.ll
// RUN: not grep -E '@llvm\.sqrt\.(f64|v[0-9]+f64)|fdiv (float|double|<)|call (float|double|<[^>]*>) @[^l]' %t/module_0000.main.ir-with-opt.ll
// RUN: xlac compare --random-inputs %s | FileCheck %s --check-prefix=CMP
// CHECK-DAG: fdiv ninf arcp <{{[0-9]+}} x float>
// CHECK-DAG: lshr <{{[0-9]+}} x i64>
// CMP-COUNT-7: max {{[01]}} ULP
func.func @main(%x: tensor<65536xf32>, %d: tensor<65536xf64>, %h: tensor<65536xf16>, %b: tensor<65536xbf16>)
    -> (tensor<65536xf32>, tensor<65536xf32>, tensor<65536xf32>, tensor<65536xf64>, tensor<65536xf64>,
        tensor<65536xf16>, tensor<65536xbf16>) {
  %a = stablehlo.abs %x : tensor<65536xf32>
  %r0 = stablehlo.rsqrt %a : tensor<65536xf32>
  %big = stablehlo.constant dense<0x72800000> : tensor<65536xf32>
  %ab = stablehlo.multiply %a, %big : tensor<65536xf32>
  %r1 = stablehlo.rsqrt %ab : tensor<65536xf32>
  %tiny = stablehlo.constant dense<0x0C800000> : tensor<65536xf32>
  %at = stablehlo.multiply %a, %tiny : tensor<65536xf32>
  %r2 = stablehlo.rsqrt %at : tensor<65536xf32>
  %ad = stablehlo.abs %d : tensor<65536xf64>
  %r3 = stablehlo.rsqrt %ad : tensor<65536xf64>
  %bigd = stablehlo.constant dense<0x7E00000000000000> : tensor<65536xf64>
  %abd = stablehlo.multiply %ad, %bigd : tensor<65536xf64>
  %r4 = stablehlo.rsqrt %abd : tensor<65536xf64>
  %ah = stablehlo.abs %h : tensor<65536xf16>
  %r5 = stablehlo.rsqrt %ah : tensor<65536xf16>
  %abf = stablehlo.abs %b : tensor<65536xbf16>
  %r6 = stablehlo.rsqrt %abf : tensor<65536xbf16>
  return %r0, %r1, %r2, %r3, %r4, %r5, %r6 : tensor<65536xf32>, tensor<65536xf32>, tensor<65536xf32>, tensor<65536xf64>, tensor<65536xf64>, tensor<65536xf16>, tensor<65536xbf16>
}
