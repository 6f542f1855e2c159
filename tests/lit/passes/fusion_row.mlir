// Row fusion: reductions over the same short rows and the stages that use
// their results on those rows again become one kInput fusion whose body
// calls the stages (fusions, or single ops) in dependency order; the cpu
// backend runs them row by row.  The fused module computes the same values
// on the interpreter; the last programs must not be row-fused.
// RUN: xlac opt --pass fusion --split-input-file %s | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: xlac run --backend=interp --random-inputs --seed 4 --split-input-file %s > %t/a
// RUN: xlac opt --pass fusion --split-input-file %s | xlac run --backend=interp --random-inputs --seed 4 --split-input-file - > %t/b
// RUN: diff %t/a %t/b
// RUN: xlac run --backend=cpu --random-inputs --seed 4 --split-input-file %s > %t/c
// RUN: xlac opt --pass fusion --split-input-file --format=hlo %s | FileCheck %s --check-prefix=HLO

// Softmax: max, exp(x - max), sum, divide: four stages, one fusion.
// CHECK-LABEL: func.func @softmax
// CHECK-NEXT: %[[R:[0-9]+]] = "func.call"(%arg0) {callee = @[[F:fused_computation[.0-9]*]], fusion_kind = {{.*}}kInput{{.*}} -> tensor<8x1000xf32>
// CHECK-NEXT: func.return %[[R]]
// CHECK: func.func private @[[F]](%arg0: tensor<8x1000xf32>) -> tensor<8x1000xf32>
// CHECK-NEXT: "func.call"(%arg0) {{.*}}kInput{{.*}} -> tensor<8xf32>
// CHECK-NEXT: "func.call"({{.*}}kLoop{{.*}} -> tensor<8x1000xf32>
// CHECK-NEXT: "func.call"({{.*}}kInput{{.*}} -> tensor<8xf32>
// CHECK-NEXT: "func.call"({{.*}}kLoop{{.*}} -> tensor<8x1000xf32>
// CHECK-NEXT: func.return
// HLO-LABEL: ENTRY %softmax
// HLO: fusion(%x), kind=kInput, calls=%fused_computation
func.func @softmax(%x: tensor<8x1000xf32>) -> tensor<8x1000xf32> {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %mx = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<8x1000xf32>, tensor<f32>) -> tensor<8xf32>
  %mb = stablehlo.broadcast_in_dim %mx, dims = [0] : (tensor<8xf32>) -> tensor<8x1000xf32>
  %d = stablehlo.subtract %x, %mb : tensor<8x1000xf32>
  %e = stablehlo.exponential %d : tensor<8x1000xf32>
  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<8x1000xf32>, tensor<f32>) -> tensor<8xf32>
  %sb = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<8xf32>) -> tensor<8x1000xf32>
  %r = stablehlo.divide %e, %sb : tensor<8x1000xf32>
  return %r : tensor<8x1000xf32>
}

// -----

// Log-softmax: the max and the sum read the same rows but the sum needs the
// max, so they are separate reduction stages (never one kInput fusion); the
// log of the sum is a per-row stage of its own (an expensive op is not
// recomputed per element).
// CHECK-LABEL: func.func @log_softmax
// CHECK-NEXT: "func.call"(%arg0) {callee = @[[F:fused_computation[.0-9]*]], {{.*}}kInput{{.*}} -> tensor<2x3x300xf32>
// CHECK-NEXT: func.return
// CHECK: func.func private @[[F]](
// CHECK-NEXT: "func.call"(%arg0) {{.*}}kInput{{.*}} -> tensor<2x3xf32>
// CHECK-NEXT: "func.call"({{.*}}kInput{{.*}} -> tensor<2x3xf32>
// CHECK-NEXT: stablehlo.log
// CHECK-NEXT: "func.call"({{.*}}kLoop{{.*}} -> tensor<2x3x300xf32>
// CHECK-NEXT: func.return
func.func @log_softmax(%x: tensor<2x3x300xf32>) -> tensor<2x3x300xf32> {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %mx = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [2] : (tensor<2x3x300xf32>, tensor<f32>) -> tensor<2x3xf32>
  %m1 = stablehlo.reshape %mx : (tensor<2x3xf32>) -> tensor<2x3x1xf32>
  %mb = stablehlo.broadcast_in_dim %m1, dims = [0, 1, 2] : (tensor<2x3x1xf32>) -> tensor<2x3x300xf32>
  %d = stablehlo.subtract %x, %mb : tensor<2x3x300xf32>
  %e = stablehlo.exponential %d : tensor<2x3x300xf32>
  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [2] : (tensor<2x3x300xf32>, tensor<f32>) -> tensor<2x3xf32>
  %l = stablehlo.log %s : tensor<2x3xf32>
  %lb = stablehlo.broadcast_in_dim %l, dims = [0, 1] : (tensor<2x3xf32>) -> tensor<2x3x300xf32>
  %r = stablehlo.subtract %d, %lb : tensor<2x3x300xf32>
  return %r : tensor<2x3x300xf32>
}

// -----

// Layernorm with JAX's [R, 1] intermediates: mean and variance stages, the
// per-row rsqrt, and the normalization with per-column weights, one fusion.
// CHECK-LABEL: func.func @layernorm
// CHECK-NEXT: "func.call"(%arg0, %arg1) {callee = @[[F:fused_computation[.0-9]*]], {{.*}}kInput{{.*}} -> tensor<16x512xf32>
// CHECK-NEXT: func.return
// CHECK: func.func private @[[F]](
// CHECK-COUNT-5: "func.call"
// CHECK-NEXT: func.return
func.func @layernorm(%x: tensor<16x512xf32>, %g: tensor<512xf32>) -> tensor<16x512xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %n = stablehlo.constant dense<512.0> : tensor<16x1xf32>
  %eps = stablehlo.constant dense<1.0e-5> : tensor<16x1xf32>
  %s = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<16x512xf32>, tensor<f32>) -> tensor<16xf32>
  %s1 = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
  %mean = stablehlo.divide %s1, %n : tensor<16x1xf32>
  %mb = stablehlo.broadcast_in_dim %mean, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x512xf32>
  %c = stablehlo.subtract %x, %mb : tensor<16x512xf32>
  %sq = stablehlo.multiply %c, %c : tensor<16x512xf32>
  %v = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<16x512xf32>, tensor<f32>) -> tensor<16xf32>
  %v1 = stablehlo.broadcast_in_dim %v, dims = [0] : (tensor<16xf32>) -> tensor<16x1xf32>
  %var = stablehlo.divide %v1, %n : tensor<16x1xf32>
  %ve = stablehlo.add %var, %eps : tensor<16x1xf32>
  %rs = stablehlo.rsqrt %ve : tensor<16x1xf32>
  %rb = stablehlo.broadcast_in_dim %rs, dims = [0, 1] : (tensor<16x1xf32>) -> tensor<16x512xf32>
  %y = stablehlo.multiply %c, %rb : tensor<16x512xf32>
  %gb = stablehlo.broadcast_in_dim %g, dims = [1] : (tensor<512xf32>) -> tensor<16x512xf32>
  %z = stablehlo.multiply %y, %gb : tensor<16x512xf32>
  return %z : tensor<16x512xf32>
}

// -----

// Not row-fused: rows of 20000 f32 do not stay in the cache (and the
// reduction splits them into blocks).
// CHECK-LABEL: func.func @long_rows
// CHECK-NEXT: "func.call"(%arg0) {{.*}}kInput{{.*}} -> tensor<2xf32>
// CHECK-NEXT: "func.call"({{.*}}kLoop{{.*}} -> tensor<2x20000xf32>
// CHECK-NEXT: func.return
// CHECK-NOT: func.call
func.func @long_rows(%x: tensor<2x20000xf32>) -> tensor<2x20000xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<2x20000xf32>, tensor<f32>) -> tensor<2xf32>
  %sb = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<2xf32>) -> tensor<2x20000xf32>
  %r = stablehlo.divide %x, %sb : tensor<2x20000xf32>
  return %r : tensor<2x20000xf32>
}

// -----

// Not row-fused: the consumer reads the row sums transposed (element [i, j]
// needs the sum of row j), so it needs every row's result first.
// CHECK-LABEL: func.func @other_rows
// CHECK-NEXT: "func.call"(%arg0) {{.*}}kInput{{.*}} -> tensor<64xf32>
// CHECK-NEXT: "func.call"({{.*}}kLoop{{.*}} -> tensor<64x64xf32>
// CHECK-NEXT: func.return
// CHECK-NOT: func.call
func.func @other_rows(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<64x64xf32>, tensor<f32>) -> tensor<64xf32>
  %sb = stablehlo.broadcast_in_dim %s, dims = [1] : (tensor<64xf32>) -> tensor<64x64xf32>
  %r = stablehlo.subtract %x, %sb : tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// -----

// Not row-fused: a column reduction (the reduced dim is not the last).
// CHECK-LABEL: func.func @columns
// CHECK-NEXT: "func.call"(%arg0) {{.*}}kInput{{.*}} -> tensor<64xf32>
// CHECK-NEXT: "func.call"({{.*}}kLoop{{.*}} -> tensor<32x64xf32>
// CHECK-NEXT: func.return
// CHECK-NOT: func.call
func.func @columns(%x: tensor<32x64xf32>) -> tensor<32x64xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [0] : (tensor<32x64xf32>, tensor<f32>) -> tensor<64xf32>
  %sb = stablehlo.broadcast_in_dim %s, dims = [1] : (tensor<64xf32>) -> tensor<32x64xf32>
  %r = stablehlo.divide %x, %sb : tensor<32x64xf32>
  return %r : tensor<32x64xf32>
}

// -----

// Not row-fused: a reduction feeding only per-row work (nothing is read
// twice).
// CHECK-LABEL: func.func @stats
// CHECK-NEXT: "func.call"(%arg0) {{.*}}kInput{{.*}} -> tensor<16xf32>
// CHECK-NEXT: "func.call"({{.*}}kLoop{{.*}} -> tensor<16xf32>
// CHECK-NEXT: func.return
// CHECK-NOT: func.call
func.func @stats(%x: tensor<16x100xf32>) -> tensor<16xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %n = stablehlo.constant dense<100.0> : tensor<16xf32>
  %s = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<16x100xf32>, tensor<f32>) -> tensor<16xf32>
  %m = stablehlo.divide %s, %n : tensor<16xf32>
  %r = stablehlo.sqrt %m : tensor<16xf32>
  return %r : tensor<16xf32>
}
