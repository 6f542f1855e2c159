// Constant folding evaluates pure ops on constants with the interpreter.
// RUN: xlac opt --pass constant-fold %s | FileCheck %s
// The folded program still passes its checks:
// RUN: xlac opt --pass constant-fold %s | xlac run -
// A small --fold-limit leaves bigger results alone:
// RUN: xlac opt --pass constant-fold --fold-limit 2 %s | FileCheck %s --check-prefix=LIMIT

// CHECK-LABEL: func.func @main
// LIMIT-LABEL: func.func @main
func.func @main() {
  %a = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  %b = stablehlo.constant dense<[10, 20, 30]> : tensor<3xi32>
  // a chain folds all the way
  %s = stablehlo.add %a, %b : tensor<3xi32>
  %m = stablehlo.multiply %s, %s : tensor<3xi32>
  // LIMIT: stablehlo.add
  // LIMIT: stablehlo.multiply
  // CHECK: %[[M:[0-9]+]] = stablehlo.constant dense<[121, 484, 1089]> : tensor<3xi32>
  // a reduction with its body
  %z = stablehlo.constant dense<0> : tensor<i32>
  %r = stablehlo.reduce(%m init: %z) applies stablehlo.add across dimensions = [0]
    : (tensor<3xi32>, tensor<i32>) -> tensor<i32>
  // CHECK: %[[R:[0-9]+]] = stablehlo.constant dense<1694> : tensor<i32>
  // LIMIT: stablehlo.constant dense<0> : tensor<i32>
  // LIMIT: stablehlo.reduce
  // floats fold to exactly what the interpreter computes, -0.0 included
  %f = stablehlo.constant dense<[-0.0, 1.5, 0x7F800000]> : tensor<3xf32>
  %g = stablehlo.constant dense<[0.0, 2.0, 1.0]> : tensor<3xf32>
  %fm = stablehlo.multiply %f, %g : tensor<3xf32>
  // CHECK: %[[FM:[0-9]+]] = stablehlo.constant dense<[-0.0, 3.0, 0x7F800000]> : tensor<3xf32>
  // broadcasts of scalars stay broadcasts; the op on them folds on the scalars
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %two = stablehlo.constant dense<2.0> : tensor<f32>
  %b1 = stablehlo.broadcast_in_dim %one, dims = [] : (tensor<f32>) -> tensor<1000xf32>
  %b2 = stablehlo.broadcast_in_dim %two, dims = [] : (tensor<f32>) -> tensor<1000xf32>
  %bs = stablehlo.add %b1, %b2 : tensor<1000xf32>
  // CHECK: %[[THREE:[0-9]+]] = stablehlo.constant dense<3.0> : tensor<f32>
  // CHECK-NEXT: %[[BS:[0-9]+]] = {{.*}}broadcast_in_dim{{.*}}(%[[THREE]])
  %bsr = stablehlo.slice %bs [0:2] : (tensor<1000xf32>) -> tensor<2xf32>
  // iota is not folded (it costs nothing to compute)
  // CHECK: stablehlo.iota
  %io = stablehlo.iota dim = 0 : tensor<4xi32>
  %four = stablehlo.constant dense<4> : tensor<4xi32>
  %ia = stablehlo.add %io, %four : tensor<4xi32>
  // sort with its comparator folds
  %u = stablehlo.constant dense<[3, 1, 2]> : tensor<3xi32>
  %srt = "stablehlo.sort"(%u) ({
  ^bb0(%x: tensor<i32>, %y: tensor<i32>):
    %lt = stablehlo.compare LT, %x, %y : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  }) {dimension = 0 : i64} : (tensor<3xi32>) -> tensor<3xi32>
  // CHECK: %[[SRT:[0-9]+]] = stablehlo.constant dense<[1, 2, 3]> : tensor<3xi32>
  // CHECK-NOT: stablehlo.sort
  // CHECK-NOT: stablehlo.multiply
  check.expect_eq_const %m, dense<[121, 484, 1089]> : tensor<3xi32>
  check.expect_eq_const %r, dense<1694> : tensor<i32>
  check.expect_eq_const %fm, dense<[-0.0, 3.0, 0x7F800000]> : tensor<3xf32>
  check.expect_eq_const %bsr, dense<[3.0, 3.0]> : tensor<2xf32>
  check.expect_eq_const %ia, dense<[4, 5, 6, 7]> : tensor<4xi32>
  check.expect_eq_const %srt, dense<[1, 2, 3]> : tensor<3xi32>
  func.return
}

// CHECK-LABEL: func.func @effects
func.func @effects() -> (tensor<2xui64>, tensor<2x2xui32>) {
  // rng state and custom calls are never folded
  %st = stablehlo.constant dense<[1, 2]> : tensor<2xui64>
  // CHECK: stablehlo.rng_bit_generator
  %ns, %bits = "stablehlo.rng_bit_generator"(%st) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>}
    : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x2xui32>)
  func.return %ns, %bits : tensor<2xui64>, tensor<2x2xui32>
}
