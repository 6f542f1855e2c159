// GEMM epilogues (kOutput fusions) with the transcendentals of a
// transformer's MLP and norms: tanh, tanh-approximate GELU and exact GELU
// as jax.nn.gelu lowers them (the exact one through chlo.erfc), logistic,
// exp and log, rsqrt; f32 and bf16; without a bias (first module) and with
// one (second).  Each product is computed into its output buffer and the
// epilogue reads it back through that same pointer.  Through two pointers
// the loop vectorizer checked at run time that they lie a vector apart (its
// `diff.check`), which equal pointers fail: every row went to the scalar
// loop, and a fused epilogue ran several times slower than the same ops as
// a kernel of their own.  The outputs (128x1024) take two chunks, so the
// kernels stay functions of their own rather than being inlined into the
// entry with their pointers known.  No math is a call per element.  The
// vector width is the host's (4, 8 or 16 floats).  Results against the
// interpreter: the products' sums are ordered differently, so the bound is
// on the absolute error.
// RUN: rm -rf %t && xlac run --backend=cpu --random-inputs --split-input-file --xla_dump_to=%t %s > /dev/null
// RUN: FileCheck %s --check-prefix=IR < %t/module_0000.main.ir-with-opt.ll
// RUN: FileCheck %s --check-prefix=IR < %t/module_0001.main.ir-with-opt.ll
// RUN: not grep -E 'call (float|double|<[^>]*>) @[^l]' %t/module_0000.main.ir-with-opt.ll %t/module_0001.main.ir-with-opt.ll
// RUN: xlac opt --pipeline=cpu --split-input-file %s | FileCheck %s --check-prefix=FUSE
// RUN: xlac compare --random-inputs --split-input-file %s | FileCheck %s --check-prefix=CMP
// IR-NOT: diff.check
// IR: define internal void @kernel.0(
// IR-NOT: diff.check
// IR: store <{{[0-9]+}} x float>
// IR-NOT: diff.check
// FUSE-COUNT-14: fusion_kind = "kOutput"
// FUSE-NOT: fusion_kind = "kOutput"
// CMP-COUNT-6: result[{{[0-9]}}]: f32, max abs error {{(0|[0-9.]+e-(0[5-9]|[1-9][0-9]))}},
// CMP-NEXT: result[6]: bf16, max abs error {{(0|0\.0[0-9]+|[0-9.]+e-(0[2-9]|[1-9][0-9]))}},
// CMP: COMPARE
// CMP-COUNT-6: result[{{[0-9]}}]: f32, max abs error {{(0|[0-9.]+e-(0[5-9]|[1-9][0-9]))}},
// CMP-NEXT: result[6]: bf16, max abs error {{(0|0\.0[0-9]+|[0-9.]+e-(0[2-9]|[1-9][0-9]))}},

func.func @main(%x: tensor<128x32xf32>, %w0: tensor<32x1024xf32>, %w1: tensor<32x1024xf32>, %w2: tensor<32x1024xf32>,
                %w3: tensor<32x1024xf32>, %w4: tensor<32x1024xf32>, %w5: tensor<32x1024xf32>,
                %xh: tensor<128x32xbf16>, %wh: tensor<32x1024xbf16>)
    -> (tensor<128x1024xf32>, tensor<128x1024xf32>, tensor<128x1024xf32>, tensor<128x1024xf32>, tensor<128x1024xf32>,
        tensor<128x1024xf32>, tensor<128x1024xbf16>) {
  %half = stablehlo.constant dense<5.000000e-01> : tensor<128x1024xf32>
  %one = stablehlo.constant dense<1.000000e+00> : tensor<128x1024xf32>

  // tanh(x w)
  %d0 = stablehlo.dot_general %x, %w0, contracting_dims = [1] x [0] : (tensor<128x32xf32>, tensor<32x1024xf32>) -> tensor<128x1024xf32>
  %r0 = stablehlo.tanh %d0 : tensor<128x1024xf32>

  // gelu(x w, approximate=True)
  %d1 = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<128x32xf32>, tensor<32x1024xf32>) -> tensor<128x1024xf32>
  %c1 = stablehlo.multiply %d1, %d1 : tensor<128x1024xf32>
  %c2 = stablehlo.multiply %c1, %d1 : tensor<128x1024xf32>
  %k0 = stablehlo.constant dense<4.471500e-02> : tensor<128x1024xf32>
  %c3 = stablehlo.multiply %k0, %c2 : tensor<128x1024xf32>
  %c4 = stablehlo.add %d1, %c3 : tensor<128x1024xf32>
  %k1 = stablehlo.constant dense<0.797884583> : tensor<128x1024xf32>
  %c5 = stablehlo.multiply %k1, %c4 : tensor<128x1024xf32>
  %c6 = stablehlo.tanh %c5 : tensor<128x1024xf32>
  %c7 = stablehlo.add %one, %c6 : tensor<128x1024xf32>
  %c8 = stablehlo.multiply %half, %c7 : tensor<128x1024xf32>
  %r1 = stablehlo.multiply %d1, %c8 : tensor<128x1024xf32>

  // gelu(x w, approximate=False): x/2 erfc(-x/sqrt 2)
  %d2 = stablehlo.dot_general %x, %w2, contracting_dims = [1] x [0] : (tensor<128x32xf32>, tensor<32x1024xf32>) -> tensor<128x1024xf32>
  %e0 = stablehlo.multiply %half, %d2 : tensor<128x1024xf32>
  %e1 = stablehlo.negate %d2 : tensor<128x1024xf32>
  %k2 = stablehlo.constant dense<0.707106769> : tensor<128x1024xf32>
  %e2 = stablehlo.multiply %e1, %k2 : tensor<128x1024xf32>
  %e3 = chlo.erfc %e2 : tensor<128x1024xf32> -> tensor<128x1024xf32>
  %r2 = stablehlo.multiply %e0, %e3 : tensor<128x1024xf32>

  // sigmoid(x w)
  %d3 = stablehlo.dot_general %x, %w3, contracting_dims = [1] x [0] : (tensor<128x32xf32>, tensor<32x1024xf32>) -> tensor<128x1024xf32>
  %r3 = stablehlo.logistic %d3 : tensor<128x1024xf32>

  // log(1 + exp(x w)), softplus as written by hand
  %d4 = stablehlo.dot_general %x, %w4, contracting_dims = [1] x [0] : (tensor<128x32xf32>, tensor<32x1024xf32>) -> tensor<128x1024xf32>
  %s0 = stablehlo.exponential %d4 : tensor<128x1024xf32>
  %s1 = stablehlo.add %one, %s0 : tensor<128x1024xf32>
  %r4 = stablehlo.log %s1 : tensor<128x1024xf32>

  // rsqrt(1 + (x w)^2)
  %d5 = stablehlo.dot_general %x, %w5, contracting_dims = [1] x [0] : (tensor<128x32xf32>, tensor<32x1024xf32>) -> tensor<128x1024xf32>
  %q0 = stablehlo.multiply %d5, %d5 : tensor<128x1024xf32>
  %q1 = stablehlo.add %one, %q0 : tensor<128x1024xf32>
  %r5 = stablehlo.rsqrt %q1 : tensor<128x1024xf32>

  // bf16: gelu(x w, approximate=True), every op rounded to bf16
  %d6 = stablehlo.dot_general %xh, %wh, contracting_dims = [1] x [0] : (tensor<128x32xbf16>, tensor<32x1024xbf16>) -> tensor<128x1024xbf16>
  %h1 = stablehlo.multiply %d6, %d6 : tensor<128x1024xbf16>
  %h2 = stablehlo.multiply %h1, %d6 : tensor<128x1024xbf16>
  %k3 = stablehlo.constant dense<4.467770e-02> : tensor<128x1024xbf16>
  %h3 = stablehlo.multiply %k3, %h2 : tensor<128x1024xbf16>
  %h4 = stablehlo.add %d6, %h3 : tensor<128x1024xbf16>
  %k4 = stablehlo.constant dense<7.968750e-01> : tensor<128x1024xbf16>
  %h5 = stablehlo.multiply %k4, %h4 : tensor<128x1024xbf16>
  %h6 = stablehlo.tanh %h5 : tensor<128x1024xbf16>
  %oneh = stablehlo.constant dense<1.000000e+00> : tensor<128x1024xbf16>
  %h7 = stablehlo.add %oneh, %h6 : tensor<128x1024xbf16>
  %halfh = stablehlo.constant dense<5.000000e-01> : tensor<128x1024xbf16>
  %h8 = stablehlo.multiply %halfh, %h7 : tensor<128x1024xbf16>
  %r6 = stablehlo.multiply %d6, %h8 : tensor<128x1024xbf16>

  return %r0, %r1, %r2, %r3, %r4, %r5, %r6 : tensor<128x1024xf32>, tensor<128x1024xf32>, tensor<128x1024xf32>, tensor<128x1024xf32>, tensor<128x1024xf32>, tensor<128x1024xf32>, tensor<128x1024xbf16>
}

// -----

func.func @main(%x: tensor<128x32xf32>, %w0: tensor<32x1024xf32>, %w1: tensor<32x1024xf32>, %w2: tensor<32x1024xf32>,
                %w3: tensor<32x1024xf32>, %w4: tensor<32x1024xf32>, %w5: tensor<32x1024xf32>, %b: tensor<1024xf32>,
                %xh: tensor<128x32xbf16>, %wh: tensor<32x1024xbf16>, %bh: tensor<1024xbf16>)
    -> (tensor<128x1024xf32>, tensor<128x1024xf32>, tensor<128x1024xf32>, tensor<128x1024xf32>, tensor<128x1024xf32>,
        tensor<128x1024xf32>, tensor<128x1024xbf16>) {
  %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<1024xf32>) -> tensor<128x1024xf32>
  %half = stablehlo.constant dense<5.000000e-01> : tensor<128x1024xf32>
  %one = stablehlo.constant dense<1.000000e+00> : tensor<128x1024xf32>

  // tanh(x w + b)
  %d0 = stablehlo.dot_general %x, %w0, contracting_dims = [1] x [0] : (tensor<128x32xf32>, tensor<32x1024xf32>) -> tensor<128x1024xf32>
  %y0 = stablehlo.add %d0, %bb : tensor<128x1024xf32>
  %r0 = stablehlo.tanh %y0 : tensor<128x1024xf32>

  // gelu(x w + b, approximate=True)
  %d1 = stablehlo.dot_general %x, %w1, contracting_dims = [1] x [0] : (tensor<128x32xf32>, tensor<32x1024xf32>) -> tensor<128x1024xf32>
  %y1 = stablehlo.add %d1, %bb : tensor<128x1024xf32>
  %c1 = stablehlo.multiply %y1, %y1 : tensor<128x1024xf32>
  %c2 = stablehlo.multiply %c1, %y1 : tensor<128x1024xf32>
  %k0 = stablehlo.constant dense<4.471500e-02> : tensor<128x1024xf32>
  %c3 = stablehlo.multiply %k0, %c2 : tensor<128x1024xf32>
  %c4 = stablehlo.add %y1, %c3 : tensor<128x1024xf32>
  %k1 = stablehlo.constant dense<0.797884583> : tensor<128x1024xf32>
  %c5 = stablehlo.multiply %k1, %c4 : tensor<128x1024xf32>
  %c6 = stablehlo.tanh %c5 : tensor<128x1024xf32>
  %c7 = stablehlo.add %one, %c6 : tensor<128x1024xf32>
  %c8 = stablehlo.multiply %half, %c7 : tensor<128x1024xf32>
  %r1 = stablehlo.multiply %y1, %c8 : tensor<128x1024xf32>

  // gelu(x w + b, approximate=False): x/2 erfc(-x/sqrt 2)
  %d2 = stablehlo.dot_general %x, %w2, contracting_dims = [1] x [0] : (tensor<128x32xf32>, tensor<32x1024xf32>) -> tensor<128x1024xf32>
  %y2 = stablehlo.add %d2, %bb : tensor<128x1024xf32>
  %e0 = stablehlo.multiply %half, %y2 : tensor<128x1024xf32>
  %e1 = stablehlo.negate %y2 : tensor<128x1024xf32>
  %k2 = stablehlo.constant dense<0.707106769> : tensor<128x1024xf32>
  %e2 = stablehlo.multiply %e1, %k2 : tensor<128x1024xf32>
  %e3 = chlo.erfc %e2 : tensor<128x1024xf32> -> tensor<128x1024xf32>
  %r2 = stablehlo.multiply %e0, %e3 : tensor<128x1024xf32>

  // sigmoid(x w + b)
  %d3 = stablehlo.dot_general %x, %w3, contracting_dims = [1] x [0] : (tensor<128x32xf32>, tensor<32x1024xf32>) -> tensor<128x1024xf32>
  %y3 = stablehlo.add %d3, %bb : tensor<128x1024xf32>
  %r3 = stablehlo.logistic %y3 : tensor<128x1024xf32>

  // log(1 + exp(x w)), softplus as written by hand
  %d4 = stablehlo.dot_general %x, %w4, contracting_dims = [1] x [0] : (tensor<128x32xf32>, tensor<32x1024xf32>) -> tensor<128x1024xf32>
  %s0 = stablehlo.exponential %d4 : tensor<128x1024xf32>
  %s1 = stablehlo.add %one, %s0 : tensor<128x1024xf32>
  %r4 = stablehlo.log %s1 : tensor<128x1024xf32>

  // rsqrt(1 + (x w)^2)
  %d5 = stablehlo.dot_general %x, %w5, contracting_dims = [1] x [0] : (tensor<128x32xf32>, tensor<32x1024xf32>) -> tensor<128x1024xf32>
  %q0 = stablehlo.multiply %d5, %d5 : tensor<128x1024xf32>
  %q1 = stablehlo.add %one, %q0 : tensor<128x1024xf32>
  %r5 = stablehlo.rsqrt %q1 : tensor<128x1024xf32>

  // bf16: gelu(x w + b, approximate=True), every op rounded to bf16
  %bbh = stablehlo.broadcast_in_dim %bh, dims = [1] : (tensor<1024xbf16>) -> tensor<128x1024xbf16>
  %d6 = stablehlo.dot_general %xh, %wh, contracting_dims = [1] x [0] : (tensor<128x32xbf16>, tensor<32x1024xbf16>) -> tensor<128x1024xbf16>
  %y6 = stablehlo.add %d6, %bbh : tensor<128x1024xbf16>
  %h1 = stablehlo.multiply %y6, %y6 : tensor<128x1024xbf16>
  %h2 = stablehlo.multiply %h1, %y6 : tensor<128x1024xbf16>
  %k3 = stablehlo.constant dense<4.467770e-02> : tensor<128x1024xbf16>
  %h3 = stablehlo.multiply %k3, %h2 : tensor<128x1024xbf16>
  %h4 = stablehlo.add %y6, %h3 : tensor<128x1024xbf16>
  %k4 = stablehlo.constant dense<7.968750e-01> : tensor<128x1024xbf16>
  %h5 = stablehlo.multiply %k4, %h4 : tensor<128x1024xbf16>
  %h6 = stablehlo.tanh %h5 : tensor<128x1024xbf16>
  %oneh = stablehlo.constant dense<1.000000e+00> : tensor<128x1024xbf16>
  %h7 = stablehlo.add %oneh, %h6 : tensor<128x1024xbf16>
  %halfh = stablehlo.constant dense<5.000000e-01> : tensor<128x1024xbf16>
  %h8 = stablehlo.multiply %halfh, %h7 : tensor<128x1024xbf16>
  %r6 = stablehlo.multiply %y6, %h8 : tensor<128x1024xbf16>

  return %r0, %r1, %r2, %r3, %r4, %r5, %r6 : tensor<128x1024xf32>, tensor<128x1024xf32>, tensor<128x1024xf32>, tensor<128x1024xf32>, tensor<128x1024xf32>, tensor<128x1024xf32>, tensor<128x1024xbf16>
}
