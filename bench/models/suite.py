#!/usr/bin/env python3
"""Times the JAX models of models.py in xlac, XLA:CPU and (optionally) IREE.

For each model and thread count N:
  1. agreement: jax's compiled function gives the reference results; `xlac run
     --backend=cpu --threads N NAME.mlir --input i=@ai.npy --expect j=@rj.npy`
     checks xlac's within the model's tolerances.  A model that disagrees or
     fails is reported and not timed;
  2. timing, interleaved: in each of --rounds rounds, `xlac bench` on the same
     inputs, then a persistent XLA worker, then an IREE worker, each taking the
     median of --iters calls after --warmup.  The figure is the median of the
     rounds' medians.  xlac runs with --flush-denormals, the floating-point
     mode JAX's CPU backend runs in (and the JAX plugin's default).
     Every engine runs under `taskset` on the first N CPUs:
     XLA sizes its thread pool from the affinity mask, IREE gets
     --task_topology_max_group_count=N, xlac --threads N;
  3. compile time without caches, the median over the rounds for xlac and
     XLA: xlac's compile_ms (bench compiles afresh every round; no compile
     cache), lower()+compile() of a fresh jax.jit in a fresh process (one per
     round, right after xlac's), iree-compile (llvm-cpu, host CPU) once, in
     a fresh process.
Then every NAME.xla.hlo (XLA's optimized HLO) is run by xlac with the same
inputs, to see whether XLA's output runs natively and agrees.

Without jax (no --xla/--iree and no environment with jax) only xlac is timed,
on `--random-inputs`, and nothing is checked.

Output: the raw steps, tables, and `RESULT key=value` lines.
"""

import argparse
import json
import math
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

try:
    import jax
    import numpy as np
    import models
except ImportError:
    jax = None

IREE_FLAGS = ["--iree-llvmcpu-target-cpu=host"]


def model_names():
    if jax:
        return list(models.MODELS)
    with open(os.path.join(HERE, "models.py")) as f:
        return re.findall(r"^@model\(.*\)\ndef (\w+)\(", f.read(), re.M)


def cpus(threads):
    return ",".join(str(c) for c in sorted(os.sched_getaffinity(0))[:threads])


def pinned(threads, cmd):
    return ["taskset", "-c", cpus(threads)] + cmd


def xlac_env():
    # compile_ms must be a real compile every time.
    env = dict(os.environ)
    env.pop("XLAC_COMPILE_CACHE", None)
    return env


def tail(text, n=3):
    """The gist of a failure's output: its error lines, or else its last lines."""
    lines = [l for l in text.strip().splitlines() if l.strip()]
    for pattern in (r"error:", r"[Ee]rror|Sanitizer"):
        errors = [l.strip() for l in lines if re.search(pattern, l)]
        if errors:
            return " | ".join(errors[:n])[:400]
    return " | ".join(lines[-n:])[:400]


def run_cmd(cmd, timeout, env=None):
    """(returncode, stdout+stderr); 124 for a timeout, -SIG for a signal."""
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, timeout=timeout, env=env)
        return p.returncode, p.stdout
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        return 124, out + "\n(timed out after %d s)" % timeout


def mismatches(out):
    """xlac's failed --expect checks, shortened."""
    bad = re.findall(r"(?m)^expect (result\[\d+\])[^:]*: MISMATCH, (.*)$", out)
    return "; ".join("%s: %s" % b for b in bad)[:400]


def describe_failure(rc, out):
    what = "timeout" if rc == 124 else signal.Signals(-rc).name if rc < 0 else "exit %d" % rc
    return "%s: %s" % (what, tail(out)) if out.strip() else what


# ---- the comparison for what xlac's --expect does not check itself ----

def close(got, want, atol, rtol):
    """None when got is within atol + rtol * |want| of want (NaN where NaN is
    expected; integers exactly), else what is wrong."""
    got, want = np.asarray(got), np.asarray(want)
    if want.dtype.kind == "V":  # bfloat16 comes back from .npy as raw bytes
        want = want.view(got.dtype)
    if got.shape != want.shape:
        return "shape %s, want %s" % (got.shape, want.shape)
    if want.dtype.kind in "iub":
        bad = int(np.count_nonzero(got != want))
        return "%d elements differ" % bad if bad else None
    dt = np.complex128 if want.dtype.kind == "c" else np.float64
    g, w = got.astype(dt), want.astype(dt)
    diff = np.abs(g - w)
    fine = (diff <= atol + rtol * np.abs(w)) | (np.isnan(g) & np.isnan(w))
    bad = fine.size - int(np.count_nonzero(fine))
    return "%d of %d elements outside the tolerance, max |diff| %.3g" % (
        bad, fine.size, np.nanmax(diff)) if bad else None


# ---- worker and helper processes (run pinned, in the venv) ----

def xla_runner(name, req):
    fn, args = models.build(name)
    compiled = jax.jit(fn).lower(*args).compile()
    dev_args = jax.device_put(args)
    return lambda: jax.tree_util.tree_leaves(jax.block_until_ready(compiled(*dev_args)))


def iree_runner(name, req):
    import iree.runtime as rt
    config = iree_config(req["threads"])
    ctx = rt.SystemContext(config=config)
    with open(req["vmfb"], "rb") as f:
        module = rt.VmModule.copy_buffer(ctx.instance, f.read())
    ctx.add_vm_module(module)
    main = ctx.modules[module.name]["main"]
    _, args = models.build(name)
    dev_args = [rt.asdevicearray(config.device, a) for a in models.leaves(args)]

    def run():
        # The call returns when the results are ready (IREE's synchronous
        # wrapper of the async function).
        out = main(*dev_args)
        return list(out) if isinstance(out, (list, tuple)) else [out]
    return run


_iree_config = None


def iree_config(threads):
    global _iree_config
    if _iree_config is None:
        import iree.runtime as rt
        rt.flags.parse_flags("--task_topology_max_group_count=%d" % threads)
        _iree_config = rt.Config("local-task")
    return _iree_config


def serve(backend):
    """Answers JSON requests on stdin, one a line: {"model", "iters", "warmup",
    optional "refs" (.npy paths to check against), "threads", "vmfb"}."""
    make = xla_runner if backend == "xla" else iree_runner
    runners = {}
    for line in sys.stdin:
        req = json.loads(line)
        name = req["model"]
        try:
            if name not in runners:
                runners[name] = make(name, req)
            run = runners[name]
            reply = {}
            if req.get("refs"):
                got = run()
                atol, rtol = models.MODELS[name]["tol"]
                if backend == "iree":
                    got = [g.to_host() for g in got]
                bad = [close(g, np.load(r), atol, rtol) for g, r in zip(got, req["refs"])]
                bad = ["result %d: %s" % (i, b) for i, b in enumerate(bad) if b]
                if len(got) != len(req["refs"]):
                    bad.append("%d results, want %d" % (len(got), len(req["refs"])))
                reply["disagree"] = "; ".join(bad)[:300]
            for _ in range(req["warmup"]):
                run()
            times = []
            for _ in range(req["iters"]):
                t0 = time.perf_counter()
                run()
                times.append((time.perf_counter() - t0) * 1e3)
            reply["median_ms"] = statistics.median(times)
        except Exception as e:  # reported, and the suite goes on
            reply = {"error": (str(e).strip().splitlines() or [type(e).__name__])[0][:300]}
        print(json.dumps(reply), flush=True)


def compile_time(backend, name, out):
    """Prints the milliseconds of one compile in this fresh process."""
    if backend == "xla":
        jax.config.update("jax_enable_compilation_cache", False)
        fn, args = models.build(name)
        jax.devices()  # the client is set up before the clock starts
        t0 = time.perf_counter()
        jax.jit(fn).lower(*args).compile()
    else:
        import iree.compiler as ic
        t0 = time.perf_counter()
        ic.compile_file(os.path.join(HERE, name + ".mlir"), target_backends=["llvm-cpu"],
                        extra_args=IREE_FLAGS, output_file=out)
    print("COMPILE_MS %.1f" % ((time.perf_counter() - t0) * 1e3))


class Worker:
    """A persistent pinned worker process for one backend and thread count."""

    def __init__(self, backend, threads):
        cmd = pinned(threads, [sys.executable, os.path.abspath(__file__), "--serve", backend])
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, **req):
        try:
            self.proc.stdin.write(json.dumps(req) + "\n")
            self.proc.stdin.flush()
            line = self.proc.stdout.readline()
        except BrokenPipeError:
            line = ""
        return json.loads(line) if line else {"error": "worker died (exit %s)" % self.proc.poll()}

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


# ---- the suite ----

def fmt(x, spec="%.2f"):
    return spec % x if isinstance(x, (int, float)) else "-"


def ratio(a, b):
    return a / b if isinstance(a, (int, float)) and isinstance(b, (int, float)) and b > 0 else None


def geomean(xs):
    xs = [x for x in xs if x]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else None


def median_or_none(xs):
    xs = [x for x in xs if isinstance(x, (int, float))]
    return statistics.median(xs) if xs else None


def kv(text, key):
    m = re.search(r"(?:^|\s)%s=(\S+)" % key, text)
    return m.group(1) if m else None


class Suite:
    def __init__(self, opts):
        self.o = opts
        self.work = tempfile.mkdtemp(prefix="xlac-models.")
        self.results = []
        self.status = {}    # (model, threads) -> "ok", "DISAGREE", "FAILED" (why: in notes)
        self.times = {}     # (model, threads, engine) -> [round medians]
        self.compile = {}   # (model, threads, engine) -> [ms]
        self.notes = {}     # (model, threads, engine) -> why there is no number

    def emit(self, line):
        self.results.append("RESULT suite=models " + line)

    # -- inputs and references --

    def inputs(self, name):
        d = os.path.join(self.work, name)
        if not jax:
            return d, ["--random-inputs", "--seed", "1"]
        if not os.path.isdir(d):
            os.makedirs(d)
            fn, args = models.build(name)
            for i, a in enumerate(models.leaves(args)):
                np.save(os.path.join(d, "a%d.npy" % i), a)
            for i, r in enumerate(models.leaves(jax.jit(fn)(*args))):
                np.save(os.path.join(d, "r%d.npy" % i), r)
        n = len([f for f in os.listdir(d) if f.startswith("a")])
        return d, [x for i in range(n) for x in ("--input", "%d=@%s/a%d.npy" % (i, d, i))]

    def refs(self, name):
        d = os.path.join(self.work, name)
        n = len([f for f in os.listdir(d) if f.startswith("r")])
        return [os.path.join(d, "r%d.npy" % i) for i in range(n)]

    def run_checked(self, name, cmd, tag):
        """Runs `xlac run` (cmd) on the model's inputs and checks the results
        against jax's: ("ok" | "DISAGREE" | "FAILED", detail, output)."""
        d, inputs = self.inputs(name)
        atol, rtol = models.MODELS[name]["tol"]
        refs = self.refs(name)
        extra = ["--atol", repr(atol), "--rtol", repr(rtol)]
        extra += [x for i, r in enumerate(refs) for x in ("--expect", "%d=@%s" % (i, r))]
        rc, out = run_cmd(cmd + inputs + extra, self.o.timeout, xlac_env())
        bad = mismatches(out) if rc == 1 else ""
        if bad:
            return "DISAGREE", bad, out
        return ("ok", "", out) if rc == 0 else ("FAILED", describe_failure(rc, out), out)

    # -- steps --

    def check(self, name, threads):
        mlir = os.path.join(HERE, name + ".mlir")
        _, inputs = self.inputs(name)
        if not jax:
            self.status[name, threads] = "ok"
            return
        cmd = pinned(threads, [self.o.xlac, "run", "--backend=cpu", "--flush-denormals", "--threads", str(threads), mlir])
        status, detail, _ = self.run_checked(name, cmd, "mlir%d" % threads)
        self.status[name, threads] = status
        if detail:
            self.notes[name, threads, "xlac"] = detail
        print("  %-20s %d thread(s): xlac %s%s" % (name, threads, status, ": " + detail if detail else ""),
              flush=True)

    def compile_other(self, engine, name, threads):
        out = os.path.join(self.work, name, "iree%d.vmfb" % threads)
        cmd = pinned(threads, [sys.executable, os.path.abspath(__file__), "--compile", engine, name, out])
        rc, text = run_cmd(cmd, self.o.timeout)
        ms = kv(text.replace("COMPILE_MS ", "COMPILE_MS="), "COMPILE_MS")
        if rc == 0 and ms:
            self.compile.setdefault((name, threads, engine), []).append(float(ms))
            return out
        self.notes[name, threads, engine] = "compile failed (%s)" % describe_failure(rc, text)
        print("  %-20s %d thread(s): %s %s" % (name, threads, engine, self.notes[name, threads, engine]))
        return None

    def time_xlac(self, name, threads):
        _, inputs = self.inputs(name)
        cmd = pinned(threads, [self.o.xlac, "bench", "--backend=cpu", "--flush-denormals", "--threads", str(threads),
                               "--iters", str(self.o.iters), "--warmup", str(self.o.warmup),
                               os.path.join(HERE, name + ".mlir")] + inputs)
        rc, out = run_cmd(cmd, self.o.timeout, xlac_env())
        line = next((l for l in out.splitlines() if l.startswith("BENCH ")), "")
        if rc == 0 and line:
            self.times.setdefault((name, threads, "xlac"), []).append(float(kv(line, "median_ms")))
            self.compile.setdefault((name, threads, "xlac"), []).append(float(kv(line, "compile_ms")))
        else:
            self.notes[name, threads, "xlac"] = "bench failed (%s)" % describe_failure(rc, out)
        return self.times.get((name, threads, "xlac"), [None])[-1]

    def time_worker(self, engine, worker, name, threads, first, vmfb=None):
        key = (name, threads, engine)
        if self.notes.get(key, "").startswith(("compile failed", "failed")):
            return None
        req = dict(model=name, iters=self.o.iters, warmup=self.o.warmup, threads=threads, vmfb=vmfb)
        if first and jax:
            req["refs"] = self.refs(name)
        reply = worker.ask(**req)
        if "error" in reply:
            self.notes[key] = "failed (%s)" % reply["error"]
            return None
        if reply.get("disagree"):
            # Still timed; flagged in the table.
            self.notes[key] = "disagrees with XLA: " + reply["disagree"]
        self.times.setdefault(key, []).append(reply["median_ms"])
        return reply["median_ms"]

    def run_xla_dump(self, name):
        hlo = os.path.join(HERE, name + ".xla.hlo")
        cmd = [self.o.xlac, "run", "--verbose", "--backend=cpu", "--flush-denormals", "--threads", "1", hlo]
        status, how = "FAILED", "real inputs"
        if jax:
            status, detail, out = self.run_checked(name, cmd, "hlo")
        if status == "FAILED" and (not jax or re.search(r"error: input|has no parameter|given more than once", out)):
            # No jax, or XLA changed the parameters: random inputs, no check.
            rc, out = run_cmd(cmd + ["--random-inputs"], self.o.timeout, xlac_env())
            status, detail = ("ok", "") if rc == 0 else ("FAILED", describe_failure(rc, out))
            how = "random inputs"
        m = re.search(r"cpu: (\d+) ops native \((\d+) fusions\), (\d+) through the interpreter", out)
        native, fusions, interp = m.groups() if m else ("-", "-", "-")
        return dict(status=status, native=native, fusions=fusions, interp=interp, how=how, detail=detail)

    # -- the whole run --

    def run(self):
        o = self.o
        load_start = os.getloadavg()
        self.date = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        names, threads = o.only or model_names(), o.threads
        print("models: %s\nthreads: %s; rounds %d, iters %d, warmup %d; engines: xlac%s%s"
              % (" ".join(names), " ".join(map(str, threads)), o.rounds, o.iters, o.warmup,
                 " XLA" if o.xla else "", " IREE" if o.iree else ""))
        print("xlac: %s; jax: %s; date: %s; load average at start: %.2f %.2f %.2f"
              % (o.xlac, jax.__version__ if jax else "not available (no agreement check)", self.date,
                 *load_start), flush=True)
        if o.iree:
            from importlib.metadata import version
            print("iree: iree-base-compiler %s, iree-base-runtime %s"
                  % (version("iree-base-compiler"), version("iree-base-runtime")))

        print("\n== agreement (xlac against jax's compiled function) and compile of IREE", flush=True)
        vmfb = {}
        for name in names:
            for t in threads:
                self.check(name, t)
                if o.iree:
                    vmfb[name, t] = self.compile_other("iree", name, t)

        workers = {}
        for t in threads:
            if o.xla:
                workers["xla", t] = Worker("xla", t)
            if o.iree:
                workers["iree", t] = Worker("iree", t)
        print("\n== timing: %d interleaved rounds" % o.rounds, flush=True)
        for r in range(o.rounds):
            for t in threads:
                for name in names:
                    if self.status[name, t] != "ok":
                        continue
                    row = ["xlac %s" % fmt(self.time_xlac(name, t), "%.3f")]
                    if o.xla and not self.notes.get((name, t, "xla"), "").startswith("compile failed"):
                        # XLA's compile in a fresh process each round, as xlac's
                        self.compile_other("xla", name, t)
                    if o.xla:
                        row.append("XLA %s" % fmt(self.time_worker("xla", workers["xla", t], name, t, r == 0), "%.3f"))
                    if o.iree and vmfb.get((name, t)):
                        row.append("IREE %s" % fmt(self.time_worker("iree", workers["iree", t], name, t, r == 0,
                                                                    vmfb[name, t]), "%.3f"))
                    print("  round %d  %-20s %d thr: %s" % (r + 1, name, t, ", ".join(row)), flush=True)
        for w in workers.values():
            w.close()

        print("\n== XLA's optimized HLO (NAME.xla.hlo) in xlac, 1 thread", flush=True)
        dumps = {name: self.run_xla_dump(name) for name in names}
        load_end = os.getloadavg()
        self.report(names, threads, dumps, load_start, load_end)

    def report(self, names, threads, dumps, load_start, load_end):
        o = self.o
        med = {k: median_or_none(v) for k, v in self.times.items()}
        comp = {k: median_or_none(v) for k, v in self.compile.items()}
        print("\n== results (median of per-round medians, ms; ratios above 1: xlac is faster)")
        head = "%-20s %3s %9s %9s %8s %9s %9s | %10s %10s %9s %10s" % (
            "model", "thr", "xlac", "XLA", "XLA/xlac", "IREE", "IREE/xlac",
            "xlac comp", "XLA comp", "xlac/XLA", "IREE comp")
        geo = {}
        for t in threads:
            print(head)
            xr, ir, cr = [], [], []
            for name in names:
                g = lambda e: med.get((name, t, e))  # noqa: E731
                c = lambda e: comp.get((name, t, e))  # noqa: E731
                x_over, i_over, c_over = ratio(g("xla"), g("xlac")), ratio(g("iree"), g("xlac")), \
                    ratio(c("xlac"), c("xla"))
                xr.append((x_over, name))
                ir.append(i_over)
                cr.append(c_over)
                status = self.status[name, t]
                flag = lambda e: "!" if "disagrees" in self.notes.get((name, t, e), "") else ""  # noqa: E731
                print("%-20s %3d %9s %9s %8s %9s %9s | %10s %10s %9s %10s" % (
                    name, t, fmt(g("xlac"), "%.3f") if status == "ok" else status,
                    fmt(g("xla"), "%.3f") + flag("xla"), fmt(x_over), fmt(g("iree"), "%.3f") + flag("iree"),
                    fmt(i_over), fmt(c("xlac"), "%.0f"), fmt(c("xla"), "%.0f"), fmt(c_over),
                    fmt(c("iree"), "%.0f")))
                self.emit("name=%s threads=%d status=%s xlac_ms=%s xla_ms=%s xla_over_xlac=%s iree_ms=%s "
                          "iree_over_xlac=%s xlac_compile_ms=%s xla_compile_ms=%s iree_compile_ms=%s "
                          "compile_xlac_over_xla=%s" % (
                              name, t, status.lower(), fmt(g("xlac"), "%.4f"), fmt(g("xla"), "%.4f"),
                              fmt(x_over, "%.3f"), fmt(g("iree"), "%.4f"), fmt(i_over, "%.3f"),
                              fmt(c("xlac"), "%.1f"), fmt(c("xla"), "%.1f"), fmt(c("iree"), "%.1f"),
                              fmt(c_over, "%.3f")))
            geo[t] = (geomean(r for r, _ in xr), geomean(ir), geomean(cr))
            slow = sorted((r, n) for r, n in xr if r)[:3]
            print("%d thread(s): geomean XLA/xlac %s, IREE/xlac %s, compile xlac/XLA %s; slowest vs XLA: %s\n" % (
                t, fmt(geo[t][0]), fmt(geo[t][1]), fmt(geo[t][2]),
                ", ".join("%s (%.2f)" % (n, r) for r, n in slow) or "-"))
            self.emit("name=geomean threads=%d xla_over_xlac=%s iree_over_xlac=%s compile_xlac_over_xla=%s "
                      "slowest=%s" % (t, fmt(geo[t][0], "%.3f"), fmt(geo[t][1], "%.3f"),
                                      fmt(geo[t][2], "%.3f"), ",".join(n for _, n in slow) or "-"))

        notes = sorted(self.notes.items())
        if notes:
            print("notes (! in the table: that engine's results disagree with XLA's):")
            for (name, t, engine), why in notes:
                print("  %s, %d thread(s), %s: %s" % (name, t, engine, why))
            print()

        print("XLA's optimized HLO in xlac (1 thread):")
        print("%-20s %-9s %7s %8s %7s  %s" % ("model", "status", "native", "fusions", "interp", "inputs"))
        for name in names:
            d = dumps[name]
            print("%-20s %-9s %7s %8s %7s  %s%s" % (name, d["status"].split()[0], d["native"], d["fusions"],
                                                    d["interp"], d["how"],
                                                    "  " + d["detail"] if d["detail"] else ""))
            self.emit("name=%s kind=xla_dump status=%s native_ops=%s fusions=%s interp_ops=%s inputs=%s" % (
                name, d["status"].split()[0].lower(), d["native"], d["fusions"], d["interp"],
                d["how"].split()[0]))
        print("load average: %.2f %.2f %.2f at start, %.2f %.2f %.2f at end" % (*load_start, *load_end))
        self.emit("name=load start=%.2f end=%.2f date=%s" % (load_start[0], load_end[0], self.date))
        print("\n== summary")
        print("\n".join(self.results))
        if o.out:
            with open(o.out, "w") as f:
                f.write("\n".join(self.results) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--xlac", default=os.path.join(HERE, "..", "..", "build", "bin", "xlac"))
    ap.add_argument("--only", nargs="*", help="model names (default: all)")
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--iters", type=int, default=10)
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--xla", action="store_true", help="time XLA:CPU too")
    ap.add_argument("--iree", action="store_true", help="time IREE (llvm-cpu, local-task) too")
    ap.add_argument("--timeout", type=int, default=600, help="seconds per step")
    ap.add_argument("--out", help="also write the RESULT lines to this file")
    ap.add_argument("--keep", action="store_true", help="keep the inputs, references and .vmfb files")
    ap.add_argument("--serve", choices=["xla", "iree"], help=argparse.SUPPRESS)
    ap.add_argument("--compile", nargs=3, metavar=("ENGINE", "NAME", "OUT"), help=argparse.SUPPRESS)
    o = ap.parse_args()
    if o.serve:
        return serve(o.serve)
    if o.compile:
        return compile_time(*o.compile)
    if (o.xla or o.iree) and not jax:
        sys.exit("suite.py: --xla and --iree need jax and numpy in this Python (bench/run.sh --models sets one up)")
    unknown = [n for n in o.only or [] if n not in model_names()]
    if unknown:
        sys.exit("suite.py: unknown model(s) %s (have: %s)" % (" ".join(unknown), " ".join(model_names())))
    if o.rounds < 1 or o.iters < 1 or o.warmup < 0:
        sys.exit("suite.py: --rounds and --iters must be >= 1, --warmup >= 0")
    o.xlac = os.path.abspath(o.xlac)
    suite = Suite(o)
    try:
        suite.run()
    finally:
        if o.keep:
            print("inputs, references and IREE modules kept in %s" % suite.work)
        else:
            shutil.rmtree(suite.work, ignore_errors=True)


if __name__ == "__main__":
    main()
