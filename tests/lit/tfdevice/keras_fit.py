"""Keras 3 fit/evaluate/predict with jit_compile=True on /device:XLAC:0
against the same model, from the same weights, on TensorFlow's CPU.

Prints the losses side by side; they must agree within float reordering,
and the variables must live on the xlac device."""
import os
import sys

import numpy as np
import tensorflow as tf
import keras

MODELS = sys.argv[1:] or ["mlp", "cnn", "lstm"]
rng = np.random.default_rng(0)
failures = 0


def mlp():
    x = rng.standard_normal((64, 8)).astype(np.float32)
    y = (x @ rng.standard_normal((8, 1)) + 0.5).astype(np.float32)
    m = keras.Sequential([keras.Input((8,)), keras.layers.Dense(16, activation="relu"), keras.layers.Dense(1)])
    return m, keras.optimizers.SGD(0.01), "mse", x, y


def cnn():
    x = rng.standard_normal((32, 12, 12, 1)).astype(np.float32)
    y = rng.integers(0, 4, 32).astype(np.int32)
    m = keras.Sequential([
        keras.Input((12, 12, 1)),
        keras.layers.Conv2D(6, 3, activation="relu"),
        keras.layers.BatchNormalization(),
        keras.layers.MaxPooling2D(2),
        keras.layers.Flatten(),
        keras.layers.Dense(4),
    ])
    return m, keras.optimizers.Adam(0.01), keras.losses.SparseCategoricalCrossentropy(from_logits=True), x, y


def lstm():
    x = rng.standard_normal((32, 6, 3)).astype(np.float32)
    y = x.sum(axis=(1, 2))[:, None].astype(np.float32)
    m = keras.Sequential([keras.Input((6, 3)), keras.layers.LSTM(8), keras.layers.Dense(1)])
    return m, keras.optimizers.Adam(0.01), "mse", x, y


def run(build, device, jit, weights):
    with tf.device(device):
        keras.utils.set_random_seed(1)
        m, opt, loss, x, y = build()
        if weights is not None:
            m.set_weights(weights)
        m.compile(optimizer=opt, loss=loss, jit_compile=jit)
        h = m.fit(x, y, batch_size=16, epochs=3, shuffle=False, verbose=0)
        ev = m.evaluate(x, y, batch_size=16, verbose=0)
        pred = m.predict(x[:8], batch_size=8, verbose=0)
    return m, h.history["loss"], ev, pred


for name in MODELS:
    build = globals()[name]
    # the same data and initial weights for both
    state = rng.bit_generator.state
    keras.utils.set_random_seed(1)
    init = build()[0].get_weights()
    rng.bit_generator.state = state
    mx, lx, ex, px = run(build, "/device:XLAC:0", True, init)
    rng.bit_generator.state = state
    mc, lc, ec, pc = run(build, "/CPU:0", False, init)
    on_xlac = all("XLAC" in v.value.device for v in mx.trainable_variables)
    ok = (on_xlac and np.allclose(lx, lc, rtol=1e-4, atol=1e-5) and np.isclose(ex, ec, rtol=1e-4, atol=1e-5)
          and np.allclose(px, pc, rtol=1e-3, atol=1e-4))
    print(f"{name}: fit losses xlac {np.round(lx, 6).tolist()} tf-cpu {np.round(lc, 6).tolist()}")
    print(f"{name}: evaluate xlac {ex:.6f} tf-cpu {ec:.6f}; predict max |diff| {np.abs(px - pc).max():.2e}; "
          f"variables on {mx.trainable_variables[0].value.device.split('/')[-1]} {'ok' if ok else 'MISMATCH'}")
    failures += not ok
dump = os.environ.get("XLAC_PJRT_DUMP")
if dump:
    protos = [f for f in os.listdir(dump) if f.endswith(".hlo.pb")]
    print(f"xlac compiled {len(protos)} HLO protos (train, evaluate and predict steps)")
    failures += len(protos) < 3 * len(MODELS)
print("FAILED" if failures else "all equal")
sys.exit(1 if failures else 0)
