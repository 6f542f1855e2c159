// chlo.top_k on the gpu backend (src/gpu/sort.c: one thread per element
// counts the elements that rank before it, up to k), against the
// reference interpreter, bit for bit: f32 rows of 1000 (k 20), f64, f16
// and bf16 keys, ui64 keys beyond 2^63 (an unsigned compare), i8 keys with
// many ties (the lower index first) and i8 indices that wrap, k equal to
// the row, k of 0, and the special values in the total order (a positive
// NaN above +inf, a negative one below -inf, -0 below +0).
// rows runs on GPGPU-Sim (skipped without it) and the SIMT harness; keys
// and special on the SIMT harness only (the lines testing XLAC_TEST_GPU):
// the simulator misreads the 64-bit immediates of the f64 keys and the
// ui64 constant, and reads i8 unsigned (docs/gpu.md).
// XLAC-BACKENDS: gpu
// XLAC-SIMT: forward reverse random random:deferred
// RUN: %S/Inputs/sim.sh --check
// RUN: %S/Inputs/sim.sh xlac compare --backend=gpu --random-inputs --seed 4 --entry rows %s | FileCheck %s --check-prefix=ROWS
// ROWS-COUNT-4: result[{{[0-9]}}]: {{.*}}0 of {{[0-9]+}} elements differ
// ROWS: COMPARE name={{.*}} max_ulp=0
// RUN: if [ -n "${XLAC_TEST_GPU:-}" ]; then \
// RUN:   %S/Inputs/sim.sh xlac compare --backend=gpu --random-inputs --seed 4 --entry keys %s | FileCheck %s --check-prefix=KEYS && \
// RUN:   %S/Inputs/sim.sh xlac compare --backend=gpu --entry special %s | FileCheck %s --check-prefix=CMP && \
// RUN:   %S/Inputs/sim.sh xlac run --backend=gpu --entry special %s | FileCheck %s --check-prefix=SPECIAL; fi
// KEYS-COUNT-12: result[{{[0-9]+}}]: {{.*}}0 of {{[0-9]+}} elements differ
// KEYS: COMPARE name={{.*}} max_ulp=0
// CMP-COUNT-4: result[{{[0-9]}}]: {{.*}}0 of {{[0-9]+}} elements differ
// CMP: COMPARE name={{.*}} max_ulp=0
// SPECIAL: result[0]: tensor<2x8xf32> = {{\[\[}}nan, nan, inf, 3, 0, -0, -0, -5], [2, 2, 1, 1, 1, 0, -1, -1]]
// SPECIAL: result[1]: tensor<2x8xi32> = {{\[\[}}2, 7, 4, 0, 3, 1, 8, 9], [1, 6, 0, 3, 7, 5, 2, 4]]
// SPECIAL: result[2]: tensor<2x5xf64> = {{\[\[}}nan, 1e+300, 0, -0, -1e+300], [4.940656e-324, 0, 0, -0, -0]]
// SPECIAL: result[3]: tensor<2x5xi32> = {{\[\[}}0, 4, 2, 1, 5], [4, 0, 2, 1, 3]]

func.func @rows(%x: tensor<37x1000xf32>, %y: tensor<4x700xi32>) -> (tensor<37x20xf32>, tensor<37x20xi32>, tensor<4x700xi32>, tensor<4x700xi32>) {
  %v, %i = chlo.top_k(%x, k = 20) : tensor<37x1000xf32> -> (tensor<37x20xf32>, tensor<37x20xi32>)
  %w, %j = chlo.top_k(%y, k = 700) : tensor<4x700xi32> -> (tensor<4x700xi32>, tensor<4x700xi32>)
  return %v, %i, %w, %j : tensor<37x20xf32>, tensor<37x20xi32>, tensor<4x700xi32>, tensor<4x700xi32>
}
func.func @keys(%a: tensor<4x77xf64>, %b: tensor<6x40xf16>, %c: tensor<5x33xbf16>, %d: tensor<3x50xui64>, %e: tensor<2x300xi8>, %f: tensor<3x9xf32>)
    -> (tensor<4x7xf64>, tensor<4x7xi64>, tensor<6x5xf16>, tensor<6x5xi32>, tensor<5x33xbf16>, tensor<5x33xi16>, tensor<3x10xui64>, tensor<3x10xui32>, tensor<2x200xi8>, tensor<2x200xi8>, tensor<3x0xf32>, tensor<3x0xi32>) {
  %k = stablehlo.constant dense<9223372036854775808> : tensor<3x50xui64>
  %dd = stablehlo.add %d, %k : tensor<3x50xui64>
  %d2 = stablehlo.concatenate %d, %dd, dim = 1 : (tensor<3x50xui64>, tensor<3x50xui64>) -> tensor<3x100xui64>
  %a1, %a2 = chlo.top_k(%a, k = 7) : tensor<4x77xf64> -> (tensor<4x7xf64>, tensor<4x7xi64>)
  %b1, %b2 = chlo.top_k(%b, k = 5) : tensor<6x40xf16> -> (tensor<6x5xf16>, tensor<6x5xi32>)
  %c1, %c2 = chlo.top_k(%c, k = 33) : tensor<5x33xbf16> -> (tensor<5x33xbf16>, tensor<5x33xi16>)
  %d3, %d4 = chlo.top_k(%d2, k = 10) : tensor<3x100xui64> -> (tensor<3x10xui64>, tensor<3x10xui32>)
  %e1, %e2 = chlo.top_k(%e, k = 200) : tensor<2x300xi8> -> (tensor<2x200xi8>, tensor<2x200xi8>)
  %f1, %f2 = chlo.top_k(%f, k = 0) : tensor<3x9xf32> -> (tensor<3x0xf32>, tensor<3x0xi32>)
  return %a1, %a2, %b1, %b2, %c1, %c2, %d3, %d4, %e1, %e2, %f1, %f2 : tensor<4x7xf64>, tensor<4x7xi64>, tensor<6x5xf16>, tensor<6x5xi32>, tensor<5x33xbf16>, tensor<5x33xi16>, tensor<3x10xui64>, tensor<3x10xui32>, tensor<2x200xi8>, tensor<2x200xi8>, tensor<3x0xf32>, tensor<3x0xi32>
}
func.func @special() -> (tensor<2x8xf32>, tensor<2x8xi32>, tensor<2x5xf64>, tensor<2x5xi32>) {
  %x0 = stablehlo.constant dense<[[3.0, -0.0, 0x7FC00000, 0.0, 0x7F800000, 0xFF800000, 0xFFC00000, 0x7FC00000, -0.0, -5.0], [1.0, 2.0, -1.0, 1.0, -1.0, 0.0, 2.0, 1.0, -2.0, -3.0]]> : tensor<2x10xf32>
  %y0 = stablehlo.constant dense<[[0x7FF8000000000000, -0.0, 0.0, 0xFFF8000000000000, 1.0e300, -1.0e300], [0.0, -0.0, 0.0, -0.0, 4.9e-324, -4.9e-324]]> : tensor<2x6xf64>
  %x, %y = stablehlo.optimization_barrier %x0, %y0 : tensor<2x10xf32>, tensor<2x6xf64>
  %v, %i = chlo.top_k(%x, k = 8) : tensor<2x10xf32> -> (tensor<2x8xf32>, tensor<2x8xi32>)
  %w, %j = chlo.top_k(%y, k = 5) : tensor<2x6xf64> -> (tensor<2x5xf64>, tensor<2x5xi32>)
  return %v, %i, %w, %j : tensor<2x8xf32>, tensor<2x8xi32>, tensor<2x5xf64>, tensor<2x5xi32>
}
