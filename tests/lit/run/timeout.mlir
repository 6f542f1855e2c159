// --timeout SECONDS stops a while loop that never ends: one error at the
// loop, exit status 1, on either backend (the suite runs this file with
// each as the default), in every process of a grid, and under bench and
// compare.  A run that ends in time is not held up by the timer.
// RUN: not xlac run --entry forever --timeout 1 %s 2>&1 | FileCheck %s --check-prefix=STOP
// STOP: timeout.mlir:[[# @LINE + 29]]:8: error: runtime error: stablehlo.while stopped: --timeout of 1 s expired
// STOP-NOT: error:
// RUN: not xlac run --entry nested --timeout=0.2 %s 2>&1 | FileCheck %s --check-prefix=NESTED
// NESTED: timeout.mlir:[[# @LINE + 48]]:{{[0-9]+}}: error: runtime error: stablehlo.while stopped: --timeout of 0.2 s expired
// NESTED-NOT: error:
// RUN: not xlac run --entry forever --replicas 2 --partitions 2 --timeout 0.2 %s 2>&1 | FileCheck %s --check-prefix=GRID
// GRID: error: runtime error: stablehlo.while stopped: --timeout of 0.2 s expired
// GRID-NOT: error:
// RUN: not xlac run --entry one_loops --replicas 2 --timeout 0.2 %s 2>&1 | FileCheck %s --check-prefix=WAIT
// WAIT: error: runtime error: stablehlo.while stopped: --timeout of 0.2 s expired
// WAIT-NOT: error:
// RUN: not xlac compare --entry forever --timeout 0.2 %s 2>&1 | FileCheck %s --check-prefix=GRID
// RUN: not xlac bench --entry forever --timeout 0.2 %s 2>&1 | FileCheck %s --check-prefix=GRID
// RUN: SECONDS=0; xlac run --entry finite --timeout 100 %s | FileCheck %s --check-prefix=FINITE; \
// RUN:   [ $SECONDS -lt 50 ]
// FINITE: result[0]: tensor<i32> = 10
// Usage errors, like those of the other numeric options.
// RUN: not xlac run --timeout 0 %s 2>&1 | FileCheck %s --check-prefix=BAD -DV=0
// RUN: not xlac run --timeout=-1 %s 2>&1 | FileCheck %s --check-prefix=BAD -DV=-1
// RUN: not xlac run --timeout 2x %s 2>&1 | FileCheck %s --check-prefix=BAD -DV=2x
// RUN: not xlac run --timeout nan %s 2>&1 | FileCheck %s --check-prefix=BAD -DV=nan
// RUN: not xlac run --timeout= %s 2>&1 | FileCheck %s --check-prefix=BAD -DV=
// BAD: xlac run: error: --timeout needs a number of seconds greater than 0 (at most 31536000), got '[[V]]'
// RUN: not xlac run %s --timeout 2>&1 | FileCheck %s --check-prefix=NOVAL
// NOVAL: xlac run: error: option --timeout needs a value

func.func @forever() -> tensor<i32> {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %r = stablehlo.while(%i = %zero) : tensor<i32>
    cond {
      %c = stablehlo.compare GE, %i, %zero : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %n = stablehlo.add %i, %one : tensor<i32>
      %m = stablehlo.and %n, %one : tensor<i32>
      stablehlo.return %m : tensor<i32>
    }
  func.return %r : tensor<i32>
}

// The outer loop ends; the inner one does not.
func.func @nested() -> tensor<i32> {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %three = stablehlo.constant dense<3> : tensor<i32>
  %r = stablehlo.while(%i = %zero) : tensor<i32>
    cond {
      %c = stablehlo.compare LT, %i, %three : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %j = stablehlo.while(%k = %i) : tensor<i32>
        cond {
          %c = stablehlo.compare GE, %k, %zero : (tensor<i32>, tensor<i32>) -> tensor<i1>
          stablehlo.return %c : tensor<i1>
        } do {
          %n = stablehlo.add %k, %one : tensor<i32>
          %m = stablehlo.and %n, %one : tensor<i32>
          stablehlo.return %m : tensor<i32>
        }
      %n = stablehlo.add %i, %j : tensor<i32>
      %n1 = stablehlo.add %n, %one : tensor<i32>
      stablehlo.return %n1 : tensor<i32>
    }
  func.return %r : tensor<i32>
}

// Replica 0 loops forever; replica 1 waits for it at an all_reduce.
func.func @one_loops() -> tensor<i32> {
  %id = stablehlo.replica_id : tensor<ui32>
  %idi = stablehlo.convert %id : (tensor<ui32>) -> tensor<i32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %r = stablehlo.while(%i = %idi) : tensor<i32>
    cond {
      %c = stablehlo.compare EQ, %i, %zero : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %n = stablehlo.multiply %i, %one : tensor<i32>
      stablehlo.return %n : tensor<i32>
    }
  %s = "stablehlo.all_reduce"(%r) ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %t = stablehlo.add %a, %b : tensor<i32>
      stablehlo.return %t : tensor<i32>
  }) {
    replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>
  } : (tensor<i32>) -> tensor<i32>
  func.return %s : tensor<i32>
}

func.func @finite() -> tensor<i32> {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %ten = stablehlo.constant dense<10> : tensor<i32>
  %r = stablehlo.while(%i = %zero) : tensor<i32>
    cond {
      %c = stablehlo.compare LT, %i, %ten : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %c : tensor<i1>
    } do {
      %n = stablehlo.add %i, %one : tensor<i32>
      stablehlo.return %n : tensor<i32>
    }
  func.return %r : tensor<i32>
}

