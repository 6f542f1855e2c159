// Loops over bfloat ask LLVM's vectorizer for full-width vectors (32
// lanes with AVX-512, 16 with AVX2): its cost model prices bfloat's
// conversions as scalarized and would pick 4 lanes (a layer norm and GELU
// over 256 x 512 bfloat: 1.44 ms at 4 lanes, 0.40 ms at 32).  Results are
// the interpreter's bits.
// RUN: rm -rf %t && xlac run --backend=cpu --random-inputs --xla_dump_to=%t %s > /dev/null
// RUN: cat %t/module_0000.*ir-with-opt.ll | FileCheck %s
// CHECK: define internal void @kernel.0
// CHECK: load <{{16|32}} x bfloat>
// CHECK-NOT: <4 x bfloat>
// CHECK: store <{{16|32}} x {{bfloat|i16}}>
// RUN: xlac compare --random-inputs %s | FileCheck %s --check-prefix=CMP
// CMP: max_ulp=0
module @jit_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<256x512xbf16>, %arg2: tensor<512xbf16>, %arg3: tensor<512xbf16>) -> (tensor<256x512xbf16>) {
    %1 = stablehlo.convert %arg0 : (tensor<256x512xbf16>) -> tensor<256x512xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.reduce(%1 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<256x512xf32>, tensor<f32>) -> tensor<256xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<256xf32>) -> tensor<256x1xf32>
    %cst_0 = stablehlo.constant dense<5.120000e+02> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<256x1xf32>
    %5 = stablehlo.divide %3, %4 : tensor<256x1xf32>
    %6 = stablehlo.convert %5 : (tensor<256x1xf32>) -> tensor<256x1xbf16>
    %7 = stablehlo.broadcast_in_dim %6, dims = [0, 1] : (tensor<256x1xbf16>) -> tensor<256x512xbf16>
    %8 = stablehlo.subtract %arg0, %7 : tensor<256x512xbf16>
    %9 = chlo.square %8 : tensor<256x512xbf16> -> tensor<256x512xbf16>
    %10 = stablehlo.convert %9 : (tensor<256x512xbf16>) -> tensor<256x512xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.reduce(%10 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<256x512xf32>, tensor<f32>) -> tensor<256xf32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0] : (tensor<256xf32>) -> tensor<256x1xf32>
    %cst_2 = stablehlo.constant dense<5.120000e+02> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<256x1xf32>
    %14 = stablehlo.divide %12, %13 : tensor<256x1xf32>
    %15 = stablehlo.convert %14 : (tensor<256x1xf32>) -> tensor<256x1xbf16>
    %16 = stablehlo.broadcast_in_dim %6, dims = [0, 1] : (tensor<256x1xbf16>) -> tensor<256x512xbf16>
    %17 = stablehlo.subtract %arg0, %16 : tensor<256x512xbf16>
    %cst_3 = stablehlo.constant dense<1.001360e-05> : tensor<bf16>
    %18 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<bf16>) -> tensor<256x1xbf16>
    %19 = stablehlo.add %15, %18 : tensor<256x1xbf16>
    %20 = stablehlo.rsqrt %19 : tensor<256x1xbf16>
    %21 = stablehlo.broadcast_in_dim %20, dims = [0, 1] : (tensor<256x1xbf16>) -> tensor<256x512xbf16>
    %22 = stablehlo.multiply %17, %21 : tensor<256x512xbf16>
    %23 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<512xbf16>) -> tensor<1x512xbf16>
    %24 = stablehlo.broadcast_in_dim %23, dims = [0, 1] : (tensor<1x512xbf16>) -> tensor<256x512xbf16>
    %25 = stablehlo.multiply %22, %24 : tensor<256x512xbf16>
    %26 = stablehlo.broadcast_in_dim %arg3, dims = [1] : (tensor<512xbf16>) -> tensor<1x512xbf16>
    %27 = stablehlo.broadcast_in_dim %26, dims = [0, 1] : (tensor<1x512xbf16>) -> tensor<256x512xbf16>
    %28 = stablehlo.add %25, %27 : tensor<256x512xbf16>
    %29 = stablehlo.multiply %28, %28 : tensor<256x512xbf16>
    %30 = stablehlo.multiply %29, %28 : tensor<256x512xbf16>
    %cst_4 = stablehlo.constant dense<4.467770e-02> : tensor<bf16>
    %31 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<bf16>) -> tensor<256x512xbf16>
    %32 = stablehlo.multiply %31, %30 : tensor<256x512xbf16>
    %33 = stablehlo.add %28, %32 : tensor<256x512xbf16>
    %cst_5 = stablehlo.constant dense<7.968750e-01> : tensor<bf16>
    %34 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<bf16>) -> tensor<256x512xbf16>
    %35 = stablehlo.multiply %34, %33 : tensor<256x512xbf16>
    %36 = stablehlo.tanh %35 : tensor<256x512xbf16>
    %cst_6 = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %37 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<bf16>) -> tensor<256x512xbf16>
    %38 = stablehlo.add %37, %36 : tensor<256x512xbf16>
    %cst_7 = stablehlo.constant dense<5.000000e-01> : tensor<bf16>
    %39 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<bf16>) -> tensor<256x512xbf16>
    %40 = stablehlo.multiply %39, %38 : tensor<256x512xbf16>
    %41 = stablehlo.multiply %28, %40 : tensor<256x512xbf16>
    return %41 : tensor<256x512xbf16>
  }
}
