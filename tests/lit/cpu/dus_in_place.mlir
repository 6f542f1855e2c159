// dynamic_update_slice writes in place when its operand dies there: a
// loop filling one row of its state per iteration costs a row, not the
// whole state.  Results must be the interpreter's, including when the
// updated state comes back in another slot of the loop state (the copies
// into the state must not clobber it) and when start indices clamp.
// RUN: xlac run --split-input-file %s
// RUN: xlac compare --random-inputs --split-input-file %s | FileCheck %s --check-prefix=CMP
// CMP-COUNT-4: max_ulp=0

// Row i of the result is x[i] * (i + 1): the scan/fori_loop pattern.
func.func @rows(%x: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %z = stablehlo.constant dense<0.0> : tensor<5x3xf32>
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %i0, %acc = %z) : tensor<i32>, tensor<5x3xf32>
  cond {
    %n = stablehlo.constant dense<5> : tensor<i32>
    %c = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %zero = stablehlo.constant dense<0> : tensor<i32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %row = stablehlo.dynamic_slice %x, %i, %zero, sizes = [1, 3] : (tensor<5x3xf32>, tensor<i32>, tensor<i32>) -> tensor<1x3xf32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    %k = stablehlo.convert %i1 : (tensor<i32>) -> tensor<f32>
    %kb = stablehlo.broadcast_in_dim %k, dims = [] : (tensor<f32>) -> tensor<1x3xf32>
    %v = stablehlo.multiply %row, %kb : tensor<1x3xf32>
    %u = stablehlo.dynamic_update_slice %acc, %v, %i, %zero : (tensor<5x3xf32>, tensor<1x3xf32>, tensor<i32>, tensor<i32>) -> tensor<5x3xf32>
    stablehlo.return %i1, %u : tensor<i32>, tensor<5x3xf32>
  }
  return %r#1 : tensor<5x3xf32>
}

func.func @main() {
  %x = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0], [1.5, 2.5, 3.5], [-1.0, 0.0, 1.0]]> : tensor<5x3xf32>
  %r = func.call @rows(%x) : (tensor<5x3xf32>) -> tensor<5x3xf32>
  check.expect_eq_const %r, dense<[[1.0, 2.0, 3.0], [8.0, 10.0, 12.0], [21.0, 24.0, 27.0], [6.0, 10.0, 14.0], [-5.0, 0.0, 5.0]]> : tensor<5x3xf32>
  func.return
}

// -----

// The state is updated in place in slot 0 but comes back in slot 1, while
// slot 0 gets a fresh value: a naive copy order would overwrite the update.
func.func @swap(%a0: tensor<4xi32>, %b0: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
  %i0 = stablehlo.constant dense<0> : tensor<i64>
  %r:3 = stablehlo.while(%i = %i0, %a = %a0, %b = %b0) : tensor<i64>, tensor<4xi32>, tensor<4xi32>
  cond {
    %n = stablehlo.constant dense<3> : tensor<i64>
    %c = stablehlo.compare LT, %i, %n : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i64>
    %s = stablehlo.slice %b [0:1] : (tensor<4xi32>) -> tensor<1xi32>
    %u = stablehlo.dynamic_update_slice %a, %s, %i : (tensor<4xi32>, tensor<1xi32>, tensor<i64>) -> tensor<4xi32>
    %c10 = stablehlo.constant dense<10> : tensor<4xi32>
    %nb = stablehlo.add %b, %c10 : tensor<4xi32>
    %i1 = stablehlo.add %i, %one : tensor<i64>
    stablehlo.return %i1, %nb, %u : tensor<i64>, tensor<4xi32>, tensor<4xi32>
  }
  return %r#1, %r#2 : tensor<4xi32>, tensor<4xi32>
}

func.func @main() {
  %a = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %b = stablehlo.constant dense<[100, 200, 300, 400]> : tensor<4xi32>
  %r:2 = func.call @swap(%a, %b) : (tensor<4xi32>, tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>)
  // i = 0: a, b = [110, 210, 310, 410], [100, 2, 3, 4]
  // i = 1: a, b = [110, 12, 13, 14], [110, 100, 310, 410]
  // i = 2: a, b = [120, 110, 320, 420], [110, 12, 110, 14]
  check.expect_eq_const %r#0, dense<[120, 110, 320, 420]> : tensor<4xi32>
  check.expect_eq_const %r#1, dense<[110, 12, 110, 14]> : tensor<4xi32>
  func.return
}

// -----

// Start indices clamp so the window stays inside; a temp that dies at the
// update is reused outside loops too.
func.func @main() {
  %x = stablehlo.iota dim = 0 : tensor<6x4xf32>
  %one = stablehlo.constant dense<1.0> : tensor<6x4xf32>
  %t = stablehlo.add %x, %one : tensor<6x4xf32>
  %u = stablehlo.constant dense<-1.0> : tensor<2x3xf32>
  %big = stablehlo.constant dense<9> : tensor<i32>
  %neg = stablehlo.constant dense<-7> : tensor<i32>
  %r = stablehlo.dynamic_update_slice %t, %u, %big, %neg : (tensor<6x4xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<6x4xf32>
  check.expect_eq_const %r, dense<[[1.0, 1.0, 1.0, 1.0], [2.0, 2.0, 2.0, 2.0], [3.0, 3.0, 3.0, 3.0], [4.0, 4.0, 4.0, 4.0], [-1.0, -1.0, -1.0, 5.0], [-1.0, -1.0, -1.0, 6.0]]> : tensor<6x4xf32>
  func.return
}

// -----

// Several updates of one buffer in a row, bf16 rows into a rank-3 state.
func.func @main() -> tensor<3x4x5xbf16> {
  %s = stablehlo.iota dim = 2 : tensor<3x4x5xbf16>
  %a = stablehlo.constant dense<0.5> : tensor<1x2x5xbf16>
  %b = stablehlo.constant dense<-2.0> : tensor<3x1x2xbf16>
  %i = stablehlo.constant dense<1> : tensor<ui32>
  %z = stablehlo.constant dense<0> : tensor<ui32>
  %n = stablehlo.negate %s : tensor<3x4x5xbf16>
  %u1 = stablehlo.dynamic_update_slice %n, %a, %i, %i, %z : (tensor<3x4x5xbf16>, tensor<1x2x5xbf16>, tensor<ui32>, tensor<ui32>, tensor<ui32>) -> tensor<3x4x5xbf16>
  %u2 = stablehlo.dynamic_update_slice %u1, %b, %z, %i, %i : (tensor<3x4x5xbf16>, tensor<3x1x2xbf16>, tensor<ui32>, tensor<ui32>, tensor<ui32>) -> tensor<3x4x5xbf16>
  return %u2 : tensor<3x4x5xbf16>
}
