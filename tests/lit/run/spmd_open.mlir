// Sharding constraints that leave dimensions open (Shardy's `?`, what JAX
// writes for the dimensions a sharding leaves to the compiler: a
// constraint under `vmap`, `auto_axes`/`explicit_axes`, an `out_sharding`
// over a mesh with Auto axes): the value takes the axes the constraint
// names, and along its open dimensions the splits its operand has there
// when they fit with them (docs/spmd.md, "Propagation").  Each entry on 4
// or 8 partitions against the program on one partition, on random inputs,
// on both backends.
// RUN: rm -rf %t && mkdir -p %t
// RUN: for e in "4 vmapwsc" "4 autodot" "8 iota" "8 keep" "8 inloop" "4 uneven"; do set -- $e; \
// RUN:   xlac run --random-inputs --seed 5 --entry $2 %s --output-dir %t/$2 >/dev/null || exit 1; \
// RUN:   ex=""; for k in 0 1 2; do [ -f %t/$2/result$k.npy ] && ex="$ex --expect $k=@%t/$2/result$k.npy"; done; \
// RUN:   xlac run --partitions $1 --random-inputs --seed 5 --entry $2 %s $ex --atol 1e-5 --rtol 1e-5 || exit 1; \
// RUN:   xlac run --backend=cpu --partitions $1 --random-inputs --seed 5 --entry $2 %s $ex --atol 1e-5 --rtol 1e-5 || exit 1; \
// RUN: done | FileCheck %s --check-prefix=SAME
// SAME-COUNT-12: expect result[{{[0-9]}}]: ok
// SAME-NOT: {{error:|FAIL}}
//
// The layouts each partition holds (the signature of the partitioned
// program):
// - vmapwsc: `[{?}, {"x"}]` on a value split ("x", "y"): the first
//   dimension cannot take "x" again and stays whole, the second is split
//   by "x" (8x1 pieces of the 8x2 result; JAX's CPU backend reports
//   P(None, 'x'));
// - autodot: `explicit_axes` over "y" of a value split ("x", "y"): the
//   constraints `[{?}, {"y", ?}]` keep "x" on the rows, and the 8x8
//   product leaves split ("x", "y"): 4x4 pieces;
// - iota: `[{"y", "z", ?}, {?}]` on an iota made in place: split four ways
//   by rows, copies along "x";
// - keep: `[{"x", ?}, {?}]` on a value split four ways by columns: they keep
//   their split, the rows take "x";
// - inloop: the same in a loop's body, whose carry keeps the layout of
//   the value it starts from (the body's result moved back to it);
// - uneven (not below): constraints whose splits would not divide their
//   dimensions: an open one fixes nothing, a closed one holds the value in
//   padded pieces (spmd_uneven.mlir): the values come out right.
// RUN: for e in "4 vmapwsc" "4 autodot" "8 iota" "8 keep" "8 inloop"; do set -- $e; \
// RUN:   xlac run --backend=cpu --partitions $1 --entry $2 --random-inputs %s --xla_dump_to=%t/d$2 >/dev/null || exit 1; \
// RUN:   grep -h "%$2 (" %t/d$2/module_0000.spmd_open.before_optimizations.txt; \
// RUN: done | FileCheck %s --check-prefix=SIG
// SIG: %vmapwsc ({{.*}}: s32[4,1]) -> s32[8,1] {
// SIG-NEXT: %autodot ({{.*}}: f32[4,1]) -> f32[4,4] {
// SIG-NEXT: %iota () -> s32[4,24] {
// SIG-NEXT: %keep ({{.*}}: f32[16,2]) -> f32[8,2] {
// SIG-NEXT: %inloop ({{.*}}: f32[16,2]) -> f32[16,2] {
// RUN: xlac run --backend=cpu --partitions 8 --entry iota --random-inputs %s --xla_dump_to=%t/di >/dev/null
// RUN: FileCheck %s --check-prefix=IOTA < %t/di/module_0000.spmd_open.before_optimizations.txt
// IOTA-NOT: all-
// IOTA: s32[4,24]{1,0} iota(), iota_dimension=1
// IOTA-NOT: all-

module @spmd_open attributes {mhlo.num_partitions = 4 : i32} {
  sdy.mesh @m = <["x"=2, "y"=2]>
  sdy.mesh @m3 = <["x"=2, "y"=2, "z"=2]>

  func.func @vmapwsc(%a: tensor<8x2xi32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {"y"}]>}) -> tensor<8x2xi32> {
    %0 = sdy.sharding_constraint %a <@m, [{?}, {"x"}]> : tensor<8x2xi32>
    %c = stablehlo.constant dense<2> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<8x2xi32>
    %2 = stablehlo.multiply %0, %1 : tensor<8x2xi32>
    return %2 : tensor<8x2xi32>
  }

  func.func @autodot(%a: tensor<8x2xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {"y"}]>}) -> tensor<8x8xf32> {
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x2xf32>
    %1 = stablehlo.multiply %a, %0 : tensor<8x2xf32>
    %2 = sdy.sharding_constraint %1 <@m, [{?}, {"y", ?}]> : tensor<8x2xf32>
    %3 = stablehlo.sine %2 : tensor<8x2xf32>
    %4 = sdy.sharding_constraint %3 <@m, [{?}, {"y", ?}]> : tensor<8x2xf32>
    %5 = stablehlo.transpose %4, dims = [1, 0] : (tensor<8x2xf32>) -> tensor<2x8xf32>
    %6 = sdy.sharding_constraint %5 <@m, [{"y", ?}, {?}]> : tensor<2x8xf32>
    %7 = stablehlo.dot_general %4, %6, contracting_dims = [1] x [0] : (tensor<8x2xf32>, tensor<2x8xf32>) -> tensor<8x8xf32>
    %8 = sdy.sharding_constraint %7 <@m, [{?}, {"y", ?}]> : tensor<8x8xf32>
    return %8 : tensor<8x8xf32>
  }

  func.func @iota() -> tensor<16x24xi32> {
    %0 = stablehlo.iota dim = 1 : tensor<16x24xi32>
    %1 = sdy.sharding_constraint %0 <@m3, [{"y", "z", ?}, {?}]> : tensor<16x24xi32>
    return %1 : tensor<16x24xi32>
  }

  func.func @keep(%a: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@m3, [{}, {"y", "z"}]>}) -> tensor<16x8xf32> {
    %0 = stablehlo.exponential %a : tensor<16x8xf32>
    %1 = sdy.sharding_constraint %0 <@m3, [{"x", ?}, {?}]> : tensor<16x8xf32>
    %2 = stablehlo.negate %1 : tensor<16x8xf32>
    return %2 : tensor<16x8xf32>
  }

  func.func @uneven(%a: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@m, [{"x"}, {}]>}) -> tensor<6x8xf32> {
    %0 = stablehlo.transpose %a, dims = [1, 0] : (tensor<8x6xf32>) -> tensor<6x8xf32>
    %1 = sdy.sharding_constraint %0 <@m, [{"x", "y", ?}, {?}]> : tensor<6x8xf32>
    %2 = stablehlo.cosine %1 : tensor<6x8xf32>
    %3 = sdy.sharding_constraint %2 <@m, [{"y", "x"}, {}]> : tensor<6x8xf32>
    %4 = stablehlo.multiply %3, %0 : tensor<6x8xf32>
    return %4 : tensor<6x8xf32>
  }

  func.func @inloop(%a: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@m3, [{}, {"y", "z"}]>}) -> tensor<16x8xf32> {
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    %c1 = stablehlo.constant dense<1> : tensor<i32>
    %c3 = stablehlo.constant dense<3> : tensor<i32>
    %r:2 = stablehlo.while(%i = %c0, %v = %a) : tensor<i32>, tensor<16x8xf32>
      cond {
        %p = stablehlo.compare LT, %i, %c3 : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %p : tensor<i1>
      } do {
        %0 = stablehlo.sine %v : tensor<16x8xf32>
        %1 = sdy.sharding_constraint %0 <@m3, [{"x", ?}, {?}]> : tensor<16x8xf32>
        %n = stablehlo.add %i, %c1 : tensor<i32>
        stablehlo.return %n, %1 : tensor<i32>, tensor<16x8xf32>
      }
    return %r#1 : tensor<16x8xf32>
  }
}
