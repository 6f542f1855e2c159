// reduce_window as a running fold on the gpu backend (src/gpu/reduce.c,
// prefix_dim): a window that covers all of each output's prefix (JAX's
// cumsum, cummax, cumprod) runs as one thread per line folding in order,
// bit-identical to the interpreter (long lines along the innermost
// dimension staged through shared memory a warp's 32 lines at a time:
// 6x70, 150x300 f32, 130x100 i32 max; 40x100 f16 in simt_types.mlir); windows that are not prefixes (a
// reverse cumsum's high padding, a sliding window) and inits that do not
// fold into themselves (add of 2) keep the one-thread-per-output kernel.
// Against the reference interpreter on the SIMT harness and GPGPU-Sim
// (skipped without it); the dumped IR shows which kernel ran.
// XLAC-BACKENDS: gpu
// XLAC-SIMT: forward reverse random random:deferred
// RUN: %S/Inputs/sim.sh --check
// RUN: rm -rf %t && mkdir -p %t
// RUN: for e in cumsum1 cumsum0 cummax cumprod init2 reverse sliding rows rowmax; do \
// RUN:   xlac run --backend=interp --random-inputs --seed 9 --entry $e --output-dir %t/$e %s > /dev/null && \
// RUN:   %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 9 --entry $e %s --xla_dump_to=%t/d$e \
// RUN:     --expect 0=@%t/$e/result0.npy --atol 0 --rtol 0 2>&1 || exit 1; \
// RUN:   echo "$e scan=$(cat %t/d$e/*.gpu-ir-no-opt.ll | grep -c '^scan') tile=$(cat %t/d$e/*.gpu-ir-no-opt.ll | grep -c '^tscan')"; done | FileCheck %s
// CHECK: expect result[0]: ok
// CHECK-NEXT: cumsum1 scan=0 tile=1
// CHECK: expect result[0]: ok
// CHECK-NEXT: cumsum0 scan=1 tile=0
// CHECK: expect result[0]: ok
// CHECK-NEXT: cummax scan=1 tile=0
// CHECK: expect result[0]: ok
// CHECK-NEXT: cumprod scan=1 tile=0
// CHECK: expect result[0]: ok
// CHECK-NEXT: init2 scan=0 tile=0
// CHECK: expect result[0]: ok
// CHECK-NEXT: reverse scan=0 tile=0
// CHECK: expect result[0]: ok
// CHECK-NEXT: sliding scan=0 tile=0
// CHECK: expect result[0]: ok
// CHECK-NEXT: rows scan=0 tile=1
// CHECK: expect result[0]: ok
// CHECK-NEXT: rowmax scan=0 tile=1
// Long lines along the innermost dimension through shared memory, or not.
// RUN: XLAC_GPU_PREFIX_TILE=0 %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 9 --entry rows %s --xla_dump_to=%t/off \
// RUN:   --expect 0=@%t/rows/result0.npy --atol 0 --rtol 0 | FileCheck %s --check-prefix=OFF
// OFF: expect result[0]: ok, max abs error 0
// RUN: grep -c '^scan' %t/off/*.gpu-ir-no-opt.ll | FileCheck %s --check-prefix=OFF-IR
// OFF-IR: 1

func.func @cumsum1(%x: tensor<6x70xf32>) -> tensor<6x70xf32> {
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %c) <{padding = dense<[[0, 0], [69, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 70>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<6x70xf32>, tensor<f32>) -> tensor<6x70xf32>
  return %r : tensor<6x70xf32>
}

func.func @cumsum0(%x: tensor<50x3x5xf32>) -> tensor<50x3x5xf32> {
  %c = stablehlo.constant dense<-0.0> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %c) <{padding = dense<[[63, 0], [0, 0], [0, 0]]> : tensor<3x2xi64>, window_dimensions = array<i64: 64, 1, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<50x3x5xf32>, tensor<f32>) -> tensor<50x3x5xf32>
  return %r : tensor<50x3x5xf32>
}

func.func @cummax(%x: tensor<4x33xf32>, %i: tensor<f32>) -> tensor<4x33xf32> {
  %r = "stablehlo.reduce_window"(%x, %i) <{padding = dense<[[0, 0], [32, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 33>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.maximum %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<4x33xf32>, tensor<f32>) -> tensor<4x33xf32>
  return %r : tensor<4x33xf32>
}

func.func @cumprod(%x: tensor<3x20xi32>) -> tensor<3x20xi32> {
  %c = stablehlo.constant dense<1> : tensor<i32>
  %r = "stablehlo.reduce_window"(%x, %c) <{padding = dense<[[0, 0], [19, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 20>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.multiply %b, %a : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) : (tensor<3x20xi32>, tensor<i32>) -> tensor<3x20xi32>
  return %r : tensor<3x20xi32>
}

func.func @init2(%x: tensor<3x20xf32>) -> tensor<3x20xf32> {
  %c = stablehlo.constant dense<2.0> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %c) <{padding = dense<[[0, 0], [19, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 20>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<3x20xf32>, tensor<f32>) -> tensor<3x20xf32>
  return %r : tensor<3x20xf32>
}

func.func @reverse(%x: tensor<3x20xf32>) -> tensor<3x20xf32> {
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %c) <{padding = dense<[[0, 0], [0, 19]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 20>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<3x20xf32>, tensor<f32>) -> tensor<3x20xf32>
  return %r : tensor<3x20xf32>
}

func.func @sliding(%x: tensor<3x20xf32>) -> tensor<3x20xf32> {
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %c) <{padding = dense<[[0, 0], [4, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 5>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<3x20xf32>, tensor<f32>) -> tensor<3x20xf32>
  return %r : tensor<3x20xf32>
}
func.func @rows(%x: tensor<150x300xf32>) -> tensor<150x300xf32> {
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %r = "stablehlo.reduce_window"(%x, %c) <{padding = dense<[[0, 0], [299, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 300>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<150x300xf32>, tensor<f32>) -> tensor<150x300xf32>
  return %r : tensor<150x300xf32>
}
func.func @rowmax(%x: tensor<130x100xi32>) -> tensor<130x100xi32> {
  %c = stablehlo.constant dense<-2147483648> : tensor<i32>
  %r = "stablehlo.reduce_window"(%x, %c) <{padding = dense<[[0, 0], [99, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 100>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = stablehlo.maximum %a, %b : tensor<i32>
    stablehlo.return %s : tensor<i32>
  }) : (tensor<130x100xi32>, tensor<i32>) -> tensor<130x100xi32>
  return %r : tensor<130x100xi32>
}
func.func @rowf16(%x: tensor<40x100xf16>) -> tensor<40x100xf16> {
  %c = stablehlo.constant dense<0.0> : tensor<f16>
  %r = "stablehlo.reduce_window"(%x, %c) <{padding = dense<[[0, 0], [99, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 1, 100>}> ({
  ^bb0(%a: tensor<f16>, %b: tensor<f16>):
    %s = stablehlo.add %a, %b : tensor<f16>
    stablehlo.return %s : tensor<f16>
  }) : (tensor<40x100xf16>, tensor<f16>) -> tensor<40x100xf16>
  return %r : tensor<40x100xf16>
}
