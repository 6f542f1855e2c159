// RUN: xlac run %s --input x=[2,1,0.5,4,0.25,8,nan] --input y=[1,2,0.5,8,0.5,0.25,16]
// f8E8M0FNU has no sign bit (an exponent alone; 0xFF is NaN): TOTALORDER
// orders it by its bits, so 2.0 (0x80) is not below 1.0 (0x7F) and NaN is
// above everything.  Compare, and a sort with that comparator (jnp.sort).
func.func @main(%x: tensor<7xf8E8M0FNU>, %y: tensor<7xf8E8M0FNU>) {
  %lt = stablehlo.compare LT, %x, %y, TOTALORDER : (tensor<7xf8E8M0FNU>, tensor<7xf8E8M0FNU>) -> tensor<7xi1>
  check.expect_eq_const %lt, dense<[false, true, false, true, true, false, false]> : tensor<7xi1>
  %ge = stablehlo.compare GE, %x, %y, TOTALORDER : (tensor<7xf8E8M0FNU>, tensor<7xf8E8M0FNU>) -> tensor<7xi1>
  check.expect_eq_const %ge, dense<[true, false, true, false, false, true, true]> : tensor<7xi1>
  %s = "stablehlo.sort"(%x) ({
  ^bb0(%a: tensor<f8E8M0FNU>, %b: tensor<f8E8M0FNU>):
    %c = stablehlo.compare LT, %a, %b, TOTALORDER : (tensor<f8E8M0FNU>, tensor<f8E8M0FNU>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<7xf8E8M0FNU>) -> tensor<7xf8E8M0FNU>
  %bits = stablehlo.bitcast_convert %s : (tensor<7xf8E8M0FNU>) -> tensor<7xui8>
  check.expect_eq_const %bits, dense<[125, 126, 127, 128, 129, 130, 255]> : tensor<7xui8>
  return
}
