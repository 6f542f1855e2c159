// RUN: xlac compare --random-inputs --seed 3 %s | FileCheck %s
// Long rows (several blocks of the selection's scan) on random data, and a
// row of 3 with k = 3: the compiled selection equals the interpreter's
// stable sort bit for bit, rows split over the pool in fixed chunks.
// RUN: xlac opt --pipeline=cpu %s | FileCheck %s --check-prefix=OPT
// CHECK: COMPARE name={{.*}} max_ulp=0
// OPT-NOT: stablehlo.sort
// OPT-COUNT-3: chlo.top_k
func.func @main(%x: tensor<37x1000xf32>, %y: tensor<300x3xbf16>, %z: tensor<5x700xi32>)
    -> (tensor<37x20xf32>, tensor<37x20xi32>, tensor<300x3xbf16>, tensor<300x3xi64>, tensor<5x257xi32>, tensor<5x257xi32>) {
  %v, %i = chlo.top_k(%x, k = 20) : tensor<37x1000xf32> -> (tensor<37x20xf32>, tensor<37x20xi32>)
  %w, %j = chlo.top_k(%y, k = 3) : tensor<300x3xbf16> -> (tensor<300x3xbf16>, tensor<300x3xi64>)
  %u, %l = chlo.top_k(%z, k = 257) : tensor<5x700xi32> -> (tensor<5x257xi32>, tensor<5x257xi32>)
  return %v, %i, %w, %j, %u, %l : tensor<37x20xf32>, tensor<37x20xi32>, tensor<300x3xbf16>, tensor<300x3xi64>, tensor<5x257xi32>, tensor<5x257xi32>
}
