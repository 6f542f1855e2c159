// The persistent compile cache: the first process compiles and stores the
// object, a second one loads it and computes the same results; a truncated
// or corrupted entry is detected, compiled again and replaced, never run.
// The program has a dot, fusions, a while loop (its cancel poll and stop
// report) and an op that runs through the interpreter thunk (all_reduce),
// so a cached object links all of them by name.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: xlac run --backend=cpu --random-inputs %s > %t/plain.txt
// RUN: xlac run --backend=cpu --random-inputs --verbose --compile-cache %t/cache/sub %s > %t/first.txt 2> %t/first.err
// RUN: FileCheck %s --check-prefix=MISS < %t/first.err
// RUN: diff %t/plain.txt %t/first.txt
// RUN: test $(ls %t/cache/sub | wc -l) -eq 1
// RUN: xlac run --backend=cpu --random-inputs --verbose --compile-cache %t/cache/sub %s > %t/second.txt 2> %t/second.err
// RUN: FileCheck %s --check-prefix=HIT < %t/second.err
// RUN: diff %t/plain.txt %t/second.txt
// A directory the cache makes is this user's alone (0700), whether the
// library's client or the cache itself makes it: its entries hold the
// programs' constants.
// RUN: rm -rf %t/own && xlac run --backend=cpu --random-inputs --compile-cache %t/own %s > /dev/null
// RUN: test "$(stat -c %a %t/own)" = 700
// The environment variable names the same cache.
// RUN: XLAC_COMPILE_CACHE=%t/cache/sub xlac run --backend=cpu --random-inputs --verbose %s 2>&1 > %t/env.txt | FileCheck %s --check-prefix=HIT
// RUN: diff %t/plain.txt %t/env.txt
// bench and compare use it too.
// RUN: xlac bench --random-inputs --verbose --iters 1 --compile-cache %t/cache/sub %s 2>&1 | FileCheck %s --check-prefix=HIT
// RUN: xlac compare --random-inputs --verbose --compile-cache %t/cache/sub %s 2>&1 | FileCheck %s --check-prefix=HIT
//
// Truncated: cut the entry short.
// RUN: f=$(ls %t/cache/sub/*.xo) && head -c 100 "$f" > %t/cut && cp %t/cut "$f"
// RUN: xlac run --backend=cpu --random-inputs --verbose --compile-cache %t/cache/sub %s 2>&1 > %t/t.txt | FileCheck %s --check-prefix=TRUNC
// RUN: diff %t/plain.txt %t/t.txt
// RUN: xlac run --backend=cpu --random-inputs --verbose --compile-cache %t/cache/sub %s 2>&1 > %t/t2.txt | FileCheck %s --check-prefix=HIT
// Shorter than the header.
// RUN: f=$(ls %t/cache/sub/*.xo) && : > "$f"
// RUN: xlac run --backend=cpu --random-inputs --verbose --compile-cache %t/cache/sub %s 2>&1 > %t/e.txt | FileCheck %s --check-prefix=SHORT
// RUN: diff %t/plain.txt %t/e.txt
// Corrupted: flip bytes in the object, then in the header.
// RUN: f=$(ls %t/cache/sub/*.xo) && printf '\377\377\377\377' | dd of="$f" bs=1 seek=200 conv=notrunc 2>/dev/null
// RUN: xlac run --backend=cpu --random-inputs --verbose --compile-cache %t/cache/sub %s 2>&1 > %t/c.txt | FileCheck %s --check-prefix=CORRUPT
// RUN: diff %t/plain.txt %t/c.txt
// RUN: f=$(ls %t/cache/sub/*.xo) && printf '\001' | dd of="$f" bs=1 seek=33 conv=notrunc 2>/dev/null
// RUN: xlac run --backend=cpu --random-inputs --verbose --compile-cache %t/cache/sub %s 2>&1 > %t/h.txt | FileCheck %s --check-prefix=HEADER
// RUN: diff %t/plain.txt %t/h.txt
// RUN: xlac run --backend=cpu --random-inputs --verbose --compile-cache %t/cache/sub %s 2>&1 > %t/c2.txt | FileCheck %s --check-prefix=HIT
// RUN: diff %t/plain.txt %t/c2.txt
// Garbage under an entry's name.
// RUN: f=$(ls %t/cache/sub/*.xo) && head -c 5000 /dev/zero > "$f"
// RUN: xlac run --backend=cpu --random-inputs --verbose --compile-cache %t/cache/sub %s 2>&1 > %t/g.txt | FileCheck %s --check-prefix=GARBAGE
// RUN: diff %t/plain.txt %t/g.txt
// No temporary files are left behind.
// RUN: test $(ls -A %t/cache/sub | wc -l) -eq 1
//
// The thread count does not change the code: the same entry.  Another
// function is another entry.
// RUN: xlac run --backend=cpu --random-inputs --verbose --compile-cache %t/cache/sub --threads 1 %s 2>&1 > %t/t1.txt | FileCheck %s --check-prefix=HIT
// RUN: diff %t/plain.txt %t/t1.txt
// RUN: xlac run --backend=cpu --verbose --compile-cache %t/cache/sub --entry other %s 2>&1 | FileCheck %s --check-prefix=MISS
// RUN: test $(ls %t/cache/sub | wc -l) -eq 2
//
// An unusable directory: a warning, and the program still runs.
// RUN: touch %t/file
// RUN: xlac run --backend=cpu --random-inputs --verbose --compile-cache %t/file/cache %s 2> %t/u.err > %t/u.txt
// RUN: FileCheck %s --check-prefix=UNUSABLE < %t/u.err
// RUN: diff %t/plain.txt %t/u.txt
// RUN: not xlac run --compile-cache= %s 2>&1 | FileCheck %s --check-prefix=EMPTY

// MISS: cpu: compile cache miss: compiled and stored
// HIT: cpu: compile cache hit
// TRUNC: cpu: compile cache miss: the compile cache entry '{{.*}}.xo' is truncated (shorter than its header says); compiled again and stored
// SHORT: cpu: compile cache miss: the compile cache entry '{{.*}}.xo' is truncated (shorter than its header); compiled again and stored
// CORRUPT: cpu: compile cache miss: the compile cache entry '{{.*}}.xo' is corrupted (its checksum does not match); compiled again and stored
// HEADER: cpu: compile cache miss: the compile cache entry '{{.*}}.xo' is corrupted (its header's checksum does not match); compiled again and stored
// GARBAGE: is not a compile cache entry; compiled again and stored
// UNUSABLE: xlac: warning: cannot use '{{.*}}file/cache' as the compile cache directory: Not a directory; compiling without it
// UNUSABLE: cpu: compile cache unusable: compiled without it
// EMPTY: xlac run: error: --compile-cache needs a directory

func.func @main(%x: tensor<2x4xf32> {jax.arg_info = "x"}) -> (tensor<2x3xf32>, tensor<4xf32>) {
  %w = stablehlo.constant dense<[[0.5, -1.0, 2.0], [1.5, 0.25, -0.5], [2.0, 1.0, 0.0], [-1.0, 0.5, 1.0]]> : tensor<4x3xf32>
  %d = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %z = stablehlo.constant dense<0.0> : tensor<2x3xf32>
  %relu = stablehlo.maximum %d, %z : tensor<2x3xf32>
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.while(%i = %i0, %acc = %relu) : tensor<i32>, tensor<2x3xf32>
  cond {
    %n = stablehlo.constant dense<3> : tensor<i32>
    %c = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %h = stablehlo.constant dense<0.5> : tensor<2x3xf32>
    %e = stablehlo.exponential %acc : tensor<2x3xf32>
    %m = stablehlo.multiply %e, %h : tensor<2x3xf32>
    %s = stablehlo.tanh %m : tensor<2x3xf32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %i1, %s : tensor<i32>, tensor<2x3xf32>
  }
  %init = stablehlo.constant dense<0.0> : tensor<f32>
  %sum = stablehlo.reduce(%x init: %init) applies stablehlo.add across dimensions = [0] : (tensor<2x4xf32>, tensor<f32>) -> tensor<4xf32>
  %ar = "stablehlo.all_reduce"(%sum) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %t = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %t : tensor<f32>
  }) {replica_groups = dense<[[0]]> : tensor<1x1xi64>} : (tensor<4xf32>) -> tensor<4xf32>
  func.return %r#1, %ar : tensor<2x3xf32>, tensor<4xf32>
}

func.func @other() -> tensor<3xi32> {
  %a = stablehlo.iota dim = 0 : tensor<3xi32>
  %b = stablehlo.multiply %a, %a : tensor<3xi32>
  func.return %b : tensor<3xi32>
}
