// A broadcast resharded by its operand (docs/spmd.md, "Resharding"): a
// bias split along the features and broadcast along a batch that is split
// instead is gathered (32 elements) and broadcast on each partition, where
// moving the broadcast (16x32) would take an all-to-all; a broadcast
// returned whole gathers its operand, not itself; a broadcast whose piece
// is no larger than its operand is still moved by an all-to-all.  Every
// entry's results equal the program's on one partition (random inputs).
// RUN: rm -rf %t && mkdir -p %t
// RUN: for e in bias whole wide; do \
// RUN:   xlac run --random-inputs --seed 5 --entry $e %s --output-dir %t/$e >/dev/null || exit 1; \
// RUN:   xlac run --partitions 8 --random-inputs --seed 5 --entry $e %s --expect 0=@%t/$e/result0.npy --atol 0 --rtol 0 || exit 1; \
// RUN: done | FileCheck %s --check-prefix=SAME
// SAME-COUNT-3: expect result[0]: ok
// SAME-NOT: {{error:|FAIL}}
// RUN: for e in bias whole wide; do \
// RUN:   xlac run --verbose --partitions 8 --random-inputs --entry $e %s 2>&1 >/dev/null | grep spmd: || exit 1; \
// RUN: done | FileCheck %s --check-prefix=SUM
// SUM: spmd: 1 all_gather, 0 all_reduce, 0 local cuts
// SUM-NEXT: spmd: 1 all_gather, 0 all_reduce, 0 local cuts
// SUM-NEXT: spmd: 0 all_gather, 0 all_reduce, 0 local cuts, 1 all_to_all
// What moves: the bias (f32[32] gathered from f32[4] pieces), never the
// broadcast.
// RUN: xlac run --backend=cpu --partitions 8 --entry bias --random-inputs %s --xla_dump_to=%t/dump >/dev/null
// RUN: FileCheck %s --check-prefix=HLO < %t/dump/module_0000.bcast.before_optimizations.txt
// HLO: ENTRY %bias ({{.*}}: f32[2,32], {{.*}}: f32[4]) -> f32[2,32] {
// HLO-NOT: all-to-all
// HLO: f32[32]{0} all-gather(
// HLO-NOT: all-to-all
// HLO: f32[2,32]{1,0} broadcast(
// HLO-NOT: all-to-all
// HLO: f32[2,32]{1,0} add(
module @bcast {
  sdy.mesh @mesh = <["x"=8]>
  func.func @bias(%h: tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                  %b: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
      -> (tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
    %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<32xf32>) -> tensor<16x32xf32>
    %y = stablehlo.add %h, %bb : tensor<16x32xf32>
    return %y : tensor<16x32xf32>
  }
  func.func @whole(%b: tensor<32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
      -> (tensor<16x32xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
    %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<32xf32>) -> tensor<16x32xf32>
    %two = stablehlo.constant dense<2.0> : tensor<16x32xf32>
    %y = stablehlo.multiply %bb, %two : tensor<16x32xf32>
    return %y : tensor<16x32xf32>
  }
  func.func @wide(%h: tensor<8x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                  %b: tensor<64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
      -> (tensor<8x64xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
    %bb = stablehlo.broadcast_in_dim %b, dims = [1] : (tensor<64xf32>) -> tensor<8x64xf32>
    %y = stablehlo.add %h, %bb : tensor<8x64xf32>
    return %y : tensor<8x64xf32>
  }
}
