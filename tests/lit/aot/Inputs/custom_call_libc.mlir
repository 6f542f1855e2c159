// Custom-call targets named like functions of the C library (system, with a
// shell command for its backend_config, and malloc), of the runtime
// (xlacrt_status_current), like a constant of the object (opaque) and like
// the object's own entry symbol (sys_entry, with --name sys).  Ahead of
// time each calls xlac_cc_<target>, nothing else.
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = stablehlo.custom_call @system(%x) {api_version = 2 : i32, backend_config = "touch pwned"} : (tensor<4xf32>) -> tensor<4xf32>
  %b = stablehlo.custom_call @malloc(%a) {api_version = 2 : i32} : (tensor<4xf32>) -> tensor<4xf32>
  %c = stablehlo.custom_call @xlacrt_status_current(%b) {api_version = 2 : i32} : (tensor<4xf32>) -> tensor<4xf32>
  %d = stablehlo.custom_call @opaque(%c) {api_version = 2 : i32} : (tensor<4xf32>) -> tensor<4xf32>
  %e = stablehlo.custom_call @sys_entry(%d) {api_version = 2 : i32, backend_config = "1234"} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %e : tensor<4xf32>
}
