#!/usr/bin/env python3
"""xlac's gpu backend against JAX's own GPU backend (XLA:GPU), side by side.

The programs are bench/jax_programs.py's (the CPU benchmarks), plus a JAX
training step; each is compiled on both platforms, its results compared
(allclose), and timed interleaved: run k of xlac, then run k of the
reference, so that the machine's noise falls on both alike.  One line per
program and platform, in `xlac bench`'s format, then the ratio:

    BENCH name=sgemm_1024 backend=xlac-gpu compile_ms=.. median_ms=.. min_ms=.. iters=20
    BENCH name=sgemm_1024 backend=xla-gpu compile_ms=.. median_ms=.. min_ms=.. iters=20
    RATIO name=sgemm_1024 xla_over_xlac=1.23 close=yes

Programs the gpu backend cannot compile yet are reported (SKIP with the
first line of the error) and left out of the ratios.

    python3 bench/gpu/compare.py [--ref cuda] [--iters 20] [--warmup 3] [--small] [--models] [NAME ...]

--models adds the model suite's JAX models (bench/models/models.py: MLP,
CNN, transformer, ResNet block, inference and training steps) with their
own inputs, named model:NAME.

Needs jax with a GPU plugin for the reference (--ref cuda) and the xlac
PJRT plugin (XLAC_PJRT_LIBRARY, the jax_plugins.xlac package on
PYTHONPATH, as plugins/jax/tests/run.sh sets them).  --ref cpu and --small
(small shapes) let it run against JAX's CPU backend on GPGPU-Sim, to check
the harness itself.
"""
import argparse
import os
import statistics
import sys
import time

os.environ["XLAC_PJRT_BACKEND"] = "gpu"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ref", default="cuda", help="the reference platform (cuda; cpu to check the harness)")
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--small", action="store_true", help="small shapes (a simulator)")
    ap.add_argument("--models", action="store_true", help="also the model suite's models (model:NAME)")
    ap.add_argument("names", nargs="*")
    a = ap.parse_args()
    os.environ.setdefault("JAX_PLATFORMS", "xlac," + a.ref)
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    import jax
    import jax.numpy as jnp
    import numpy as np

    xdev = jax.devices("xlac")[0]
    rdev = jax.devices(a.ref)[0]
    print(f"# xlac device: {xdev.device_kind}; reference: {rdev.platform} {rdev.device_kind}", flush=True)

    if a.small:
        f32 = jnp.float32

        def spec(*s):
            return jax.ShapeDtypeStruct(s, f32)

        def mlp(x, w1, b1, w2, b2):
            return jax.nn.relu(x @ w1 + b1) @ w2 + b2

        progs = {
            "ew_small": {"fn": lambda x, y: jnp.tanh(x * y) + jnp.exp(-x), "args": [spec(4096)] * 2},
            "softmax_small": {"fn": lambda x: jax.nn.softmax(x, axis=-1), "args": [spec(32, 128)]},
            "mlp_small": {"fn": mlp, "args": [spec(16, 32), spec(32, 64), spec(64), spec(64, 8), spec(8)]},
        }
    else:
        from jax_programs import PROGRAMS
        progs = dict(PROGRAMS)

        def train_step(w1, w2, x, y):
            def loss(w1, w2):
                return jnp.mean((jnp.tanh(x @ w1) @ w2 - y) ** 2)
            g1, g2 = jax.grad(loss, argnums=(0, 1))(w1, w2)
            return w1 - 0.01 * g1, w2 - 0.01 * g2

        s = jax.ShapeDtypeStruct
        progs["mlp_train_step"] = {"fn": train_step, "args": [s((1024, 4096), jnp.float32),
                                                              s((4096, 1024), jnp.float32),
                                                              s((512, 1024), jnp.float32),
                                                              s((512, 1024), jnp.float32)]}
    if a.models:
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "models"))
        import models
        for m in models.MODELS:
            progs["model:" + m] = {"model": m}
    names = a.names or list(progs)
    rng = np.random.default_rng(0)
    ratios = []
    for name in names:
        e = progs[name]
        host = []
        if "model" in e:
            try:
                fn, host = models.build(e["model"])
            except Exception as ex:
                print(f"SKIP name={name} backend=both: building the model: {ex}", flush=True)
                continue
            atol, rtol = models.MODELS[e["model"]]["tol"]
            e = {"fn": fn, "tol": (max(atol, 2e-3), max(rtol, 2e-3))}
        else:
            for sp in e["args"]:
                dt = np.dtype(sp.dtype)
                if dt.kind in "iu":
                    host.append(rng.integers(0, 10, size=sp.shape).astype(dt))
                else:
                    host.append(rng.uniform(-1, 1, size=sp.shape).astype(dt))
        runs = {}
        outs = {}
        for label, dev in (("xlac-gpu", xdev), ("xla-" + a.ref, rdev)):
            try:
                args = [jax.device_put(h, dev) for h in host]  # pytrees too
                t0 = time.perf_counter()
                f = jax.jit(e["fn"]).lower(*args).compile()
                cms = (time.perf_counter() - t0) * 1e3
                outs[label] = jax.block_until_ready(f(*args))
                runs[label] = (f, args, cms, [])
            except Exception as ex:  # the gpu backend's unsupported ops
                msg = str(ex).strip().splitlines()[0] if str(ex).strip() else type(ex).__name__
                print(f"SKIP name={name} backend={label}: {msg[:300]}", flush=True)
        if len(runs) < 2:
            continue
        for k in range(a.warmup + a.iters):
            for label, (f, args, _, times) in runs.items():
                t0 = time.perf_counter()
                jax.block_until_ready(f(*args))
                if k >= a.warmup:
                    times.append((time.perf_counter() - t0) * 1e3)
        med = {}
        for label, (_, _, cms, times) in runs.items():
            med[label] = statistics.median(times)
            print(f"BENCH name={name} backend={label} compile_ms={cms:.3f} median_ms={med[label]:.4f} "
                  f"min_ms={min(times):.4f} iters={a.iters}", flush=True)
        gx, gr = jax.tree.leaves(outs["xlac-gpu"]), jax.tree.leaves(outs["xla-" + a.ref])
        atol, rtol = e.get("tol", (2e-3, 2e-3))
        def wide(v):  # bf16 and f16 compared in double, complex as complex
            v = np.asarray(v)
            return v.astype(np.complex128 if np.iscomplexobj(v) else np.float64)
        close = all(np.allclose(wide(p), wide(q), rtol=rtol, atol=atol) for p, q in zip(gx, gr))
        r = med["xla-" + a.ref] / med["xlac-gpu"]
        ratios.append(r)
        print(f"RATIO name={name} xla_over_xlac={r:.3f} close={'yes' if close else 'NO'}", flush=True)
    if ratios:
        gm = float(np.exp(np.mean(np.log(ratios))))
        print(f"GEOMEAN xla_over_xlac={gm:.3f} programs={len(ratios)}", flush=True)


if __name__ == "__main__":
    main()
