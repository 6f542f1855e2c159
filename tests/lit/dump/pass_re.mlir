// --xla_dump_hlo_pass_re=RE dumps the module between passes when RE matches
// the name of the pass before or after, with XLA's file names:
// module_NNNN.<name>.<step>.<pipeline>.after_<pass>.before_<next pass>.txt;
// the ends of the pipeline are "pipeline-start" and "pipeline-end".
// RUN: rm -rf %t && xlac run --backend=cpu --xla_dump_to=%t/fusion --xla_dump_hlo_pass_re=fusion %s
// RUN: ls %t/fusion | FileCheck %s --check-prefix=FUSION
// RUN: FileCheck %s --check-prefix=BEFORE-FUSION < %t/fusion/module_0000.main.0000.cpu.after_dce.before_fusion.txt
// RUN: FileCheck %s --check-prefix=AFTER-FUSION < %t/fusion/module_0000.main.0001.cpu.after_fusion.before_drop-barriers.txt
// The match is unanchored and POSIX extended.
// RUN: xlac run --backend=cpu --xla_dump_to=%t/ends --xla_dump_hlo_pass_re='^pipeline-(start|end)$' %s
// RUN: ls %t/ends | FileCheck %s --check-prefix=ENDS
// With ".*" (as in XLA) only passes that changed the module are dumped,
// numbered in order; the counter counts dumps.
// RUN: xlac run --backend=cpu --xla_dump_to=%t/all --xla_dump_hlo_pass_re='.*' --xla_dump_hlo_as_dot %s
// RUN: ls %t/all | FileCheck %s --check-prefix=ALL
// RUN: ls %t/all | grep -c '\.cpu\.after_.*\.txt$' | FileCheck %s --check-prefix=COUNT
// A bad expression warns once; the program still runs and passes.
// RUN: xlac run --backend=cpu --xla_dump_to=%t/bad --xla_dump_hlo_pass_re='(' %s 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: ls %t/bad | FileCheck %s --check-prefix=BAD-LS

// FUSION: module_0000.main.0000.cpu.after_dce.before_fusion.txt
// FUSION-NEXT: module_0000.main.0001.cpu.after_fusion.before_drop-barriers.txt
// FUSION-NEXT: module_0000.main.after_optimizations-buffer-assignment.txt

// BEFORE-FUSION-NOT: fusion(
// BEFORE-FUSION: ENTRY %main
// AFTER-FUSION: ENTRY %main
// AFTER-FUSION: fusion(%c), kind=kLoop, calls=%fused_computation

// ENDS: module_0000.main.0000.cpu.after_pipeline-start.before_legalize.txt
// ENDS-NEXT: module_0000.main.0001.cpu.after_dce.before_pipeline-end.txt
// ENDS-NEXT: module_0000.main.after_optimizations-buffer-assignment.txt

// ALL: module_0000.main.0000.cpu.after_pipeline-start.before_legalize.dot
// ALL-NEXT: module_0000.main.0000.cpu.after_pipeline-start.before_legalize.txt
// ALL: module_0000.main.{{000[1-9]}}.cpu.after_fusion.before_drop-barriers.txt
// COUNT: {{^[2-9]$}}

// BAD: warning: --xla_dump_hlo_pass_re: bad regular expression '('
// BAD-NOT: warning
// BAD-LS-NOT: .cpu.after_
// BAD-LS: module_0000.main.after_optimizations.txt

func.func @main() {
  %a = stablehlo.iota dim = 0 : tensor<8xf32>
  %b = stablehlo.constant dense<2.0> : tensor<8xf32>
  %c = stablehlo.optimization_barrier %a : tensor<8xf32>
  %0 = stablehlo.multiply %c, %b : tensor<8xf32>
  %1 = stablehlo.add %0, %c : tensor<8xf32>
  check.expect_almost_eq_const %1, dense<[0.0, 3.0, 6.0, 9.0, 12.0, 15.0, 18.0, 21.0]> : tensor<8xf32>
  return
}
