// Reductions on the gpu backend (src/gpu/reduce.c), run by GPGPU-Sim
// (skipped without it) and checked against the reference interpreter on
// the same random inputs: row reductions (warp shuffles and shared memory,
// a full reduction split into chunks folded by a second kernel), column
// and middle-dimension reductions (one thread per output, the
// interpreter's order: bit-identical; the f32 sum of 210 outputs over 300
// rows is cut into chunks, reduce_cols.mlir), a variadic argmax, 64-bit and
// boolean shuffles, softmax's stages, an empty reduction.
// XLAC-BACKENDS: gpu
// XLAC-SIMT: forward reverse random random:deferred
// RUN: %S/Inputs/sim.sh --check
// RUN: rm -rf %t && mkdir -p %t
// RUN: xlac run --backend=interp --random-inputs --seed 3 --entry rows --output-dir %t/rows %s > /dev/null
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 3 --entry rows %s --verbose \
// RUN:   --expect 0=@%t/rows/result0.npy --expect 1=@%t/rows/result1.npy --expect 2=@%t/rows/result2.npy \
// RUN:   --expect 3=@%t/rows/result3.npy --atol 1e-4 --rtol 1e-5 2>&1 | FileCheck %s --check-prefix=ROWS
// ROWS: gpu: 4 kernels
// ROWS: expect result[0]: ok
// ROWS: expect result[1]: ok, max abs error 0
// ROWS: expect result[2]: ok
// ROWS: expect result[3]: ok
// RUN: xlac run --backend=interp --random-inputs --seed 4 --entry cols --output-dir %t/cols %s > /dev/null
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 4 --entry cols %s \
// RUN:   --expect 0=@%t/cols/result0.npy --expect 1=@%t/cols/result1.npy --expect 2=@%t/cols/result2.npy \
// RUN:   --expect 3=@%t/cols/result3.npy --atol 1e-4 --rtol 1e-5 | FileCheck %s --check-prefix=COLS
// COLS: expect result[0]: ok
// COLS: expect result[1]: ok, max abs error 0
// COLS: expect result[2]: ok, equal
// COLS: expect result[3]: ok, equal
// RUN: xlac run --backend=interp --random-inputs --seed 5 --entry argmax --output-dir %t/argmax %s > /dev/null
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 5 --entry argmax %s \
// RUN:   --expect 0=@%t/argmax/result0.npy --expect 1=@%t/argmax/result1.npy | FileCheck %s --check-prefix=ARGMAX
// ARGMAX: expect result[0]: ok, max abs error 0
// ARGMAX: expect result[1]: ok, equal
// RUN: xlac run --backend=interp --random-inputs --seed 6 --entry wide --output-dir %t/wide %s > /dev/null
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 6 --entry wide %s \
// RUN:   --expect 0=@%t/wide/result0.npy --expect 1=@%t/wide/result1.npy --expect 2=@%t/wide/result2.npy \
// RUN:   --expect 3=@%t/wide/result3.npy --expect 4=@%t/wide/result4.npy --atol 1e-12 --rtol 1e-13 \
// RUN:   | FileCheck %s --check-prefix=WIDE
// WIDE: expect result[0]: ok
// WIDE: expect result[1]: ok
// WIDE: expect result[2]: ok, equal
// WIDE: expect result[3]: ok, equal
// WIDE: expect result[4]: ok, equal
// RUN: xlac run --backend=interp --random-inputs --seed 7 --entry softmax --output-dir %t/softmax %s > /dev/null
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 7 --entry softmax %s \
// RUN:   --expect 0=@%t/softmax/result0.npy --atol 1e-7 --rtol 1e-5 | FileCheck %s --check-prefix=SOFTMAX
// SOFTMAX: expect result[0]: ok
// RUN: xlac run --backend=interp --random-inputs --seed 8 --entry moments --output-dir %t/moments %s > /dev/null
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 8 --entry moments %s --verbose \
// RUN:   --expect 0=@%t/moments/result0.npy --expect 1=@%t/moments/result1.npy --expect 2=@%t/moments/result2.npy \
// RUN:   --atol 0 --rtol 0 2>&1 | FileCheck %s --check-prefix=MOMENTS
// MOMENTS: gpu: 2 kernels (2 fusions)
// MOMENTS: expect result[0]: ok, max abs error 0
// MOMENTS: expect result[1]: ok, max abs error 0
// MOMENTS: expect result[2]: ok, max abs error 0

func.func @rows(%x: tensor<37x1000xf32>, %y: tensor<4x6000xf32>) -> (tensor<37xf32>, tensor<37xf32>, tensor<4xf32>, tensor<f32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %e = stablehlo.exponential %x : tensor<37x1000xf32>
  %s = stablehlo.reduce(%e init: %z) applies stablehlo.add across dimensions = [1] : (tensor<37x1000xf32>, tensor<f32>) -> tensor<37xf32>
  %m = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<37x1000xf32>, tensor<f32>) -> tensor<37xf32>
  %t = stablehlo.reduce(%y init: %z) applies stablehlo.add across dimensions = [1] : (tensor<4x6000xf32>, tensor<f32>) -> tensor<4xf32>
  %a = stablehlo.reduce(%y init: %z) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x6000xf32>, tensor<f32>) -> tensor<f32>
  return %s, %m, %t, %a : tensor<37xf32>, tensor<37xf32>, tensor<4xf32>, tensor<f32>
}
func.func @cols(%x: tensor<300x3x70xf32>, %i: tensor<50x130xi32>) -> (tensor<3x70xf32>, tensor<300x70xf32>, tensor<130xi32>, tensor<50xi32>) {
  %z = stablehlo.constant dense<1.5> : tensor<f32>
  %iz = stablehlo.constant dense<0> : tensor<i32>
  %imin = stablehlo.constant dense<-2147483648> : tensor<i32>
  %c = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0] : (tensor<300x3x70xf32>, tensor<f32>) -> tensor<3x70xf32>
  %d = stablehlo.reduce(%x init: %z) applies stablehlo.multiply across dimensions = [1] : (tensor<300x3x70xf32>, tensor<f32>) -> tensor<300x70xf32>
  %e = stablehlo.reduce(%i init: %iz) applies stablehlo.add across dimensions = [0] : (tensor<50x130xi32>, tensor<i32>) -> tensor<130xi32>
  %f = stablehlo.reduce(%i init: %imin) applies stablehlo.maximum across dimensions = [1] : (tensor<50x130xi32>, tensor<i32>) -> tensor<50xi32>
  return %c, %d, %e, %f : tensor<3x70xf32>, tensor<300x70xf32>, tensor<130xi32>, tensor<50xi32>
}
func.func @argmax(%x: tensor<20x200xf32>) -> (tensor<20xf32>, tensor<20xi32>) {
  %io = stablehlo.iota dim = 1 : tensor<20x200xi32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %z = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.reduce(%x init: %ninf), (%io init: %z) across dimensions = [1] : (tensor<20x200xf32>, tensor<20x200xi32>, tensor<f32>, tensor<i32>) -> (tensor<20xf32>, tensor<20xi32>)
   reducer(%a: tensor<f32>, %b: tensor<f32>) (%ai: tensor<i32>, %bi: tensor<i32>) {
    %gt = stablehlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %v = stablehlo.select %gt, %a, %b : tensor<i1>, tensor<f32>
    %i = stablehlo.select %gt, %ai, %bi : tensor<i1>, tensor<i32>
    stablehlo.return %v, %i : tensor<f32>, tensor<i32>
  }
  return %r#0, %r#1 : tensor<20xf32>, tensor<20xi32>
}

func.func @wide(%x: tensor<3x2000xf64>, %i: tensor<5x700xi64>, %p: tensor<6x300xi1>) -> (tensor<3xf64>, tensor<f64>, tensor<5xi64>, tensor<6xi1>, tensor<6xi1>) {
  %z = stablehlo.constant dense<0.0> : tensor<f64>
  %iz = stablehlo.constant dense<7> : tensor<i64>
  %t = stablehlo.constant dense<true> : tensor<i1>
  %f = stablehlo.constant dense<false> : tensor<i1>
  %a = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [1] : (tensor<3x2000xf64>, tensor<f64>) -> tensor<3xf64>
  %b = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0, 1] : (tensor<3x2000xf64>, tensor<f64>) -> tensor<f64>
  %c = stablehlo.reduce(%i init: %iz) applies stablehlo.add across dimensions = [1] : (tensor<5x700xi64>, tensor<i64>) -> tensor<5xi64>
  %d = stablehlo.reduce(%p init: %t) applies stablehlo.and across dimensions = [1] : (tensor<6x300xi1>, tensor<i1>) -> tensor<6xi1>
  %e = stablehlo.reduce(%p init: %f) applies stablehlo.or across dimensions = [1] : (tensor<6x300xi1>, tensor<i1>) -> tensor<6xi1>
  return %a, %b, %c, %d, %e : tensor<3xf64>, tensor<f64>, tensor<5xi64>, tensor<6xi1>, tensor<6xi1>
}
func.func @softmax(%x: tensor<24x333xf32>) -> tensor<24x333xf32> {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %m = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<24x333xf32>, tensor<f32>) -> tensor<24xf32>
  %mb = stablehlo.broadcast_in_dim %m, dims = [0] : (tensor<24xf32>) -> tensor<24x333xf32>
  %d = stablehlo.subtract %x, %mb : tensor<24x333xf32>
  %e = stablehlo.exponential %d : tensor<24x333xf32>
  %s = stablehlo.reduce(%e init: %z) applies stablehlo.add across dimensions = [1] : (tensor<24x333xf32>, tensor<f32>) -> tensor<24xf32>
  %sb = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<24xf32>) -> tensor<24x333xf32>
  %r = stablehlo.divide %e, %sb : tensor<24x333xf32>
  return %r : tensor<24x333xf32>
}
func.func @moments(%x: tensor<4x50x6xf32>, %w: tensor<0x5xf32>) -> (tensor<50xf32>, tensor<50xf32>, tensor<5xf32>) {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %x2 = stablehlo.multiply %x, %x : tensor<4x50x6xf32>
  %s = stablehlo.reduce(%x init: %z) applies stablehlo.add across dimensions = [0, 2] : (tensor<4x50x6xf32>, tensor<f32>) -> tensor<50xf32>
  %q = stablehlo.reduce(%x2 init: %z) applies stablehlo.add across dimensions = [0, 2] : (tensor<4x50x6xf32>, tensor<f32>) -> tensor<50xf32>
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %em = stablehlo.reduce(%w init: %one) applies stablehlo.add across dimensions = [0] : (tensor<0x5xf32>, tensor<f32>) -> tensor<5xf32>
  return %s, %q, %em : tensor<50xf32>, tensor<50xf32>, tensor<5xf32>
}
