#!/usr/bin/env python3
"""Builds the three AOT benchmark models and writes everything needed to
compile them ahead of time, with TensorFlow's AOT path and with xlac.

For each model NAME (tiny, mlp, cnn) this writes into OUT:

    OUT/NAME/saved_model/     a SavedModel, tag "serve", signature
                              "serving_default" (input for
                              `saved_model_cli aot_compile_cpu`)
    OUT/NAME.hlo              HLO text of the very same function, as XLA
                              sees it before optimization (input for xlac)
    OUT/NAME.in<i>.npy        the inputs, in signature argument order
                              (seeded, deterministic)
    OUT/NAME.out.npy          TensorFlow's result on those inputs
    OUT/NAME.in<i>.bin        the same inputs and result as raw
    OUT/NAME.out.bin          little-endian float32, for the C++ timer
    OUT/manifest.txt          one line per model:
                              NAME ARG:SHAPE,... -> OUTPUTKEY:SHAPE
    OUT/xla_dump/             XLA's dumps, where NAME.hlo is copied from

The weights are drawn from a seeded numpy generator and put into the
function as constants (tf.constant inside the traced function), so both the
SavedModel graph and the HLO carry them as constants and the only
parameters are the model inputs.

usage: models.py OUT [--seed N] [--only NAME ...]
"""

import argparse
import glob
import os
import shutil
import sys

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")


NAMES = ("tiny", "mlp", "cnn")


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--only", nargs="*", choices=NAMES, default=list(NAMES))
    return ap.parse_args()


if __name__ == "__main__":
    ARGS = parse_args()
    # The HLO is taken from XLA's own dump of the module it compiles for the
    # jit_compile function: it is exactly what XLA starts from, and unlike
    # experimental_get_compiler_ir's text it prints large constants in full
    # rather than as {...}.  XLA reads XLA_FLAGS once, when TensorFlow
    # loads, so this has to happen before the import.
    DUMP = os.path.join(os.path.abspath(ARGS.out), "xla_dump")
    shutil.rmtree(DUMP, ignore_errors=True)
    os.environ["XLA_FLAGS"] = " ".join(filter(None, [
        os.environ.get("XLA_FLAGS", ""),
        "--xla_dump_to=" + DUMP,
        "--xla_dump_hlo_as_text",
        "--xla_dump_large_constants",
    ]))

import tensorflow as tf  # noqa: E402

F32 = np.float32


def _uniform(rng, shape, scale):
    return rng.uniform(-scale, scale, size=shape).astype(F32)


def make_tiny(rng):
    del rng  # no weights

    specs = [tf.TensorSpec([2, 3], tf.float32, name="x"),
             tf.TensorSpec([3, 2], tf.float32, name="y")]

    def tiny(x, y):
        return tf.linalg.matmul(x, y)

    return tiny, specs


def make_mlp(rng):
    w1 = _uniform(rng, (784, 128), 1.0 / np.sqrt(784))
    b1 = _uniform(rng, (128,), 0.1)
    w2 = _uniform(rng, (128, 10), 1.0 / np.sqrt(128))
    b2 = _uniform(rng, (10,), 0.1)

    specs = [tf.TensorSpec([1, 784], tf.float32, name="x")]

    def mlp(x):
        h = tf.nn.relu(tf.linalg.matmul(x, tf.constant(w1)) + tf.constant(b1))
        return tf.linalg.matmul(h, tf.constant(w2)) + tf.constant(b2)

    return mlp, specs


def make_cnn(rng):
    # Filters are HWIO, as tf.nn.conv2d wants them.
    k1 = _uniform(rng, (3, 3, 3, 16), 1.0 / np.sqrt(27))
    c1 = _uniform(rng, (16,), 0.1)
    k2 = _uniform(rng, (3, 3, 16, 32), 1.0 / np.sqrt(144))
    c2 = _uniform(rng, (32,), 0.1)
    wd = _uniform(rng, (32, 10), 1.0 / np.sqrt(32))
    bd = _uniform(rng, (10,), 0.1)

    specs = [tf.TensorSpec([1, 32, 32, 3], tf.float32, name="x")]

    def cnn(x):
        h = tf.nn.conv2d(x, tf.constant(k1), strides=1, padding="SAME")
        h = tf.nn.relu(h + tf.constant(c1))                        # [1,32,32,16]
        h = tf.nn.max_pool2d(h, ksize=2, strides=2, padding="VALID")  # [1,16,16,16]
        h = tf.nn.conv2d(h, tf.constant(k2), strides=1, padding="SAME")
        h = tf.nn.relu(h + tf.constant(c2))                        # [1,16,16,32]
        h = tf.math.reduce_mean(h, axis=[1, 2])                    # [1,32]
        return tf.linalg.matmul(h, tf.constant(wd)) + tf.constant(bd)  # [1,10]

    return cnn, specs


def write_hlo(name, out, jitted, inputs):
    """Copies XLA's dump of NAME's module to OUT/NAME.hlo."""
    dump = os.path.join(out, "xla_dump")
    found = sorted(glob.glob(os.path.join(
        dump, "module_*.a_inference_%s_[0-9]*.before_optimizations.txt" % name)))
    if found:
        with open(found[-1]) as f:
            text = f.read()
    else:
        # No dump (XLA_FLAGS overridden?): fall back to the compiler IR API,
        # which elides large constants as {...}.
        print("models.py: warning: no XLA dump for %s; the HLO text from "
              "experimental_get_compiler_ir elides large constants" % name)
        text = jitted.experimental_get_compiler_ir(*inputs)(stage="hlo")
    with open(os.path.join(out, name + ".hlo"), "w") as f:
        f.write(text if text.endswith("\n") else text + "\n")


MODELS = {"tiny": make_tiny, "mlp": make_mlp, "cnn": make_cnn}


def export(name, out, seed):
    # One generator per model, so a model's weights and inputs do not
    # depend on which other models are built.
    rng = np.random.default_rng([seed, NAMES.index(name)])
    fn, specs = MODELS[name](rng)
    inputs = [rng.uniform(-1.0, 1.0, size=s.shape).astype(F32) for s in specs]

    # The SavedModel: a module whose serving signature is the function.
    module = tf.Module()
    module.f = tf.function(fn, input_signature=specs, autograph=False)
    sm_dir = os.path.join(out, name, "saved_model")
    tf.saved_model.save(module, sm_dir,
                        signatures={"serving_default": module.f})

    # The same Python function compiled by XLA through tf2xla; running it
    # makes XLA dump the HLO module it starts from (see XLA_FLAGS above).
    jitted = tf.function(fn, input_signature=specs, jit_compile=True,
                         autograph=False)
    xla_result = jitted(*inputs).numpy()
    write_hlo(name, out, jitted, inputs)

    # TensorFlow's reference output, run the way the SavedModel runs it.
    loaded = tf.saved_model.load(sm_dir)
    sig = loaded.signatures["serving_default"]
    res = sig(**{s.name: tf.constant(a) for s, a in zip(specs, inputs)})
    if len(res) != 1:
        raise SystemExit("%s: expected one output, got %s" % (name, list(res)))
    out_key = next(iter(res))
    result = res[out_key].numpy().astype(F32)

    # Cross-check: the XLA-compiled function agrees with the graph run.
    err = float(np.max(np.abs(xla_result - result)))
    if err > 1e-4:
        raise SystemExit("%s: jit_compile result differs from the "
                         "SavedModel result by %g" % (name, err))

    for i, a in enumerate(inputs):
        np.save(os.path.join(out, "%s.in%d.npy" % (name, i)), a)
        a.astype("<f4").tofile(os.path.join(out, "%s.in%d.bin" % (name, i)))
    np.save(os.path.join(out, name + ".out.npy"), result)
    result.astype("<f4").tofile(os.path.join(out, name + ".out.bin"))

    shape = lambda s: "x".join(str(d) for d in s) or "scalar"  # noqa: E731
    args = ",".join("%s:%s" % (s.name, shape(s.shape)) for s in specs)
    line = "%s %s -> %s:%s" % (name, args, out_key, shape(result.shape))
    print("models.py: %s (xla vs graph max abs err %.3g)" % (line, err))
    return line


def main(a):
    os.makedirs(a.out, exist_ok=True)
    lines = [export(n, a.out, a.seed) for n in a.only]
    with open(os.path.join(a.out, "manifest.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("models.py: TensorFlow %s, wrote %s" % (tf.__version__, a.out))
    return 0


if __name__ == "__main__":
    sys.exit(main(ARGS))
