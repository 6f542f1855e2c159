// --flush-denormals (xlac_client_options.flush_denormals): compiled code
// runs with denormals flushed to zero as results (FTZ: 1e-37 * 0.01) and
// as operands (DAZ: 1e-40 * 1000), on every thread of the pool (300000
// elements are several chunks); without it, IEEE denormals, as the
// interpreter computes.  The caller's mode is put back afterwards.
// XLAC-BACKENDS: interp
// RUN: xlac run --backend=cpu --flush-denormals --threads 2 --input 0=1e-37 --input 1=0.01 --input 2=1e-40 --input 3=1000 %s | FileCheck %s --check-prefix=FLUSH
// RUN: xlac run --backend=cpu --threads 2 --input 0=1e-37 --input 1=0.01 --input 2=1e-40 --input 3=1000 %s | FileCheck %s --check-prefix=IEEE
// RUN: xlac run --backend=interp --flush-denormals --input 0=1e-37 --input 1=0.01 --input 2=1e-40 --input 3=1000 %s | FileCheck %s --check-prefix=IEEE
// FLUSH: result[0]: tensor<300000xf32> = [0, 0, 0, ..., 0, 0, 0]
// FLUSH: result[1]: tensor<300000xf32> = [0, 0, 0, ..., 0, 0, 0]
// IEEE: result[0]: tensor<300000xf32> = [1e-39, {{.*}}, 1e-39]
// IEEE: result[1]: tensor<300000xf32> = [9.99994{{[0-9]*}}e-38, {{.*}}, 9.99994{{[0-9]*}}e-38]
func.func @main(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>, %d: tensor<f32>) -> (tensor<300000xf32>, tensor<300000xf32>) {
  %ba = stablehlo.broadcast_in_dim %a, dims = [] : (tensor<f32>) -> tensor<300000xf32>
  %bb = stablehlo.broadcast_in_dim %b, dims = [] : (tensor<f32>) -> tensor<300000xf32>
  %bc = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<f32>) -> tensor<300000xf32>
  %bd = stablehlo.broadcast_in_dim %d, dims = [] : (tensor<f32>) -> tensor<300000xf32>
  %x = stablehlo.multiply %ba, %bb : tensor<300000xf32>
  %y = stablehlo.multiply %bc, %bd : tensor<300000xf32>
  return %x, %y : tensor<300000xf32>, tensor<300000xf32>
}
