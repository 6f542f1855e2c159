// A dump directory that cannot be created or written gives one warning;
// the program still compiles, runs and passes, with the same output.
// RUN: rm -rf %t && mkdir -p %t && touch %t/file
// RUN: xlac run --backend=cpu --xla_dump_to=%t/file/sub --xla_dump_hlo_as_html --xla_dump_hlo_pass_re='.*' %s 2>%t/err | FileCheck %s
// RUN: FileCheck %s --check-prefix=WARN < %t/err
// RUN: test "$(grep -c warning %t/err)" = 1
// RUN: XLA_FLAGS=--xla_dump_to=%t/file xlac run --backend=cpu %s 2>&1 | FileCheck %s --check-prefix=WARN-FILE

// CHECK: result[0]: tensor<3xi32> = [3, 5, 7]
// WARN: xlac: warning: cannot create dump directory '{{.*}}/file/sub': Not a directory (further dump problems are not reported)
// WARN-FILE: warning: cannot create dump directory '{{.*}}/file': File exists
// WARN-FILE: result[0]: tensor<3xi32> = [3, 5, 7]

func.func @main() -> tensor<3xi32> {
  %a = stablehlo.iota dim = 0 : tensor<3xi32>
  %b = stablehlo.optimization_barrier %a : tensor<3xi32>
  %c = stablehlo.add %b, %b : tensor<3xi32>
  %one = stablehlo.constant dense<3> : tensor<3xi32>
  %d = stablehlo.add %c, %one : tensor<3xi32>
  return %d : tensor<3xi32>
}
