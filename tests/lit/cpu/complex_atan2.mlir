// atan2 of complex operands compiles natively (it used to go through the
// interpreter): -i log((b + i a) / sqrt(b^2 + a^2)) with the runtime's
// complex functions, the interpreter's own, so the values are equal.
// RUN: xlac compare --backend=cpu --random-inputs --seed 3 %s | FileCheck %s
// CHECK: result[0]: complex<f64>, identical
// RUN: xlac run --backend=cpu --verbose --random-inputs %s 2>&1 | FileCheck %s --check-prefix=CPU
// CPU: cpu: 1 ops native ({{[0-9]+}} fusions), 0 through the interpreter

func.func @main(%a: tensor<64xcomplex<f64>>, %b: tensor<64xcomplex<f64>>) -> tensor<64xcomplex<f64>> {
  %r = stablehlo.atan2 %a, %b : tensor<64xcomplex<f64>>
  return %r : tensor<64xcomplex<f64>>
}
