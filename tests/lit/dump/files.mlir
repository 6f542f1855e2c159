// --xla_dump_to writes XLA's files: the module before and after the
// optimizations (HLO text with the fusions and their fused computations),
// the buffer assignment, LLVM IR before and after LLVM's optimizations and
// the object code; dumping does not change the results.
// RUN: rm -rf %t && xlac run --backend=cpu --input x=[1,2,3,4] --input y=[0.5,1,1.5,2] %s > %t.plain
// RUN: xlac run --backend=cpu --xla_dump_to=%t --input x=[1,2,3,4] --input y=[0.5,1,1.5,2] %s > %t.dumped
// RUN: cmp %t.plain %t.dumped
// RUN: ls %t | FileCheck %s --check-prefix=LS
// RUN: FileCheck %s --check-prefix=BEFORE < %t/module_0000.main.before_optimizations.txt
// RUN: FileCheck %s --check-prefix=AFTER < %t/module_0000.main.after_optimizations.txt
// RUN: test "$(grep -c ' fusion(' %t/module_0000.main.after_optimizations.txt)" -ge 1
// RUN: FileCheck %s --check-prefix=BUF < %t/module_0000.main.after_optimizations-buffer-assignment.txt
// RUN: FileCheck %s --check-prefix=LL < %t/module_0000.main.ir-no-opt.ll
// RUN: FileCheck %s --check-prefix=LL < %t/module_0000.main.ir-with-opt.ll
// RUN: head -c 4 %t/module_0000.main.o | od -c | FileCheck %s --check-prefix=ELF
// No dot or html unless asked for, and no between-pass dumps.
// RUN: ls %t | FileCheck %s --check-prefix=NOGRAPH

// LS: module_0000.main.after_optimizations-buffer-assignment.txt
// LS-NEXT: module_0000.main.after_optimizations.txt
// LS-NEXT: module_0000.main.before_optimizations.txt
// LS-NEXT: module_0000.main.ir-no-opt.ll
// LS-NEXT: module_0000.main.ir-with-opt.ll
// LS-NEXT: module_0000.main.o
// LS-NOT: module_

// BEFORE: ENTRY %main
// BEFORE-NOT: fusion
// BEFORE: multiply(
// BEFORE: add(
// BEFORE: reduce(

// AFTER: %fused_computation{{.*}} {
// AFTER-DAG: multiply(
// AFTER-DAG: reduce(
// AFTER: ENTRY %main
// AFTER-NOT: multiply(
// AFTER: fusion({{.*}}), kind=k{{Loop|Input}}, calls=%fused_computation

// BUF: buffer assignment for @main
// BUF: peak temp bytes:

// LL: define {{.*}}@xlac_entry(

// ELF: 177   E   L   F

// NOGRAPH-NOT: .dot
// NOGRAPH-NOT: .html
// NOGRAPH-NOT: .cpu.after_

func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<f32>) {
  %0 = stablehlo.multiply %x, %y : tensor<4xf32>
  %1 = stablehlo.add %0, %x : tensor<4xf32>
  %2 = stablehlo.exponential %1 : tensor<4xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %3 = stablehlo.reduce(%1 init: %z) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  return %2, %3 : tensor<4xf32>, tensor<f32>
}
