// RUN: xlac run --split-input-file %s
// RUN: xlac run --split-input-file --backend=cpu --threads=1 %s
// Transposes of every element width.  Operand element k (row-major) holds
// the bits of k * 40503 (wrapped to the element's width; pred: that value
// mod 3 == 0), built from iotas; the expected result is built the same way
// from iotas over the result's shape, so it never goes through a transpose.
// A transpose only moves bits, so results are compared as integers of the
// element's width, exactly.  The optimization barriers keep each transpose a
// standalone op: on the cpu backend matrices at least a block wide go to the
// blocked transpose kernel (16 x 16 blocks for 1-, 2- and 4-byte elements,
// 8 x 8 for 8-byte ones), narrower ones ([9, 20] f64) to the loop kernel.
// i8 [1100, 1000] (1100000 bytes)
func.func @i8_1100x1000() {
  %v1 = stablehlo.iota dim = 0 : tensor<1100x1000xi32>
  %v2 = stablehlo.constant dense<1000> : tensor<1100x1000xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<1100x1000xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<1100x1000xi32>
  %v5 = stablehlo.add %v3, %v4 : tensor<1100x1000xi32>
  %v6 = stablehlo.constant dense<40503> : tensor<1100x1000xi32>
  %v7 = stablehlo.multiply %v5, %v6 : tensor<1100x1000xi32>
  %v8 = stablehlo.convert %v7 : (tensor<1100x1000xi32>) -> tensor<1100x1000xi8>
  %v9 = stablehlo.optimization_barrier %v8 : tensor<1100x1000xi8>
  %v10 = stablehlo.transpose %v9, dims = [1, 0] : (tensor<1100x1000xi8>) -> tensor<1000x1100xi8>
  %v11 = stablehlo.iota dim = 0 : tensor<1000x1100xi32>
  %v12 = stablehlo.iota dim = 1 : tensor<1000x1100xi32>
  %v13 = stablehlo.constant dense<1000> : tensor<1000x1100xi32>
  %v14 = stablehlo.multiply %v12, %v13 : tensor<1000x1100xi32>
  %v15 = stablehlo.add %v11, %v14 : tensor<1000x1100xi32>
  %v16 = stablehlo.constant dense<40503> : tensor<1000x1100xi32>
  %v17 = stablehlo.multiply %v15, %v16 : tensor<1000x1100xi32>
  %v18 = stablehlo.convert %v17 : (tensor<1000x1100xi32>) -> tensor<1000x1100xi8>
  %v19 = stablehlo.optimization_barrier %v10 : tensor<1000x1100xi8>
  check.expect_eq %v19, %v18 : tensor<1000x1100xi8>
  func.return
}

// -----

// i8 [263, 257] (67591 bytes)
func.func @i8_263x257() {
  %v1 = stablehlo.iota dim = 0 : tensor<263x257xi32>
  %v2 = stablehlo.constant dense<257> : tensor<263x257xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<263x257xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<263x257xi32>
  %v5 = stablehlo.add %v3, %v4 : tensor<263x257xi32>
  %v6 = stablehlo.constant dense<40503> : tensor<263x257xi32>
  %v7 = stablehlo.multiply %v5, %v6 : tensor<263x257xi32>
  %v8 = stablehlo.convert %v7 : (tensor<263x257xi32>) -> tensor<263x257xi8>
  %v9 = stablehlo.optimization_barrier %v8 : tensor<263x257xi8>
  %v10 = stablehlo.transpose %v9, dims = [1, 0] : (tensor<263x257xi8>) -> tensor<257x263xi8>
  %v11 = stablehlo.iota dim = 0 : tensor<257x263xi32>
  %v12 = stablehlo.iota dim = 1 : tensor<257x263xi32>
  %v13 = stablehlo.constant dense<257> : tensor<257x263xi32>
  %v14 = stablehlo.multiply %v12, %v13 : tensor<257x263xi32>
  %v15 = stablehlo.add %v11, %v14 : tensor<257x263xi32>
  %v16 = stablehlo.constant dense<40503> : tensor<257x263xi32>
  %v17 = stablehlo.multiply %v15, %v16 : tensor<257x263xi32>
  %v18 = stablehlo.convert %v17 : (tensor<257x263xi32>) -> tensor<257x263xi8>
  %v19 = stablehlo.optimization_barrier %v10 : tensor<257x263xi8>
  check.expect_eq %v19, %v18 : tensor<257x263xi8>
  func.return
}

// -----

// i1 [263, 257] (67591 bytes)
func.func @i1_263x257() {
  %v1 = stablehlo.iota dim = 0 : tensor<263x257xi32>
  %v2 = stablehlo.constant dense<257> : tensor<263x257xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<263x257xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<263x257xi32>
  %v5 = stablehlo.add %v3, %v4 : tensor<263x257xi32>
  %v6 = stablehlo.constant dense<40503> : tensor<263x257xi32>
  %v7 = stablehlo.multiply %v5, %v6 : tensor<263x257xi32>
  %v8 = stablehlo.constant dense<3> : tensor<263x257xi32>
  %v9 = stablehlo.remainder %v7, %v8 : tensor<263x257xi32>
  %v10 = stablehlo.constant dense<0> : tensor<263x257xi32>
  %v11 = stablehlo.compare EQ, %v9, %v10 : (tensor<263x257xi32>, tensor<263x257xi32>) -> tensor<263x257xi1>
  %v12 = stablehlo.optimization_barrier %v11 : tensor<263x257xi1>
  %v13 = stablehlo.transpose %v12, dims = [1, 0] : (tensor<263x257xi1>) -> tensor<257x263xi1>
  %v14 = stablehlo.iota dim = 0 : tensor<257x263xi32>
  %v15 = stablehlo.iota dim = 1 : tensor<257x263xi32>
  %v16 = stablehlo.constant dense<257> : tensor<257x263xi32>
  %v17 = stablehlo.multiply %v15, %v16 : tensor<257x263xi32>
  %v18 = stablehlo.add %v14, %v17 : tensor<257x263xi32>
  %v19 = stablehlo.constant dense<40503> : tensor<257x263xi32>
  %v20 = stablehlo.multiply %v18, %v19 : tensor<257x263xi32>
  %v21 = stablehlo.constant dense<3> : tensor<257x263xi32>
  %v22 = stablehlo.remainder %v20, %v21 : tensor<257x263xi32>
  %v23 = stablehlo.constant dense<0> : tensor<257x263xi32>
  %v24 = stablehlo.compare EQ, %v22, %v23 : (tensor<257x263xi32>, tensor<257x263xi32>) -> tensor<257x263xi1>
  %v25 = stablehlo.optimization_barrier %v13 : tensor<257x263xi1>
  check.expect_eq %v25, %v24 : tensor<257x263xi1>
  func.return
}

// -----

// i1 [40, 70] (2800 bytes)
func.func @i1_40x70() {
  %v1 = stablehlo.iota dim = 0 : tensor<40x70xi32>
  %v2 = stablehlo.constant dense<70> : tensor<40x70xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<40x70xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<40x70xi32>
  %v5 = stablehlo.add %v3, %v4 : tensor<40x70xi32>
  %v6 = stablehlo.constant dense<40503> : tensor<40x70xi32>
  %v7 = stablehlo.multiply %v5, %v6 : tensor<40x70xi32>
  %v8 = stablehlo.constant dense<3> : tensor<40x70xi32>
  %v9 = stablehlo.remainder %v7, %v8 : tensor<40x70xi32>
  %v10 = stablehlo.constant dense<0> : tensor<40x70xi32>
  %v11 = stablehlo.compare EQ, %v9, %v10 : (tensor<40x70xi32>, tensor<40x70xi32>) -> tensor<40x70xi1>
  %v12 = stablehlo.optimization_barrier %v11 : tensor<40x70xi1>
  %v13 = stablehlo.transpose %v12, dims = [1, 0] : (tensor<40x70xi1>) -> tensor<70x40xi1>
  %v14 = stablehlo.iota dim = 0 : tensor<70x40xi32>
  %v15 = stablehlo.iota dim = 1 : tensor<70x40xi32>
  %v16 = stablehlo.constant dense<70> : tensor<70x40xi32>
  %v17 = stablehlo.multiply %v15, %v16 : tensor<70x40xi32>
  %v18 = stablehlo.add %v14, %v17 : tensor<70x40xi32>
  %v19 = stablehlo.constant dense<40503> : tensor<70x40xi32>
  %v20 = stablehlo.multiply %v18, %v19 : tensor<70x40xi32>
  %v21 = stablehlo.constant dense<3> : tensor<70x40xi32>
  %v22 = stablehlo.remainder %v20, %v21 : tensor<70x40xi32>
  %v23 = stablehlo.constant dense<0> : tensor<70x40xi32>
  %v24 = stablehlo.compare EQ, %v22, %v23 : (tensor<70x40xi32>, tensor<70x40xi32>) -> tensor<70x40xi1>
  %v25 = stablehlo.optimization_barrier %v13 : tensor<70x40xi1>
  check.expect_eq %v25, %v24 : tensor<70x40xi1>
  func.return
}

// -----

// i16 [1030, 600] (1236000 bytes)
func.func @i16_1030x600() {
  %v1 = stablehlo.iota dim = 0 : tensor<1030x600xi32>
  %v2 = stablehlo.constant dense<600> : tensor<1030x600xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<1030x600xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<1030x600xi32>
  %v5 = stablehlo.add %v3, %v4 : tensor<1030x600xi32>
  %v6 = stablehlo.constant dense<40503> : tensor<1030x600xi32>
  %v7 = stablehlo.multiply %v5, %v6 : tensor<1030x600xi32>
  %v8 = stablehlo.convert %v7 : (tensor<1030x600xi32>) -> tensor<1030x600xi16>
  %v9 = stablehlo.optimization_barrier %v8 : tensor<1030x600xi16>
  %v10 = stablehlo.transpose %v9, dims = [1, 0] : (tensor<1030x600xi16>) -> tensor<600x1030xi16>
  %v11 = stablehlo.iota dim = 0 : tensor<600x1030xi32>
  %v12 = stablehlo.iota dim = 1 : tensor<600x1030xi32>
  %v13 = stablehlo.constant dense<600> : tensor<600x1030xi32>
  %v14 = stablehlo.multiply %v12, %v13 : tensor<600x1030xi32>
  %v15 = stablehlo.add %v11, %v14 : tensor<600x1030xi32>
  %v16 = stablehlo.constant dense<40503> : tensor<600x1030xi32>
  %v17 = stablehlo.multiply %v15, %v16 : tensor<600x1030xi32>
  %v18 = stablehlo.convert %v17 : (tensor<600x1030xi32>) -> tensor<600x1030xi16>
  %v19 = stablehlo.optimization_barrier %v10 : tensor<600x1030xi16>
  check.expect_eq %v19, %v18 : tensor<600x1030xi16>
  func.return
}

// -----

// ui16 [300, 131] (78600 bytes)
func.func @ui16_300x131() {
  %v1 = stablehlo.iota dim = 0 : tensor<300x131xi32>
  %v2 = stablehlo.constant dense<131> : tensor<300x131xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<300x131xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<300x131xi32>
  %v5 = stablehlo.add %v3, %v4 : tensor<300x131xi32>
  %v6 = stablehlo.constant dense<40503> : tensor<300x131xi32>
  %v7 = stablehlo.multiply %v5, %v6 : tensor<300x131xi32>
  %v8 = stablehlo.convert %v7 : (tensor<300x131xi32>) -> tensor<300x131xui16>
  %v9 = stablehlo.optimization_barrier %v8 : tensor<300x131xui16>
  %v10 = stablehlo.transpose %v9, dims = [1, 0] : (tensor<300x131xui16>) -> tensor<131x300xui16>
  %v11 = stablehlo.iota dim = 0 : tensor<131x300xi32>
  %v12 = stablehlo.iota dim = 1 : tensor<131x300xi32>
  %v13 = stablehlo.constant dense<131> : tensor<131x300xi32>
  %v14 = stablehlo.multiply %v12, %v13 : tensor<131x300xi32>
  %v15 = stablehlo.add %v11, %v14 : tensor<131x300xi32>
  %v16 = stablehlo.constant dense<40503> : tensor<131x300xi32>
  %v17 = stablehlo.multiply %v15, %v16 : tensor<131x300xi32>
  %v18 = stablehlo.convert %v17 : (tensor<131x300xi32>) -> tensor<131x300xui16>
  %v19 = stablehlo.optimization_barrier %v10 : tensor<131x300xui16>
  check.expect_eq %v19, %v18 : tensor<131x300xui16>
  func.return
}

// -----

// bf16 [257, 263] (135182 bytes)
func.func @bf16_257x263() {
  %v1 = stablehlo.iota dim = 0 : tensor<257x263xi32>
  %v2 = stablehlo.constant dense<263> : tensor<257x263xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<257x263xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<257x263xi32>
  %v5 = stablehlo.add %v3, %v4 : tensor<257x263xi32>
  %v6 = stablehlo.constant dense<40503> : tensor<257x263xi32>
  %v7 = stablehlo.multiply %v5, %v6 : tensor<257x263xi32>
  %v8 = stablehlo.convert %v7 : (tensor<257x263xi32>) -> tensor<257x263xi16>
  %v9 = stablehlo.bitcast_convert %v8 : (tensor<257x263xi16>) -> tensor<257x263xbf16>
  %v10 = stablehlo.optimization_barrier %v9 : tensor<257x263xbf16>
  %v11 = stablehlo.transpose %v10, dims = [1, 0] : (tensor<257x263xbf16>) -> tensor<263x257xbf16>
  %v12 = stablehlo.iota dim = 0 : tensor<263x257xi32>
  %v13 = stablehlo.iota dim = 1 : tensor<263x257xi32>
  %v14 = stablehlo.constant dense<263> : tensor<263x257xi32>
  %v15 = stablehlo.multiply %v13, %v14 : tensor<263x257xi32>
  %v16 = stablehlo.add %v12, %v15 : tensor<263x257xi32>
  %v17 = stablehlo.constant dense<40503> : tensor<263x257xi32>
  %v18 = stablehlo.multiply %v16, %v17 : tensor<263x257xi32>
  %v19 = stablehlo.convert %v18 : (tensor<263x257xi32>) -> tensor<263x257xi16>
  %v20 = stablehlo.optimization_barrier %v11 : tensor<263x257xbf16>
  %v21 = stablehlo.bitcast_convert %v20 : (tensor<263x257xbf16>) -> tensor<263x257xi16>
  check.expect_eq %v21, %v19 : tensor<263x257xi16>
  func.return
}

// -----

// f16 [600, 129] (154800 bytes)
func.func @f16_600x129() {
  %v1 = stablehlo.iota dim = 0 : tensor<600x129xi32>
  %v2 = stablehlo.constant dense<129> : tensor<600x129xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<600x129xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<600x129xi32>
  %v5 = stablehlo.add %v3, %v4 : tensor<600x129xi32>
  %v6 = stablehlo.constant dense<40503> : tensor<600x129xi32>
  %v7 = stablehlo.multiply %v5, %v6 : tensor<600x129xi32>
  %v8 = stablehlo.convert %v7 : (tensor<600x129xi32>) -> tensor<600x129xi16>
  %v9 = stablehlo.bitcast_convert %v8 : (tensor<600x129xi16>) -> tensor<600x129xf16>
  %v10 = stablehlo.optimization_barrier %v9 : tensor<600x129xf16>
  %v11 = stablehlo.transpose %v10, dims = [1, 0] : (tensor<600x129xf16>) -> tensor<129x600xf16>
  %v12 = stablehlo.iota dim = 0 : tensor<129x600xi32>
  %v13 = stablehlo.iota dim = 1 : tensor<129x600xi32>
  %v14 = stablehlo.constant dense<129> : tensor<129x600xi32>
  %v15 = stablehlo.multiply %v13, %v14 : tensor<129x600xi32>
  %v16 = stablehlo.add %v12, %v15 : tensor<129x600xi32>
  %v17 = stablehlo.constant dense<40503> : tensor<129x600xi32>
  %v18 = stablehlo.multiply %v16, %v17 : tensor<129x600xi32>
  %v19 = stablehlo.convert %v18 : (tensor<129x600xi32>) -> tensor<129x600xi16>
  %v20 = stablehlo.optimization_barrier %v11 : tensor<129x600xf16>
  %v21 = stablehlo.bitcast_convert %v20 : (tensor<129x600xf16>) -> tensor<129x600xi16>
  check.expect_eq %v21, %v19 : tensor<129x600xi16>
  func.return
}

// -----

// f32 [700, 450] (1260000 bytes)
func.func @f32_700x450() {
  %v1 = stablehlo.iota dim = 0 : tensor<700x450xi32>
  %v2 = stablehlo.constant dense<450> : tensor<700x450xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<700x450xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<700x450xi32>
  %v5 = stablehlo.add %v3, %v4 : tensor<700x450xi32>
  %v6 = stablehlo.constant dense<40503> : tensor<700x450xi32>
  %v7 = stablehlo.multiply %v5, %v6 : tensor<700x450xi32>
  %v8 = stablehlo.bitcast_convert %v7 : (tensor<700x450xi32>) -> tensor<700x450xf32>
  %v9 = stablehlo.optimization_barrier %v8 : tensor<700x450xf32>
  %v10 = stablehlo.transpose %v9, dims = [1, 0] : (tensor<700x450xf32>) -> tensor<450x700xf32>
  %v11 = stablehlo.iota dim = 0 : tensor<450x700xi32>
  %v12 = stablehlo.iota dim = 1 : tensor<450x700xi32>
  %v13 = stablehlo.constant dense<450> : tensor<450x700xi32>
  %v14 = stablehlo.multiply %v12, %v13 : tensor<450x700xi32>
  %v15 = stablehlo.add %v11, %v14 : tensor<450x700xi32>
  %v16 = stablehlo.constant dense<40503> : tensor<450x700xi32>
  %v17 = stablehlo.multiply %v15, %v16 : tensor<450x700xi32>
  %v18 = stablehlo.optimization_barrier %v10 : tensor<450x700xf32>
  %v19 = stablehlo.bitcast_convert %v18 : (tensor<450x700xf32>) -> tensor<450x700xi32>
  check.expect_eq %v19, %v17 : tensor<450x700xi32>
  func.return
}

// -----

// f32 [30, 50] (6000 bytes)
func.func @f32_30x50() {
  %v1 = stablehlo.iota dim = 0 : tensor<30x50xi32>
  %v2 = stablehlo.constant dense<50> : tensor<30x50xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<30x50xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<30x50xi32>
  %v5 = stablehlo.add %v3, %v4 : tensor<30x50xi32>
  %v6 = stablehlo.constant dense<40503> : tensor<30x50xi32>
  %v7 = stablehlo.multiply %v5, %v6 : tensor<30x50xi32>
  %v8 = stablehlo.bitcast_convert %v7 : (tensor<30x50xi32>) -> tensor<30x50xf32>
  %v9 = stablehlo.optimization_barrier %v8 : tensor<30x50xf32>
  %v10 = stablehlo.transpose %v9, dims = [1, 0] : (tensor<30x50xf32>) -> tensor<50x30xf32>
  %v11 = stablehlo.iota dim = 0 : tensor<50x30xi32>
  %v12 = stablehlo.iota dim = 1 : tensor<50x30xi32>
  %v13 = stablehlo.constant dense<50> : tensor<50x30xi32>
  %v14 = stablehlo.multiply %v12, %v13 : tensor<50x30xi32>
  %v15 = stablehlo.add %v11, %v14 : tensor<50x30xi32>
  %v16 = stablehlo.constant dense<40503> : tensor<50x30xi32>
  %v17 = stablehlo.multiply %v15, %v16 : tensor<50x30xi32>
  %v18 = stablehlo.optimization_barrier %v10 : tensor<50x30xf32>
  %v19 = stablehlo.bitcast_convert %v18 : (tensor<50x30xf32>) -> tensor<50x30xi32>
  check.expect_eq %v19, %v17 : tensor<50x30xi32>
  func.return
}

// -----

// i32 [256, 512] (524288 bytes)
func.func @i32_256x512() {
  %v1 = stablehlo.iota dim = 0 : tensor<256x512xi32>
  %v2 = stablehlo.constant dense<512> : tensor<256x512xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<256x512xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<256x512xi32>
  %v5 = stablehlo.add %v3, %v4 : tensor<256x512xi32>
  %v6 = stablehlo.constant dense<40503> : tensor<256x512xi32>
  %v7 = stablehlo.multiply %v5, %v6 : tensor<256x512xi32>
  %v8 = stablehlo.optimization_barrier %v7 : tensor<256x512xi32>
  %v9 = stablehlo.transpose %v8, dims = [1, 0] : (tensor<256x512xi32>) -> tensor<512x256xi32>
  %v10 = stablehlo.iota dim = 0 : tensor<512x256xi32>
  %v11 = stablehlo.iota dim = 1 : tensor<512x256xi32>
  %v12 = stablehlo.constant dense<512> : tensor<512x256xi32>
  %v13 = stablehlo.multiply %v11, %v12 : tensor<512x256xi32>
  %v14 = stablehlo.add %v10, %v13 : tensor<512x256xi32>
  %v15 = stablehlo.constant dense<40503> : tensor<512x256xi32>
  %v16 = stablehlo.multiply %v14, %v15 : tensor<512x256xi32>
  %v17 = stablehlo.optimization_barrier %v9 : tensor<512x256xi32>
  check.expect_eq %v17, %v16 : tensor<512x256xi32>
  func.return
}

// -----

// f64 [300, 200] (480000 bytes)
func.func @f64_300x200() {
  %v1 = stablehlo.iota dim = 0 : tensor<300x200xi32>
  %v2 = stablehlo.constant dense<200> : tensor<300x200xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<300x200xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<300x200xi32>
  %v5 = stablehlo.add %v3, %v4 : tensor<300x200xi32>
  %v6 = stablehlo.constant dense<40503> : tensor<300x200xi32>
  %v7 = stablehlo.multiply %v5, %v6 : tensor<300x200xi32>
  %v8 = stablehlo.convert %v7 : (tensor<300x200xi32>) -> tensor<300x200xi64>
  %v9 = stablehlo.bitcast_convert %v8 : (tensor<300x200xi64>) -> tensor<300x200xf64>
  %v10 = stablehlo.optimization_barrier %v9 : tensor<300x200xf64>
  %v11 = stablehlo.transpose %v10, dims = [1, 0] : (tensor<300x200xf64>) -> tensor<200x300xf64>
  %v12 = stablehlo.iota dim = 0 : tensor<200x300xi32>
  %v13 = stablehlo.iota dim = 1 : tensor<200x300xi32>
  %v14 = stablehlo.constant dense<200> : tensor<200x300xi32>
  %v15 = stablehlo.multiply %v13, %v14 : tensor<200x300xi32>
  %v16 = stablehlo.add %v12, %v15 : tensor<200x300xi32>
  %v17 = stablehlo.constant dense<40503> : tensor<200x300xi32>
  %v18 = stablehlo.multiply %v16, %v17 : tensor<200x300xi32>
  %v19 = stablehlo.convert %v18 : (tensor<200x300xi32>) -> tensor<200x300xi64>
  %v20 = stablehlo.optimization_barrier %v11 : tensor<200x300xf64>
  %v21 = stablehlo.bitcast_convert %v20 : (tensor<200x300xf64>) -> tensor<200x300xi64>
  check.expect_eq %v21, %v19 : tensor<200x300xi64>
  func.return
}

// -----

// i64 [67, 129] (69144 bytes)
func.func @i64_67x129() {
  %v1 = stablehlo.iota dim = 0 : tensor<67x129xi32>
  %v2 = stablehlo.constant dense<129> : tensor<67x129xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<67x129xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<67x129xi32>
  %v5 = stablehlo.add %v3, %v4 : tensor<67x129xi32>
  %v6 = stablehlo.constant dense<40503> : tensor<67x129xi32>
  %v7 = stablehlo.multiply %v5, %v6 : tensor<67x129xi32>
  %v8 = stablehlo.convert %v7 : (tensor<67x129xi32>) -> tensor<67x129xi64>
  %v9 = stablehlo.optimization_barrier %v8 : tensor<67x129xi64>
  %v10 = stablehlo.transpose %v9, dims = [1, 0] : (tensor<67x129xi64>) -> tensor<129x67xi64>
  %v11 = stablehlo.iota dim = 0 : tensor<129x67xi32>
  %v12 = stablehlo.iota dim = 1 : tensor<129x67xi32>
  %v13 = stablehlo.constant dense<129> : tensor<129x67xi32>
  %v14 = stablehlo.multiply %v12, %v13 : tensor<129x67xi32>
  %v15 = stablehlo.add %v11, %v14 : tensor<129x67xi32>
  %v16 = stablehlo.constant dense<40503> : tensor<129x67xi32>
  %v17 = stablehlo.multiply %v15, %v16 : tensor<129x67xi32>
  %v18 = stablehlo.convert %v17 : (tensor<129x67xi32>) -> tensor<129x67xi64>
  %v19 = stablehlo.optimization_barrier %v10 : tensor<129x67xi64>
  check.expect_eq %v19, %v18 : tensor<129x67xi64>
  func.return
}

// -----

// f64 [9, 20] (1440 bytes)
func.func @f64_9x20() {
  %v1 = stablehlo.iota dim = 0 : tensor<9x20xi32>
  %v2 = stablehlo.constant dense<20> : tensor<9x20xi32>
  %v3 = stablehlo.multiply %v1, %v2 : tensor<9x20xi32>
  %v4 = stablehlo.iota dim = 1 : tensor<9x20xi32>
  %v5 = stablehlo.add %v3, %v4 : tensor<9x20xi32>
  %v6 = stablehlo.constant dense<40503> : tensor<9x20xi32>
  %v7 = stablehlo.multiply %v5, %v6 : tensor<9x20xi32>
  %v8 = stablehlo.convert %v7 : (tensor<9x20xi32>) -> tensor<9x20xi64>
  %v9 = stablehlo.bitcast_convert %v8 : (tensor<9x20xi64>) -> tensor<9x20xf64>
  %v10 = stablehlo.optimization_barrier %v9 : tensor<9x20xf64>
  %v11 = stablehlo.transpose %v10, dims = [1, 0] : (tensor<9x20xf64>) -> tensor<20x9xf64>
  %v12 = stablehlo.iota dim = 0 : tensor<20x9xi32>
  %v13 = stablehlo.iota dim = 1 : tensor<20x9xi32>
  %v14 = stablehlo.constant dense<20> : tensor<20x9xi32>
  %v15 = stablehlo.multiply %v13, %v14 : tensor<20x9xi32>
  %v16 = stablehlo.add %v12, %v15 : tensor<20x9xi32>
  %v17 = stablehlo.constant dense<40503> : tensor<20x9xi32>
  %v18 = stablehlo.multiply %v16, %v17 : tensor<20x9xi32>
  %v19 = stablehlo.convert %v18 : (tensor<20x9xi32>) -> tensor<20x9xi64>
  %v20 = stablehlo.optimization_barrier %v11 : tensor<20x9xf64>
  %v21 = stablehlo.bitcast_convert %v20 : (tensor<20x9xf64>) -> tensor<20x9xi64>
  check.expect_eq %v21, %v19 : tensor<20x9xi64>
  func.return
}
