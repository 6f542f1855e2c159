#!/usr/bin/env python3
"""Jitted training steps on xlac (through the PJRT plugin) and on JAX's CPU
backend, in one process.

    JAX_PLATFORMS=xlac,cpu python plugins/jax/bench.py [--threads N] [--rounds R] [models]

Needs the jax_plugins.xlac package importable (plugins/jax on PYTHONPATH, or
installed) and the library (XLAC_PJRT_LIBRARY); the script sets
JAX_PLATFORMS=xlac,cpu itself when it is unset.  The models are those of
bench/models/models.py (default: mlp_train cnn_train transformer_train, SGD
steps of an MLP, a small CNN and a two-layer transformer encoder); each is
jitted once per backend, its arguments put on that backend's first device
with jax.device_put.

Both backends get the same number of threads: the process is pinned to N
cores of those it may use (sched_setaffinity, before jax starts, so every
thread of either runtime inherits it; XLA sizes its pools from the cores it
may run on) and XLAC_NUM_THREADS=N.  Default N=1.

The timing: after a warm-up (compilation, then a few steps, and a check that
the two backends' results agree), R rounds (default 7); each round times a
batch of steps on each backend, the order alternating between rounds, with
the batch size chosen so a batch takes about --batch-seconds.  Printed per
model: the median time of a step on each backend, the ratio cpu/xlac (above 1:
xlac is faster), the compile times of the first call; and the geometric mean
of the ratios.
"""
import argparse
import math
import os
import pathlib
import statistics
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
DEFAULT_MODELS = ["mlp_train", "cnn_train", "transformer_train"]


def parse_args():
  ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                               formatter_class=argparse.RawDescriptionHelpFormatter,
                               epilog="\n\n".join(__doc__.split("\n\n")[1:]))
  ap.add_argument("models", nargs="*", default=DEFAULT_MODELS)
  ap.add_argument("--threads", type=int, default=1)
  ap.add_argument("--rounds", type=int, default=7)
  ap.add_argument("--batch-seconds", type=float, default=0.3)
  ap.add_argument("--models-dir", default=str(HERE.parent.parent / "bench" / "models"),
                  help="the directory of models.py")
  return ap.parse_args()


def pin(threads):
  cpus = sorted(os.sched_getaffinity(0))
  if threads > len(cpus):
    sys.exit(f"error: {threads} threads but only {len(cpus)} cores available")
  os.sched_setaffinity(0, cpus[:threads])
  os.environ["XLAC_NUM_THREADS"] = str(threads)
  return cpus[:threads]


def main():
  args = parse_args()
  cores = pin(args.threads)
  os.environ.setdefault("JAX_PLATFORMS", "xlac,cpu")
  sys.path.insert(0, str(HERE))
  sys.path.insert(0, args.models_dir)

  import jax
  import numpy as np
  import models as M

  backends = ["cpu", "xlac"]
  devices = {b: jax.devices(b)[0] for b in backends}
  print(f"jax {jax.__version__}; {args.threads} thread(s) on core(s) {cores}; "
        f"{args.rounds} rounds; devices {devices}", flush=True)

  def run(f, a):
    return jax.block_until_ready(f(*a))

  rows = []
  for name in args.models:
    if name not in M.MODELS:
      sys.exit(f"error: no model {name} in {args.models_dir}/models.py "
               f"(there are: {' '.join(M.MODELS)})")
    fn, host_args = M.build(name)
    fns, dargs, compile_s, outs = {}, {}, {}, {}
    for b in backends:
      dargs[b] = jax.device_put(host_args, devices[b])
      fns[b] = jax.jit(fn)
      t = time.perf_counter()
      outs[b] = run(fns[b], dargs[b])
      compile_s[b] = time.perf_counter() - t
      for _ in range(2):
        run(fns[b], dargs[b])
    # the results agree (within the suite's tolerances)
    atol, rtol = M.MODELS[name]["tol"]
    worst = 0.0
    for a, c in zip(M.leaves(outs["xlac"]), M.leaves(outs["cpu"])):
      a = np.asarray(a, np.float64)
      c = np.asarray(c, np.float64)
      worst = max(worst, float(np.max(np.abs(a - c) / (atol + rtol * np.abs(c)), initial=0.0)))
    # steps per batch: a batch takes about batch_seconds on the slower one
    per = {}
    for b in backends:
      t = time.perf_counter()
      run(fns[b], dargs[b])
      per[b] = time.perf_counter() - t
    n = max(1, int(args.batch_seconds / max(per.values())))
    times = {b: [] for b in backends}
    for r in range(args.rounds):
      for b in (backends if r % 2 == 0 else backends[::-1]):
        f, a = fns[b], dargs[b]
        t = time.perf_counter()
        for _ in range(n):
          out = f(*a)
        jax.block_until_ready(out)
        times[b].append((time.perf_counter() - t) / n)
    med = {b: statistics.median(times[b]) for b in backends}
    ratio = med["cpu"] / med["xlac"]
    rows.append((name, med, ratio, compile_s, worst, n))
    print(f"{name:20} cpu {med['cpu'] * 1e3:9.3f} ms  xlac {med['xlac'] * 1e3:9.3f} ms  "
          f"cpu/xlac {ratio:6.2f}   compile cpu {compile_s['cpu']:.2f} s, "
          f"xlac {compile_s['xlac']:.2f} s   ({n} steps/batch, "
          f"worst |diff|/tol {worst:.2g}{' MISMATCH' if worst > 1 else ''})", flush=True)

  print()
  print(f"{'model':20} {'cpu ms':>10} {'xlac ms':>10} {'cpu/xlac':>9}")
  for name, med, ratio, _, _, _ in rows:
    print(f"{name:20} {med['cpu'] * 1e3:10.3f} {med['xlac'] * 1e3:10.3f} {ratio:9.2f}")
  geo = math.exp(sum(math.log(r[2]) for r in rows) / len(rows))
  print(f"{'geometric mean':20} {'':10} {'':10} {geo:9.2f}")


if __name__ == "__main__":
  main()
