"""A Keras 3 training step's time on xlac (the XLAC device of libxlac_tf.so,
jit_compile=True), on TensorFlow's CPU kernels (jit_compile=False) and on
TensorFlow's own XLA (jit_compile=True on the CPU).  Not a test.

Each model trains with model.fit from the same weights on the same batches;
an untimed epoch compiles and warms up, then the best of --rounds timed
epochs, divided by its steps, is the time of one step (fit's own per-step
overhead included, the same for all three).  Engines are interleaved round
by round so that load from other processes falls on all alike.

    TF_XLA_FLAGS=--tf_xla_use_device_api=true \\
    TF_PLUGGABLE_DEVICE_LIBRARY_PATH=build/lib/libxlac_tf.so \\
    XLAC_PJRT_LIBRARY=build/lib/libxlac_pjrt.so \\
    ~/.cache/xlac-tf/bin/python bench/tf/train_step.py [--rounds 3] [--steps 20] [--only mlp,cnn,lstm]

(make tf-plugin builds libxlac_tf.so.)  Prints a Markdown table."""
import argparse
import os
import platform
import time

import numpy as np
import tensorflow as tf
import keras

ap = argparse.ArgumentParser()
ap.add_argument("--rounds", type=int, default=3)
ap.add_argument("--steps", type=int, default=20, help="steps per timed epoch")
ap.add_argument("--only", default="mlp,cnn,lstm")
args = ap.parse_args()


def cpu_name():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def mlp():
    m = keras.Sequential([keras.Input((784,)), keras.layers.Dense(256, activation="relu"),
                          keras.layers.Dense(256, activation="relu"), keras.layers.Dense(10)])
    return m, 128, (784,), 10


def cnn():
    m = keras.Sequential([keras.Input((28, 28, 1)), keras.layers.Conv2D(32, 3, activation="relu"),
                          keras.layers.BatchNormalization(), keras.layers.MaxPooling2D(2),
                          keras.layers.Conv2D(64, 3, activation="relu"), keras.layers.BatchNormalization(),
                          keras.layers.MaxPooling2D(2), keras.layers.Flatten(), keras.layers.Dense(10)])
    return m, 64, (28, 28, 1), 10


def lstm():
    m = keras.Sequential([keras.Input((20, 32)), keras.layers.LSTM(64), keras.layers.Dense(10)])
    return m, 64, (20, 32), 10


ENGINES = [("xlac", "/device:XLAC:0", True), ("TF CPU", "/CPU:0", False), ("TF XLA (CPU)", "/CPU:0", True)]

rows = []
for name in args.only.split(","):
    build = globals()[name]
    keras.utils.set_random_seed(0)
    proto, batch, shape, classes = build()
    weights = proto.get_weights()
    rng = np.random.default_rng(0)
    n = batch * args.steps
    x = rng.standard_normal((n, *shape)).astype(np.float32)
    y = rng.integers(0, classes, n).astype(np.int32)
    models = []
    for label, device, jit in ENGINES:
        with tf.device(device):
            m = build()[0]
            m.set_weights(weights)
            m.compile(optimizer=keras.optimizers.Adam(1e-3),
                      loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True), jit_compile=jit)
            m.fit(x, y, batch_size=batch, epochs=1, shuffle=False, verbose=0)  # compile, warm up
        models.append((label, device, m))
    best = {label: float("inf") for label, _, _ in models}
    losses = {}
    for _ in range(args.rounds):
        for label, device, m in models:
            with tf.device(device):
                t = time.perf_counter()
                h = m.fit(x, y, batch_size=batch, epochs=1, shuffle=False, verbose=0)
                best[label] = min(best[label], (time.perf_counter() - t) / args.steps)
            losses[label] = h.history["loss"][-1]
    rows.append((name, batch, best, losses))

print(f"CPU: {cpu_name()}, {os.cpu_count()} logical CPUs; TensorFlow {tf.__version__}, Keras {keras.__version__}")
print(f"best of {args.rounds} epochs of {args.steps} steps after one warm-up epoch; Adam, sparse cross-entropy\n")
labels = [e[0] for e in ENGINES]
print("| model | batch | " + " | ".join(f"{l} ms/step" for l in labels) + " | xlac vs TF CPU | xlac vs TF XLA | last loss (xlac / TF CPU / TF XLA) |")
print("|---|---|" + "---|" * len(labels) + "---|---|---|")
for name, batch, best, losses in rows:
    ms = [best[l] * 1e3 for l in labels]
    print(f"| {name} | {batch} | " + " | ".join(f"{v:.2f}" for v in ms) +
          f" | {ms[1] / ms[0]:.2f}x | {ms[2] / ms[0]:.2f}x | " +
          " / ".join(f"{losses[l]:.5f}" for l in labels) + " |")
