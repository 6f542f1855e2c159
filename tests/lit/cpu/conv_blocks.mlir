// How a convolution's output rows are cut into blocks (cpu/kernel_dot.c,
// conv_block), and which convolutions compute their blocks inside their
// epilogue's loop.  A layer of one block (8x8 positions at batch 1, 64
// rows) runs alone, its GEMM shared by the pool, and its epilogue after
// it; inside the epilogue's loop its only block would run on one thread.
// A 17x17 layer (289 rows) is cut into two blocks of about equal size,
// 156 and 133 rows (multiples of 12), instead of 192 and 97.  Results
// against the interpreter at 1 and 2 threads.
// RUN: xlac compare --random-inputs --split-input-file %s | FileCheck %s
// RUN: xlac compare --random-inputs --threads 2 --split-input-file %s | FileCheck %s
// CHECK-COUNT-3: max abs error {{(0|[0-9.]+e-(0[5-9]|[1-9][0-9]))}},
// RUN: rm -rf %t && mkdir -p %t && xlac run --backend=cpu --random-inputs --xla_dump_to=%t %s --split-input-file > /dev/null
// RUN: FileCheck %s --check-prefix=ONE < %t/module_0000.main.ir-no-opt.ll
// ONE: call void @xlacrt_conv_run(ptr {{.*}}, ptr @conv.{{[0-9]+}}, i32 0, ptr {{.*}}, ptr {{.*}}, ptr {{.*}}, i64 64)
// ONE-NOT: @xlacrt_conv_rows_f32
// RUN: FileCheck %s --check-prefix=TWO < %t/module_0001.main.ir-no-opt.ll
// TWO: call void @xlacrt_conv_run(ptr {{.*}}, ptr @conv.{{[0-9]+}}, i32 0, ptr {{.*}}, ptr {{.*}}, ptr {{.*}}, i64 156)
// RUN: FileCheck %s --check-prefix=FUSED < %t/module_0002.main.ir-no-opt.ll
// FUSED: call void @xlacrt_parallel_for(ptr {{.*}}, i64 2, ptr {{.*}}@kernel
// FUSED: call void @xlacrt_conv_rows_f32(

// 1x1, 64 -> 48 features on 8x8 positions, under a bias and a relu
func.func @main(%x: tensor<1x8x8x64xf32>, %w: tensor<1x1x64x48xf32>, %b: tensor<48xf32>) -> tensor<1x8x8x48xf32> {
  %y = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x8x8x64xf32>, tensor<1x1x64x48xf32>) -> tensor<1x8x8x48xf32>
  %bb = stablehlo.broadcast_in_dim %b, dims = [3] : (tensor<48xf32>) -> tensor<1x8x8x48xf32>
  %s = stablehlo.add %y, %bb : tensor<1x8x8x48xf32>
  %z = stablehlo.constant dense<0.0> : tensor<1x8x8x48xf32>
  %r = stablehlo.maximum %s, %z : tensor<1x8x8x48xf32>
  return %r : tensor<1x8x8x48xf32>
}

// -----

// 3x3 at stride 2, 35x35x32 -> 17x17x24: 289 rows, two blocks
func.func @main(%x: tensor<1x35x35x32xf32>, %w: tensor<3x3x32x24xf32>) -> tensor<1x17x17x24xf32> {
  %y = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[0, 0], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x35x35x32xf32>, tensor<3x3x32x24xf32>) -> tensor<1x17x17x24xf32>
  return %y : tensor<1x17x17x24xf32>
}

// -----

// the same under a bias and a relu: its two blocks inside the epilogue's loop
func.func @main(%x: tensor<1x35x35x32xf32>, %w: tensor<3x3x32x24xf32>, %b: tensor<24xf32>) -> tensor<1x17x17x24xf32> {
  %y = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[0, 0], [0, 0]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x35x35x32xf32>, tensor<3x3x32x24xf32>) -> tensor<1x17x17x24xf32>
  %bb = stablehlo.broadcast_in_dim %b, dims = [3] : (tensor<24xf32>) -> tensor<1x17x17x24xf32>
  %s = stablehlo.add %y, %bb : tensor<1x17x17x24xf32>
  %z = stablehlo.constant dense<0.0> : tensor<1x17x17x24xf32>
  %r = stablehlo.maximum %s, %z : tensor<1x17x17x24xf32>
  return %r : tensor<1x17x17x24xf32>
}
