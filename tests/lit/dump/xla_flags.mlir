// XLA_FLAGS carries the same flags as the command line, as in XLA; the
// command line wins; values may be quoted; flags xlac does not know are
// ignored with a warning.
// RUN: rm -rf %t && XLA_FLAGS="--xla_dump_to=%t/env --xla_dump_hlo_as_dot" xlac run --backend=cpu %s
// RUN: ls %t/env | FileCheck %s
// RUN: grep -q '^digraph' %t/env/module_0000.main.after_optimizations.dot
// RUN: XLA_FLAGS="--xla_dump_to=%t/env2" xlac run --backend=cpu --xla_dump_to=%t/cli %s
// RUN: test -f %t/cli/module_0000.main.after_optimizations.txt && test ! -e %t/env2
// RUN: XLA_FLAGS="--xla_dump_to='%t/quoted dir' --xla_dump_hlo_as_html=true --xla_dump_hlo_as_dot=false" xlac run --backend=cpu %s
// RUN: ls "%t/quoted dir" | FileCheck %s --check-prefix=QUOTED
// RUN: XLA_FLAGS="--xla_cpu_use_thunk_runtime=false --xla_dump_to=%t/unknown" xlac run --backend=cpu %s 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: test -f %t/unknown/module_0000.main.before_optimizations.txt
// Malformed values are usage errors.
// RUN: not env XLA_FLAGS="--xla_dump_hlo_as_dot=maybe" xlac run --backend=cpu %s 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not xlac run --backend=cpu --xla_dump_hlo_as_html=2 %s 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not xlac run --backend=cpu --xla_dump_to= %s 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not xlac run --backend=cpu --xla_dump_something %s 2>&1 | FileCheck %s --check-prefix=UNKNOWN-CLI
// Graph flags without a directory, and dumps with the interpreter, say so.
// RUN: xlac run --backend=cpu --xla_dump_hlo_as_dot %s 2>&1 | FileCheck %s --check-prefix=NODIR
// RUN: xlac run --backend=interp --xla_dump_to=%t/interp %s 2>&1 | FileCheck %s --check-prefix=INTERP

// CHECK: module_0000.main.after_optimizations.dot
// CHECK: module_0000.main.after_optimizations.txt
// CHECK: module_0000.main.before_optimizations.dot
// CHECK: module_0000.main.before_optimizations.txt

// QUOTED-NOT: .dot
// QUOTED: module_0000.main.after_optimizations.html
// QUOTED: module_0000.main.before_optimizations.html
// QUOTED-NOT: .dot

// UNKNOWN: warning: ignoring '--xla_cpu_use_thunk_runtime=false' in XLA_FLAGS
// BAD: error: --xla_dump_hlo_as_{{dot|html}} takes no value or =true / =false
// EMPTY: error: --xla_dump_to needs a directory
// UNKNOWN-CLI: error: unknown option '--xla_dump_something'
// NODIR: warning: the --xla_dump_hlo_* flags need --xla_dump_to=DIR
// INTERP: warning: --xla_dump_to: only the cpu and gpu backends write dumps

func.func @main() {
  %x = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %y = stablehlo.add %x, %x : tensor<3xf32>
  %z = stablehlo.multiply %y, %x : tensor<3xf32>
  check.expect_almost_eq_const %z, dense<[2.0, 8.0, 18.0]> : tensor<3xf32>
  return
}
