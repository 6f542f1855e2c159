// A 1 GiB sort whose result only feeds a reduction: its buffers are temporaries.
// (Input of memory_limit.test; no RUN lines of its own.)
func.func @main(%s: tensor<f32>) -> tensor<f32> {
  %b = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<268435456xf32>
  %i = stablehlo.iota dim = 0 : tensor<268435456xf32>
  %a = stablehlo.add %b, %i : tensor<268435456xf32>
  %t = "stablehlo.sort"(%a) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %c = stablehlo.compare GT, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 0 : i64, is_stable = false} : (tensor<268435456xf32>) -> tensor<268435456xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %r = stablehlo.reduce(%t init: %z) applies stablehlo.maximum across dimensions = [0] : (tensor<268435456xf32>, tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}
