// A loop fusion's chunks follow its work per element, not only its size:
// an LSTM step's gates (32x128 elements, three sigmoids and two tanh each)
// are cut into chunks of 16 rows (2048 elements) so that they spread over
// the pool, where a cheap fusion of the same shape (an add and a multiply)
// stays one chunk, called directly.  Both must match the interpreter.
// Within 1e-7 of the interpreter (the approximations' error near zero).
// RUN: xlac compare --random-inputs --entry gates %s | FileCheck %s --check-prefix=CMPG
// CMPG: result[0]: f32, max abs error {{(0|[0-9.]+e-0[789])}},
// CMPG: result[1]: f32, max abs error {{(0|[0-9.]+e-0[789])}},
// RUN: xlac compare --random-inputs --entry cheap %s | FileCheck %s --check-prefix=CMPC
// CMPC: result[0]: f32, max abs error 0,
// RUN: rm -rf %t && mkdir -p %t/a %t/b
// RUN: xlac run --backend=cpu --random-inputs --xla_dump_to=%t/a --entry gates %s > /dev/null
// RUN: FileCheck %s --check-prefix=HEAVY < %t/a/module_0000.loop_chunks_heavy.ir-no-opt.ll
// HEAVY: call void @xlacrt_parallel_for(ptr {{.*}}, i64 2, ptr {{.*}}@kernel
// RUN: xlac run --backend=cpu --random-inputs --xla_dump_to=%t/b --entry cheap %s > /dev/null
// RUN: FileCheck %s --check-prefix=CHEAP < %t/b/module_0000.loop_chunks_heavy.ir-no-opt.ll
// CHEAP-NOT: call void @xlacrt_parallel_for(
// CHEAP: call void @kernel.0(i64 0, ptr

module @loop_chunks_heavy {
  func.func @gates(%z: tensor<32x512xf32>, %c: tensor<32x128xf32>) -> (tensor<32x128xf32>, tensor<32x128xf32>) {
    %i = stablehlo.slice %z [0:32, 0:128] : (tensor<32x512xf32>) -> tensor<32x128xf32>
    %f = stablehlo.slice %z [0:32, 128:256] : (tensor<32x512xf32>) -> tensor<32x128xf32>
    %g = stablehlo.slice %z [0:32, 256:384] : (tensor<32x512xf32>) -> tensor<32x128xf32>
    %o = stablehlo.slice %z [0:32, 384:512] : (tensor<32x512xf32>) -> tensor<32x128xf32>
    %si = stablehlo.logistic %i : tensor<32x128xf32>
    %sf = stablehlo.logistic %f : tensor<32x128xf32>
    %so = stablehlo.logistic %o : tensor<32x128xf32>
    %tg = stablehlo.tanh %g : tensor<32x128xf32>
    %a = stablehlo.multiply %sf, %c : tensor<32x128xf32>
    %b = stablehlo.multiply %si, %tg : tensor<32x128xf32>
    %c2 = stablehlo.add %a, %b : tensor<32x128xf32>
    %tc = stablehlo.tanh %c2 : tensor<32x128xf32>
    %h = stablehlo.multiply %so, %tc : tensor<32x128xf32>
    return %h, %c2 : tensor<32x128xf32>, tensor<32x128xf32>
  }

  func.func @cheap(%x: tensor<32x128xf32>, %y: tensor<32x128xf32>) -> tensor<32x128xf32> {
    %a = stablehlo.add %x, %y : tensor<32x128xf32>
    %m = stablehlo.multiply %a, %x : tensor<32x128xf32>
    return %m : tensor<32x128xf32>
  }
}
