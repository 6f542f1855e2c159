// A chain of 60 values each added to itself after an expensive op: the
// fusion pass's count of the paths from a producer to the group's outputs
// is kept per node, so the chain compiles at once (it took time doubling
// with every level: 40 levels never finished).
// RUN: timeout 60 xlac compare --random-inputs %s | FileCheck %s
// CHECK: max_ulp=0
func.func @main(%a: tensor<16xf32>) -> tensor<16xf32> {
  %v0 = stablehlo.exponential %a : tensor<16xf32>
  %v1 = stablehlo.multiply %v0, %v0 : tensor<16xf32>
  %v2 = stablehlo.add %v1, %v1 : tensor<16xf32>
  %v3 = stablehlo.multiply %v2, %v2 : tensor<16xf32>
  %v4 = stablehlo.add %v3, %v3 : tensor<16xf32>
  %v5 = stablehlo.multiply %v4, %v4 : tensor<16xf32>
  %v6 = stablehlo.add %v5, %v5 : tensor<16xf32>
  %v7 = stablehlo.multiply %v6, %v6 : tensor<16xf32>
  %v8 = stablehlo.add %v7, %v7 : tensor<16xf32>
  %v9 = stablehlo.multiply %v8, %v8 : tensor<16xf32>
  %v10 = stablehlo.add %v9, %v9 : tensor<16xf32>
  %v11 = stablehlo.multiply %v10, %v10 : tensor<16xf32>
  %v12 = stablehlo.add %v11, %v11 : tensor<16xf32>
  %v13 = stablehlo.multiply %v12, %v12 : tensor<16xf32>
  %v14 = stablehlo.add %v13, %v13 : tensor<16xf32>
  %v15 = stablehlo.multiply %v14, %v14 : tensor<16xf32>
  %v16 = stablehlo.add %v15, %v15 : tensor<16xf32>
  %v17 = stablehlo.multiply %v16, %v16 : tensor<16xf32>
  %v18 = stablehlo.add %v17, %v17 : tensor<16xf32>
  %v19 = stablehlo.multiply %v18, %v18 : tensor<16xf32>
  %v20 = stablehlo.add %v19, %v19 : tensor<16xf32>
  %v21 = stablehlo.multiply %v20, %v20 : tensor<16xf32>
  %v22 = stablehlo.add %v21, %v21 : tensor<16xf32>
  %v23 = stablehlo.multiply %v22, %v22 : tensor<16xf32>
  %v24 = stablehlo.add %v23, %v23 : tensor<16xf32>
  %v25 = stablehlo.multiply %v24, %v24 : tensor<16xf32>
  %v26 = stablehlo.add %v25, %v25 : tensor<16xf32>
  %v27 = stablehlo.multiply %v26, %v26 : tensor<16xf32>
  %v28 = stablehlo.add %v27, %v27 : tensor<16xf32>
  %v29 = stablehlo.multiply %v28, %v28 : tensor<16xf32>
  %v30 = stablehlo.add %v29, %v29 : tensor<16xf32>
  %v31 = stablehlo.multiply %v30, %v30 : tensor<16xf32>
  %v32 = stablehlo.add %v31, %v31 : tensor<16xf32>
  %v33 = stablehlo.multiply %v32, %v32 : tensor<16xf32>
  %v34 = stablehlo.add %v33, %v33 : tensor<16xf32>
  %v35 = stablehlo.multiply %v34, %v34 : tensor<16xf32>
  %v36 = stablehlo.add %v35, %v35 : tensor<16xf32>
  %v37 = stablehlo.multiply %v36, %v36 : tensor<16xf32>
  %v38 = stablehlo.add %v37, %v37 : tensor<16xf32>
  %v39 = stablehlo.multiply %v38, %v38 : tensor<16xf32>
  %v40 = stablehlo.add %v39, %v39 : tensor<16xf32>
  %v41 = stablehlo.multiply %v40, %v40 : tensor<16xf32>
  %v42 = stablehlo.add %v41, %v41 : tensor<16xf32>
  %v43 = stablehlo.multiply %v42, %v42 : tensor<16xf32>
  %v44 = stablehlo.add %v43, %v43 : tensor<16xf32>
  %v45 = stablehlo.multiply %v44, %v44 : tensor<16xf32>
  %v46 = stablehlo.add %v45, %v45 : tensor<16xf32>
  %v47 = stablehlo.multiply %v46, %v46 : tensor<16xf32>
  %v48 = stablehlo.add %v47, %v47 : tensor<16xf32>
  %v49 = stablehlo.multiply %v48, %v48 : tensor<16xf32>
  %v50 = stablehlo.add %v49, %v49 : tensor<16xf32>
  %v51 = stablehlo.multiply %v50, %v50 : tensor<16xf32>
  %v52 = stablehlo.add %v51, %v51 : tensor<16xf32>
  %v53 = stablehlo.multiply %v52, %v52 : tensor<16xf32>
  %v54 = stablehlo.add %v53, %v53 : tensor<16xf32>
  %v55 = stablehlo.multiply %v54, %v54 : tensor<16xf32>
  %v56 = stablehlo.add %v55, %v55 : tensor<16xf32>
  %v57 = stablehlo.multiply %v56, %v56 : tensor<16xf32>
  %v58 = stablehlo.add %v57, %v57 : tensor<16xf32>
  %v59 = stablehlo.multiply %v58, %v58 : tensor<16xf32>
  %v60 = stablehlo.add %v59, %v59 : tensor<16xf32>
  %s = stablehlo.tanh %v60 : tensor<16xf32>
  return %s : tensor<16xf32>
}
