// --xla_dump_hlo_as_dot draws the module as Graphviz dot: a node per op with
// its shape, each fusion a cluster holding its fused ops.
// --xla_dump_hlo_as_html writes a page that needs nothing but a browser: an
// inline SVG (fusions as boxes listing their fused ops) and the dot source.
// RUN: rm -rf %t && xlac run --backend=cpu --random-inputs --xla_dump_to=%t --xla_dump_hlo_as_dot --xla_dump_hlo_as_html %s > /dev/null
// RUN: FileCheck %s --check-prefix=DOT < %t/module_0000.main.after_optimizations.dot
// RUN: FileCheck %s --check-prefix=DOT-BEFORE < %t/module_0000.main.before_optimizations.dot
// RUN: test "$(grep -c 'subgraph cluster_n' %t/module_0000.main.after_optimizations.dot)" = 2
// Every edge joins two declared nodes.
// RUN: grep -o 'n[0-9]* -> n[0-9]*' %t/module_0000.main.after_optimizations.dot | tr ' ' '\n' | grep '^n' | sort -u > %t/used
// RUN: grep -o '^ *n[0-9]* \[' %t/module_0000.main.after_optimizations.dot | tr -d ' [' | sort -u > %t/declared
// RUN: test -s %t/used && test -z "$(comm -23 %t/used %t/declared)"
// RUN: FileCheck %s --check-prefix=HTML < %t/module_0000.main.after_optimizations.html
// Self-contained: nothing is loaded from elsewhere.
// RUN: not grep -E '<script|<link|<img|src=|@import' %t/module_0000.main.after_optimizations.html
// RUN: test "$(grep -c '<svg' %t/module_0000.main.after_optimizations.html)" = 1

// DOT: digraph "module_0000.main.after_optimizations" {
// DOT: subgraph cluster_computation_0 {
// DOT: label="computation ENTRY main";
// DOT: n0 [label="parameter 0 %a\nf32[16,8]", shape=ellipse
// DOT: subgraph cluster_n{{[0-9]+}} {
// DOT-NEXT: label="fusion kLoop\n%fused_computation{{.*}}\nf32[16,8]";
// DOT: [label="tanh\nf32[16,8]", shape=box
// DOT: }
// DOT: subgraph cluster_n{{[0-9]+}} {
// DOT-NEXT: label="fusion kInput\n%fused_computation{{.*}}\nf32[16]";
// DOT: [label="reduce dims={1}\nf32[16]", shape=box
// DOT: }
// DOT: [label="ROOT\n(f32[16,8], f32[16])", shape=house
// DOT: n0 -> n
// DOT: }

// DOT-BEFORE-NOT: cluster_n
// DOT-BEFORE: [label="tanh\nf32[16,8]", shape=box

// HTML: <!DOCTYPE html>
// HTML: <title>module_0000.main.after_optimizations</title>
// HTML: <svg xmlns="http://www.w3.org/2000/svg"
// HTML: <text class="h" {{.*}}>computation ENTRY main</text>
// HTML: <path class="e" d="M
// HTML: <text {{.*}}>fusion kLoop %fused_computation
// HTML: <text {{.*}}>tanh f32[16,8]</text>
// HTML: </svg>
// HTML: <pre>digraph &quot;module_0000.main.after_optimizations&quot; {
// HTML: </html>

func.func @main(%a: tensor<16x8xf32>, %b: tensor<16x8xf32>) -> (tensor<16x8xf32>, tensor<16xf32>) {
  %0 = stablehlo.add %a, %b : tensor<16x8xf32>
  %1 = stablehlo.tanh %0 : tensor<16x8xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %2 = stablehlo.reduce(%1 init: %z) applies stablehlo.add across dimensions = [1] : (tensor<16x8xf32>, tensor<f32>) -> tensor<16xf32>
  return %1, %2 : tensor<16x8xf32>, tensor<16xf32>
}
