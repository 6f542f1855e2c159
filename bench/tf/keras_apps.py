#!/usr/bin/env python3
"""bench/tf/keras_apps.py - xlac against TensorFlow on five full-size Keras
applications.  A benchmark, not a test (bench/tf/run.sh sets up Python).

For each of MobileNetV2, ResNet50, EfficientNetB0, DenseNet121 (224x224x3)
and InceptionV3 (299x299x3), ``keras.applications.<Name>(weights=None)``
with random but seeded weights, and for each batch size:

  1. ``model(x, training=False)`` is frozen (convert_variables_to_constants_v2)
     and written to WORK/<model>_b<batch>/ as
       graph.pb       the GraphDef, binary;
       config.pbtxt   a tf2xla Config (text) with one feed ``x`` (the
                      Placeholder, NHWC float32) and one fetch ``y``;
       x.npy          a seeded standard-normal input;
       tf_out.npy     TensorFlow's output for x.npy.
  2. TensorFlow runs graph.pb itself (imported with import_graph_def and
     pruned to x -> y) in two ways: a tf.function (TensorFlow's graph
     executor; "TF") and a tf.function with jit_compile=True ("TF+XLA").
     The first call of each is timed separately (tracing and graph
     optimization; for TF+XLA also the XLA compile).  With --tf-model the
     Keras model itself (variables, not constants) is timed instead.
  3. Agreement first: ``xlac run --graph graph.pb --config config.pbtxt
     --input x=@x.npy --output-dir ...`` and its result0.npy is compared
     with tf_out.npy: max |xlac - tf| and that divided by max |tf|
     ("rel").  rel above --rel-tol (1e-3) is flagged.  The TF+XLA output's
     difference from TF is printed alongside for scale.
  4. Rounds (--rounds, default 3), interleaved: each round times TF, then
     TF+XLA (--warmup calls, then --iters calls, median per call), then
     ``xlac bench --threads N --warmup W --iters I`` (its median_ms).  The
     table shows the median over the rounds' medians.

xlac's compile time is the "compiled in" of ``xlac run --verbose`` (the
agreement run, compiled from scratch into a fresh compile cache, which the
timed ``xlac bench`` rounds then reuse); if that line is missing, the wall
time of the agreement run.  Each model's xlac phase uses a copy of the xlac
binary taken when the phase starts, so a rebuild of build/ by someone else
in the middle of a phase does not mix compilers (--rebuild runs
``cmake --build build --target xlac`` before each phase).

TensorFlow uses --threads intra-op and inter-op threads
(tf.config.threading), xlac ``--threads``.

A model that xlac cannot compile or run is recorded with the exit status
and the last lines of its error output, and the run goes on.  The Markdown
table is printed at the end and written to WORK/results.md (rewritten after
every row, so a run cut short keeps what it had), the raw numbers to
WORK/results.json, and the failures' full error texts to WORK/failures.md.

usage: keras_apps.py [--work DIR] [--threads N] [--batches "1 8"]
                     [--only NAME[,NAME]] [--rounds R] [--xlac PATH] ...
(see --help)
"""

import argparse
import collections
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zlib

MODELS = collections.OrderedDict([
    ("MobileNetV2", 224),
    ("ResNet50", 224),
    ("EfficientNetB0", 224),
    ("DenseNet121", 224),
    ("InceptionV3", 299),
])

REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


def parse_args():
    p = argparse.ArgumentParser(
        description="Time xlac against TensorFlow (graph executor and XLA "
                    "jit) on Keras applications.")
    p.add_argument("--work", help="work directory (default: a new temporary "
                   "directory, kept)")
    p.add_argument("--threads", type=int, default=2,
                   help="threads for TensorFlow (intra- and inter-op) and "
                   "xlac (default 2)")
    p.add_argument("--batches", default="1 8",
                   help='batch sizes, space- or comma-separated (default "1 8")')
    p.add_argument("--only", default="",
                   help="models to run, comma- or space-separated, matched "
                   "case-insensitively against " + ", ".join(MODELS))
    p.add_argument("--rounds", type=int, default=3,
                   help="interleaved timing rounds (default 3)")
    p.add_argument("--warmup", type=int, default=2,
                   help="untimed calls before each timed batch (default 2)")
    p.add_argument("--iters", type=int, default=10,
                   help="timed calls per engine per round (default 10)")
    p.add_argument("--xlac", default=os.path.join(REPO, "build", "bin", "xlac"),
                   help="the xlac binary (default: build/bin/xlac)")
    p.add_argument("--rebuild", action="store_true",
                   help="run `cmake --build build --target xlac` before each "
                   "model's xlac phase")
    p.add_argument("--xlac-timeout", type=float, default=1800,
                   help="seconds allowed for one xlac command (default 1800)")
    p.add_argument("--rel-tol", type=float, default=1e-3,
                   help="flag max|xlac-tf|/max|tf| above this (default 1e-3)")
    p.add_argument("--tf-model", action="store_true",
                   help="time the Keras model (with variables) in TensorFlow "
                   "instead of the frozen graph.pb")
    p.add_argument("--no-xla", action="store_true",
                   help="skip TensorFlow's jit_compile=True")
    a = p.parse_args()
    a.batches = [int(b) for b in a.batches.replace(",", " ").split()]
    if a.only:
        want = [w.lower() for w in a.only.replace(",", " ").split()]
        a.models = [m for m in MODELS if m.lower() in want]
        unknown = set(want) - {m.lower() for m in MODELS}
        if unknown:
            p.error("unknown model(s) %s; known: %s"
                    % (", ".join(sorted(unknown)), ", ".join(MODELS)))
    else:
        a.models = list(MODELS)
    if a.threads < 1 or a.rounds < 1 or a.iters < 1 or a.warmup < 0:
        p.error("--threads, --rounds, --iters must be >= 1, --warmup >= 0")
    return a


ARGS = parse_args()

# TensorFlow reads these when it loads.
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")
# Python puts this script's folder first on sys.path; keep it out of the way.
_here = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [q for q in sys.path if os.path.abspath(q or os.curdir) != _here]

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
import keras  # noqa: E402
from tensorflow.python.framework.convert_to_constants import (  # noqa: E402
    convert_variables_to_constants_v2)

tf.config.threading.set_intra_op_parallelism_threads(ARGS.threads)
tf.config.threading.set_inter_op_parallelism_threads(ARGS.threads)

F32 = np.float32


def log(msg):
    print(msg, flush=True)


# ---------------------------------------------------------------------------
# Models, weights, freezing
# ---------------------------------------------------------------------------

def seed_of(text):
    return zlib.crc32(text.encode())


def randomize_weights(model, rng):
    """Seeded random weights: kernels uniform(-a, a), a = sqrt(3 / fan_in);
    BatchNormalization gamma and moving variance (and a Normalization
    layer's variance) in [0.5, 1.5], beta and moving mean (mean) in
    [-0.5, 0.5]; other vectors (biases) in [-0.2, 0.2].  Integer and scalar
    variables are left alone."""
    for v in model.weights:
        path = v.path if hasattr(v, "path") else v.name
        leaf = path.split("/")[-1].split(":")[0]
        shape = tuple(int(d) for d in v.shape)
        dtype = np.dtype(str(v.dtype))
        if dtype.kind != "f" or len(shape) == 0:
            continue
        if leaf in ("gamma", "moving_variance", "variance"):
            val = rng.uniform(0.5, 1.5, size=shape)
        elif leaf in ("beta", "moving_mean", "mean"):
            val = rng.uniform(-0.5, 0.5, size=shape)
        elif len(shape) >= 2:
            if leaf == "depthwise_kernel":
                fan_in = int(np.prod(shape[:-2]))
            else:
                fan_in = int(np.prod(shape[:-1]))
            a = np.sqrt(3.0 / max(fan_in, 1))
            val = rng.uniform(-a, a, size=shape)
        else:
            val = rng.uniform(-0.2, 0.2, size=shape)
        v.assign(val.astype(dtype))


def build_model(name):
    ctor = getattr(keras.applications, name)
    model = ctor(weights=None)
    randomize_weights(model, np.random.default_rng(seed_of(name)))
    return model


def freeze(model, shape):
    """GraphDef of model(x, training=False) for x of the given shape, with
    the node names of the feed and the fetch."""
    fn = tf.function(lambda x: model(x, training=False), autograph=False)
    concrete = fn.get_concrete_function(tf.TensorSpec(shape, tf.float32,
                                                      name="x"))
    frozen = convert_variables_to_constants_v2(concrete)
    gd = frozen.graph.as_graph_def()
    feeds = [t.name for t in frozen.inputs]
    outs = [t.name for t in frozen.outputs]
    if feeds != ["x:0"] or len(outs) != 1:
        raise SystemExit("unexpected feeds %r / fetches %r" % (feeds, outs))
    node, idx = outs[0].split(":")
    return gd, node, int(idx)


def config_text(shape, fetch_node, fetch_idx):
    lines = ["# tf2xla Config: feed x (NHWC float32), fetch y", "feed {",
             '  id { node_name: "x" output_index: 0 }', "  shape {"]
    lines += ["    dim { size: %d }" % d for d in shape]
    lines += ["  }", '  name: "x"', "  type: DT_FLOAT", "}", "fetch {"]
    if fetch_idx:
        lines.append('  id { node_name: "%s" output_index: %d }'
                     % (fetch_node, fetch_idx))
    else:
        lines.append('  id { node_name: "%s" }' % fetch_node)
    lines += ['  name: "y"', "}"]
    return "\n".join(lines) + "\n"


def import_graph(pb_bytes, fetch):
    """graph.pb as TensorFlow runs it: imported and pruned to x -> fetch."""
    gd = tf.compat.v1.GraphDef()
    gd.ParseFromString(pb_bytes)

    def _import():
        tf.compat.v1.import_graph_def(gd, name="")

    w = tf.compat.v1.wrap_function(_import, [])
    return w.prune(w.graph.get_tensor_by_name("x:0"),
                   w.graph.get_tensor_by_name(fetch))


# ---------------------------------------------------------------------------
# Timing
# ---------------------------------------------------------------------------

def first_call(fn, x):
    t0 = time.perf_counter()
    y = fn(x)
    y = np.asarray(y)
    return y, time.perf_counter() - t0


def time_tf(fn, x):
    """Median ms per call of fn(x) (result brought to the host)."""
    for _ in range(ARGS.warmup):
        np.asarray(fn(x))
    ts = []
    for _ in range(ARGS.iters):
        t0 = time.perf_counter()
        np.asarray(fn(x))
        ts.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(ts)


def tail(text, n=12):
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    return "\n".join(lines[-n:])


def run_xlac(cmd):
    """(returncode, stdout, stderr, seconds); returncode None on timeout."""
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, errors="replace",
                           timeout=ARGS.xlac_timeout)
        return p.returncode, p.stdout, p.stderr, time.perf_counter() - t0
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) \
            else (e.stdout or "")
        err = e.stderr.decode(errors="replace") if isinstance(e.stderr, bytes) \
            else (e.stderr or "")
        return None, out, err, time.perf_counter() - t0


def describe_failure(rc, out, err, secs):
    if rc is None:
        what = "timed out after %.0f s" % secs
    elif rc < 0:
        what = "killed by signal %d" % -rc
    else:
        what = "exit status %d" % rc
    msg = tail(err) or tail(out) or "(no output)"
    return what, msg


def rebuild():
    for attempt in range(5):
        p = subprocess.run(["cmake", "--build", os.path.join(REPO, "build"),
                            "--target", "xlac"], cwd=REPO,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, errors="replace")
        if p.returncode == 0:
            return True
        log("   rebuild failed (attempt %d): %s" % (attempt + 1,
                                                     tail(p.stdout, 3)))
        time.sleep(60)
    return False


def snapshot_xlac(work):
    """A copy of the xlac binary for one phase.  A build going on may have
    removed it for a moment: wait up to three minutes for it."""
    dst = os.path.join(work, "bin", "xlac")
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    tmp = dst + ".tmp"
    for _ in range(36):
        if os.access(ARGS.xlac, os.X_OK):
            try:
                shutil.copy2(ARGS.xlac, tmp)
                os.replace(tmp, dst)
                return dst
            except OSError:
                pass
        time.sleep(5)
    raise SystemExit("no xlac at %s (build it, or pass --xlac)" % ARGS.xlac)


# ---------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------

def fmt(v, spec):
    return "—" if v is None else format(v, spec)


def ratio(a, b):
    return None if a is None or b is None or b == 0 else a / b


def table(rows):
    head = ("| model | batch | agreement: max abs / rel | TF ms | TF+XLA ms "
            "| xlac ms | TF / xlac | TF+XLA / xlac | TF+XLA compile s "
            "| xlac compile s |")
    lines = [head, "|" + "---|" * 10]
    for r in rows:
        if r.get("error"):
            agree = "**benchmark error**: " + r["error"][:120] \
                .replace("|", "\\|")
        elif r.get("xlac_error"):
            agree = "**FAIL**: " + r["xlac_error_short"]
        elif r.get("max_abs") is not None:
            agree = "%.2e / %.2e%s" % (r["max_abs"], r["rel"],
                                       " **FLAG**" if r["flag"] else " ok")
        else:
            agree = "—"
        lines.append("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["model"], r["batch"], agree, fmt(r.get("tf_ms"), ".2f"),
            fmt(r.get("xla_ms"), ".2f"), fmt(r.get("xlac_ms"), ".2f"),
            fmt(ratio(r.get("tf_ms"), r.get("xlac_ms")), ".2f"),
            fmt(ratio(r.get("xla_ms"), r.get("xlac_ms")), ".2f"),
            fmt(r.get("xla_compile_s"), ".1f"),
            fmt(r.get("xlac_compile_s"), ".1f")))
    return "\n".join(lines) + "\n"


def notes():
    return (
        "TensorFlow %s, Keras %s; %d threads (TF intra/inter-op, xlac "
        "--threads); median ms per call over %d interleaved rounds of %d "
        "calls after %d warm-up calls; TF runs %s.  Ratios above 1: xlac "
        "faster.  rel = max|xlac - TF| / max|TF|, flagged above %g.  "
        "TF+XLA compile s: its first call (trace + XLA compile); xlac "
        "compile s: `xlac run --verbose`'s compile time.\n"
        % (tf.__version__, keras.__version__, ARGS.threads, ARGS.rounds,
           ARGS.iters, ARGS.warmup,
           "the Keras model (variables)" if ARGS.tf_model
           else "the frozen graph.pb", ARGS.rel_tol))


def write_results(work, rows):
    md = "# xlac vs TensorFlow: Keras applications\n\n" + notes() + "\n" + \
        table(rows)
    fails = [r for r in rows if r.get("xlac_error")]
    flags = [r for r in rows if r.get("flag")]
    others = [r for r in rows if r.get("error") or r.get("xlac_bench_error")
              or r.get("xla_error")]
    if fails or flags or others:
        md += "\n## xlac failures and disagreements\n\n"
        for r in others:
            md += "- %s batch %d: %s\n" % (
                r["model"], r["batch"], "; ".join(
                    r[k] for k in ("error", "xla_error", "xlac_bench_error")
                    if r.get(k)))
        for r in fails:
            md += "- %s batch %d: %s\n\n```\n%s\n```\n\n" % (
                r["model"], r["batch"], r["xlac_error"], r["xlac_error_text"])
        for r in flags:
            md += "- %s batch %d: disagrees, max abs %.3e, rel %.3e\n" % (
                r["model"], r["batch"], r["max_abs"], r["rel"])
    with open(os.path.join(work, "results.md"), "w") as f:
        f.write(md)
    with open(os.path.join(work, "results.json"), "w") as f:
        json.dump(rows, f, indent=1, default=float)


# ---------------------------------------------------------------------------
# One model at one batch size
# ---------------------------------------------------------------------------

def bench_case(model, name, size, batch, work, xlac):
    row = dict(model=name, batch=batch)
    d = os.path.join(work, "%s_b%d" % (name, batch))
    os.makedirs(d, exist_ok=True)
    shape = (batch, size, size, 3)

    # -- freeze and write
    t0 = time.perf_counter()
    gd, fetch_node, fetch_idx = freeze(model, shape)
    pb = gd.SerializeToString()
    with open(os.path.join(d, "graph.pb"), "wb") as f:
        f.write(pb)
    with open(os.path.join(d, "config.pbtxt"), "w") as f:
        f.write(config_text(shape, fetch_node, fetch_idx))
    x = np.random.default_rng(seed_of("%s:%d" % (name, batch))) \
        .standard_normal(shape).astype(F32)
    np.save(os.path.join(d, "x.npy"), x)
    row["graph_mb"] = len(pb) / 1e6
    row["nodes"] = len(gd.node)
    log("== %s batch %d: graph.pb %.1f MB, %d nodes (frozen in %.1f s)"
        % (name, batch, row["graph_mb"], row["nodes"],
           time.perf_counter() - t0))

    # -- TensorFlow
    if ARGS.tf_model:
        def body(t):
            return model(t, training=False)
    else:
        pruned = import_graph(pb, "%s:%d" % (fetch_node, fetch_idx))

        def body(t):
            return pruned(t)
    tf_fn = tf.function(body, autograph=False)
    xla_fn = None if ARGS.no_xla else tf.function(body, autograph=False,
                                                   jit_compile=True)
    xt = tf.constant(x)
    y_tf, row["tf_first_s"] = first_call(tf_fn, xt)
    np.save(os.path.join(d, "tf_out.npy"), y_tf)
    y_keras = np.asarray(model(xt, training=False))
    scale = float(np.max(np.abs(y_tf))) or 1.0
    row["tf_out_max"] = scale
    row["frozen_vs_keras"] = float(np.max(np.abs(y_keras - y_tf)))
    log("   TF: first call %.2f s; output %s, max |y| %.4g, top-1 prob "
        "median %.3g; frozen graph vs Keras model max abs %.2e"
        % (row["tf_first_s"], list(y_tf.shape), scale,
           float(np.median(np.max(y_tf.reshape(batch, -1), axis=1))),
           row["frozen_vs_keras"]))
    if xla_fn is not None:
        try:
            y_xla, row["xla_compile_s"] = first_call(xla_fn, xt)
            row["xla_vs_tf_abs"] = float(np.max(np.abs(y_xla - y_tf)))
            log("   TF+XLA: first call %.2f s; vs TF max abs %.2e, rel %.2e"
                % (row["xla_compile_s"], row["xla_vs_tf_abs"],
                   row["xla_vs_tf_abs"] / scale))
        except Exception as e:  # noqa: BLE001
            log("   TF+XLA failed: %s" % str(e).splitlines()[0])
            row["xla_error"] = "TF+XLA failed: " + str(e).splitlines()[0]
            xla_fn = None

    # -- xlac: agreement (and compile time)
    common = ["--graph", os.path.join(d, "graph.pb"),
              "--config", os.path.join(d, "config.pbtxt"),
              "--input", "x=@" + os.path.join(d, "x.npy"),
              "--threads", str(ARGS.threads)]
    cache = os.path.join(d, "xlac-cache")
    outdir = os.path.join(d, "xlac_out")
    shutil.rmtree(cache, ignore_errors=True)
    shutil.rmtree(outdir, ignore_errors=True)
    os.makedirs(outdir)
    cmd = [xlac, "run"] + common + ["--output-dir", outdir,
                                     "--compile-cache", cache, "--verbose"]
    rc, out, err, secs = run_xlac(cmd)
    with open(os.path.join(d, "xlac_run.log"), "w") as f:
        f.write("$ " + " ".join(cmd) + "\n" + out + "\n--- stderr\n" + err)
    res = os.path.join(outdir, "result0.npy")
    if rc != 0 or not os.path.exists(res):
        what, msg = describe_failure(rc, out, err, secs)
        if rc == 0:
            what = "no result0.npy"
        row["xlac_error"] = "xlac run: " + what
        row["xlac_error_text"] = msg
        last = msg.splitlines()[-1] if msg else ""
        row["xlac_error_short"] = (what + ": " + last)[:160] \
            .replace("|", "\\|")
        log("   xlac FAILED (%s, %.1f s):\n%s" % (what, secs,
                                                  "      " + msg.replace(
                                                      "\n", "\n      ")))
    else:
        m = re.search(r"compiled in ([0-9.]+) ms", out + err)
        row["xlac_compile_s"] = float(m.group(1)) / 1e3 if m else secs
        row["xlac_run_wall_s"] = secs
        y = np.load(res)
        if y.shape != y_tf.shape:
            row["max_abs"] = float("inf")
            row["rel"] = float("inf")
            log("   xlac output shape %s, TF's %s" % (list(y.shape),
                                                       list(y_tf.shape)))
        else:
            diff = np.abs(y.astype(np.float64) - y_tf.astype(np.float64))
            row["max_abs"] = float(np.nanmax(diff)) if not np.isnan(diff).any() \
                else float("nan")
            row["rel"] = row["max_abs"] / scale
        row["flag"] = not (row["rel"] <= ARGS.rel_tol)
        log("   xlac: compiled in %.1f s (run wall %.1f s); vs TF max abs "
            "%.3e, rel %.3e%s"
            % (row["xlac_compile_s"], secs, row["max_abs"], row["rel"],
               "  ** DISAGREES **" if row["flag"] else ""))

    # -- interleaved rounds
    per = collections.defaultdict(list)
    for r in range(ARGS.rounds):
        per["tf"].append(time_tf(tf_fn, xt))
        if xla_fn is not None:
            per["xla"].append(time_tf(xla_fn, xt))
        if not row.get("xlac_error"):
            cmd = [xlac, "bench"] + common + [
                "--compile-cache", cache, "--warmup", str(ARGS.warmup),
                "--iters", str(ARGS.iters)]
            rc, out, err, secs = run_xlac(cmd)
            m = re.search(r"^BENCH .*median_ms=([0-9.eE+-]+)", out + err, re.M)
            if rc != 0 or not m:
                what, msg = describe_failure(rc, out, err, secs)
                row["xlac_bench_error"] = "xlac bench: %s: %s" % (what, msg)
                log("   xlac bench FAILED: %s\n%s" % (what, msg))
            else:
                per["xlac"].append(float(m.group(1)))
        log("   round %d: %s" % (r + 1, ", ".join(
            "%s %.2f ms" % (k, v[-1]) for k, v in per.items()
            if len(v) == r + 1)))
    row["rounds"] = dict(per)
    for k, key in (("tf", "tf_ms"), ("xla", "xla_ms"), ("xlac", "xlac_ms")):
        if per.get(k):
            row[key] = statistics.median(per[k])
    return row


def main():
    work = ARGS.work or tempfile.mkdtemp(prefix="xlac-bench-keras.")
    os.makedirs(work, exist_ok=True)
    work = os.path.abspath(work)
    xlac_src = os.path.abspath(ARGS.xlac)
    ARGS.xlac = xlac_src
    log("work directory %s; TensorFlow %s, Keras %s; threads %d; batches %s; "
        "models %s" % (work, tf.__version__, keras.__version__, ARGS.threads,
                       ARGS.batches, ", ".join(ARGS.models)))
    rows = []
    for name in ARGS.models:
        t0 = time.perf_counter()
        model = build_model(name)
        log("== %s: built, %d weights, %.1f M parameters (%.1f s)"
            % (name, len(model.weights), model.count_params() / 1e6,
               time.perf_counter() - t0))
        if ARGS.rebuild and not rebuild():
            log("   (could not rebuild; using the xlac that is there)")
        xlac = snapshot_xlac(work)
        for batch in ARGS.batches:
            try:
                row = bench_case(model, name, MODELS[name], batch, work, xlac)
            except Exception as e:  # noqa: BLE001
                log("   %s batch %d: benchmark error: %r" % (name, batch, e))
                row = dict(model=name, batch=batch, error=repr(e))
            rows.append(row)
            write_results(work, rows)
        del model
        keras.backend.clear_session()
    md_path = os.path.join(work, "results.md")
    print()
    with open(md_path) as f:
        sys.stdout.write(f.read())
    print("\n(written to %s)" % md_path)


if __name__ == "__main__":
    main()
