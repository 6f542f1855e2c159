// CUDA graphs for counted loops (src/gpu/gpu.c, run_graph): a counted
// loop whose body is only launches (nested counted loops of launches
// included) from GRAPH_MIN_TRIPS (4) trips on is captured once per run
// into a graph launched once per iteration.  Against the reference
// interpreter, the graph on the SIMT harness (which records a capture and
// replays it, in four orders), plain launches on GPGPU-Sim (no graphs
// there; skipped without it):
//   scan     a scan of 9 steps: a graph (`--verbose`: how many loops have
//            their body a graph, and how many runs used one);
//   nested   an outer loop of 5 over an inner one of 3: the outer body,
//            the inner loop's launches within it, is the graph;
//   short    3 trips: no graph, one with XLAC_GPU_GRAPHS=1;
//   printed  a print on the host in the body: no graph;
// then scan with XLAC_GPU_GRAPHS=0 (none) and, on the SIMT harness with
// deferred streams, the number of graph runs.
// XLAC-BACKENDS: gpu
// XLAC-SIMT: forward reverse random random:deferred
// RUN: %S/Inputs/sim.sh --check
// RUN: rm -rf %t && mkdir -p %t
// RUN: for e in scan nested short printed; do \
// RUN:   xlac run --backend=interp --random-inputs --seed 4 --entry $e --output-dir %t/$e %s > /dev/null && \
// RUN:   %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 4 --entry $e %s --verbose \
// RUN:     --expect 0=@%t/$e/result0.npy --expect 1=@%t/$e/result1.npy 2>&1 || exit 1; \
// RUN:   done | FileCheck %s
// RUN: XLAC_GPU_GRAPHS=1 %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 4 --entry short %s --verbose \
// RUN:   --expect 0=@%t/short/result0.npy --expect 1=@%t/short/result1.npy 2>&1 | FileCheck %s --check-prefix=ALL
// RUN: XLAC_GPU_GRAPHS=0 %S/Inputs/sim.sh xlac run --backend=gpu --random-inputs --seed 4 --entry scan %s --verbose \
// RUN:   --expect 0=@%t/scan/result0.npy --expect 1=@%t/scan/result1.npy 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: XLAC_CUDA_DRIVER=simt:random:deferred xlac run --backend=gpu --random-inputs --seed 4 --entry nested %s \
// RUN:   --verbose --expect 0=@%t/nested/result0.npy --expect 1=@%t/nested/result1.npy 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RAN
// CHECK: gpu: 1 of 1 loops counted {{.*}}, 1 with the body a CUDA graph
// CHECK: gpu: {{[01]}} loop runs launched their body as a CUDA graph
// CHECK: expect result[0]: ok
// CHECK: expect result[1]: ok
// CHECK: gpu: 2 of 2 loops counted {{.*}}, 1 with the body a CUDA graph
// CHECK: gpu: {{[01]}} loop runs launched their body as a CUDA graph
// CHECK: expect result[0]: ok
// CHECK: expect result[1]: ok
// CHECK: gpu: 1 of 1 loops counted (their trip count known: no cond read back){{$}}
// CHECK-NOT: CUDA graph
// CHECK: expect result[0]: ok
// CHECK: expect result[1]: ok
// CHECK: gpu: 1 of 1 loops counted (their trip count known: no cond read back){{$}}
// CHECK-NOT: CUDA graph
// CHECK: expect result[0]: ok
// CHECK: expect result[1]: ok
// ALL: gpu: 1 of 1 loops counted {{.*}}, 1 with the body a CUDA graph
// ALL: expect result[1]: ok
// OFF: gpu: 1 of 1 loops counted (their trip count known: no cond read back){{$}}
// OFF-NOT: CUDA graph
// OFF: expect result[1]: ok
// RAN: gpu: 2 of 2 loops counted {{.*}}, 1 with the body a CUDA graph
// RAN: gpu: 1 loop runs launched their body as a CUDA graph
// RAN: expect result[0]: ok
// RAN: expect result[1]: ok

func.func @scan(%h0: tensor<6x5xf32>, %w: tensor<5x5xf32>) -> (tensor<6x5xf32>, tensor<9x6x5xf32>) {
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %z = stablehlo.constant dense<0.0> : tensor<9x6x5xf32>
  %r:3 = stablehlo.while(%i = %i0, %h = %h0, %o = %z) : tensor<i32>, tensor<6x5xf32>, tensor<9x6x5xf32>
  cond {
    %c = stablehlo.constant dense<9> : tensor<i32>
    %p = stablehlo.compare LT, %i, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %k = stablehlo.constant dense<0> : tensor<i32>
    %n = stablehlo.add %i, %one : tensor<i32>
    %d = stablehlo.dot_general %h, %w, contracting_dims = [1] x [0] : (tensor<6x5xf32>, tensor<5x5xf32>) -> tensor<6x5xf32>
    %h2 = stablehlo.tanh %d : tensor<6x5xf32>
    %row = stablehlo.reshape %h2 : (tensor<6x5xf32>) -> tensor<1x6x5xf32>
    %o2 = stablehlo.dynamic_update_slice %o, %row, %i, %k, %k : (tensor<9x6x5xf32>, tensor<1x6x5xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<9x6x5xf32>
    stablehlo.return %n, %h2, %o2 : tensor<i32>, tensor<6x5xf32>, tensor<9x6x5xf32>
  }
  return %r#1, %r#2 : tensor<6x5xf32>, tensor<9x6x5xf32>
}

func.func @nested(%a0: tensor<16xf32>, %b0: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%i = %i0, %a = %a0, %b = %b0) : tensor<i32>, tensor<16xf32>, tensor<16xf32>
  cond {
    %c = stablehlo.constant dense<5> : tensor<i32>
    %p = stablehlo.compare LT, %i, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %n = stablehlo.add %i, %one : tensor<i32>
    %j0 = stablehlo.constant dense<0> : tensor<i32>
    %q:2 = stablehlo.while(%j = %j0, %x = %a) : tensor<i32>, tensor<16xf32>
    cond {
      %c3 = stablehlo.constant dense<3> : tensor<i32>
      %p3 = stablehlo.compare LT, %j, %c3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %p3 : tensor<i1>
    } do {
      %one3 = stablehlo.constant dense<1> : tensor<i32>
      %m = stablehlo.add %j, %one3 : tensor<i32>
      %t = stablehlo.tanh %x : tensor<16xf32>
      %u = stablehlo.add %t, %b : tensor<16xf32>
      stablehlo.return %m, %u : tensor<i32>, tensor<16xf32>
    }
    %b2 = stablehlo.multiply %q#1, %a : tensor<16xf32>
    stablehlo.return %n, %q#1, %b2 : tensor<i32>, tensor<16xf32>, tensor<16xf32>
  }
  return %r#1, %r#2 : tensor<16xf32>, tensor<16xf32>
}

func.func @short(%a0: tensor<16xf32>, %b0: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%i = %i0, %a = %a0, %b = %b0) : tensor<i32>, tensor<16xf32>, tensor<16xf32>
  cond {
    %c = stablehlo.constant dense<3> : tensor<i32>
    %p = stablehlo.compare LT, %i, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %n = stablehlo.add %i, %one : tensor<i32>
    %t = stablehlo.tanh %b : tensor<16xf32>
    %s = stablehlo.add %t, %a : tensor<16xf32>
    stablehlo.return %n, %s, %t : tensor<i32>, tensor<16xf32>, tensor<16xf32>
  }
  return %r#1, %r#2 : tensor<16xf32>, tensor<16xf32>
}

func.func @printed(%a0: tensor<16xf32>, %b0: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %i0 = stablehlo.constant dense<0> : tensor<i32>
  %r:3 = stablehlo.while(%i = %i0, %a = %a0, %b = %b0) : tensor<i32>, tensor<16xf32>, tensor<16xf32>
  cond {
    %c = stablehlo.constant dense<6> : tensor<i32>
    %p = stablehlo.compare LT, %i, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  } do {
    %one = stablehlo.constant dense<1> : tensor<i32>
    %n = stablehlo.add %i, %one : tensor<i32>
    %t = stablehlo.tanh %b : tensor<16xf32>
    interpreter.print %i : tensor<i32>
    %s = stablehlo.add %t, %a : tensor<16xf32>
    stablehlo.return %n, %s, %t : tensor<i32>, tensor<16xf32>, tensor<16xf32>
  }
  return %r#1, %r#2 : tensor<16xf32>, tensor<16xf32>
}
