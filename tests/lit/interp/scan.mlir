// RUN: xlac run --split-input-file %s

// Running product along dimension 1 with the carry as the second result.
func.func @scan_cumprod() {
  %x = stablehlo.constant dense<[[1.0, 2.0, 3.0], [2.0, 2.0, 2.0]]> : tensor<2x3xf32>
  %one = stablehlo.constant dense<1.0> : tensor<2xf32>
  %r:2 = chlo.scan(%x) inits(%one) dimension=1 {
  ^bb0(%in: tensor<2xf32>, %acc: tensor<2xf32>):
    %p = stablehlo.multiply %in, %acc : tensor<2xf32>
    stablehlo.return %p, %p : tensor<2xf32>, tensor<2xf32>
  } : (tensor<2x3xf32>, tensor<2xf32>) -> (tensor<2x3xf32>, tensor<2xf32>)
  check.expect_eq_const %r#0, dense<[[1.0, 2.0, 6.0], [2.0, 4.0, 8.0]]> : tensor<2x3xf32>
  check.expect_eq_const %r#1, dense<[6.0, 8.0]> : tensor<2xf32>
  func.return
}

// -----

// Reverse scan whose output differs from the carry: output[i] is the sum of
// the elements after i (exclusive suffix sum).
func.func @scan_reverse_exclusive() {
  %x = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xi64>
  %z = stablehlo.constant dense<0> : tensor<i64>
  %r:2 = chlo.scan(%x) inits(%z) dimension=0 attributes {is_reverse = true} {
  ^bb0(%in: tensor<i64>, %acc: tensor<i64>):
    %s = stablehlo.add %in, %acc : tensor<i64>
    stablehlo.return %acc, %s : tensor<i64>, tensor<i64>
  } : (tensor<4xi64>, tensor<i64>) -> (tensor<4xi64>, tensor<i64>)
  check.expect_eq_const %r#0, dense<[9, 7, 4, 0]> : tensor<4xi64>
  check.expect_eq_const %r#1, dense<10> : tensor<i64>
  func.return
}
