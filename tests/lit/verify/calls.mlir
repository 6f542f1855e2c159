// RUN: xlac verify --verify-diagnostics --split-input-file %s
// RUN: awk 'BEGIN { for (i = 0; i < 3000; i++) { p = i ? "private " : ""; print "func.func " p "@f" i "(%a: tensor<f32>) -> tensor<f32> {"; print "  %r = func.call @f" (i + 1) "(%a) : (tensor<f32>) -> tensor<f32>"; print "  func.return %r : tensor<f32>"; print "}" } print "func.func private @f3000(%a: tensor<f32>) -> tensor<f32> {"; print "  func.return %a : tensor<f32>"; print "}" }' > %t.mlir
// RUN: not xlac verify %t.mlir 2>&1 | FileCheck %s --check-prefix=DEEP
// RUN: not xlac run --backend=interp --random-inputs %t.mlir 2>&1 | FileCheck %s --check-prefix=DEEP
// RUN: not xlac run --backend=cpu --random-inputs %t.mlir 2>&1 | FileCheck %s --check-prefix=DEEP
// RUN: not xlac opt --pipeline=cpu %t.mlir 2>&1 | FileCheck %s --check-prefix=DEEP
//
// StableHLO has no recursion: a function that reaches itself through calls
// is an error at the call that closes the cycle, naming the cycle.  Call
// chains may nest at most 256 deep (XLAC_MAX_CALL_DEPTH, the interpreter's
// limit too); a deeper one is an error at the call that goes past it, so
// the backends never disagree about it.
// DEEP: .mlir:1026:8: error: 'func.call' op call to @f257 is call number 257 of a chain of 3000 nested calls starting at @f0; calls may nest at most 256 deep
// DEEP-NOT: error

func.func @main(%n: tensor<i64>) -> tensor<i64> {
  // expected-error @+1 {{'func.call' op recursive call: @main calls @main (functions may not call themselves, directly or not)}}
  %r = func.call @main(%n) : (tensor<i64>) -> tensor<i64>
  func.return %r : tensor<i64>
}

// -----

func.func @main(%n: tensor<i64>) -> tensor<i64> {
  %r = func.call @even(%n) : (tensor<i64>) -> tensor<i64>
  func.return %r : tensor<i64>
}

func.func private @even(%n: tensor<i64>) -> tensor<i64> {
  %r = func.call @odd(%n) : (tensor<i64>) -> tensor<i64>
  func.return %r : tensor<i64>
}

func.func private @odd(%n: tensor<i64>) -> tensor<i64> {
  %one = stablehlo.constant dense<1> : tensor<i64>
  %m = stablehlo.subtract %n, %one : tensor<i64>
  %zero = stablehlo.constant dense<0> : tensor<i64>
  %done = stablehlo.compare LE, %n, %zero : (tensor<i64>, tensor<i64>) -> tensor<i1>
  // the call sits in a region of the if
  %r = "stablehlo.if"(%done) ({
    stablehlo.return %n : tensor<i64>
  }, {
    // expected-error @+1 {{'func.call' op recursive call: @even calls @odd calls @even}}
    %e = func.call @even(%m) : (tensor<i64>) -> tensor<i64>
    stablehlo.return %e : tensor<i64>
  }) : (tensor<i1>) -> tensor<i64>
  func.return %r : tensor<i64>
}

// -----

// a composite whose decomposition uses the composite again
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %r = stablehlo.composite "my.op" %x {decomposition = @my.op.impl} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}

func.func private @my.op.impl(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'stablehlo.composite' op recursive call: @my.op.impl calls @my.op.impl}}
  %r = stablehlo.composite "my.op" %x {decomposition = @my.op.impl} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %r : tensor<2xf32>
}

// -----

// a custom_call computation that calls back into its caller
func.func @main(%x: tensor<2x5xf32>) -> (tensor<2x3xf32>, tensor<2x3xi32>) {
  %v, %i = stablehlo.custom_call @TopK(%x) {called_computations = [@greater]} : (tensor<2x5xf32>) -> (tensor<2x3xf32>, tensor<2x3xi32>)
  func.return %v, %i : tensor<2x3xf32>, tensor<2x3xi32>
}

func.func private @greater(%a: tensor<f32>, %b: tensor<f32>, %i: tensor<i32>, %j: tensor<i32>) -> tensor<i1> {
  %x = stablehlo.broadcast_in_dim %a, dims = [] : (tensor<f32>) -> tensor<2x5xf32>
  // expected-error @+1 {{'stablehlo.custom_call' op recursive call: @main calls @greater calls @main}}
  %v, %k = stablehlo.custom_call @TopK(%x) {called_computations = [@main]} : (tensor<2x5xf32>) -> (tensor<2x3xf32>, tensor<2x3xi32>)
  %r = stablehlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
  func.return %r : tensor<i1>
}

// -----

// 256 nested calls are allowed; see the RUN lines for 257 and more
func.func @main(%a: tensor<f32>) -> tensor<f32> {
  %r = func.call @g(%a) : (tensor<f32>) -> tensor<f32>
  %s = func.call @h(%r) : (tensor<f32>) -> tensor<f32>
  func.return %s : tensor<f32>
}
func.func private @g(%a: tensor<f32>) -> tensor<f32> {
  %r = func.call @h(%a) : (tensor<f32>) -> tensor<f32>
  func.return %r : tensor<f32>
}
func.func private @h(%a: tensor<f32>) -> tensor<f32> {
  func.return %a : tensor<f32>
}
