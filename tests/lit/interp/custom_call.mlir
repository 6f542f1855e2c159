// RUN: not xlac run --split-input-file %s 2>&1 | FileCheck %s

func.func @main() {
  %a = stablehlo.constant dense<1> : tensor<i32>
  // the cpu backend refuses it at compile time, the interpreter when it runs
  // CHECK: custom_call.mlir:[[@LINE+1]]:{{[0-9]+}}: error: {{(runtime error: )?}}no implementation for custom_call target 'my.unknown_target': no host function is registered under this name (registered: none)
  %r = stablehlo.custom_call @my.unknown_target(%a) : (tensor<i32>) -> tensor<i32>
  func.return
}

// -----

func.func @main() {
  %a = stablehlo.constant dense<1> : tensor<i32>
  // CHECK: custom_call.mlir:[[@LINE+1]]:{{[0-9]+}}: error: runtime error: custom_call @check.expect_eq expects 2 operands, got 1
  stablehlo.custom_call @check.expect_eq(%a) : (tensor<i32>) -> ()
  func.return
}

// -----

func.func @main() {
  %a = stablehlo.constant dense<1> : tensor<i32>
  // CHECK: custom_call.mlir:[[@LINE+1]]:{{[0-9]+}}: error: runtime error: check.expect_close needs float or complex operands, got i32
  stablehlo.custom_call @check.expect_close(%a, %a) : (tensor<i32>, tensor<i32>) -> ()
  func.return
}

// -----

// The families of targets JAX emits say what they are.
func.func @main() {
  %a = stablehlo.constant dense<1.0> : tensor<2x2xf32>
  // CHECK: custom_call.mlir:[[@LINE+1]]:{{[0-9]+}}: error: {{(runtime error: )?}}custom_call @lapack_spotrf_ffi: this LAPACK call from jnp.linalg / jax.scipy.linalg is not supported (xlac implements the _ffi targets of geev, gees, gehrd, geqp3, sytrd/hetrd, gtsv, gesdd, gesvd and getrf); a host function registered under this name would be called instead (registered: none)
  %r:2 = stablehlo.custom_call @lapack_spotrf_ffi(%a) {mhlo.backend_config = {uplo = 76 : ui8}, api_version = 4 : i32} : (tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<i32>)
  func.return
}

// -----

func.func @main() {
  %a = stablehlo.constant dense<1.0> : tensor<2xf32>
  // CHECK: custom_call.mlir:[[@LINE+1]]:{{[0-9]+}}: error: {{(runtime error: )?}}custom_call @xla_ffi_python_cpu_callback: a callback into the Python process that traced the program
  %r = stablehlo.custom_call @xla_ffi_python_cpu_callback(%a) {has_side_effect = true} : (tensor<2xf32>) -> tensor<2xf32>
  func.return
}

// -----

func.func @main() {
  %a = stablehlo.constant dense<1.0> : tensor<8xf32>
  // CHECK: custom_call.mlir:[[@LINE+1]]:{{[0-9]+}}: error: {{(runtime error: )?}}custom_call @SPMDFullToShardShape turns operand #0 of type tensor<8xf32> into tensor<4xf32>: that takes XLA's SPMD partitioner
  %r = stablehlo.custom_call @SPMDFullToShardShape(%a) : (tensor<8xf32>) -> tensor<4xf32>
  func.return
}
