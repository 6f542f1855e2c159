// Integer power, is_finite, and real/imag of real operands compile
// natively (they used to run through the interpreter): the interpreter's
// semantics (square-and-multiply, wrapping; a negative exponent gives 0
// unless the base is 1 or -1), checked on both backends, and the compiled
// op count.
// RUN: xlac run %s --input b=[2,-3,1,-1,-1,0,7,5,-2,3] --input e=[10,3,-5,-3,-4,0,0,-1,31,40] \
// RUN:   --input x=[1.0,inf,-inf,nan,-0.0,3.5] | FileCheck %s
// CHECK: result[0]: tensor<10xi32> = [1024, -27, 1, -1, 1, 1, 1, 0, -2147483648, 689956897]
// CHECK: result[1]: tensor<10xui8> = [0, 229, 1, 255, 1, 1, 1, 205, 0, 33]
// CHECK: result[2]: tensor<6xi1> = [true, false, false, false, true, true]
// CHECK: result[3]: tensor<6xf32> = [1, inf, -inf, nan, -0, 3.5]
// CHECK: result[4]: tensor<6xf32> = [0, 0, 0, 0, 0, 0]
// RUN: xlac run --backend=cpu --verbose %s --input b=[2,-3,1,-1,-1,0,7,5,-2,3] --input e=[10,3,-5,-3,-4,0,0,-1,31,40] \
// RUN:   --input x=[1.0,inf,-inf,nan,-0.0,3.5] 2>&1 | FileCheck %s --check-prefix=CPU
// CPU: cpu: {{[0-9]+}} ops native ({{[0-9]+}} fusions), 0 through the interpreter

func.func @main(%b: tensor<10xi32>, %e: tensor<10xi32>, %x: tensor<6xf32>)
    -> (tensor<10xi32>, tensor<10xui8>, tensor<6xi1>, tensor<6xf32>, tensor<6xf32>) {
  %p = stablehlo.power %b, %e : tensor<10xi32>
  %bu = stablehlo.convert %b : (tensor<10xi32>) -> tensor<10xui8>
  %eu = stablehlo.convert %e : (tensor<10xi32>) -> tensor<10xui8>
  %pu = stablehlo.power %bu, %eu : tensor<10xui8>
  %f = stablehlo.is_finite %x : (tensor<6xf32>) -> tensor<6xi1>
  %r = stablehlo.real %x : tensor<6xf32>
  %i = stablehlo.imag %x : tensor<6xf32>
  return %p, %pu, %f, %r, %i : tensor<10xi32>, tensor<10xui8>, tensor<6xi1>, tensor<6xf32>, tensor<6xf32>
}
