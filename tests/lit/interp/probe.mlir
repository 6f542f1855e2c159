// RUN: xlac run --split-input-file %s
// RUN: rm -rf %t && xlac run --split-input-file --probe-dir %t %s && test -f %t/index.csv

// Probes record values (here every loop iteration); serialized_eq compares
// against the recording by probe id and iteration.
func.func @main() {
  %z = stablehlo.constant dense<0> : tensor<i64>
  %one = stablehlo.constant dense<1> : tensor<i64>
  %three = stablehlo.constant dense<3> : tensor<i64>
  %r = stablehlo.while(%a = %z) : tensor<i64>
  cond {
    %c = stablehlo.compare LT, %a, %three : (tensor<i64>, tensor<i64>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %n = stablehlo.add %a, %one : tensor<i64>
    %p = interpreter.probe %n, probe_id = "loop/counter" : tensor<i64>
    stablehlo.return %p : tensor<i64>
  }
  %two = stablehlo.constant dense<2> : tensor<i64>
  check.expect_serialized_eq %one, probe_id = "loop/counter" : tensor<i64>
  check.expect_serialized_eq %two, probe_id = "loop/counter", iter = 1 : tensor<i64>
  check.expect_serialized_eq %three, probe_id = "loop/counter", iter = 2 : tensor<i64>
  func.return
}

// -----

// Element types that need care in .npy: bool, bf16, complex, narrow ints.
func.func @main() {
  %a = stablehlo.constant dense<[[true], [false]]> : tensor<2x1xi1>
  %b = stablehlo.constant dense<[1.5, -0.0, 0x7F80]> : tensor<3xbf16>
  %c = stablehlo.constant dense<[(1.0, -2.0)]> : tensor<1xcomplex<f32>>
  %d = stablehlo.constant dense<[-8, 7]> : tensor<2xi4>
  %e = stablehlo.constant dense<> : tensor<0x2xf16>
  %pa = interpreter.probe %a, probe_id = "a" : tensor<2x1xi1>
  %pb = interpreter.probe %b, probe_id = "b" : tensor<3xbf16>
  %pc = interpreter.probe %c, probe_id = "c" : tensor<1xcomplex<f32>>
  %pd = interpreter.probe %d, probe_id = "d" : tensor<2xi4>
  %pe = interpreter.probe %e, probe_id = "e" : tensor<0x2xf16>
  check.expect_serialized_eq %pa, probe_id = "a" : tensor<2x1xi1>
  check.expect_serialized_eq %pb, probe_id = "b" : tensor<3xbf16>
  check.expect_serialized_eq %pc, probe_id = "c" : tensor<1xcomplex<f32>>
  check.expect_serialized_eq %pd, probe_id = "d" : tensor<2xi4>
  check.expect_serialized_eq %pe, probe_id = "e" : tensor<0x2xf16>
  check.expect_eq_const %pb, dense<[1.5, -0.0, 0x7F80]> : tensor<3xbf16>
  func.return
}
