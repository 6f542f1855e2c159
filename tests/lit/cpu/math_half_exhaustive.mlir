// Every f16 and every bf16 bit pattern (zeros, subnormals, normals up to
// the largest, infinities and NaNs of both signs) through each elementwise
// transcendental, compiled (f32 vectors: widened once per vector, rounded
// once per op) against the interpreter (libm in double, rounded once).
// Each result must be within 1 ULP of the interpreter's, and every op must
// run compiled.  The exact ops at the end (floor, ceil, round, max, min),
// whose vector forms are computed in float after LLVM narrowed them
// (cpu/widen16.c), must agree bit for bit, subnormals included.  bf16 sin/cos/tan take |x| <= 2^50 only: beyond that the
// compiled functions return NaN (docs/math.md).  pow pairs each pattern
// with another one (the index times an odd constant, wrapping), so every
// pow special case (signs, zeros, infinities, NaN, integer y) comes up.
// RUN: xlac compare --split-input-file %s | FileCheck %s
// RUN: xlac run --backend=cpu --verbose --split-input-file %s 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS
// CHECK: result[0]: f16, {{.*}} max {{[01]}} ULP,
// CHECK-NEXT: result[1]: bf16, {{.*}} max {{[01]}} ULP,
// CHECK: result[0]: f16, {{.*}} max {{[01]}} ULP,
// CHECK-NEXT: result[1]: bf16, {{.*}} max {{[01]}} ULP,
// CHECK: result[0]: f16, {{.*}} max {{[01]}} ULP,
// CHECK-NEXT: result[1]: bf16, {{.*}} max {{[01]}} ULP,
// CHECK: result[0]: f16, {{.*}} max {{[01]}} ULP,
// CHECK-NEXT: result[1]: bf16, {{.*}} max {{[01]}} ULP,
// CHECK: result[0]: f16, {{.*}} max {{[01]}} ULP,
// CHECK-NEXT: result[1]: bf16, {{.*}} max {{[01]}} ULP,
// CHECK: result[0]: f16, {{.*}} max {{[01]}} ULP,
// CHECK-NEXT: result[1]: bf16, {{.*}} max {{[01]}} ULP,
// CHECK: result[0]: f16, {{.*}} max {{[01]}} ULP,
// CHECK-NEXT: result[1]: bf16, {{.*}} max {{[01]}} ULP,
// CHECK: result[0]: f16, {{.*}} max {{[01]}} ULP,
// CHECK-NEXT: result[1]: bf16, {{.*}} max {{[01]}} ULP,
// CHECK: result[0]: f16, {{.*}} max {{[01]}} ULP,
// CHECK-NEXT: result[1]: bf16, {{.*}} max {{[01]}} ULP,
// CHECK: result[0]: f16, {{.*}} max {{[01]}} ULP,
// CHECK-NEXT: result[1]: bf16, {{.*}} max {{[01]}} ULP,
// CHECK: result[0]: f16, {{.*}} max {{[01]}} ULP,
// CHECK-NEXT: result[1]: bf16, {{.*}} max {{[01]}} ULP,
// CHECK: result[0]: f16, {{.*}} max {{[01]}} ULP,
// CHECK-NEXT: result[1]: bf16, {{.*}} max {{[01]}} ULP,
// CHECK: result[0]: f16, {{.*}} max {{[01]}} ULP,
// CHECK-NEXT: result[1]: bf16, {{.*}} max {{[01]}} ULP,
// CHECK: result[0]: f16, {{.*}} max {{[01]}} ULP,
// CHECK-NEXT: result[1]: bf16, {{.*}} max {{[01]}} ULP,
// CHECK: result[0]: f16, {{.*}} max {{[01]}} ULP,
// CHECK-NEXT: result[1]: bf16, {{.*}} max {{[01]}} ULP,
// CHECK: result[0]: f16, {{.*}} max 0 ULP, 0 of 65536 elements differ
// CHECK-NEXT: result[1]: bf16, {{.*}} max 0 ULP, 0 of 65536 elements differ
// CHECK: result[0]: f16, {{.*}} max 0 ULP, 0 of 65536 elements differ
// CHECK-NEXT: result[1]: bf16, {{.*}} max 0 ULP, 0 of 65536 elements differ
// CHECK: result[0]: f16, {{.*}} max 0 ULP, 0 of 65536 elements differ
// CHECK-NEXT: result[1]: bf16, {{.*}} max 0 ULP, 0 of 65536 elements differ
// CHECK: result[0]: f16, {{.*}} max 0 ULP, 0 of 65536 elements differ
// CHECK-NEXT: result[1]: bf16, {{.*}} max 0 ULP, 0 of 65536 elements differ
// CHECK: result[0]: f16, {{.*}} max 0 ULP, 0 of 65536 elements differ
// CHECK-NEXT: result[1]: bf16, {{.*}} max 0 ULP, 0 of 65536 elements differ
// STATS-COUNT-20: 0 through the interpreter

// -----

// erf
func.func @main() -> (tensor<65536xf16>, tensor<65536xbf16>) {
  %i = stablehlo.iota dim = 0 : tensor<65536xi16>
  %h0 = stablehlo.bitcast_convert %i : (tensor<65536xi16>) -> tensor<65536xf16>
  %b0 = stablehlo.bitcast_convert %i : (tensor<65536xi16>) -> tensor<65536xbf16>
  %h, %b = stablehlo.optimization_barrier %h0, %b0 : tensor<65536xf16>, tensor<65536xbf16>
  %rh = "chlo.erf"(%h) : (tensor<65536xf16>) -> tensor<65536xf16>
  %rb = "chlo.erf"(%b) : (tensor<65536xbf16>) -> tensor<65536xbf16>
  return %rh, %rb : tensor<65536xf16>, tensor<65536xbf16>
}

// -----

// erfc
func.func @main() -> (tensor<65536xf16>, tensor<65536xbf16>) {
  %i = stablehlo.iota dim = 0 : tensor<65536xi16>
  %h0 = stablehlo.bitcast_convert %i : (tensor<65536xi16>) -> tensor<65536xf16>
  %b0 = stablehlo.bitcast_convert %i : (tensor<65536xi16>) -> tensor<65536xbf16>
  %h, %b = stablehlo.optimization_barrier %h0, %b0 : tensor<65536xf16>, tensor<65536xbf16>
  %rh = "chlo.erfc"(%h) : (tensor<65536xf16>) -> tensor<65536xf16>
  %rb = "chlo.erfc"(%b) : (tensor<65536xbf16>) -> tensor<65536xbf16>
  return %rh, %rb : tensor<65536xf16>, tensor<65536xbf16>
}

// -----

// tanh
func.func @main() -> (tensor<65536xf16>, tensor<65536xbf16>) {
  %i = stablehlo.iota dim = 0 : tensor<65536xi16>
  %h0 = stablehlo.bitcast_convert %i : (tensor<65536xi16>) -> tensor<65536xf16>
  %b0 = stablehlo.bitcast_convert %i : (tensor<65536xi16>) -> tensor<65536xbf16>
  %h, %b = stablehlo.optimization_barrier %h0, %b0 : tensor<65536xf16>, tensor<65536xbf16>
  %rh = stablehlo.tanh %h : tensor<65536xf16>
  %rb = stablehlo.tanh %b : tensor<65536xbf16>
  return %rh, %rb : tensor<65536xf16>, tensor<65536xbf16>
}

// -----

// logistic
func.func @main() -> (tensor<65536xf16>, tensor<65536xbf16>) {
  %i = stablehlo.iota dim = 0 : tensor<65536xi16>
  %h0 = stablehlo.bitcast_convert %i : (tensor<65536xi16>) -> tensor<65536xf16>
  %b0 = stablehlo.bitcast_convert %i : (tensor<65536xi16>) -> tensor<65536xbf16>
  %h, %b = stablehlo.optimization_barrier %h0, %b0 : tensor<65536xf16>, tensor<65536xbf16>
  %rh = stablehlo.logistic %h : tensor<65536xf16>
  %rb = stablehlo.logistic %b : tensor<65536xbf16>
  return %rh, %rb : tensor<65536xf16>, tensor<65536xbf16>
}

// -----

// exp
func.func @main() -> (tensor<65536xf16>, tensor<65536xbf16>) {
  %i = stablehlo.iota dim = 0 : tensor<65536xi16>
  %h0 = stablehlo.bitcast_convert %i : (tensor<65536xi16>) -> tensor<65536xf16>
  %b0 = stablehlo.bitcast_convert %i : (tensor<65536xi16>) -> tensor<65536xbf16>
  %h, %b = stablehlo.optimization_barrier %h0, %b0 : tensor<65536xf16>, tensor<65536xbf16>
  %rh = stablehlo.exponential %h : tensor<65536xf16>
  %rb = stablehlo.exponential %b : tensor<65536xbf16>
  return %rh, %rb : tensor<65536xf16>, tensor<65536xbf16>
}

// -----

// expm1
func.func @main() -> (tensor<65536xf16>, tensor<65536xbf16>) {
  %i = stablehlo.iota dim = 0 : tensor<65536xi16>
  %h0 = stablehlo.bitcast_convert %i : (tensor<65536xi16>) -> tensor<65536xf16>
  %b0 = stablehlo.bitcast_convert %i : (tensor<65536xi16>) -> tensor<65536xbf16>
  %h, %b = stablehlo.optimization_barrier %h0, %b0 : tensor<65536xf16>, tensor<65536xbf16>
  %rh = stablehlo.exponential_minus_one %h : tensor<65536xf16>
  %rb = stablehlo.exponential_minus_one %b : tensor<65536xbf16>
  return %rh, %rb : tensor<65536xf16>, tensor<65536xbf16>
}

// -----

// log
func.func @main() -> (tensor<65536xf16>, tensor<65536xbf16>) {
  %i = stablehlo.iota dim = 0 : tensor<65536xi16>
  %h0 = stablehlo.bitcast_convert %i : (tensor<65536xi16>) -> tensor<65536xf16>
  %b0 = stablehlo.bitcast_convert %i : (tensor<65536xi16>) -> tensor<65536xbf16>
  %h, %b = stablehlo.optimization_barrier %h0, %b0 : tensor<65536xf16>, tensor<65536xbf16>
  %rh = stablehlo.log %h : tensor<65536xf16>
  %rb = stablehlo.log %b : tensor<65536xbf16>
  return %rh, %rb : tensor<65536xf16>, tensor<65536xbf16>
}

// -----

// log1p
func.func @main() -> (tensor<65536xf16>, tensor<65536xbf16>) {
  %i = stablehlo.iota dim = 0 : tensor<65536xi16>
  %h0 = stablehlo.bitcast_convert %i : (tensor<65536xi16>) -> tensor<65536xf16>
  %b0 = stablehlo.bitcast_convert %i : (tensor<65536xi16>) -> tensor<65536xbf16>
  %h, %b = stablehlo.optimization_barrier %h0, %b0 : tensor<65536xf16>, tensor<65536xbf16>
  %rh = stablehlo.log_plus_one %h : tensor<65536xf16>
  %rb = stablehlo.log_plus_one %b : tensor<65536xbf16>
  return %rh, %rb : tensor<65536xf16>, tensor<65536xbf16>
}

// -----

// sin
func.func @main() -> (tensor<65536xf16>, tensor<65536xbf16>) {
  %i = stablehlo.iota dim = 0 : tensor<65536xi16>
  %mag = stablehlo.constant dense<32767> : tensor<65536xi16>
  %sgn = stablehlo.constant dense<-32768> : tensor<65536xi16>
  %lim = stablehlo.constant dense<22656> : tensor<65536xi16>
  %m = stablehlo.and %i, %mag : tensor<65536xi16>
  %s = stablehlo.and %i, %sgn : tensor<65536xi16>
  %c = stablehlo.minimum %m, %lim : tensor<65536xi16>
  %j = stablehlo.or %c, %s : tensor<65536xi16>
  %h0 = stablehlo.bitcast_convert %i : (tensor<65536xi16>) -> tensor<65536xf16>
  %b0 = stablehlo.bitcast_convert %j : (tensor<65536xi16>) -> tensor<65536xbf16>
  %h, %b = stablehlo.optimization_barrier %h0, %b0 : tensor<65536xf16>, tensor<65536xbf16>
  %rh = stablehlo.sine %h : tensor<65536xf16>
  %rb = stablehlo.sine %b : tensor<65536xbf16>
  return %rh, %rb : tensor<65536xf16>, tensor<65536xbf16>
}

// -----

// cos
func.func @main() -> (tensor<65536xf16>, tensor<65536xbf16>) {
  %i = stablehlo.iota dim = 0 : tensor<65536xi16>
  %mag = stablehlo.constant dense<32767> : tensor<65536xi16>
  %sgn = stablehlo.constant dense<-32768> : tensor<65536xi16>
  %lim = stablehlo.constant dense<22656> : tensor<65536xi16>
  %m = stablehlo.and %i, %mag : tensor<65536xi16>
  %s = stablehlo.and %i, %sgn : tensor<65536xi16>
  %c = stablehlo.minimum %m, %lim : tensor<65536xi16>
  %j = stablehlo.or %c, %s : tensor<65536xi16>
  %h0 = stablehlo.bitcast_convert %i : (tensor<65536xi16>) -> tensor<65536xf16>
  %b0 = stablehlo.bitcast_convert %j : (tensor<65536xi16>) -> tensor<65536xbf16>
  %h, %b = stablehlo.optimization_barrier %h0, %b0 : tensor<65536xf16>, tensor<65536xbf16>
  %rh = stablehlo.cosine %h : tensor<65536xf16>
  %rb = stablehlo.cosine %b : tensor<65536xbf16>
  return %rh, %rb : tensor<65536xf16>, tensor<65536xbf16>
}

// -----

// tan
func.func @main() -> (tensor<65536xf16>, tensor<65536xbf16>) {
  %i = stablehlo.iota dim = 0 : tensor<65536xi16>
  %mag = stablehlo.constant dense<32767> : tensor<65536xi16>
  %sgn = stablehlo.constant dense<-32768> : tensor<65536xi16>
  %lim = stablehlo.constant dense<22656> : tensor<65536xi16>
  %m = stablehlo.and %i, %mag : tensor<65536xi16>
  %s = stablehlo.and %i, %sgn : tensor<65536xi16>
  %c = stablehlo.minimum %m, %lim : tensor<65536xi16>
  %j = stablehlo.or %c, %s : tensor<65536xi16>
  %h0 = stablehlo.bitcast_convert %i : (tensor<65536xi16>) -> tensor<65536xf16>
  %b0 = stablehlo.bitcast_convert %j : (tensor<65536xi16>) -> tensor<65536xbf16>
  %h, %b = stablehlo.optimization_barrier %h0, %b0 : tensor<65536xf16>, tensor<65536xbf16>
  %rh = stablehlo.tan %h : tensor<65536xf16>
  %rb = stablehlo.tan %b : tensor<65536xbf16>
  return %rh, %rb : tensor<65536xf16>, tensor<65536xbf16>
}

// -----

// sqrt
func.func @main() -> (tensor<65536xf16>, tensor<65536xbf16>) {
  %i = stablehlo.iota dim = 0 : tensor<65536xi16>
  %h0 = stablehlo.bitcast_convert %i : (tensor<65536xi16>) -> tensor<65536xf16>
  %b0 = stablehlo.bitcast_convert %i : (tensor<65536xi16>) -> tensor<65536xbf16>
  %h, %b = stablehlo.optimization_barrier %h0, %b0 : tensor<65536xf16>, tensor<65536xbf16>
  %rh = stablehlo.sqrt %h : tensor<65536xf16>
  %rb = stablehlo.sqrt %b : tensor<65536xbf16>
  return %rh, %rb : tensor<65536xf16>, tensor<65536xbf16>
}

// -----

// rsqrt
func.func @main() -> (tensor<65536xf16>, tensor<65536xbf16>) {
  %i = stablehlo.iota dim = 0 : tensor<65536xi16>
  %h0 = stablehlo.bitcast_convert %i : (tensor<65536xi16>) -> tensor<65536xf16>
  %b0 = stablehlo.bitcast_convert %i : (tensor<65536xi16>) -> tensor<65536xbf16>
  %h, %b = stablehlo.optimization_barrier %h0, %b0 : tensor<65536xf16>, tensor<65536xbf16>
  %rh = stablehlo.rsqrt %h : tensor<65536xf16>
  %rb = stablehlo.rsqrt %b : tensor<65536xbf16>
  return %rh, %rb : tensor<65536xf16>, tensor<65536xbf16>
}

// -----

// cbrt
func.func @main() -> (tensor<65536xf16>, tensor<65536xbf16>) {
  %i = stablehlo.iota dim = 0 : tensor<65536xi16>
  %h0 = stablehlo.bitcast_convert %i : (tensor<65536xi16>) -> tensor<65536xf16>
  %b0 = stablehlo.bitcast_convert %i : (tensor<65536xi16>) -> tensor<65536xbf16>
  %h, %b = stablehlo.optimization_barrier %h0, %b0 : tensor<65536xf16>, tensor<65536xbf16>
  %rh = stablehlo.cbrt %h : tensor<65536xf16>
  %rb = stablehlo.cbrt %b : tensor<65536xbf16>
  return %rh, %rb : tensor<65536xf16>, tensor<65536xbf16>
}

// -----

// pow
func.func @main() -> (tensor<65536xf16>, tensor<65536xbf16>) {
  %i = stablehlo.iota dim = 0 : tensor<65536xi16>
  %h0 = stablehlo.bitcast_convert %i : (tensor<65536xi16>) -> tensor<65536xf16>
  %b0 = stablehlo.bitcast_convert %i : (tensor<65536xi16>) -> tensor<65536xbf16>
  %k = stablehlo.constant dense<-25033> : tensor<65536xi16>
  %iy = stablehlo.multiply %i, %k : tensor<65536xi16>
  %hy0 = stablehlo.bitcast_convert %iy : (tensor<65536xi16>) -> tensor<65536xf16>
  %by0 = stablehlo.bitcast_convert %iy : (tensor<65536xi16>) -> tensor<65536xbf16>
  %h, %b, %hy, %by = stablehlo.optimization_barrier %h0, %b0, %hy0, %by0 : tensor<65536xf16>, tensor<65536xbf16>, tensor<65536xf16>, tensor<65536xbf16>
  %rh = stablehlo.power %h, %hy : tensor<65536xf16>
  %rb = stablehlo.power %b, %by : tensor<65536xbf16>
  return %rh, %rb : tensor<65536xf16>, tensor<65536xbf16>
}

// -----

// floor
func.func @main() -> (tensor<65536xf16>, tensor<65536xbf16>) {
  %i = stablehlo.iota dim = 0 : tensor<65536xi16>
  %h0 = stablehlo.bitcast_convert %i : (tensor<65536xi16>) -> tensor<65536xf16>
  %b0 = stablehlo.bitcast_convert %i : (tensor<65536xi16>) -> tensor<65536xbf16>
  %h, %b = stablehlo.optimization_barrier %h0, %b0 : tensor<65536xf16>, tensor<65536xbf16>
  %rh = stablehlo.floor %h : tensor<65536xf16>
  %rb = stablehlo.floor %b : tensor<65536xbf16>
  return %rh, %rb : tensor<65536xf16>, tensor<65536xbf16>
}

// -----

// ceil
func.func @main() -> (tensor<65536xf16>, tensor<65536xbf16>) {
  %i = stablehlo.iota dim = 0 : tensor<65536xi16>
  %h0 = stablehlo.bitcast_convert %i : (tensor<65536xi16>) -> tensor<65536xf16>
  %b0 = stablehlo.bitcast_convert %i : (tensor<65536xi16>) -> tensor<65536xbf16>
  %h, %b = stablehlo.optimization_barrier %h0, %b0 : tensor<65536xf16>, tensor<65536xbf16>
  %rh = stablehlo.ceil %h : tensor<65536xf16>
  %rb = stablehlo.ceil %b : tensor<65536xbf16>
  return %rh, %rb : tensor<65536xf16>, tensor<65536xbf16>
}

// -----

// round_nearest_even
func.func @main() -> (tensor<65536xf16>, tensor<65536xbf16>) {
  %i = stablehlo.iota dim = 0 : tensor<65536xi16>
  %h0 = stablehlo.bitcast_convert %i : (tensor<65536xi16>) -> tensor<65536xf16>
  %b0 = stablehlo.bitcast_convert %i : (tensor<65536xi16>) -> tensor<65536xbf16>
  %h, %b = stablehlo.optimization_barrier %h0, %b0 : tensor<65536xf16>, tensor<65536xbf16>
  %rh = stablehlo.round_nearest_even %h : tensor<65536xf16>
  %rb = stablehlo.round_nearest_even %b : tensor<65536xbf16>
  return %rh, %rb : tensor<65536xf16>, tensor<65536xbf16>
}

// -----

// maximum
func.func @main() -> (tensor<65536xf16>, tensor<65536xbf16>) {
  %i = stablehlo.iota dim = 0 : tensor<65536xi16>
  %h0 = stablehlo.bitcast_convert %i : (tensor<65536xi16>) -> tensor<65536xf16>
  %b0 = stablehlo.bitcast_convert %i : (tensor<65536xi16>) -> tensor<65536xbf16>
  %k = stablehlo.constant dense<-25033> : tensor<65536xi16>
  %iy = stablehlo.multiply %i, %k : tensor<65536xi16>
  %hy0 = stablehlo.bitcast_convert %iy : (tensor<65536xi16>) -> tensor<65536xf16>
  %by0 = stablehlo.bitcast_convert %iy : (tensor<65536xi16>) -> tensor<65536xbf16>
  %h, %b, %hy, %by = stablehlo.optimization_barrier %h0, %b0, %hy0, %by0 : tensor<65536xf16>, tensor<65536xbf16>, tensor<65536xf16>, tensor<65536xbf16>
  %rh = stablehlo.maximum %h, %hy : tensor<65536xf16>
  %rb = stablehlo.maximum %b, %by : tensor<65536xbf16>
  return %rh, %rb : tensor<65536xf16>, tensor<65536xbf16>
}

// -----

// minimum
func.func @main() -> (tensor<65536xf16>, tensor<65536xbf16>) {
  %i = stablehlo.iota dim = 0 : tensor<65536xi16>
  %h0 = stablehlo.bitcast_convert %i : (tensor<65536xi16>) -> tensor<65536xf16>
  %b0 = stablehlo.bitcast_convert %i : (tensor<65536xi16>) -> tensor<65536xbf16>
  %k = stablehlo.constant dense<-25033> : tensor<65536xi16>
  %iy = stablehlo.multiply %i, %k : tensor<65536xi16>
  %hy0 = stablehlo.bitcast_convert %iy : (tensor<65536xi16>) -> tensor<65536xf16>
  %by0 = stablehlo.bitcast_convert %iy : (tensor<65536xi16>) -> tensor<65536xbf16>
  %h, %b, %hy, %by = stablehlo.optimization_barrier %h0, %b0, %hy0, %by0 : tensor<65536xf16>, tensor<65536xbf16>, tensor<65536xf16>, tensor<65536xbf16>
  %rh = stablehlo.minimum %h, %hy : tensor<65536xf16>
  %rb = stablehlo.minimum %b, %by : tensor<65536xbf16>
  return %rh, %rb : tensor<65536xf16>, tensor<65536xbf16>
}
