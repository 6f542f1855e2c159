// Allocations that user input can size fail with an error at the op and
// exit status 1, never an abort.  A request larger than the allocation
// limit (--max-alloc, XLAC_MAX_ALLOC; default: the machine's memory) is
// refused before it is tried.  The suite runs this file on both backends.
//
// RUN: not xlac run --entry huge_iota %s 2>&1 | FileCheck %s --check-prefix=IOTA
// IOTA: out_of_memory.mlir:{{[0-9]+}}:{{[0-9]+}}: error: out of memory: {{.*}}400000000000 bytes requested, more than the allocation limit
// IOTA-NOT: error:
//
// A parameter of 1e11 elements, made by --random-inputs.
// RUN: not xlac run --entry huge_param --random-inputs %s 2>&1 | FileCheck %s --check-prefix=PARAM
// PARAM: error: out of memory: {{.*}}400000000000 bytes requested
//
// A small limit refuses a 4 MiB iota.
// RUN: not xlac run --entry small --max-alloc=1M %s 2>&1 | FileCheck %s --check-prefix=LIMIT
// RUN: XLAC_MAX_ALLOC=1M not xlac run --entry small %s 2>&1 | FileCheck %s --check-prefix=LIMIT
// LIMIT: error: out of memory: {{.*}}more than the allocation limit of 1048576 bytes
// RUN: xlac run --entry small --max-alloc=64M %s | FileCheck %s --check-prefix=SMALL
// SMALL: result[0]: tensor<f32> = 1048575
//
// Bad limits are usage errors.
// RUN: not xlac run --entry small --max-alloc=-5 %s 2>&1 | FileCheck %s --check-prefix=BADLIM
// RUN: not xlac run --entry small --max-alloc=12Q %s 2>&1 | FileCheck %s --check-prefix=BADLIM
// BADLIM: xlac run: error: --max-alloc needs a size in bytes

func.func @huge_iota() -> tensor<100000000000xf32> {
  %0 = stablehlo.iota dim = 0 : tensor<100000000000xf32>
  return %0 : tensor<100000000000xf32>
}

func.func @huge_param(%x: tensor<100000000000xf32>) -> tensor<f32> {
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%x init: %z) applies stablehlo.maximum across dimensions = [0] : (tensor<100000000000xf32>, tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}

func.func @small() -> tensor<f32> {
  %0 = stablehlo.iota dim = 0 : tensor<1048576xf32>
  %1 = stablehlo.sqrt %0 : tensor<1048576xf32>
  %2 = stablehlo.multiply %1, %1 : tensor<1048576xf32>
  %3 = stablehlo.round_nearest_even %2 : tensor<1048576xf32>
  %s = "stablehlo.sort"(%3) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %c = stablehlo.compare GT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 0 : i64, is_stable = false} : (tensor<1048576xf32>) -> tensor<1048576xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%s init: %z) applies stablehlo.maximum across dimensions = [0] : (tensor<1048576xf32>, tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}
