// Dead code elimination: unused pure ops, unused calls of pure functions,
// and private functions nothing reachable calls any more.
// RUN: xlac opt --pass dce %s | FileCheck %s
// RUN: xlac opt --pass dce %s | xlac run -

// only called from a dead call: goes with it
// CHECK-NOT: @pure_helper
func.func private @pure_helper(%a: tensor<2xf32>) -> tensor<2xf32> {
  %e = stablehlo.exponential %a : tensor<2xf32>
  func.return %e : tensor<2xf32>
}

// never called: goes
// CHECK-NOT: @unused
func.func private @unused(%a: tensor<2xf32>) -> tensor<2xf32> {
  func.return %a : tensor<2xf32>
}

// has an effect: its call stays even though the result is unused
// CHECK-LABEL: func.func private @effectful
func.func private @effectful(%a: tensor<2xf32>) -> tensor<2xf32> {
  check.expect_eq_const %a, dense<[1.0, 2.0]> : tensor<2xf32>
  func.return %a : tensor<2xf32>
}

// a while loop that never ends: the function might not terminate, so its
// call stays
// CHECK-LABEL: func.func private @loop
func.func private @loop(%n: tensor<i64>) -> tensor<i64> {
  %r = "stablehlo.while"(%n) ({
  ^bb0(%i: tensor<i64>):
    %t = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %t : tensor<i1>
  }, {
  ^bb0(%i: tensor<i64>):
    stablehlo.return %i : tensor<i64>
  }) : (tensor<i64>) -> tensor<i64>
  func.return %r : tensor<i64>
}

// public functions stay even when nobody calls them
// CHECK-LABEL: func.func @api
func.func @api(%a: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK-NOT: stablehlo.log
  %l = stablehlo.log %a : tensor<2xf32>
  // CHECK: func.return %arg0
  func.return %a : tensor<2xf32>
}

// CHECK-LABEL: func.func @main
func.func @main() {
  %x = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %n = stablehlo.constant dense<3> : tensor<i64>
  %b = stablehlo.constant dense<false> : tensor<i1>
  // CHECK-NOT: stablehlo.add
  %d0 = stablehlo.add %x, %x : tensor<2xf32>
  %d1 = stablehlo.multiply %d0, %d0 : tensor<2xf32>
  // CHECK-NOT: @pure_helper
  %d2 = func.call @pure_helper(%x) : (tensor<2xf32>) -> tensor<2xf32>
  // CHECK: {callee = @effectful}
  %d3 = func.call @effectful(%x) : (tensor<2xf32>) -> tensor<2xf32>
  // CHECK: "stablehlo.if"
  // CHECK: {callee = @loop}
  %d4 = "stablehlo.if"(%b) ({
    %l = func.call @loop(%n) : (tensor<i64>) -> tensor<i64>
    stablehlo.return %l : tensor<i64>
  }, {
    stablehlo.return %n : tensor<i64>
  }) : (tensor<i1>) -> tensor<i64>
  // an unused op inside a region goes too
  // CHECK: "stablehlo.if"
  // CHECK-NOT: stablehlo.negate
  %d5 = "stablehlo.if"(%b) ({
    %neg = stablehlo.negate %x : tensor<2xf32>
    stablehlo.return %x : tensor<2xf32>
  }, {
    stablehlo.return %x : tensor<2xf32>
  }) : (tensor<i1>) -> tensor<2xf32>
  check.expect_eq_const %d5, dense<[1.0, 2.0]> : tensor<2xf32>
  func.return
}
