// A noinline call in the program of an interpreter.run_parallel (calls.mlir).
func.func private @scale(%x: tensor<4xi64>, %k: tensor<i64>) -> tensor<4xi64> attributes {noinline} {
  %kb = stablehlo.broadcast_in_dim %k, dims = [] : (tensor<i64>) -> tensor<4xi64>
  %y = stablehlo.multiply %x, %kb : tensor<4xi64>
  func.return %y : tensor<4xi64>
}
func.func @prog(%x: tensor<4xi64>) -> tensor<4xi64> {
  %r = stablehlo.replica_id : tensor<ui32>
  %ri = stablehlo.convert %r : (tensor<ui32>) -> tensor<i64>
  %y = func.call @scale(%x, %ri) : (tensor<4xi64>, tensor<i64>) -> tensor<4xi64>
  %s = "stablehlo.all_reduce"(%y) ({
    ^bb0(%a: tensor<i64>, %b: tensor<i64>):
      %0 = stablehlo.add %a, %b : tensor<i64>
      stablehlo.return %0 : tensor<i64>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<4xi64>) -> tensor<4xi64>
  return %s : tensor<4xi64>
}
func.func @main() {
  %a = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi64>
  %b = stablehlo.constant dense<[5, 6, 7, 8]> : tensor<4xi64>
  %r:2 = "interpreter.run_parallel"(%a, %b) {programs = [[@prog], [@prog]]} : (tensor<4xi64>, tensor<4xi64>) -> (tensor<4xi64>, tensor<4xi64>)
  check.expect_eq_const %r#0, dense<[5, 6, 7, 8]> : tensor<4xi64>
  check.expect_eq_const %r#1, dense<[5, 6, 7, 8]> : tensor<4xi64>
  func.return
}
