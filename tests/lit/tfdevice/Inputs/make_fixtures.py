"""Regenerates the fixtures of fixtures.test: HloModuleProtos exactly as
TensorFlow hands them to xlac's PJRT plugin (format "hlo"), with inputs
and the results TensorFlow's own XLA (XLA:CPU, through jaxlib in the same
environment) computes for them.

Run from this directory in the environment with tensorflow-cpu (and jax),
with TensorFlow loading libxlac_tf.so (the plugin records the programs,
XLAC_PJRT_DUMP):

    TF_XLA_FLAGS=--tf_xla_use_device_api=true \\
    TF_PLUGGABLE_DEVICE_LIBRARY_PATH=.../libxlac_tf.so XLAC_PJRT_LIBRARY=.../libxlac_pjrt.so \\
    ~/.cache/xlac-tf/bin/python make_fixtures.py

Writes NAME.hlo.pb and NAME/argK.npy, NAME/resultK.npy for each fixture.
The jit_compile functions' results are also checked against TensorFlow's
CPU kernels here."""
import os
import shutil
import tempfile

import numpy as np
import tensorflow as tf
import keras
import jax

jax.config.update("jax_enable_x64", True)  # int64 counters stay int64
from jax._src.lib import xla_client as xc
from tensorflow.compiler.xla.service import hlo_pb2

here = os.path.dirname(os.path.abspath(__file__))
scratch = tempfile.mkdtemp()
rng = np.random.default_rng(7)
NP = {1: np.bool_, 4: np.int32, 5: np.int64, 11: np.float32}


def captured(tag, run):
    """The protos xlac compiled while run() ran, in order."""
    d = os.path.join(scratch, tag)
    os.environ["XLAC_PJRT_DUMP"] = d
    run()
    os.environ.pop("XLAC_PJRT_DUMP")
    # program-N: N counts over the whole process
    names = [f for f in os.listdir(d) if f.endswith(".hlo.pb")]
    return [os.path.join(d, f) for f in sorted(names, key=lambda f: int(f.split("-")[1].split(".")[0]))]


def params(proto):
    m = hlo_pb2.HloModuleProto()
    m.ParseFromString(proto)
    entry = next(c for c in m.computations if c.id == m.entry_computation_id)
    ps = sorted((i for i in entry.instructions if i.opcode == "parameter"), key=lambda i: i.parameter_number)
    return [(NP[p.shape.element_type], tuple(p.shape.dimensions)) for p in ps]


def xla_results(proto, args):
    """What XLA:CPU computes for the proto."""
    dev = jax.devices("cpu")[0]
    exe = dev.client.compile_and_load(xc._xla.mlir.hlo_to_stablehlo(proto), xc.DeviceList((dev,)),
                                      xc.CompileOptions())
    outs = exe.execute_sharded([jax.device_put(a, dev) for a in args]).disassemble_into_single_device_arrays()
    return [np.asarray(o[0]) for o in outs]


def keep(name, path, args, want=None):
    proto = open(path, "rb").read()
    sig = params(proto)
    assert [(a.dtype.type, a.shape) for a in args] == [(t, s) for t, s in sig], (name, sig)
    got = xla_results(proto, args)
    if want is not None:
        for g, w in zip(got, want):
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5)
    shutil.copy(path, os.path.join(here, name + ".hlo.pb"))
    d = os.path.join(here, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    for k, a in enumerate(args):
        np.save(os.path.join(d, f"arg{k}.npy"), a)
    for k, r in enumerate(got):
        np.save(os.path.join(d, f"result{k}.npy"), r)
    print(f"{name}: {len(args)} arguments, {len(got)} results, {len(proto)} bytes")


def filled(sig, given):
    """The given arrays first, then small positive values (optimizer
    moments must be) and iteration counts for the rest."""
    out = list(given)
    for t, s in sig[len(given):]:
        if t == np.float32:
            out.append((np.abs(rng.standard_normal(s)) * 0.1 + 0.01).astype(np.float32))
        else:
            out.append(np.full(s, 3, t))
    return out


# tf.function(jit_compile=True)
@tf.function(jit_compile=True)
def matmul_add(a, b, c):
    return tf.matmul(a, b) + c


@tf.function(jit_compile=True)
def reduction(x):
    return tf.reduce_sum(x, axis=1), tf.reduce_max(x), tf.reduce_mean(tf.exp(x), axis=0)


@tf.function(jit_compile=True)
def while_loop(x, n):
    def body(i, x):
        return i + 1, tf.tanh(x) * 1.5 + 0.1
    return tf.while_loop(lambda i, x: i < n, body, (tf.constant(0), x))[1]


def jit(name, f, *args):
    def run():
        with tf.device("/device:XLAC:0"):
            f(*args)
    (path,) = captured(name, run)
    with tf.device("/CPU:0"):
        want = tf.nest.flatten(tf.function(f.python_function)(*args))
    keep(name, path, [np.asarray(a) for a in args], [w.numpy() for w in want])


jit("tf_matmul_add", matmul_add, rng.standard_normal((8, 16)).astype(np.float32),
    rng.standard_normal((16, 4)).astype(np.float32), rng.standard_normal(4).astype(np.float32))
jit("tf_reduction", reduction, rng.standard_normal((5, 7)).astype(np.float32))
jit("tf_while_loop", while_loop, rng.standard_normal((3, 3)).astype(np.float32), np.int32(10))


# Keras 3 steps (jit_compile=True): train, and a predict
def keras_model(kind):
    keras.utils.set_random_seed(1)
    if kind == "mlp":
        x = rng.standard_normal((16, 8)).astype(np.float32)
        y = rng.standard_normal((16, 1)).astype(np.float32)
        m = keras.Sequential([keras.Input((8,)), keras.layers.Dense(16, activation="relu"), keras.layers.Dense(1)])
        return m, keras.optimizers.SGD(0.01), "mse", x, y
    if kind == "cnn":
        x = rng.standard_normal((16, 12, 12, 1)).astype(np.float32)
        y = rng.integers(0, 4, 16).astype(np.int32)
        m = keras.Sequential([keras.Input((12, 12, 1)), keras.layers.Conv2D(6, 3, activation="relu"),
                              keras.layers.BatchNormalization(), keras.layers.MaxPooling2D(2),
                              keras.layers.Flatten(), keras.layers.Dense(4)])
        return m, keras.optimizers.Adam(0.01), keras.losses.SparseCategoricalCrossentropy(from_logits=True), x, y
    x = rng.standard_normal((16, 6, 3)).astype(np.float32)
    y = rng.standard_normal((16, 1)).astype(np.float32)
    m = keras.Sequential([keras.Input((6, 3)), keras.layers.LSTM(8), keras.layers.Dense(1)])
    return m, keras.optimizers.Adam(0.01), "mse", x, y


for kind in ["mlp", "cnn", "lstm"]:
    def run():
        global x, y
        with tf.device("/device:XLAC:0"):  # the variables too
            m, opt, loss, x, y = keras_model(kind)
            m.compile(optimizer=opt, loss=loss, jit_compile=True)
            m.fit(x, y, batch_size=16, epochs=1, verbose=0)
            m.predict(x, batch_size=16, verbose=0)
    train, predict = captured(kind, run)
    proto = open(train, "rb").read()
    keep(f"keras_{kind}_train", train, filled(params(proto), [x, y]))
    if kind == "cnn":
        keep(f"keras_{kind}_predict", predict, filled(params(open(predict, "rb").read()), [x]))
shutil.rmtree(scratch)
