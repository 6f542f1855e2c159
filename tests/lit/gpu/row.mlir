// Row fusions on the gpu backend (src/gpu/row.c): softmax and layer norm in
// one kernel each (a block a row, every stage run on the row with a barrier
// after it), run by GPGPU-Sim (skipped without it) and the SIMT harness, and
// checked against the reference interpreter on the same random inputs.
// Rows of 7, 300 and 5000 elements (32, 64 and 256 threads a block), rows
// of a 3-D tensor, two row fusions in one program, stage results returned
// (read back by later stages from the result) and kept in the block's
// scratch, a value-per-row stage, 2500 rows (more than the grid: blocks take several rows), f64 rows of
// 9000. With XLAC_GPU_ROW=0 the row fusions run as their stages' kernels
// (what a fusion the row kernel cannot take becomes).
// XLAC-BACKENDS: gpu
// XLAC-SIMT: forward reverse random random:deferred
// RUN: %S/Inputs/sim.sh --check
// RUN: rm -rf %t && mkdir -p %t
// RUN: xlac run --backend=interp --random-inputs --seed 11 --entry softmax_ln --output-dir %t/a %s > /dev/null
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 11 --entry softmax_ln %s --verbose \
// RUN:   --expect 0=@%t/a/result0.npy --expect 1=@%t/a/result1.npy --expect 2=@%t/a/result2.npy \
// RUN:   --atol 2e-6 --rtol 1e-5 2>&1 | FileCheck %s --check-prefix=A
// A: gpu: 2 kernels (2 fusions)
// A: expect result[0]: ok
// A: expect result[1]: ok
// A: expect result[2]: ok
// RUN: env XLAC_GPU_ROW=0 %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 11 --entry softmax_ln %s --verbose \
// RUN:   --expect 0=@%t/a/result0.npy --expect 1=@%t/a/result1.npy --expect 2=@%t/a/result2.npy \
// RUN:   --atol 2e-6 --rtol 1e-5 2>&1 | FileCheck %s --check-prefix=STAGES
// STAGES: gpu: {{[4-9]}} kernels
// STAGES: expect result[0]: ok
// STAGES: expect result[1]: ok
// STAGES: expect result[2]: ok
// RUN: xlac run --backend=interp --random-inputs --seed 12 --entry short_rows --output-dir %t/b %s > /dev/null
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 12 --entry short_rows %s --verbose \
// RUN:   --expect 0=@%t/b/result0.npy --expect 1=@%t/b/result1.npy --atol 1e-6 --rtol 1e-5 2>&1 \
// RUN:   | FileCheck %s --check-prefix=B
// B: gpu: 1 kernels (1 fusions)
// B: expect result[0]: ok
// B: expect result[1]: ok
// RUN: xlac run --backend=interp --random-inputs --seed 13 --entry long_rows --output-dir %t/c %s > /dev/null
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 13 --entry long_rows %s --verbose \
// RUN:   --expect 0=@%t/c/result0.npy --atol 1e-7 --rtol 1e-5 2>&1 | FileCheck %s --check-prefix=C
// C: gpu: 1 kernels (1 fusions)
// C: expect result[0]: ok
// RUN: xlac run --backend=interp --random-inputs --seed 14 --entry wide_rows --output-dir %t/d %s > /dev/null
// RUN: %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 14 --entry wide_rows %s --verbose \
// RUN:   --expect 0=@%t/d/result0.npy --atol 1e-14 --rtol 1e-12 2>&1 | FileCheck %s --check-prefix=D
// D: gpu: {{[1-3]}} kernels
// D: expect result[0]: ok

// softmax over rows of 300, layer norm over the rows of a 3-D tensor, the
// variance returned (a value-per-row stage)
func.func @softmax_ln(%x: tensor<37x300xf32>, %y: tensor<37x2x300xf32>, %g: tensor<300xf32>)
    -> (tensor<37x300xf32>, tensor<37x2x300xf32>, tensor<37x2xf32>) {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %m = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<37x300xf32>, tensor<f32>) -> tensor<37xf32>
  %mb = stablehlo.broadcast_in_dim %m, dims = [0] : (tensor<37xf32>) -> tensor<37x300xf32>
  %d = stablehlo.subtract %x, %mb : tensor<37x300xf32>
  %e = stablehlo.exponential %d : tensor<37x300xf32>
  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<37x300xf32>, tensor<f32>) -> tensor<37xf32>
  %sb = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<37xf32>) -> tensor<37x300xf32>
  %p = stablehlo.divide %e, %sb : tensor<37x300xf32>
  %c300 = stablehlo.constant dense<300.0> : tensor<37x2xf32>
  %ys = stablehlo.reduce(%y init: %zero) applies stablehlo.add across dimensions = [2] : (tensor<37x2x300xf32>, tensor<f32>) -> tensor<37x2xf32>
  %mean = stablehlo.divide %ys, %c300 : tensor<37x2xf32>
  %meanb = stablehlo.broadcast_in_dim %mean, dims = [0, 1] : (tensor<37x2xf32>) -> tensor<37x2x300xf32>
  %yc = stablehlo.subtract %y, %meanb : tensor<37x2x300xf32>
  %sq = stablehlo.multiply %yc, %yc : tensor<37x2x300xf32>
  %v = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [2] : (tensor<37x2x300xf32>, tensor<f32>) -> tensor<37x2xf32>
  %var = stablehlo.divide %v, %c300 : tensor<37x2xf32>
  %eps = stablehlo.constant dense<1.0e-5> : tensor<37x2xf32>
  %ve = stablehlo.add %var, %eps : tensor<37x2xf32>
  %r = stablehlo.rsqrt %ve : tensor<37x2xf32>
  %rb = stablehlo.broadcast_in_dim %r, dims = [0, 1] : (tensor<37x2xf32>) -> tensor<37x2x300xf32>
  %gb = stablehlo.broadcast_in_dim %g, dims = [2] : (tensor<300xf32>) -> tensor<37x2x300xf32>
  %n = stablehlo.multiply %yc, %rb : tensor<37x2x300xf32>
  %ln = stablehlo.multiply %n, %gb : tensor<37x2x300xf32>
  func.return %p, %ln, %var : tensor<37x300xf32>, tensor<37x2x300xf32>, tensor<37x2xf32>
}

// 2500 rows of 7 (more rows than blocks), the exponentials returned too
func.func @short_rows(%x: tensor<2500x7xf32>) -> (tensor<2500x7xf32>, tensor<2500x7xf32>) {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %m = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<2500x7xf32>, tensor<f32>) -> tensor<2500xf32>
  %mb = stablehlo.broadcast_in_dim %m, dims = [0] : (tensor<2500xf32>) -> tensor<2500x7xf32>
  %d = stablehlo.subtract %x, %mb : tensor<2500x7xf32>
  %e = stablehlo.exponential %d : tensor<2500x7xf32>
  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<2500x7xf32>, tensor<f32>) -> tensor<2500xf32>
  %sb = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<2500xf32>) -> tensor<2500x7xf32>
  %p = stablehlo.divide %e, %sb : tensor<2500x7xf32>
  func.return %p, %e : tensor<2500x7xf32>, tensor<2500x7xf32>
}

// rows of 5000: 256 threads a block, 8 warps combined through shared memory
func.func @long_rows(%x: tensor<3x5000xf32>) -> tensor<3x5000xf32> {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %m = stablehlo.reduce(%x init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<3x5000xf32>, tensor<f32>) -> tensor<3xf32>
  %mb = stablehlo.broadcast_in_dim %m, dims = [0] : (tensor<3xf32>) -> tensor<3x5000xf32>
  %d = stablehlo.subtract %x, %mb : tensor<3x5000xf32>
  %e = stablehlo.exponential %d : tensor<3x5000xf32>
  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<3x5000xf32>, tensor<f32>) -> tensor<3xf32>
  %sb = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<3xf32>) -> tensor<3x5000xf32>
  %p = stablehlo.divide %e, %sb : tensor<3x5000xf32>
  func.return %p : tensor<3x5000xf32>
}

// f64 rows of 9000
func.func @wide_rows(%x: tensor<4x9000xf64>) -> tensor<4x9000xf64> {
  %zero = stablehlo.constant dense<0.0> : tensor<f64>
  %s = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<4x9000xf64>, tensor<f64>) -> tensor<4xf64>
  %n = stablehlo.constant dense<9000.0> : tensor<4xf64>
  %mean = stablehlo.divide %s, %n : tensor<4xf64>
  %mb = stablehlo.broadcast_in_dim %mean, dims = [0] : (tensor<4xf64>) -> tensor<4x9000xf64>
  %c = stablehlo.subtract %x, %mb : tensor<4x9000xf64>
  %sq = stablehlo.multiply %c, %c : tensor<4x9000xf64>
  %v = stablehlo.reduce(%sq init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<4x9000xf64>, tensor<f64>) -> tensor<4xf64>
  %vb = stablehlo.broadcast_in_dim %v, dims = [0] : (tensor<4xf64>) -> tensor<4x9000xf64>
  %r = stablehlo.divide %c, %vb : tensor<4x9000xf64>
  func.return %r : tensor<4x9000xf64>
}
