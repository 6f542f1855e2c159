// The elementwise transcendentals on f32 and f64, compiled against the
// interpreter: special values (zeros of both signs, infinities, NaN,
// subnormals, the smallest normal, the largest finite values, exp's
// overflow and underflow bounds, erf's piece boundaries) and 4096 random
// inputs spread over [-8, 8) (sin and cos: clamped to
// [-1e5, 1e5], inside their accurate range).  Bounds: the compiled functions' errors from
// docs/math.md plus the interpreter's own rounding (libm, at most 1 ULP).
// RUN: xlac compare --random-inputs --split-input-file %s | FileCheck %s
// RUN: xlac run --backend=cpu --verbose --random-inputs --split-input-file %s 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// STATS-COUNT-2: 0 through the interpreter
// CHECK: result[0]: f32, {{.*}} max {{[0-4](\.[0-9]+)?}} ULP,
// CHECK-NEXT: result[1]: f32, {{.*}} max {{[0-4](\.[0-9]+)?}} ULP,
// CHECK-NEXT: result[2]: f32, {{.*}} max {{[0-4](\.[0-9]+)?}} ULP,
// CHECK-NEXT: result[3]: f32, {{.*}} max {{[0-4](\.[0-9]+)?}} ULP,
// CHECK-NEXT: result[4]: f32, {{.*}} max {{[0-4](\.[0-9]+)?}} ULP,
// CHECK-NEXT: result[5]: f32, {{.*}} max {{[0-4](\.[0-9]+)?}} ULP,
// CHECK-NEXT: result[6]: f32, {{.*}} max {{[0-4](\.[0-9]+)?}} ULP,
// CHECK-NEXT: result[7]: f32, {{.*}} max {{[0-4](\.[0-9]+)?}} ULP,
// CHECK-NEXT: result[8]: f32, {{.*}} max {{[0-4](\.[0-9]+)?}} ULP,
// CHECK-NEXT: result[9]: f32, {{.*}} max {{[0-4](\.[0-9]+)?}} ULP,
// CHECK-NEXT: result[10]: f32, {{.*}} max {{[0-4](\.[0-9]+)?}} ULP,
// CHECK-NEXT: result[11]: f32, {{.*}} max {{[0-4](\.[0-9]+)?}} ULP,
// CHECK-NEXT: result[12]: f32, {{.*}} max {{[0-4](\.[0-9]+)?}} ULP,
// CHECK: result[0]: f64, {{.*}} max {{[0-4](\.[0-9]+)?}} ULP,
// CHECK-NEXT: result[1]: f64, {{.*}} max {{[0-4](\.[0-9]+)?}} ULP,
// CHECK-NEXT: result[2]: f64, {{.*}} max {{[0-4](\.[0-9]+)?}} ULP,
// CHECK-NEXT: result[3]: f64, {{.*}} max {{[0-4](\.[0-9]+)?}} ULP,
// CHECK-NEXT: result[4]: f64, {{.*}} max {{[0-4](\.[0-9]+)?}} ULP,
// CHECK-NEXT: result[5]: f64, {{.*}} max {{[0-4](\.[0-9]+)?}} ULP,
// CHECK-NEXT: result[6]: f64, {{.*}} max {{[0-4](\.[0-9]+)?}} ULP,
// CHECK-NEXT: result[7]: f64, {{.*}} max {{[0-4](\.[0-9]+)?}} ULP,
// CHECK-NEXT: result[8]: f64, {{.*}} max {{[0-4](\.[0-9]+)?}} ULP,
// CHECK-NEXT: result[9]: f64, {{.*}} max {{[0-4](\.[0-9]+)?}} ULP,
// CHECK-NEXT: result[10]: f64, {{.*}} max {{[0-4](\.[0-9]+)?}} ULP,
// CHECK-NEXT: result[11]: f64, {{.*}} max {{[0-4](\.[0-9]+)?}} ULP,
// CHECK-NEXT: result[12]: f64, {{.*}} max {{[0-4](\.[0-9]+)?}} ULP,

// -----

func.func @main(%r: tensor<4096xf32>, %q: tensor<4096xf32>) -> (tensor<4140xf32>, tensor<4140xf32>, tensor<4140xf32>, tensor<4140xf32>, tensor<4140xf32>, tensor<4140xf32>, tensor<4140xf32>, tensor<4140xf32>, tensor<4140xf32>, tensor<4140xf32>, tensor<4140xf32>, tensor<4140xf32>, tensor<4140xf32>) {
  %eight = stablehlo.constant dense<8.0> : tensor<4096xf32>
  %rs = stablehlo.multiply %r, %eight : tensor<4096xf32>
  %sp = stablehlo.constant dense<[0.0, -0.0, 0x7F800000, 0xFF800000, 0x7FC00000, 1.0e-45, -1.0e-45, 1.0e-40, -1.0e-40, 1.17549435e-38, -1.17549435e-38, 1.0e-30, -1.0e-30, 1.0e-10, -1.0e-10, 3.40282347e+38, -3.40282347e+38, 1.0e+30, -1.0e+30, 1.0e+10, -1.0e+10, 0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 0.84, 3.92, -3.92, 5.0, 10.0, -10.0, 88.72283, 89.0, -87.34, -103.97, -104.0, 1000.0, -1000.0, 0.125, -0.999999, 1.0e+05, -1.0e+05]> : tensor<44xf32>
  %x = stablehlo.concatenate %sp, %rs, dim = 0 : (tensor<44xf32>, tensor<4096xf32>) -> tensor<4140xf32>
  %spr = stablehlo.reverse %sp, dims = [0] : tensor<44xf32>
  %qs = stablehlo.multiply %q, %eight : tensor<4096xf32>
  %y = stablehlo.concatenate %spr, %qs, dim = 0 : (tensor<44xf32>, tensor<4096xf32>) -> tensor<4140xf32>
  %erf = "chlo.erf"(%x) : (tensor<4140xf32>) -> tensor<4140xf32>
  %erfc = "chlo.erfc"(%x) : (tensor<4140xf32>) -> tensor<4140xf32>
  %tanh = stablehlo.tanh %x : tensor<4140xf32>
  %logistic = stablehlo.logistic %x : tensor<4140xf32>
  %exp = stablehlo.exponential %x : tensor<4140xf32>
  %expm1 = stablehlo.exponential_minus_one %x : tensor<4140xf32>
  %log = stablehlo.log %x : tensor<4140xf32>
  %log1p = stablehlo.log_plus_one %x : tensor<4140xf32>
  %lo = stablehlo.constant dense<-1.0e+05> : tensor<4140xf32>
  %hi = stablehlo.constant dense<1.0e+05> : tensor<4140xf32>
  %xt = stablehlo.clamp %lo, %x, %hi : tensor<4140xf32>
  %sin = stablehlo.sine %xt : tensor<4140xf32>
  %cos = stablehlo.cosine %xt : tensor<4140xf32>
  %sqrt = stablehlo.sqrt %x : tensor<4140xf32>
  %rsqrt = stablehlo.rsqrt %x : tensor<4140xf32>
  %pow = stablehlo.power %x, %y : tensor<4140xf32>
  return %erf, %erfc, %tanh, %logistic, %exp, %expm1, %log, %log1p, %sin, %cos, %sqrt, %rsqrt, %pow : tensor<4140xf32>, tensor<4140xf32>, tensor<4140xf32>, tensor<4140xf32>, tensor<4140xf32>, tensor<4140xf32>, tensor<4140xf32>, tensor<4140xf32>, tensor<4140xf32>, tensor<4140xf32>, tensor<4140xf32>, tensor<4140xf32>, tensor<4140xf32>
}

// -----

func.func @main(%r: tensor<4096xf64>, %q: tensor<4096xf64>) -> (tensor<4140xf64>, tensor<4140xf64>, tensor<4140xf64>, tensor<4140xf64>, tensor<4140xf64>, tensor<4140xf64>, tensor<4140xf64>, tensor<4140xf64>, tensor<4140xf64>, tensor<4140xf64>, tensor<4140xf64>, tensor<4140xf64>, tensor<4140xf64>) {
  %eight = stablehlo.constant dense<8.0> : tensor<4096xf64>
  %rs = stablehlo.multiply %r, %eight : tensor<4096xf64>
  %sp = stablehlo.constant dense<[0.0, -0.0, 0x7FF0000000000000, 0xFFF0000000000000, 0x7FF8000000000000, 4.9406564584124654e-324, -4.9406564584124654e-324, 1.0e-310, -1.0e-310, 2.2250738585072014e-308, 1.0e-300, -1.0e-300, 1.0e-10, -1.0e-10, 1.7976931348623157e+308, -1.7976931348623157e+308, 1.0e+300, -1.0e+300, 1.0e+10, -1.0e+10, 0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 0.84, 6.0, -6.0, 5.0, 27.0, -27.0, 709.78, 710.0, -745.2, -746.0, 1000.0, -1000.0, 0.125, -0.9999999999, 1.0e+05, -1.0e+05, 1.0e+15, 3.0]> : tensor<44xf64>
  %x = stablehlo.concatenate %sp, %rs, dim = 0 : (tensor<44xf64>, tensor<4096xf64>) -> tensor<4140xf64>
  %spr = stablehlo.reverse %sp, dims = [0] : tensor<44xf64>
  %qs = stablehlo.multiply %q, %eight : tensor<4096xf64>
  %y = stablehlo.concatenate %spr, %qs, dim = 0 : (tensor<44xf64>, tensor<4096xf64>) -> tensor<4140xf64>
  %erf = "chlo.erf"(%x) : (tensor<4140xf64>) -> tensor<4140xf64>
  %erfc = "chlo.erfc"(%x) : (tensor<4140xf64>) -> tensor<4140xf64>
  %tanh = stablehlo.tanh %x : tensor<4140xf64>
  %logistic = stablehlo.logistic %x : tensor<4140xf64>
  %exp = stablehlo.exponential %x : tensor<4140xf64>
  %expm1 = stablehlo.exponential_minus_one %x : tensor<4140xf64>
  %log = stablehlo.log %x : tensor<4140xf64>
  %log1p = stablehlo.log_plus_one %x : tensor<4140xf64>
  %lo = stablehlo.constant dense<-1.0e+05> : tensor<4140xf64>
  %hi = stablehlo.constant dense<1.0e+05> : tensor<4140xf64>
  %xt = stablehlo.clamp %lo, %x, %hi : tensor<4140xf64>
  %sin = stablehlo.sine %xt : tensor<4140xf64>
  %cos = stablehlo.cosine %xt : tensor<4140xf64>
  %sqrt = stablehlo.sqrt %x : tensor<4140xf64>
  %rsqrt = stablehlo.rsqrt %x : tensor<4140xf64>
  %pow = stablehlo.power %x, %y : tensor<4140xf64>
  return %erf, %erfc, %tanh, %logistic, %exp, %expm1, %log, %log1p, %sin, %cos, %sqrt, %rsqrt, %pow : tensor<4140xf64>, tensor<4140xf64>, tensor<4140xf64>, tensor<4140xf64>, tensor<4140xf64>, tensor<4140xf64>, tensor<4140xf64>, tensor<4140xf64>, tensor<4140xf64>, tensor<4140xf64>, tensor<4140xf64>, tensor<4140xf64>, tensor<4140xf64>
}
