// RUN: xlac run --backend=cpu --verbose --split-input-file %s 2>&1 | FileCheck %s
// RUN: xlac run --backend=cpu --threads=1 --split-input-file %s | FileCheck %s --check-prefix=VALUES
// RUN: xlac run --backend=interp --split-input-file %s | FileCheck %s --check-prefix=VALUES
// rng_bit_generator and rng compile to native code (no op through the
// interpreter) for every algorithm and distribution and the usual element
// types.  The bit generator's values are XLA's.

// VALUES: result[0]: tensor<2xui64> = [1, 4]
// VALUES: result[1]: tensor<5xui32> = [2100602697, 2847456232, 2074354647, 800269529, 1828267006]
// VALUES: result[2]: tensor<2xui64> = [1, 5]
// VALUES: result[3]: tensor<2x3xui8> = {{\[\[}}84, 211, 211], [59, 3, 97]]
// CHECK: cpu: 4 ops native (0 fusions), 0 through the interpreter
func.func @bits() -> (tensor<2xui64>, tensor<5xui32>, tensor<2xui64>, tensor<2x3xui8>, tensor<2xui64>, tensor<9xui64>, tensor<7xi16>) {
  %s = stablehlo.constant dense<[1, 2]> : tensor<2xui64>
  %ns, %r = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm PHILOX>}
      : (tensor<2xui64>) -> (tensor<2xui64>, tensor<5xui32>)
  %ns2, %b = "stablehlo.rng_bit_generator"(%s) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>}
      : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x3xui8>)
  %t = stablehlo.constant dense<[1, 2, 3]> : tensor<3xui64>
  %ns3, %c = "stablehlo.rng_bit_generator"(%t) {rng_algorithm = #stablehlo<rng_algorithm DEFAULT>}
      : (tensor<3xui64>) -> (tensor<3xui64>, tensor<7xi16>)
  %ns4, %d = "stablehlo.rng_bit_generator"(%ns2) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>}
      : (tensor<2xui64>) -> (tensor<2xui64>, tensor<9xui64>)
  return %ns, %r, %ns2, %b, %ns4, %d, %c : tensor<2xui64>, tensor<5xui32>, tensor<2xui64>, tensor<2x3xui8>, tensor<2xui64>, tensor<9xui64>, tensor<7xi16>
}

// -----

// VALUES: result[0]: tensor<4xi32> = [{{-?[0-9]}}, {{-?[0-9]}}, {{-?[0-9]}}, {{-?[0-9]}}]
// CHECK: cpu: 6 ops native (0 fusions), 0 through the interpreter
func.func @rng() -> (tensor<4xi32>, tensor<3xf32>, tensor<3xbf16>, tensor<2x2xf64>, tensor<5xui8>, tensor<2xi1>) {
  %a = stablehlo.constant dense<-5> : tensor<i32>
  %b = stablehlo.constant dense<5> : tensor<i32>
  %s4 = stablehlo.constant dense<[4]> : tensor<1xi64>
  %r = "stablehlo.rng"(%a, %b, %s4) {rng_distribution = #stablehlo<rng_distribution UNIFORM>}
      : (tensor<i32>, tensor<i32>, tensor<1xi64>) -> tensor<4xi32>
  %fa = stablehlo.constant dense<0.0> : tensor<f32>
  %fb = stablehlo.constant dense<1.0> : tensor<f32>
  %s3 = stablehlo.constant dense<[3]> : tensor<1xi64>
  %f = "stablehlo.rng"(%fa, %fb, %s3) {rng_distribution = #stablehlo<rng_distribution NORMAL>}
      : (tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<3xf32>
  %ba = stablehlo.constant dense<0.0> : tensor<bf16>
  %bb = stablehlo.constant dense<1.0> : tensor<bf16>
  %h = "stablehlo.rng"(%ba, %bb, %s3) {rng_distribution = #stablehlo<rng_distribution UNIFORM>}
      : (tensor<bf16>, tensor<bf16>, tensor<1xi64>) -> tensor<3xbf16>
  %da = stablehlo.constant dense<0.0> : tensor<f64>
  %db = stablehlo.constant dense<1.0> : tensor<f64>
  %s22 = stablehlo.constant dense<[2, 2]> : tensor<2xi64>
  %d = "stablehlo.rng"(%da, %db, %s22) {rng_distribution = #stablehlo<rng_distribution NORMAL>}
      : (tensor<f64>, tensor<f64>, tensor<2xi64>) -> tensor<2x2xf64>
  %ua = stablehlo.constant dense<0> : tensor<ui8>
  %ub = stablehlo.constant dense<200> : tensor<ui8>
  %s5 = stablehlo.constant dense<[5]> : tensor<1xi64>
  %u = "stablehlo.rng"(%ua, %ub, %s5) {rng_distribution = #stablehlo<rng_distribution UNIFORM>}
      : (tensor<ui8>, tensor<ui8>, tensor<1xi64>) -> tensor<5xui8>
  %pa = stablehlo.constant dense<false> : tensor<i1>
  %pb = stablehlo.constant dense<true> : tensor<i1>
  %s2 = stablehlo.constant dense<[2]> : tensor<1xi64>
  %p = "stablehlo.rng"(%pa, %pb, %s2) {rng_distribution = #stablehlo<rng_distribution UNIFORM>}
      : (tensor<i1>, tensor<i1>, tensor<1xi64>) -> tensor<2xi1>
  return %r, %f, %h, %d, %u, %p : tensor<4xi32>, tensor<3xf32>, tensor<3xbf16>, tensor<2x2xf64>, tensor<5xui8>, tensor<2xi1>
}
