#!/usr/bin/env python3
"""Times the benchmark programs on JAX/XLA's CPU backend, for comparison.

The functions are the ones gen_programs.py lowered to bench/programs/*.mlir,
so XLA compiles exactly the computation xlac compiles.  Inputs are drawn like
`xlac bench --random-inputs` draws them (random_arg).  Compile time is lower+compile of
jax.jit; each run is timed up to block_until_ready, and the median and
minimum over --iters runs (after --warmup untimed ones) are reported in the
same line format as `xlac bench`, so run.sh parses both alike:

    BENCH name=sgemm_1024 backend=xla compile_ms=41.2 median_ms=8.10 min_ms=7.95 iters=20 threads=1

XLA has no per-call thread count: run.sh restricts the process to N cores
with taskset, which XLA's CPU client honours when it sizes its thread pool;
--threads here is only recorded in the output line.

usage: xla_bench.py [--warmup N] [--iters N] [--threads N] [--seed N] [NAME ...]
"""

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import jax  # noqa: E402
import numpy as np  # noqa: E402

from jax_programs import PROGRAMS  # noqa: E402


def random_arg(rng, s):
    """Like `xlac bench --random-inputs`: floats uniform in [-1, 1), signed
    integers in [-10, 10], unsigned in [0, 10]."""
    dt = np.dtype(s.dtype)
    if dt.kind == "i":
        return rng.integers(-10, 11, size=s.shape).astype(dt)
    if dt.kind == "u":
        return rng.integers(0, 11, size=s.shape).astype(dt)
    if dt.kind == "b":
        return rng.integers(0, 2, size=s.shape).astype(dt)
    return rng.uniform(-1.0, 1.0, size=s.shape).astype(dt)


def bench(name, entry, warmup, iters, threads, rng):
    args = [jax.device_put(random_arg(rng, s)) for s in entry["args"]]
    t0 = time.perf_counter()
    compiled = jax.jit(entry["fn"]).lower(*entry["args"]).compile()
    compile_ms = (time.perf_counter() - t0) * 1e3
    for _ in range(warmup):
        jax.block_until_ready(compiled(*args))
    times = []
    for _ in range(iters):
        t0 = time.perf_counter()
        jax.block_until_ready(compiled(*args))
        times.append((time.perf_counter() - t0) * 1e3)
    print("BENCH name=%s backend=xla compile_ms=%.1f median_ms=%.3f min_ms=%.3f iters=%d threads=%d"
          % (name, compile_ms, statistics.median(times), min(times), iters, threads), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("names", nargs="*")
    opts = ap.parse_args()
    if opts.iters < 1 or opts.warmup < 0:
        sys.exit("xla_bench.py: --iters must be >= 1 and --warmup >= 0")
    rng = np.random.default_rng(opts.seed)
    for name in opts.names or list(PROGRAMS):
        if name not in PROGRAMS:
            sys.exit("xla_bench.py: unknown program '%s' (have: %s)" % (name, " ".join(PROGRAMS)))
        bench(name, PROGRAMS[name], opts.warmup, opts.iters, opts.threads, rng)


if __name__ == "__main__":
    main()
