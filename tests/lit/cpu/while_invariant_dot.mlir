// Products in a while loop whose B operand the loop cannot change (weights
// carried through the loop state unchanged, or defined outside the loop)
// multiply by a copy packed once before the loop (xlacrt_sgemm_pack_b, then
// xlacrt_sgemm_packed in the body); a B the loop changes (updated, swapped
// with another state value, or captured by an inner loop from an outer body
// that changes it) is packed in every product as before.  Every function
// turns its random inputs into small integers (floor(4x) in [-4, 3]) and
// clamps the recurrent state, so every sum is exact and the compiled results
// must equal the interpreter's bit for bit.
// RUN: xlac run %s
// RUN: xlac compare --random-inputs --entry carried %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --seed 7 --entry captured %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry updated %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry swapped %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry fused %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry carried_f64 %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry transposed %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry shared %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry nested %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --entry zero_trip %s | FileCheck %s --check-prefix=EXACT
// RUN: xlac compare --random-inputs --threads 2 --entry carried %s | FileCheck %s --check-prefix=EXACT
// EXACT: max_ulp=0
//
// Which products take the packed path (the IR before optimization):
// RUN: XLAC_DEBUG_LLVM=1 xlac run --backend=cpu --random-inputs --entry carried %s 2>&1 >/dev/null | FileCheck %s --check-prefix=PACKED
// RUN: XLAC_DEBUG_LLVM=1 xlac run --backend=cpu --random-inputs --entry captured %s 2>&1 >/dev/null | FileCheck %s --check-prefix=PACKED
// RUN: XLAC_DEBUG_LLVM=1 xlac run --backend=cpu --random-inputs --entry fused %s 2>&1 >/dev/null | FileCheck %s --check-prefix=PACKED
// RUN: XLAC_DEBUG_LLVM=1 xlac run --backend=cpu --random-inputs --entry transposed %s 2>&1 >/dev/null | FileCheck %s --check-prefix=TRANS
// PACKED: call void @xlacrt_sgemm_pack_b(ptr %{{.*}}, i32 0, i64 48, i64 40,
// PACKED: while.head:
// PACKED-NOT: call void @xlacrt_sgemm(
// PACKED: call void @xlacrt_sgemm_packed(ptr %{{.*}}, i32 0, i64 16,
// PACKED-NOT: call void @xlacrt_sgemm(
// TRANS: call void @xlacrt_sgemm_pack_b(ptr %{{.*}}, i32 1, i64 48, i64 40,
// TRANS: call void @xlacrt_sgemm_packed(
// RUN: XLAC_DEBUG_LLVM=1 xlac run --backend=cpu --random-inputs --entry carried_f64 %s 2>&1 >/dev/null | FileCheck %s --check-prefix=F64
// F64: call void @xlacrt_dgemm_pack_b(
// F64: call void @xlacrt_dgemm_packed(
// One packed copy for two products by the same weights:
// RUN: XLAC_DEBUG_LLVM=1 xlac run --backend=cpu --random-inputs --entry shared %s 2>&1 >/dev/null | FileCheck %s --check-prefix=SHARED
// SHARED-COUNT-1: call void @xlacrt_sgemm_pack_b(
// SHARED-NOT: call void @xlacrt_sgemm_pack_b(
// SHARED-COUNT-2: call void @xlacrt_sgemm_packed(
// A B that the loop changes is not packed ahead:
// RUN: XLAC_DEBUG_LLVM=1 xlac run --backend=cpu --random-inputs --entry updated %s 2>&1 >/dev/null | FileCheck %s --check-prefix=PLAIN
// RUN: XLAC_DEBUG_LLVM=1 xlac run --backend=cpu --random-inputs --entry swapped %s 2>&1 >/dev/null | FileCheck %s --check-prefix=PLAIN
// PLAIN-NOT: gemm_pack_b
// PLAIN: call void @xlacrt_sgemm(
// PLAIN-NOT: gemm_pack_b
// The inner loop of `nested` packs the weights its outer body changes, once
// per run of the inner loop (inside the outer loop's body):
// RUN: XLAC_DEBUG_LLVM=1 xlac run --backend=cpu --random-inputs --entry nested %s 2>&1 >/dev/null | FileCheck %s --check-prefix=NESTED
// NESTED: while.body:
// NESTED: call void @xlacrt_sgemm_pack_b(
// NESTED: while.head
// NESTED: call void @xlacrt_sgemm_packed(
//
// Fixed inputs with known results (both backends):
// RUN: xlac run %s | FileCheck %s --check-prefix=FIXED
// RUN: xlac run --backend=cpu %s | FileCheck %s --check-prefix=FIXED
// FIXED: result[0]: tensor<2x4xf32> = {{\[}}[12, 20, 28, 36], [-12, -20, -28, -36]]
// RUN: XLAC_DEBUG_LLVM=1 xlac run --backend=cpu %s 2>&1 >/dev/null | FileCheck %s --check-prefix=PACKED2
// PACKED2: call void @xlacrt_sgemm_pack_b(
// PACKED2: call void @xlacrt_sgemm_packed(ptr %{{.*}}, i32 0, i64 2,

// h [16, 40] by W [40, 48], four steps, W in the loop state.
func.func @carried(%h0: tensor<16x40xf32>, %w0: tensor<40x48xf32>) -> tensor<16x40xf32> {
  %four = stablehlo.constant dense<4.0> : tensor<f32>
  %f4h = stablehlo.broadcast_in_dim %four, dims = [] : (tensor<f32>) -> tensor<16x40xf32>
  %f4w = stablehlo.broadcast_in_dim %four, dims = [] : (tensor<f32>) -> tensor<40x48xf32>
  %h1 = stablehlo.multiply %h0, %f4h : tensor<16x40xf32>
  %h = stablehlo.floor %h1 : tensor<16x40xf32>
  %w1 = stablehlo.multiply %w0, %f4w : tensor<40x48xf32>
  %w = stablehlo.floor %w1 : tensor<40x48xf32>
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%i = %i0, %hh = %h, %ww = %w) : tensor<i32>, tensor<16x40xf32>, tensor<40x48xf32>
  cond {
    %n = stablehlo.constant dense<4> : tensor<i32>
    %c = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %p = stablehlo.dot_general %hh, %ww, contracting_dims = [1] x [0] : (tensor<16x40xf32>, tensor<40x48xf32>) -> tensor<16x48xf32>
    %s = stablehlo.slice %p [0:16, 0:40] : (tensor<16x48xf32>) -> tensor<16x40xf32>
    %lo = stablehlo.constant dense<-3.0> : tensor<f32>
    %hi = stablehlo.constant dense<3.0> : tensor<f32>
    %hn = stablehlo.clamp %lo, %s, %hi : (tensor<f32>, tensor<16x40xf32>, tensor<f32>) -> tensor<16x40xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %j, %hn, %ww : tensor<i32>, tensor<16x40xf32>, tensor<40x48xf32>
  }
  return %r#1 : tensor<16x40xf32>
}

// W defined before the loop and used inside it.
func.func @captured(%h0: tensor<16x40xf32>, %w0: tensor<40x48xf32>) -> tensor<16x40xf32> {
  %four = stablehlo.constant dense<4.0> : tensor<f32>
  %f4h = stablehlo.broadcast_in_dim %four, dims = [] : (tensor<f32>) -> tensor<16x40xf32>
  %f4w = stablehlo.broadcast_in_dim %four, dims = [] : (tensor<f32>) -> tensor<40x48xf32>
  %h1 = stablehlo.multiply %h0, %f4h : tensor<16x40xf32>
  %h = stablehlo.floor %h1 : tensor<16x40xf32>
  %w1 = stablehlo.multiply %w0, %f4w : tensor<40x48xf32>
  %w = stablehlo.floor %w1 : tensor<40x48xf32>
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %i0, %hh = %h) : tensor<i32>, tensor<16x40xf32>
  cond {
    %n = stablehlo.constant dense<5> : tensor<i32>
    %c = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %p = stablehlo.dot_general %hh, %w, contracting_dims = [1] x [0] : (tensor<16x40xf32>, tensor<40x48xf32>) -> tensor<16x48xf32>
    %s = stablehlo.slice %p [0:16, 8:48] : (tensor<16x48xf32>) -> tensor<16x40xf32>
    %lo = stablehlo.constant dense<-3.0> : tensor<f32>
    %hi = stablehlo.constant dense<3.0> : tensor<f32>
    %hn = stablehlo.clamp %lo, %s, %hi : (tensor<f32>, tensor<16x40xf32>, tensor<f32>) -> tensor<16x40xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %j, %hn : tensor<i32>, tensor<16x40xf32>
  }
  return %r#1 : tensor<16x40xf32>
}

// W in the loop state, negated every step: packed in every product.
func.func @updated(%h0: tensor<16x40xf32>, %w0: tensor<40x48xf32>) -> (tensor<16x40xf32>, tensor<40x48xf32>) {
  %four = stablehlo.constant dense<4.0> : tensor<f32>
  %f4h = stablehlo.broadcast_in_dim %four, dims = [] : (tensor<f32>) -> tensor<16x40xf32>
  %f4w = stablehlo.broadcast_in_dim %four, dims = [] : (tensor<f32>) -> tensor<40x48xf32>
  %h1 = stablehlo.multiply %h0, %f4h : tensor<16x40xf32>
  %h = stablehlo.floor %h1 : tensor<16x40xf32>
  %w1 = stablehlo.multiply %w0, %f4w : tensor<40x48xf32>
  %w = stablehlo.floor %w1 : tensor<40x48xf32>
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%i = %i0, %hh = %h, %ww = %w) : tensor<i32>, tensor<16x40xf32>, tensor<40x48xf32>
  cond {
    %n = stablehlo.constant dense<5> : tensor<i32>
    %c = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %p = stablehlo.dot_general %hh, %ww, contracting_dims = [1] x [0] : (tensor<16x40xf32>, tensor<40x48xf32>) -> tensor<16x48xf32>
    %s = stablehlo.slice %p [0:16, 0:40] : (tensor<16x48xf32>) -> tensor<16x40xf32>
    %lo = stablehlo.constant dense<-3.0> : tensor<f32>
    %hi = stablehlo.constant dense<3.0> : tensor<f32>
    %hn = stablehlo.clamp %lo, %s, %hi : (tensor<f32>, tensor<16x40xf32>, tensor<f32>) -> tensor<16x40xf32>
    %wn = stablehlo.negate %ww : tensor<40x48xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %j, %hn, %wn : tensor<i32>, tensor<16x40xf32>, tensor<40x48xf32>
  }
  return %r#1, %r#2 : tensor<16x40xf32>, tensor<40x48xf32>
}

// Two weights swapped in the state every step; the product uses the first.
func.func @swapped(%h0: tensor<16x40xf32>, %w0: tensor<40x48xf32>, %v0: tensor<40x48xf32>) -> tensor<16x40xf32> {
  %four = stablehlo.constant dense<4.0> : tensor<f32>
  %f4h = stablehlo.broadcast_in_dim %four, dims = [] : (tensor<f32>) -> tensor<16x40xf32>
  %f4w = stablehlo.broadcast_in_dim %four, dims = [] : (tensor<f32>) -> tensor<40x48xf32>
  %h1 = stablehlo.multiply %h0, %f4h : tensor<16x40xf32>
  %h = stablehlo.floor %h1 : tensor<16x40xf32>
  %w1 = stablehlo.multiply %w0, %f4w : tensor<40x48xf32>
  %w = stablehlo.floor %w1 : tensor<40x48xf32>
  %v1 = stablehlo.multiply %v0, %f4w : tensor<40x48xf32>
  %v = stablehlo.floor %v1 : tensor<40x48xf32>
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %r:4 = stablehlo.while(%i = %i0, %hh = %h, %a = %w, %b = %v) : tensor<i32>, tensor<16x40xf32>, tensor<40x48xf32>, tensor<40x48xf32>
  cond {
    %n = stablehlo.constant dense<5> : tensor<i32>
    %c = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %p = stablehlo.dot_general %hh, %a, contracting_dims = [1] x [0] : (tensor<16x40xf32>, tensor<40x48xf32>) -> tensor<16x48xf32>
    %s = stablehlo.slice %p [0:16, 0:40] : (tensor<16x48xf32>) -> tensor<16x40xf32>
    %lo = stablehlo.constant dense<-3.0> : tensor<f32>
    %hi = stablehlo.constant dense<3.0> : tensor<f32>
    %hn = stablehlo.clamp %lo, %s, %hi : (tensor<f32>, tensor<16x40xf32>, tensor<f32>) -> tensor<16x40xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %j, %hn, %b, %a : tensor<i32>, tensor<16x40xf32>, tensor<40x48xf32>, tensor<40x48xf32>
  }
  return %r#1 : tensor<16x40xf32>
}

// The product with a bias and clamp fused after it (a kOutput fusion),
// W in the loop state.
func.func @fused(%h0: tensor<16x40xf32>, %w0: tensor<40x48xf32>, %b0: tensor<48xf32>) -> tensor<16x40xf32> {
  %four = stablehlo.constant dense<4.0> : tensor<f32>
  %f4h = stablehlo.broadcast_in_dim %four, dims = [] : (tensor<f32>) -> tensor<16x40xf32>
  %f4w = stablehlo.broadcast_in_dim %four, dims = [] : (tensor<f32>) -> tensor<40x48xf32>
  %f4b = stablehlo.broadcast_in_dim %four, dims = [] : (tensor<f32>) -> tensor<48xf32>
  %h1 = stablehlo.multiply %h0, %f4h : tensor<16x40xf32>
  %h = stablehlo.floor %h1 : tensor<16x40xf32>
  %w1 = stablehlo.multiply %w0, %f4w : tensor<40x48xf32>
  %w = stablehlo.floor %w1 : tensor<40x48xf32>
  %b1 = stablehlo.multiply %b0, %f4b : tensor<48xf32>
  %b = stablehlo.floor %b1 : tensor<48xf32>
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %r:4 = stablehlo.while(%i = %i0, %hh = %h, %ww = %w, %bb = %b) : tensor<i32>, tensor<16x40xf32>, tensor<40x48xf32>, tensor<48xf32>
  cond {
    %n = stablehlo.constant dense<4> : tensor<i32>
    %c = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %p = stablehlo.dot_general %hh, %ww, contracting_dims = [1] x [0] : (tensor<16x40xf32>, tensor<40x48xf32>) -> tensor<16x48xf32>
    %bc = stablehlo.broadcast_in_dim %bb, dims = [1] : (tensor<48xf32>) -> tensor<16x48xf32>
    %q = stablehlo.add %p, %bc : tensor<16x48xf32>
    %lo = stablehlo.constant dense<-3.0> : tensor<f32>
    %hi = stablehlo.constant dense<3.0> : tensor<f32>
    %cl = stablehlo.clamp %lo, %q, %hi : (tensor<f32>, tensor<16x48xf32>, tensor<f32>) -> tensor<16x48xf32>
    %hn = stablehlo.slice %cl [0:16, 4:44] : (tensor<16x48xf32>) -> tensor<16x40xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %j, %hn, %ww, %bb : tensor<i32>, tensor<16x40xf32>, tensor<40x48xf32>, tensor<48xf32>
  }
  return %r#1 : tensor<16x40xf32>
}

// The carried case in f64, with 20 rows (a ragged row tile).
func.func @carried_f64(%h0: tensor<20x40xf64>, %w0: tensor<40x48xf64>) -> tensor<20x40xf64> {
  %four = stablehlo.constant dense<4.0> : tensor<f64>
  %f4h = stablehlo.broadcast_in_dim %four, dims = [] : (tensor<f64>) -> tensor<20x40xf64>
  %f4w = stablehlo.broadcast_in_dim %four, dims = [] : (tensor<f64>) -> tensor<40x48xf64>
  %h1 = stablehlo.multiply %h0, %f4h : tensor<20x40xf64>
  %h = stablehlo.floor %h1 : tensor<20x40xf64>
  %w1 = stablehlo.multiply %w0, %f4w : tensor<40x48xf64>
  %w = stablehlo.floor %w1 : tensor<40x48xf64>
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%i = %i0, %hh = %h, %ww = %w) : tensor<i32>, tensor<20x40xf64>, tensor<40x48xf64>
  cond {
    %n = stablehlo.constant dense<4> : tensor<i32>
    %c = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %p = stablehlo.dot_general %hh, %ww, contracting_dims = [1] x [0] : (tensor<20x40xf64>, tensor<40x48xf64>) -> tensor<20x48xf64>
    %s = stablehlo.slice %p [0:20, 0:40] : (tensor<20x48xf64>) -> tensor<20x40xf64>
    %lo = stablehlo.constant dense<-3.0> : tensor<f64>
    %hi = stablehlo.constant dense<3.0> : tensor<f64>
    %hn = stablehlo.clamp %lo, %s, %hi : (tensor<f64>, tensor<20x40xf64>, tensor<f64>) -> tensor<20x40xf64>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %j, %hn, %ww : tensor<i32>, tensor<20x40xf64>, tensor<40x48xf64>
  }
  return %r#1 : tensor<20x40xf64>
}

// W stored [48, 40] and contracted on its second dimension (B transposed).
func.func @transposed(%h0: tensor<16x40xf32>, %w0: tensor<48x40xf32>) -> tensor<16x40xf32> {
  %four = stablehlo.constant dense<4.0> : tensor<f32>
  %f4h = stablehlo.broadcast_in_dim %four, dims = [] : (tensor<f32>) -> tensor<16x40xf32>
  %f4w = stablehlo.broadcast_in_dim %four, dims = [] : (tensor<f32>) -> tensor<48x40xf32>
  %h1 = stablehlo.multiply %h0, %f4h : tensor<16x40xf32>
  %h = stablehlo.floor %h1 : tensor<16x40xf32>
  %w1 = stablehlo.multiply %w0, %f4w : tensor<48x40xf32>
  %w = stablehlo.floor %w1 : tensor<48x40xf32>
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%i = %i0, %hh = %h, %ww = %w) : tensor<i32>, tensor<16x40xf32>, tensor<48x40xf32>
  cond {
    %n = stablehlo.constant dense<4> : tensor<i32>
    %c = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %p = stablehlo.dot_general %hh, %ww, contracting_dims = [1] x [1] : (tensor<16x40xf32>, tensor<48x40xf32>) -> tensor<16x48xf32>
    %s = stablehlo.slice %p [0:16, 0:40] : (tensor<16x48xf32>) -> tensor<16x40xf32>
    %lo = stablehlo.constant dense<-3.0> : tensor<f32>
    %hi = stablehlo.constant dense<3.0> : tensor<f32>
    %hn = stablehlo.clamp %lo, %s, %hi : (tensor<f32>, tensor<16x40xf32>, tensor<f32>) -> tensor<16x40xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %j, %hn, %ww : tensor<i32>, tensor<16x40xf32>, tensor<48x40xf32>
  }
  return %r#1 : tensor<16x40xf32>
}

// Two states multiplied by the same weights each step.
func.func @shared(%h0: tensor<16x40xf32>, %g0: tensor<24x40xf32>, %w0: tensor<40x48xf32>) -> (tensor<16x40xf32>, tensor<24x40xf32>) {
  %four = stablehlo.constant dense<4.0> : tensor<f32>
  %f4h = stablehlo.broadcast_in_dim %four, dims = [] : (tensor<f32>) -> tensor<16x40xf32>
  %f4g = stablehlo.broadcast_in_dim %four, dims = [] : (tensor<f32>) -> tensor<24x40xf32>
  %f4w = stablehlo.broadcast_in_dim %four, dims = [] : (tensor<f32>) -> tensor<40x48xf32>
  %h1 = stablehlo.multiply %h0, %f4h : tensor<16x40xf32>
  %h = stablehlo.floor %h1 : tensor<16x40xf32>
  %g1 = stablehlo.multiply %g0, %f4g : tensor<24x40xf32>
  %g = stablehlo.floor %g1 : tensor<24x40xf32>
  %w1 = stablehlo.multiply %w0, %f4w : tensor<40x48xf32>
  %w = stablehlo.floor %w1 : tensor<40x48xf32>
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %r:4 = stablehlo.while(%i = %i0, %hh = %h, %gg = %g, %ww = %w) : tensor<i32>, tensor<16x40xf32>, tensor<24x40xf32>, tensor<40x48xf32>
  cond {
    %n = stablehlo.constant dense<3> : tensor<i32>
    %c = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %p = stablehlo.dot_general %hh, %ww, contracting_dims = [1] x [0] : (tensor<16x40xf32>, tensor<40x48xf32>) -> tensor<16x48xf32>
    %q = stablehlo.dot_general %gg, %ww, contracting_dims = [1] x [0] : (tensor<24x40xf32>, tensor<40x48xf32>) -> tensor<24x48xf32>
    %s = stablehlo.slice %p [0:16, 0:40] : (tensor<16x48xf32>) -> tensor<16x40xf32>
    %t = stablehlo.slice %q [0:24, 8:48] : (tensor<24x48xf32>) -> tensor<24x40xf32>
    %lo = stablehlo.constant dense<-3.0> : tensor<f32>
    %hi = stablehlo.constant dense<3.0> : tensor<f32>
    %hn = stablehlo.clamp %lo, %s, %hi : (tensor<f32>, tensor<16x40xf32>, tensor<f32>) -> tensor<16x40xf32>
    %gn = stablehlo.clamp %lo, %t, %hi : (tensor<f32>, tensor<24x40xf32>, tensor<f32>) -> tensor<24x40xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %j, %hn, %gn, %ww : tensor<i32>, tensor<16x40xf32>, tensor<24x40xf32>, tensor<40x48xf32>
  }
  return %r#1, %r#2 : tensor<16x40xf32>, tensor<24x40xf32>
}

// An outer loop that changes W (negates it) around an inner loop that
// multiplies by it: the inner loop's copy is packed again each time.
func.func @nested(%h0: tensor<16x40xf32>, %w0: tensor<40x48xf32>) -> tensor<16x40xf32> {
  %four = stablehlo.constant dense<4.0> : tensor<f32>
  %f4h = stablehlo.broadcast_in_dim %four, dims = [] : (tensor<f32>) -> tensor<16x40xf32>
  %f4w = stablehlo.broadcast_in_dim %four, dims = [] : (tensor<f32>) -> tensor<40x48xf32>
  %h1 = stablehlo.multiply %h0, %f4h : tensor<16x40xf32>
  %h = stablehlo.floor %h1 : tensor<16x40xf32>
  %w1 = stablehlo.multiply %w0, %f4w : tensor<40x48xf32>
  %w = stablehlo.floor %w1 : tensor<40x48xf32>
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%i = %i0, %hh = %h, %ww = %w) : tensor<i32>, tensor<16x40xf32>, tensor<40x48xf32>
  cond {
    %n = stablehlo.constant dense<3> : tensor<i32>
    %c = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %k0 = stablehlo.constant dense<0> : tensor<i32>
    %in:2 = stablehlo.while(%k = %k0, %x = %hh) : tensor<i32>, tensor<16x40xf32>
    cond {
      %m = stablehlo.constant dense<2> : tensor<i32>
      %c2 = stablehlo.compare LT, %k, %m : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c2 : tensor<i1>
    } do {
      %p = stablehlo.dot_general %x, %ww, contracting_dims = [1] x [0] : (tensor<16x40xf32>, tensor<40x48xf32>) -> tensor<16x48xf32>
      %s = stablehlo.slice %p [0:16, 0:40] : (tensor<16x48xf32>) -> tensor<16x40xf32>
      %lo = stablehlo.constant dense<-3.0> : tensor<f32>
      %hi = stablehlo.constant dense<3.0> : tensor<f32>
      %xn = stablehlo.clamp %lo, %s, %hi : (tensor<f32>, tensor<16x40xf32>, tensor<f32>) -> tensor<16x40xf32>
      %one2 = stablehlo.constant dense<1> : tensor<i32>
      %k1 = stablehlo.add %k, %one2 : tensor<i32>
      stablehlo.return %k1, %xn : tensor<i32>, tensor<16x40xf32>
    }
    %wn = stablehlo.negate %ww : tensor<40x48xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %j, %in#1, %wn : tensor<i32>, tensor<16x40xf32>, tensor<40x48xf32>
  }
  return %r#1 : tensor<16x40xf32>
}

// A loop that runs no iteration: the state comes back as it went in.
func.func @zero_trip(%h0: tensor<16x40xf32>, %w0: tensor<40x48xf32>) -> tensor<16x40xf32> {
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%i = %i0, %hh = %h0, %ww = %w0) : tensor<i32>, tensor<16x40xf32>, tensor<40x48xf32>
  cond {
    %n = stablehlo.constant dense<0> : tensor<i32>
    %c = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %p = stablehlo.dot_general %hh, %ww, contracting_dims = [1] x [0] : (tensor<16x40xf32>, tensor<40x48xf32>) -> tensor<16x48xf32>
    %s = stablehlo.slice %p [0:16, 0:40] : (tensor<16x48xf32>) -> tensor<16x40xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %j, %s, %ww : tensor<i32>, tensor<16x40xf32>, tensor<40x48xf32>
  }
  return %r#1 : tensor<16x40xf32>
}

// Fixed inputs: x [2, 64] = (0, 1, ..., 63) and its negation, W [64, 64]
// = 1 on the diagonal and just below it, so x W is x[c] + x[c + 1]; three
// steps x <- x W in the loop, W in the loop state, give 8c + 12 in the
// first columns (and the negation).  Checked on both backends.
func.func @main() -> tensor<2x4xf32> {
  %a = stablehlo.iota dim = 1 : tensor<2x64xf32>
  %rb = stablehlo.iota dim = 0 : tensor<2x64xf32>
  %two = stablehlo.constant dense<2.0> : tensor<2x64xf32>
  %one = stablehlo.constant dense<1.0> : tensor<2x64xf32>
  %sgn = stablehlo.multiply %rb, %two : tensor<2x64xf32>
  %sg = stablehlo.subtract %one, %sgn : tensor<2x64xf32>
  %x0 = stablehlo.multiply %a, %sg : tensor<2x64xf32>
  %ri = stablehlo.iota dim = 0 : tensor<64x64xi32>
  %ci = stablehlo.iota dim = 1 : tensor<64x64xi32>
  %sh = stablehlo.constant dense<1> : tensor<64x64xi32>
  %cp = stablehlo.add %ci, %sh : tensor<64x64xi32>
  %diag = stablehlo.compare EQ, %ri, %ci : (tensor<64x64xi32>, tensor<64x64xi32>) -> tensor<64x64xi1>
  %below = stablehlo.compare EQ, %ri, %cp : (tensor<64x64xi32>, tensor<64x64xi32>) -> tensor<64x64xi1>
  %on = stablehlo.or %diag, %below : tensor<64x64xi1>
  %z = stablehlo.constant dense<0.0> : tensor<64x64xf32>
  %o = stablehlo.constant dense<1.0> : tensor<64x64xf32>
  %w0 = stablehlo.select %on, %o, %z : tensor<64x64xi1>, tensor<64x64xf32>
  %x, %w = stablehlo.optimization_barrier %x0, %w0 : tensor<2x64xf32>, tensor<64x64xf32>
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%i = %i0, %xx = %x, %ww = %w) : tensor<i32>, tensor<2x64xf32>, tensor<64x64xf32>
  cond {
    %n = stablehlo.constant dense<3> : tensor<i32>
    %c = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %p = stablehlo.dot_general %xx, %ww, contracting_dims = [1] x [0] : (tensor<2x64xf32>, tensor<64x64xf32>) -> tensor<2x64xf32>
    %one_i = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %one_i : tensor<i32>
    stablehlo.return %j, %p, %ww : tensor<i32>, tensor<2x64xf32>, tensor<64x64xf32>
  }
  %res = stablehlo.slice %r#1 [0:2, 0:4] : (tensor<2x64xf32>) -> tensor<2x4xf32>
  return %res : tensor<2x4xf32>
}
