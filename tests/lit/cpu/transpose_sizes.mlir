// RUN: xlac run --split-input-file %s
// RUN: xlac run --split-input-file --backend=cpu --threads=1 %s
// Sizes around the blocked transpose kernel's blocks (16 x 16 for 4-byte
// elements, 8 x 8 for 8-byte ones) and tiles (16 x 16 blocks), primes, and
// very flat matrices: every mix of whole blocks, partial blocks (masked
// loads and stores) and partial tiles.  [4096, 1024] f32 (16 MiB) is written
// with streaming stores.  Values as in transpose_types.mlir.
// f32 [256, 256]
func.func @f32_256x256() {
  %v1 = stablehlo.iota dim = 0 : tensor<256x256xi32>
  %v2 = stablehlo.constant dense<256> : tensor<256x256xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<256x256xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<256x256xi32>
  %v5 = stablehlo.add %v3, %v4 : tensor<256x256xi32>
  %v6 = stablehlo.constant dense<40503> : tensor<256x256xi32>
  %v7 = stablehlo.multiply %v5, %v6 : tensor<256x256xi32>
  %v8 = stablehlo.bitcast_convert %v7 : (tensor<256x256xi32>) -> tensor<256x256xf32>
  %v9 = stablehlo.optimization_barrier %v8 : tensor<256x256xf32>
  %v10 = stablehlo.transpose %v9, dims = [1, 0] : (tensor<256x256xf32>) -> tensor<256x256xf32>
  %v11 = stablehlo.iota dim = 0 : tensor<256x256xi32>
  %v12 = stablehlo.iota dim = 1 : tensor<256x256xi32>
  %v13 = stablehlo.constant dense<256> : tensor<256x256xi32>
  %v14 = stablehlo.multiply %v12, %v13 : tensor<256x256xi32>
  %v15 = stablehlo.add %v11, %v14 : tensor<256x256xi32>
  %v16 = stablehlo.constant dense<40503> : tensor<256x256xi32>
  %v17 = stablehlo.multiply %v15, %v16 : tensor<256x256xi32>
  %v18 = stablehlo.optimization_barrier %v10 : tensor<256x256xf32>
  %v19 = stablehlo.bitcast_convert %v18 : (tensor<256x256xf32>) -> tensor<256x256xi32>
  check.expect_eq %v19, %v17 : tensor<256x256xi32>
  func.return
}

// -----

// f32 [255, 257]
func.func @f32_255x257() {
  %v1 = stablehlo.iota dim = 0 : tensor<255x257xi32>
  %v2 = stablehlo.constant dense<257> : tensor<255x257xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<255x257xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<255x257xi32>
  %v5 = stablehlo.add %v3, %v4 : tensor<255x257xi32>
  %v6 = stablehlo.constant dense<40503> : tensor<255x257xi32>
  %v7 = stablehlo.multiply %v5, %v6 : tensor<255x257xi32>
  %v8 = stablehlo.bitcast_convert %v7 : (tensor<255x257xi32>) -> tensor<255x257xf32>
  %v9 = stablehlo.optimization_barrier %v8 : tensor<255x257xf32>
  %v10 = stablehlo.transpose %v9, dims = [1, 0] : (tensor<255x257xf32>) -> tensor<257x255xf32>
  %v11 = stablehlo.iota dim = 0 : tensor<257x255xi32>
  %v12 = stablehlo.iota dim = 1 : tensor<257x255xi32>
  %v13 = stablehlo.constant dense<257> : tensor<257x255xi32>
  %v14 = stablehlo.multiply %v12, %v13 : tensor<257x255xi32>
  %v15 = stablehlo.add %v11, %v14 : tensor<257x255xi32>
  %v16 = stablehlo.constant dense<40503> : tensor<257x255xi32>
  %v17 = stablehlo.multiply %v15, %v16 : tensor<257x255xi32>
  %v18 = stablehlo.optimization_barrier %v10 : tensor<257x255xf32>
  %v19 = stablehlo.bitcast_convert %v18 : (tensor<257x255xf32>) -> tensor<257x255xi32>
  check.expect_eq %v19, %v17 : tensor<257x255xi32>
  func.return
}

// -----

// f32 [257, 255]
func.func @f32_257x255() {
  %v1 = stablehlo.iota dim = 0 : tensor<257x255xi32>
  %v2 = stablehlo.constant dense<255> : tensor<257x255xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<257x255xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<257x255xi32>
  %v5 = stablehlo.add %v3, %v4 : tensor<257x255xi32>
  %v6 = stablehlo.constant dense<40503> : tensor<257x255xi32>
  %v7 = stablehlo.multiply %v5, %v6 : tensor<257x255xi32>
  %v8 = stablehlo.bitcast_convert %v7 : (tensor<257x255xi32>) -> tensor<257x255xf32>
  %v9 = stablehlo.optimization_barrier %v8 : tensor<257x255xf32>
  %v10 = stablehlo.transpose %v9, dims = [1, 0] : (tensor<257x255xf32>) -> tensor<255x257xf32>
  %v11 = stablehlo.iota dim = 0 : tensor<255x257xi32>
  %v12 = stablehlo.iota dim = 1 : tensor<255x257xi32>
  %v13 = stablehlo.constant dense<255> : tensor<255x257xi32>
  %v14 = stablehlo.multiply %v12, %v13 : tensor<255x257xi32>
  %v15 = stablehlo.add %v11, %v14 : tensor<255x257xi32>
  %v16 = stablehlo.constant dense<40503> : tensor<255x257xi32>
  %v17 = stablehlo.multiply %v15, %v16 : tensor<255x257xi32>
  %v18 = stablehlo.optimization_barrier %v10 : tensor<255x257xf32>
  %v19 = stablehlo.bitcast_convert %v18 : (tensor<255x257xf32>) -> tensor<255x257xi32>
  check.expect_eq %v19, %v17 : tensor<255x257xi32>
  func.return
}

// -----

// f32 [129, 511]
func.func @f32_129x511() {
  %v1 = stablehlo.iota dim = 0 : tensor<129x511xi32>
  %v2 = stablehlo.constant dense<511> : tensor<129x511xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<129x511xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<129x511xi32>
  %v5 = stablehlo.add %v3, %v4 : tensor<129x511xi32>
  %v6 = stablehlo.constant dense<40503> : tensor<129x511xi32>
  %v7 = stablehlo.multiply %v5, %v6 : tensor<129x511xi32>
  %v8 = stablehlo.bitcast_convert %v7 : (tensor<129x511xi32>) -> tensor<129x511xf32>
  %v9 = stablehlo.optimization_barrier %v8 : tensor<129x511xf32>
  %v10 = stablehlo.transpose %v9, dims = [1, 0] : (tensor<129x511xf32>) -> tensor<511x129xf32>
  %v11 = stablehlo.iota dim = 0 : tensor<511x129xi32>
  %v12 = stablehlo.iota dim = 1 : tensor<511x129xi32>
  %v13 = stablehlo.constant dense<511> : tensor<511x129xi32>
  %v14 = stablehlo.multiply %v12, %v13 : tensor<511x129xi32>
  %v15 = stablehlo.add %v11, %v14 : tensor<511x129xi32>
  %v16 = stablehlo.constant dense<40503> : tensor<511x129xi32>
  %v17 = stablehlo.multiply %v15, %v16 : tensor<511x129xi32>
  %v18 = stablehlo.optimization_barrier %v10 : tensor<511x129xf32>
  %v19 = stablehlo.bitcast_convert %v18 : (tensor<511x129xf32>) -> tensor<511x129xi32>
  check.expect_eq %v19, %v17 : tensor<511x129xi32>
  func.return
}

// -----

// f32 [127, 513]
func.func @f32_127x513() {
  %v1 = stablehlo.iota dim = 0 : tensor<127x513xi32>
  %v2 = stablehlo.constant dense<513> : tensor<127x513xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<127x513xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<127x513xi32>
  %v5 = stablehlo.add %v3, %v4 : tensor<127x513xi32>
  %v6 = stablehlo.constant dense<40503> : tensor<127x513xi32>
  %v7 = stablehlo.multiply %v5, %v6 : tensor<127x513xi32>
  %v8 = stablehlo.bitcast_convert %v7 : (tensor<127x513xi32>) -> tensor<127x513xf32>
  %v9 = stablehlo.optimization_barrier %v8 : tensor<127x513xf32>
  %v10 = stablehlo.transpose %v9, dims = [1, 0] : (tensor<127x513xf32>) -> tensor<513x127xf32>
  %v11 = stablehlo.iota dim = 0 : tensor<513x127xi32>
  %v12 = stablehlo.iota dim = 1 : tensor<513x127xi32>
  %v13 = stablehlo.constant dense<513> : tensor<513x127xi32>
  %v14 = stablehlo.multiply %v12, %v13 : tensor<513x127xi32>
  %v15 = stablehlo.add %v11, %v14 : tensor<513x127xi32>
  %v16 = stablehlo.constant dense<40503> : tensor<513x127xi32>
  %v17 = stablehlo.multiply %v15, %v16 : tensor<513x127xi32>
  %v18 = stablehlo.optimization_barrier %v10 : tensor<513x127xf32>
  %v19 = stablehlo.bitcast_convert %v18 : (tensor<513x127xf32>) -> tensor<513x127xi32>
  check.expect_eq %v19, %v17 : tensor<513x127xi32>
  func.return
}

// -----

// f32 [1031, 97]
func.func @f32_1031x97() {
  %v1 = stablehlo.iota dim = 0 : tensor<1031x97xi32>
  %v2 = stablehlo.constant dense<97> : tensor<1031x97xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<1031x97xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<1031x97xi32>
  %v5 = stablehlo.add %v3, %v4 : tensor<1031x97xi32>
  %v6 = stablehlo.constant dense<40503> : tensor<1031x97xi32>
  %v7 = stablehlo.multiply %v5, %v6 : tensor<1031x97xi32>
  %v8 = stablehlo.bitcast_convert %v7 : (tensor<1031x97xi32>) -> tensor<1031x97xf32>
  %v9 = stablehlo.optimization_barrier %v8 : tensor<1031x97xf32>
  %v10 = stablehlo.transpose %v9, dims = [1, 0] : (tensor<1031x97xf32>) -> tensor<97x1031xf32>
  %v11 = stablehlo.iota dim = 0 : tensor<97x1031xi32>
  %v12 = stablehlo.iota dim = 1 : tensor<97x1031xi32>
  %v13 = stablehlo.constant dense<97> : tensor<97x1031xi32>
  %v14 = stablehlo.multiply %v12, %v13 : tensor<97x1031xi32>
  %v15 = stablehlo.add %v11, %v14 : tensor<97x1031xi32>
  %v16 = stablehlo.constant dense<40503> : tensor<97x1031xi32>
  %v17 = stablehlo.multiply %v15, %v16 : tensor<97x1031xi32>
  %v18 = stablehlo.optimization_barrier %v10 : tensor<97x1031xf32>
  %v19 = stablehlo.bitcast_convert %v18 : (tensor<97x1031xf32>) -> tensor<97x1031xi32>
  check.expect_eq %v19, %v17 : tensor<97x1031xi32>
  func.return
}

// -----

// f32 [97, 1031]
func.func @f32_97x1031() {
  %v1 = stablehlo.iota dim = 0 : tensor<97x1031xi32>
  %v2 = stablehlo.constant dense<1031> : tensor<97x1031xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<97x1031xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<97x1031xi32>
  %v5 = stablehlo.add %v3, %v4 : tensor<97x1031xi32>
  %v6 = stablehlo.constant dense<40503> : tensor<97x1031xi32>
  %v7 = stablehlo.multiply %v5, %v6 : tensor<97x1031xi32>
  %v8 = stablehlo.bitcast_convert %v7 : (tensor<97x1031xi32>) -> tensor<97x1031xf32>
  %v9 = stablehlo.optimization_barrier %v8 : tensor<97x1031xf32>
  %v10 = stablehlo.transpose %v9, dims = [1, 0] : (tensor<97x1031xf32>) -> tensor<1031x97xf32>
  %v11 = stablehlo.iota dim = 0 : tensor<1031x97xi32>
  %v12 = stablehlo.iota dim = 1 : tensor<1031x97xi32>
  %v13 = stablehlo.constant dense<1031> : tensor<1031x97xi32>
  %v14 = stablehlo.multiply %v12, %v13 : tensor<1031x97xi32>
  %v15 = stablehlo.add %v11, %v14 : tensor<1031x97xi32>
  %v16 = stablehlo.constant dense<40503> : tensor<1031x97xi32>
  %v17 = stablehlo.multiply %v15, %v16 : tensor<1031x97xi32>
  %v18 = stablehlo.optimization_barrier %v10 : tensor<1031x97xf32>
  %v19 = stablehlo.bitcast_convert %v18 : (tensor<1031x97xf32>) -> tensor<1031x97xi32>
  check.expect_eq %v19, %v17 : tensor<1031x97xi32>
  func.return
}

// -----

// f32 [17, 4099]
func.func @f32_17x4099() {
  %v1 = stablehlo.iota dim = 0 : tensor<17x4099xi32>
  %v2 = stablehlo.constant dense<4099> : tensor<17x4099xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<17x4099xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<17x4099xi32>
  %v5 = stablehlo.add %v3, %v4 : tensor<17x4099xi32>
  %v6 = stablehlo.constant dense<40503> : tensor<17x4099xi32>
  %v7 = stablehlo.multiply %v5, %v6 : tensor<17x4099xi32>
  %v8 = stablehlo.bitcast_convert %v7 : (tensor<17x4099xi32>) -> tensor<17x4099xf32>
  %v9 = stablehlo.optimization_barrier %v8 : tensor<17x4099xf32>
  %v10 = stablehlo.transpose %v9, dims = [1, 0] : (tensor<17x4099xf32>) -> tensor<4099x17xf32>
  %v11 = stablehlo.iota dim = 0 : tensor<4099x17xi32>
  %v12 = stablehlo.iota dim = 1 : tensor<4099x17xi32>
  %v13 = stablehlo.constant dense<4099> : tensor<4099x17xi32>
  %v14 = stablehlo.multiply %v12, %v13 : tensor<4099x17xi32>
  %v15 = stablehlo.add %v11, %v14 : tensor<4099x17xi32>
  %v16 = stablehlo.constant dense<40503> : tensor<4099x17xi32>
  %v17 = stablehlo.multiply %v15, %v16 : tensor<4099x17xi32>
  %v18 = stablehlo.optimization_barrier %v10 : tensor<4099x17xf32>
  %v19 = stablehlo.bitcast_convert %v18 : (tensor<4099x17xf32>) -> tensor<4099x17xi32>
  check.expect_eq %v19, %v17 : tensor<4099x17xi32>
  func.return
}

// -----

// f32 [4099, 17]
func.func @f32_4099x17() {
  %v1 = stablehlo.iota dim = 0 : tensor<4099x17xi32>
  %v2 = stablehlo.constant dense<17> : tensor<4099x17xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<4099x17xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<4099x17xi32>
  %v5 = stablehlo.add %v3, %v4 : tensor<4099x17xi32>
  %v6 = stablehlo.constant dense<40503> : tensor<4099x17xi32>
  %v7 = stablehlo.multiply %v5, %v6 : tensor<4099x17xi32>
  %v8 = stablehlo.bitcast_convert %v7 : (tensor<4099x17xi32>) -> tensor<4099x17xf32>
  %v9 = stablehlo.optimization_barrier %v8 : tensor<4099x17xf32>
  %v10 = stablehlo.transpose %v9, dims = [1, 0] : (tensor<4099x17xf32>) -> tensor<17x4099xf32>
  %v11 = stablehlo.iota dim = 0 : tensor<17x4099xi32>
  %v12 = stablehlo.iota dim = 1 : tensor<17x4099xi32>
  %v13 = stablehlo.constant dense<17> : tensor<17x4099xi32>
  %v14 = stablehlo.multiply %v12, %v13 : tensor<17x4099xi32>
  %v15 = stablehlo.add %v11, %v14 : tensor<17x4099xi32>
  %v16 = stablehlo.constant dense<40503> : tensor<17x4099xi32>
  %v17 = stablehlo.multiply %v15, %v16 : tensor<17x4099xi32>
  %v18 = stablehlo.optimization_barrier %v10 : tensor<17x4099xf32>
  %v19 = stablehlo.bitcast_convert %v18 : (tensor<17x4099xf32>) -> tensor<17x4099xi32>
  check.expect_eq %v19, %v17 : tensor<17x4099xi32>
  func.return
}

// -----

// f32 [16, 4096]
func.func @f32_16x4096() {
  %v1 = stablehlo.iota dim = 0 : tensor<16x4096xi32>
  %v2 = stablehlo.constant dense<4096> : tensor<16x4096xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<16x4096xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<16x4096xi32>
  %v5 = stablehlo.add %v3, %v4 : tensor<16x4096xi32>
  %v6 = stablehlo.constant dense<40503> : tensor<16x4096xi32>
  %v7 = stablehlo.multiply %v5, %v6 : tensor<16x4096xi32>
  %v8 = stablehlo.bitcast_convert %v7 : (tensor<16x4096xi32>) -> tensor<16x4096xf32>
  %v9 = stablehlo.optimization_barrier %v8 : tensor<16x4096xf32>
  %v10 = stablehlo.transpose %v9, dims = [1, 0] : (tensor<16x4096xf32>) -> tensor<4096x16xf32>
  %v11 = stablehlo.iota dim = 0 : tensor<4096x16xi32>
  %v12 = stablehlo.iota dim = 1 : tensor<4096x16xi32>
  %v13 = stablehlo.constant dense<4096> : tensor<4096x16xi32>
  %v14 = stablehlo.multiply %v12, %v13 : tensor<4096x16xi32>
  %v15 = stablehlo.add %v11, %v14 : tensor<4096x16xi32>
  %v16 = stablehlo.constant dense<40503> : tensor<4096x16xi32>
  %v17 = stablehlo.multiply %v15, %v16 : tensor<4096x16xi32>
  %v18 = stablehlo.optimization_barrier %v10 : tensor<4096x16xf32>
  %v19 = stablehlo.bitcast_convert %v18 : (tensor<4096x16xf32>) -> tensor<4096x16xi32>
  check.expect_eq %v19, %v17 : tensor<4096x16xi32>
  func.return
}

// -----

// f32 [8191, 3]
func.func @f32_8191x3() {
  %v1 = stablehlo.iota dim = 0 : tensor<8191x3xi32>
  %v2 = stablehlo.constant dense<3> : tensor<8191x3xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<8191x3xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<8191x3xi32>
  %v5 = stablehlo.add %v3, %v4 : tensor<8191x3xi32>
  %v6 = stablehlo.constant dense<40503> : tensor<8191x3xi32>
  %v7 = stablehlo.multiply %v5, %v6 : tensor<8191x3xi32>
  %v8 = stablehlo.bitcast_convert %v7 : (tensor<8191x3xi32>) -> tensor<8191x3xf32>
  %v9 = stablehlo.optimization_barrier %v8 : tensor<8191x3xf32>
  %v10 = stablehlo.transpose %v9, dims = [1, 0] : (tensor<8191x3xf32>) -> tensor<3x8191xf32>
  %v11 = stablehlo.iota dim = 0 : tensor<3x8191xi32>
  %v12 = stablehlo.iota dim = 1 : tensor<3x8191xi32>
  %v13 = stablehlo.constant dense<3> : tensor<3x8191xi32>
  %v14 = stablehlo.multiply %v12, %v13 : tensor<3x8191xi32>
  %v15 = stablehlo.add %v11, %v14 : tensor<3x8191xi32>
  %v16 = stablehlo.constant dense<40503> : tensor<3x8191xi32>
  %v17 = stablehlo.multiply %v15, %v16 : tensor<3x8191xi32>
  %v18 = stablehlo.optimization_barrier %v10 : tensor<3x8191xf32>
  %v19 = stablehlo.bitcast_convert %v18 : (tensor<3x8191xf32>) -> tensor<3x8191xi32>
  check.expect_eq %v19, %v17 : tensor<3x8191xi32>
  func.return
}

// -----

// f32 [3, 8191]
func.func @f32_3x8191() {
  %v1 = stablehlo.iota dim = 0 : tensor<3x8191xi32>
  %v2 = stablehlo.constant dense<8191> : tensor<3x8191xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<3x8191xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<3x8191xi32>
  %v5 = stablehlo.add %v3, %v4 : tensor<3x8191xi32>
  %v6 = stablehlo.constant dense<40503> : tensor<3x8191xi32>
  %v7 = stablehlo.multiply %v5, %v6 : tensor<3x8191xi32>
  %v8 = stablehlo.bitcast_convert %v7 : (tensor<3x8191xi32>) -> tensor<3x8191xf32>
  %v9 = stablehlo.optimization_barrier %v8 : tensor<3x8191xf32>
  %v10 = stablehlo.transpose %v9, dims = [1, 0] : (tensor<3x8191xf32>) -> tensor<8191x3xf32>
  %v11 = stablehlo.iota dim = 0 : tensor<8191x3xi32>
  %v12 = stablehlo.iota dim = 1 : tensor<8191x3xi32>
  %v13 = stablehlo.constant dense<8191> : tensor<8191x3xi32>
  %v14 = stablehlo.multiply %v12, %v13 : tensor<8191x3xi32>
  %v15 = stablehlo.add %v11, %v14 : tensor<8191x3xi32>
  %v16 = stablehlo.constant dense<40503> : tensor<8191x3xi32>
  %v17 = stablehlo.multiply %v15, %v16 : tensor<8191x3xi32>
  %v18 = stablehlo.optimization_barrier %v10 : tensor<8191x3xf32>
  %v19 = stablehlo.bitcast_convert %v18 : (tensor<8191x3xf32>) -> tensor<8191x3xi32>
  check.expect_eq %v19, %v17 : tensor<8191x3xi32>
  func.return
}

// -----

// f32 [4096, 1024]
func.func @f32_4096x1024() {
  %v1 = stablehlo.iota dim = 0 : tensor<4096x1024xi32>
  %v2 = stablehlo.constant dense<1024> : tensor<4096x1024xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<4096x1024xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<4096x1024xi32>
  %v5 = stablehlo.add %v3, %v4 : tensor<4096x1024xi32>
  %v6 = stablehlo.constant dense<40503> : tensor<4096x1024xi32>
  %v7 = stablehlo.multiply %v5, %v6 : tensor<4096x1024xi32>
  %v8 = stablehlo.bitcast_convert %v7 : (tensor<4096x1024xi32>) -> tensor<4096x1024xf32>
  %v9 = stablehlo.optimization_barrier %v8 : tensor<4096x1024xf32>
  %v10 = stablehlo.transpose %v9, dims = [1, 0] : (tensor<4096x1024xf32>) -> tensor<1024x4096xf32>
  %v11 = stablehlo.iota dim = 0 : tensor<1024x4096xi32>
  %v12 = stablehlo.iota dim = 1 : tensor<1024x4096xi32>
  %v13 = stablehlo.constant dense<1024> : tensor<1024x4096xi32>
  %v14 = stablehlo.multiply %v12, %v13 : tensor<1024x4096xi32>
  %v15 = stablehlo.add %v11, %v14 : tensor<1024x4096xi32>
  %v16 = stablehlo.constant dense<40503> : tensor<1024x4096xi32>
  %v17 = stablehlo.multiply %v15, %v16 : tensor<1024x4096xi32>
  %v18 = stablehlo.optimization_barrier %v10 : tensor<1024x4096xf32>
  %v19 = stablehlo.bitcast_convert %v18 : (tensor<1024x4096xf32>) -> tensor<1024x4096xi32>
  check.expect_eq %v19, %v17 : tensor<1024x4096xi32>
  func.return
}

// -----

// f64 [129, 65]
func.func @f64_129x65() {
  %v1 = stablehlo.iota dim = 0 : tensor<129x65xi32>
  %v2 = stablehlo.constant dense<65> : tensor<129x65xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<129x65xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<129x65xi32>
  %v5 = stablehlo.add %v3, %v4 : tensor<129x65xi32>
  %v6 = stablehlo.constant dense<40503> : tensor<129x65xi32>
  %v7 = stablehlo.multiply %v5, %v6 : tensor<129x65xi32>
  %v8 = stablehlo.convert %v7 : (tensor<129x65xi32>) -> tensor<129x65xi64>
  %v9 = stablehlo.bitcast_convert %v8 : (tensor<129x65xi64>) -> tensor<129x65xf64>
  %v10 = stablehlo.optimization_barrier %v9 : tensor<129x65xf64>
  %v11 = stablehlo.transpose %v10, dims = [1, 0] : (tensor<129x65xf64>) -> tensor<65x129xf64>
  %v12 = stablehlo.iota dim = 0 : tensor<65x129xi32>
  %v13 = stablehlo.iota dim = 1 : tensor<65x129xi32>
  %v14 = stablehlo.constant dense<65> : tensor<65x129xi32>
  %v15 = stablehlo.multiply %v13, %v14 : tensor<65x129xi32>
  %v16 = stablehlo.add %v12, %v15 : tensor<65x129xi32>
  %v17 = stablehlo.constant dense<40503> : tensor<65x129xi32>
  %v18 = stablehlo.multiply %v16, %v17 : tensor<65x129xi32>
  %v19 = stablehlo.convert %v18 : (tensor<65x129xi32>) -> tensor<65x129xi64>
  %v20 = stablehlo.optimization_barrier %v11 : tensor<65x129xf64>
  %v21 = stablehlo.bitcast_convert %v20 : (tensor<65x129xf64>) -> tensor<65x129xi64>
  check.expect_eq %v21, %v19 : tensor<65x129xi64>
  func.return
}

// -----

// f64 [63, 257]
func.func @f64_63x257() {
  %v1 = stablehlo.iota dim = 0 : tensor<63x257xi32>
  %v2 = stablehlo.constant dense<257> : tensor<63x257xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<63x257xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<63x257xi32>
  %v5 = stablehlo.add %v3, %v4 : tensor<63x257xi32>
  %v6 = stablehlo.constant dense<40503> : tensor<63x257xi32>
  %v7 = stablehlo.multiply %v5, %v6 : tensor<63x257xi32>
  %v8 = stablehlo.convert %v7 : (tensor<63x257xi32>) -> tensor<63x257xi64>
  %v9 = stablehlo.bitcast_convert %v8 : (tensor<63x257xi64>) -> tensor<63x257xf64>
  %v10 = stablehlo.optimization_barrier %v9 : tensor<63x257xf64>
  %v11 = stablehlo.transpose %v10, dims = [1, 0] : (tensor<63x257xf64>) -> tensor<257x63xf64>
  %v12 = stablehlo.iota dim = 0 : tensor<257x63xi32>
  %v13 = stablehlo.iota dim = 1 : tensor<257x63xi32>
  %v14 = stablehlo.constant dense<257> : tensor<257x63xi32>
  %v15 = stablehlo.multiply %v13, %v14 : tensor<257x63xi32>
  %v16 = stablehlo.add %v12, %v15 : tensor<257x63xi32>
  %v17 = stablehlo.constant dense<40503> : tensor<257x63xi32>
  %v18 = stablehlo.multiply %v16, %v17 : tensor<257x63xi32>
  %v19 = stablehlo.convert %v18 : (tensor<257x63xi32>) -> tensor<257x63xi64>
  %v20 = stablehlo.optimization_barrier %v11 : tensor<257x63xf64>
  %v21 = stablehlo.bitcast_convert %v20 : (tensor<257x63xf64>) -> tensor<257x63xi64>
  check.expect_eq %v21, %v19 : tensor<257x63xi64>
  func.return
}

// -----

// f64 [8, 2053]
func.func @f64_8x2053() {
  %v1 = stablehlo.iota dim = 0 : tensor<8x2053xi32>
  %v2 = stablehlo.constant dense<2053> : tensor<8x2053xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<8x2053xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<8x2053xi32>
  %v5 = stablehlo.add %v3, %v4 : tensor<8x2053xi32>
  %v6 = stablehlo.constant dense<40503> : tensor<8x2053xi32>
  %v7 = stablehlo.multiply %v5, %v6 : tensor<8x2053xi32>
  %v8 = stablehlo.convert %v7 : (tensor<8x2053xi32>) -> tensor<8x2053xi64>
  %v9 = stablehlo.bitcast_convert %v8 : (tensor<8x2053xi64>) -> tensor<8x2053xf64>
  %v10 = stablehlo.optimization_barrier %v9 : tensor<8x2053xf64>
  %v11 = stablehlo.transpose %v10, dims = [1, 0] : (tensor<8x2053xf64>) -> tensor<2053x8xf64>
  %v12 = stablehlo.iota dim = 0 : tensor<2053x8xi32>
  %v13 = stablehlo.iota dim = 1 : tensor<2053x8xi32>
  %v14 = stablehlo.constant dense<2053> : tensor<2053x8xi32>
  %v15 = stablehlo.multiply %v13, %v14 : tensor<2053x8xi32>
  %v16 = stablehlo.add %v12, %v15 : tensor<2053x8xi32>
  %v17 = stablehlo.constant dense<40503> : tensor<2053x8xi32>
  %v18 = stablehlo.multiply %v16, %v17 : tensor<2053x8xi32>
  %v19 = stablehlo.convert %v18 : (tensor<2053x8xi32>) -> tensor<2053x8xi64>
  %v20 = stablehlo.optimization_barrier %v11 : tensor<2053x8xf64>
  %v21 = stablehlo.bitcast_convert %v20 : (tensor<2053x8xf64>) -> tensor<2053x8xi64>
  check.expect_eq %v21, %v19 : tensor<2053x8xi64>
  func.return
}

// -----

// i8 [4099, 17]
func.func @i8_4099x17() {
  %v1 = stablehlo.iota dim = 0 : tensor<4099x17xi32>
  %v2 = stablehlo.constant dense<17> : tensor<4099x17xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<4099x17xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<4099x17xi32>
  %v5 = stablehlo.add %v3, %v4 : tensor<4099x17xi32>
  %v6 = stablehlo.constant dense<40503> : tensor<4099x17xi32>
  %v7 = stablehlo.multiply %v5, %v6 : tensor<4099x17xi32>
  %v8 = stablehlo.convert %v7 : (tensor<4099x17xi32>) -> tensor<4099x17xi8>
  %v9 = stablehlo.optimization_barrier %v8 : tensor<4099x17xi8>
  %v10 = stablehlo.transpose %v9, dims = [1, 0] : (tensor<4099x17xi8>) -> tensor<17x4099xi8>
  %v11 = stablehlo.iota dim = 0 : tensor<17x4099xi32>
  %v12 = stablehlo.iota dim = 1 : tensor<17x4099xi32>
  %v13 = stablehlo.constant dense<17> : tensor<17x4099xi32>
  %v14 = stablehlo.multiply %v12, %v13 : tensor<17x4099xi32>
  %v15 = stablehlo.add %v11, %v14 : tensor<17x4099xi32>
  %v16 = stablehlo.constant dense<40503> : tensor<17x4099xi32>
  %v17 = stablehlo.multiply %v15, %v16 : tensor<17x4099xi32>
  %v18 = stablehlo.convert %v17 : (tensor<17x4099xi32>) -> tensor<17x4099xi8>
  %v19 = stablehlo.optimization_barrier %v10 : tensor<17x4099xi8>
  check.expect_eq %v19, %v18 : tensor<17x4099xi8>
  func.return
}

// -----

// i8 [65, 1021]
func.func @i8_65x1021() {
  %v1 = stablehlo.iota dim = 0 : tensor<65x1021xi32>
  %v2 = stablehlo.constant dense<1021> : tensor<65x1021xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<65x1021xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<65x1021xi32>
  %v5 = stablehlo.add %v3, %v4 : tensor<65x1021xi32>
  %v6 = stablehlo.constant dense<40503> : tensor<65x1021xi32>
  %v7 = stablehlo.multiply %v5, %v6 : tensor<65x1021xi32>
  %v8 = stablehlo.convert %v7 : (tensor<65x1021xi32>) -> tensor<65x1021xi8>
  %v9 = stablehlo.optimization_barrier %v8 : tensor<65x1021xi8>
  %v10 = stablehlo.transpose %v9, dims = [1, 0] : (tensor<65x1021xi8>) -> tensor<1021x65xi8>
  %v11 = stablehlo.iota dim = 0 : tensor<1021x65xi32>
  %v12 = stablehlo.iota dim = 1 : tensor<1021x65xi32>
  %v13 = stablehlo.constant dense<1021> : tensor<1021x65xi32>
  %v14 = stablehlo.multiply %v12, %v13 : tensor<1021x65xi32>
  %v15 = stablehlo.add %v11, %v14 : tensor<1021x65xi32>
  %v16 = stablehlo.constant dense<40503> : tensor<1021x65xi32>
  %v17 = stablehlo.multiply %v15, %v16 : tensor<1021x65xi32>
  %v18 = stablehlo.convert %v17 : (tensor<1021x65xi32>) -> tensor<1021x65xi8>
  %v19 = stablehlo.optimization_barrier %v10 : tensor<1021x65xi8>
  check.expect_eq %v19, %v18 : tensor<1021x65xi8>
  func.return
}

// -----

// i16 [251, 129]
func.func @i16_251x129() {
  %v1 = stablehlo.iota dim = 0 : tensor<251x129xi32>
  %v2 = stablehlo.constant dense<129> : tensor<251x129xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<251x129xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<251x129xi32>
  %v5 = stablehlo.add %v3, %v4 : tensor<251x129xi32>
  %v6 = stablehlo.constant dense<40503> : tensor<251x129xi32>
  %v7 = stablehlo.multiply %v5, %v6 : tensor<251x129xi32>
  %v8 = stablehlo.convert %v7 : (tensor<251x129xi32>) -> tensor<251x129xi16>
  %v9 = stablehlo.optimization_barrier %v8 : tensor<251x129xi16>
  %v10 = stablehlo.transpose %v9, dims = [1, 0] : (tensor<251x129xi16>) -> tensor<129x251xi16>
  %v11 = stablehlo.iota dim = 0 : tensor<129x251xi32>
  %v12 = stablehlo.iota dim = 1 : tensor<129x251xi32>
  %v13 = stablehlo.constant dense<129> : tensor<129x251xi32>
  %v14 = stablehlo.multiply %v12, %v13 : tensor<129x251xi32>
  %v15 = stablehlo.add %v11, %v14 : tensor<129x251xi32>
  %v16 = stablehlo.constant dense<40503> : tensor<129x251xi32>
  %v17 = stablehlo.multiply %v15, %v16 : tensor<129x251xi32>
  %v18 = stablehlo.convert %v17 : (tensor<129x251xi32>) -> tensor<129x251xi16>
  %v19 = stablehlo.optimization_barrier %v10 : tensor<129x251xi16>
  check.expect_eq %v19, %v18 : tensor<129x251xi16>
  func.return
}
