#!/usr/bin/env python3
"""Writes the suite's models (models.py) as StableHLO and as XLA's optimized HLO.

For each model NAME it writes, next to this script:
  NAME.mlir      jax.jit(fn).lower(*args).as_text(): the module xlac compiles;
  NAME.xla.hlo   .compile().as_text(): the HLO XLA:CPU runs after its passes.
Parameters are arguments, not constants, so the text stays small; inputs are
rebuilt from seeds at run time (models.py).  The text depends on the jax
version (run it with the one bench/run.sh pins, JAX_VERSION), and XLA's
optimized HLO also on the host CPU.

usage: export.py [NAME ...]
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

import jax  # noqa: E402

import models  # noqa: E402


def export(name):
    fn, args = models.build(name)
    lowered = jax.jit(fn).lower(*args)
    mlir = lowered.as_text()
    # jit drops unused arguments; the suite feeds every leaf by position.
    main = re.search(r"func\.func public @main\((.*?)\) ->", mlir, re.S).group(1)
    nparams = len(re.findall(r"%arg\d+:", main))
    nleaves = len(models.leaves(args))
    if nparams != nleaves:
        sys.exit("export.py: %s: @main has %d parameters for %d argument leaves" % (name, nparams, nleaves))
    with open(os.path.join(HERE, name + ".mlir"), "w") as f:
        f.write(mlir)
    # XLA's text names the source files of its stack frames: relative to
    # the repository, so the file does not depend on the checkout.
    hlo = lowered.compile().as_text().replace('"%s%s' % (ROOT, os.sep), '"')
    with open(os.path.join(HERE, name + ".xla.hlo"), "w") as f:
        f.write(hlo)
    print("%-20s %3d parameters, %7d bytes of StableHLO" % (name, nparams, len(mlir)))


def main():
    names = sys.argv[1:] or list(models.MODELS)
    for name in names:
        if name not in models.MODELS:
            sys.exit("export.py: unknown model '%s' (have: %s)" % (name, " ".join(models.MODELS)))
        export(name)


if __name__ == "__main__":
    main()
