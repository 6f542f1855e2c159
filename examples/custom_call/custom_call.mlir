// A program that calls a host function: softplus(x) = log(1 + exp(x)),
// computed by the C function the embedding program registers under the
// name "example.softplus" (xlac_custom_call_register, include/xlac/xlac.h)
// before it compiles this file.  The backend_config string reaches the
// function as it is written (here, a scale it applies to the result), and
// the Sharding annotation JAX would put around the call changes nothing on
// one device.
//
// examples/custom_call/main.c (build/bin/example-custom-call) registers
// the function, in XLA's typed and classic forms, and runs the program
// compiled with each:
// RUN: example-custom-call %s | FileCheck %s --check-prefix=MAIN
// MAIN: registered host functions: {{.*}}example.softplus
// MAIN: ops compiled natively: {{[1-9][0-9]*}}, through the interpreter: 0
// MAIN: typed: softplus([-2, 0, 1, 20]) = [0.126928, 0.693147, 1.313262, 20.000000]
// MAIN: classic: softplus([-2, 0, 1, 20]) = [0.126928, 0.693147, 1.313262, 20.000000]
//
// The xlac command cannot register host functions, so on its own the
// program fails to compile, naming the target and the registered ones:
// RUN: not xlac run --backend=cpu --input "x=[0, 1, 2, 3]" %s 2>&1 | FileCheck %s
// CHECK: custom_call.mlir:[[@LINE+6]]:{{[0-9]+}}: error: no implementation for custom_call target 'example.softplus': no host function is registered under this name (registered: none)
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %s = stablehlo.custom_call @Sharding(%x) {mhlo.sharding = "{replicated}"} : (tensor<4xf32>) -> tensor<4xf32>
  // a typed host function: it gets the buffers' types and dimensions, the
  // backend_config and the other attributes ({api_version = 2 : i32,
  // has_side_effect = false}) with each call
  %y = stablehlo.custom_call @example.softplus(%s) {api_version = 2 : i32, backend_config = "scale=1.0",
                                                    has_side_effect = false} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %y : tensor<4xf32>
}
