// f16/bf16 transcendentals compile to float vector code: the loop loads a
// vector of halves, widens it once, computes in float vectors (16 or 32
// lanes, as LLVM's cost model for the host picks) and rounds once per op.  LLVM's optimizer narrows compares, min/max and rounding
// intrinsics of widened values back to half/bfloat, which the x86 backend
// (without AVX512-FP16) expands lane by lane; the code generator computes
// those in float again after optimizing (cpu/widen16.c), so the
// optimized IR keeps no such vector op and calls nothing per element.  A
// host with AVX512-FP16 has those instructions for half: there only
// bfloat's are rewritten (the check reads the host's features).
// RUN: rm -rf %t && xlac run --backend=cpu --random-inputs --xla_dump_to=%t %s > /dev/null
// RUN: FileCheck %s < %t/module_0000.main.ir-with-opt.ll
// RUN: if xlac --version --verbose | grep -q '+avx512fp16'; then t=bfloat ts=bf16; else t='half|bfloat' ts='f16|bf16'; fi; \
// RUN:   not grep -E "(fcmp [a-z]+|@llvm\.[a-z]+\.v[0-9]+($ts)\() <[0-9]+ x ($t)>" %t/module_0000.main.ir-with-opt.ll
// RUN: not grep -E 'call .*@(xlacrt_[a-z_]*erf|erff?|tanhf?|expf?|__)' %t/module_0000.main.ir-with-opt.ll
// RUN: xlac compare --random-inputs %s | FileCheck %s --check-prefix=CMP
// CHECK: fpext <[[W:16|32]] x half> {{.*}} to <[[W]] x float>
// CHECK: fptrunc <[[W]] x float> {{.*}} to <[[W]] x half>
// CMP-COUNT-6: max {{[01]}} ULP
func.func @main(%h: tensor<4096xf16>, %b: tensor<4096xbf16>)
    -> (tensor<4096xf16>, tensor<4096xf16>, tensor<4096xf16>, tensor<4096xbf16>, tensor<4096xbf16>, tensor<4096xbf16>) {
  %t = stablehlo.tanh %h : tensor<4096xf16>
  %l = stablehlo.logistic %h : tensor<4096xf16>
  %e = chlo.erf %h : tensor<4096xf16> -> tensor<4096xf16>
  %tb = stablehlo.tanh %b : tensor<4096xbf16>
  %lb = stablehlo.logistic %b : tensor<4096xbf16>
  %eb = chlo.erf %b : tensor<4096xbf16> -> tensor<4096xbf16>
  return %t, %l, %e, %tb, %lb, %eb : tensor<4096xf16>, tensor<4096xf16>, tensor<4096xf16>, tensor<4096xbf16>, tensor<4096xbf16>, tensor<4096xbf16>
}
