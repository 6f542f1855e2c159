// A grid whose second process waits for a message nobody sends (run by
// ../run_parallel.mlir): the other process's exit must release it.
module @stuck {
  func.func @idle(%t : !stablehlo.token) -> !stablehlo.token {
    return %t : !stablehlo.token
  }
  func.func @recv(%t : !stablehlo.token) -> (tensor<3xi32>, !stablehlo.token) {
    %v, %r = "stablehlo.recv"(%t) {channel_handle = #stablehlo.channel_handle<handle = 9, type = 3>,
        is_host_transfer = true} : (!stablehlo.token) -> (tensor<3xi32>, !stablehlo.token)
    return %v, %r : tensor<3xi32>, !stablehlo.token
  }
  func.func @stuck() {
    %t = stablehlo.after_all : !stablehlo.token
    %r:3 = "interpreter.run_parallel"(%t, %t) {programs = [[@idle], [@recv]]}
      : (!stablehlo.token, !stablehlo.token) -> (!stablehlo.token, tensor<3xi32>, !stablehlo.token)
    func.return
  }
}
