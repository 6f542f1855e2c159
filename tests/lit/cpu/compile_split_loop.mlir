// Parallel code generation (codegen/jit_split.c) leaves the kernels a
// while loop of the entry uses in part 0, where the small ones are
// inlined into the loop: with every function movable
// (XLAC_COMPILE_SPLIT_MIN=1) and two compile threads, the two row kernels
// are dealt to two parts when the entry calls them once (@outside), and
// the module stays whole when they run inside the loop (@in_loop).
// Values are the interpreter's either way.
// RUN: env XLAC_COMPILE_THREADS=2 XLAC_COMPILE_SPLIT_MIN=1 xlac run --backend=cpu --verbose --random-inputs --entry outside %s 2>&1 | FileCheck %s --check-prefix=CUT
// RUN: env XLAC_COMPILE_THREADS=2 XLAC_COMPILE_SPLIT_MIN=1 xlac run --backend=cpu --verbose --random-inputs --entry in_loop %s 2>&1 | FileCheck %s --check-prefix=WHOLE
// RUN: env XLAC_COMPILE_THREADS=2 XLAC_COMPILE_SPLIT_MIN=1 xlac compare --random-inputs --entry outside %s | FileCheck %s --check-prefix=SAME
// RUN: env XLAC_COMPILE_THREADS=2 XLAC_COMPILE_SPLIT_MIN=1 xlac compare --random-inputs --entry in_loop %s | FileCheck %s --check-prefix=SAME
// CUT: machine code {{[0-9.]+}}; on 2 threads)
// WHOLE: cpu: {{.*}} machine code {{[0-9.]+}})
// WHOLE-NOT: threads)
// SAME: COMPARE {{.*}} max_ulp={{[0-9]$}}

func.func @in_loop(%x: tensor<64x64xf32>, %y: tensor<64x32xf32>) -> (tensor<64x64xf32>, tensor<64x32xf32>) {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%i = %c0, %v = %x, %w = %y) : tensor<i32>, tensor<64x64xf32>, tensor<64x32xf32>
  cond {
    %n = stablehlo.constant dense<3> : tensor<i32>
    %lt = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %j = stablehlo.add %i, %one : tensor<i32>
    %d = func.call @rows64(%v) : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %e = func.call @rows32(%w) : (tensor<64x32xf32>) -> tensor<64x32xf32>
    stablehlo.return %j, %d, %e : tensor<i32>, tensor<64x64xf32>, tensor<64x32xf32>
  }
  return %r#1, %r#2 : tensor<64x64xf32>, tensor<64x32xf32>
}
func.func @outside(%x: tensor<64x64xf32>, %y: tensor<64x32xf32>) -> (tensor<64x64xf32>, tensor<64x32xf32>) {
  %d = func.call @rows64(%x) : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %e = func.call @rows32(%y) : (tensor<64x32xf32>) -> tensor<64x32xf32>
  return %d, %e : tensor<64x64xf32>, tensor<64x32xf32>
}
func.func private @rows64(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %a = stablehlo.tanh %x : tensor<64x64xf32>
  %b = stablehlo.exponential %a : tensor<64x64xf32>
  %c = stablehlo.log_plus_one %b : tensor<64x64xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%c init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<64x64xf32>, tensor<f32>) -> tensor<64xf32>
  %sb = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<64xf32>) -> tensor<64x64xf32>
  %d = stablehlo.divide %c, %sb : tensor<64x64xf32>
  return %d : tensor<64x64xf32>
}
func.func private @rows32(%x: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %a = stablehlo.logistic %x : tensor<64x32xf32>
  %b = stablehlo.sine %a : tensor<64x32xf32>
  %c = stablehlo.exponential %b : tensor<64x32xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%c init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<64x32xf32>, tensor<f32>) -> tensor<64xf32>
  %sb = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<64xf32>) -> tensor<64x32xf32>
  %d = stablehlo.divide %c, %sb : tensor<64x32xf32>
  return %d : tensor<64x32xf32>
}
