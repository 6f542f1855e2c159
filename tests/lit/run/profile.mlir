// RUN: xlac bench --backend=cpu --threads 1 --random-inputs --iters 3 --warmup 2 --profile=0 %s | FileCheck %s
// RUN: xlac run --backend=cpu --random-inputs --profile=2 %s 2>&1 >/dev/null | FileCheck %s --check-prefix=ONE
// RUN: xlac run --backend=interp --random-inputs --profile %s 2>&1 >/dev/null | FileCheck %s --check-prefix=INTERP
// --profile: every op and fusion of the compiled program timed, most
// expensive first; ops inside the loop run 5 times per execution (the
// loop's compare 6), the loop and the multiply once; only the timed runs
// count (not the warm-ups).
// CHECK: profile: 3 executions, {{.*}} in 5 timed ops
// CHECK-NEXT: ms/exec share calls us/call min us op
// CHECK-DAG: {{[0-9.]+ +[0-9.]+% +1 +[0-9.]+ +[0-9.]+ +while -> tensor<i32>, ... \(line 25:10\)}}
// CHECK-DAG: {{[0-9.]+ +[0-9.]+% +5 +[0-9.]+ +[0-9.]+ +> kLoop fused_computation \(3 ops\) -> tensor<64xf32> \(line 32:12\)}}
// CHECK-DAG: {{[0-9.]+ +[0-9.]+% +6 +[0-9.]+ +[0-9.]+ +> compare -> tensor<i1> \(line 27:12\)}}
// CHECK-DAG: {{[0-9.]+ +[0-9.]+% +5 +[0-9.]+ +[0-9.]+ +> add -> tensor<i32> \(line 30:12\)}}
// CHECK-DAG: {{[0-9.]+ +[0-9.]+% +1 +[0-9.]+ +[0-9.]+ +multiply -> tensor<64xf32> \(line 35:8\)}}
// ONE: profile: 1 execution,
// ONE-NEXT: ms/exec
// ONE-NEXT: while
// ONE-NEXT: {{fused_computation|compare|add|multiply}}
// ONE-NOT: {{fused_computation|compare|add|multiply}}
// INTERP: warning: --profile times the cpu and gpu backends' code only
func.func @main(%x: tensor<64xf32>) -> tensor<64xf32> {
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %c1 = stablehlo.constant dense<1> : tensor<i32>
  %c5 = stablehlo.constant dense<5> : tensor<i32>
  %r:2 = stablehlo.while(%i = %c0, %v = %x) : tensor<i32>, tensor<64xf32>
    cond {
      %p = stablehlo.compare LT, %i, %c5 : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p : tensor<i1>
    } do {
      %n = stablehlo.add %i, %c1 : tensor<i32>
      %e = stablehlo.exponential %v : tensor<64xf32>
      %w = stablehlo.sine %e : tensor<64xf32>
      stablehlo.return %n, %w : tensor<i32>, tensor<64xf32>
    }
  %s = stablehlo.multiply %r#1, %r#1 : tensor<64xf32>
  return %s : tensor<64xf32>
}
