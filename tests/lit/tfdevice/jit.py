"""tf.function(jit_compile=True) on /device:XLAC:0 against TensorFlow's CPU.

Each function runs on the xlac device (compiled by xlac through the PJRT
plugin) and on TensorFlow's CPU (its own kernels); the results must agree
within float reordering.  With a directory argument, the HLO protos
TensorFlow handed the plugin (XLAC_PJRT_DUMP) are checked to exist."""
import os
import sys

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(0)
failures = 0


def check(name, f, *args):
    global failures
    with tf.device("/device:XLAC:0"):
        got = f(*args)
    with tf.device("/CPU:0"):
        want = tf.function(f.python_function)(*args)
    got_dev = got.device if hasattr(got, "device") else got[0].device
    got = tf.nest.map_structure(lambda t: t.numpy(), got)
    want = tf.nest.map_structure(lambda t: t.numpy(), want)
    ok = "XLAC" in got_dev and all(
        np.allclose(g, w, rtol=1e-5, atol=1e-5) for g, w in zip(tf.nest.flatten(got), tf.nest.flatten(want)))
    print(f"{name}: device {got_dev.split('/')[-1]}, xlac {np.ravel(tf.nest.flatten(got)[0])[:4]} "
          f"tf-cpu {np.ravel(tf.nest.flatten(want)[0])[:4]} {'ok' if ok else 'MISMATCH'}")
    failures += not ok


@tf.function(jit_compile=True)
def matmul_add(a, b, c):
    return tf.matmul(a, b) + c


@tf.function(jit_compile=True)
def reduction(x):
    return tf.reduce_sum(x, axis=1), tf.reduce_max(x), tf.reduce_mean(tf.exp(x), axis=0)


@tf.function(jit_compile=True)
def while_loop(x, n):
    i = tf.constant(0)
    def body(i, x):
        return i + 1, tf.tanh(x) * 1.5 + 0.1
    _, y = tf.while_loop(lambda i, x: i < n, body, (i, x))
    return y


@tf.function(jit_compile=True)
def softmax_xent(logits, labels):
    return tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)


@tf.function(jit_compile=True)
def rank7(x):
    # shapes past six dimensions: TensorFlow hands their lists on the heap
    return tf.reduce_sum(tf.transpose(x, [6, 5, 4, 3, 2, 1, 0]) * 2.0, axis=[1, 3])


a = rng.standard_normal((8, 16), dtype=np.float32)
b = rng.standard_normal((16, 4), dtype=np.float32)
c = rng.standard_normal((4,), dtype=np.float32)
check("matmul_add", matmul_add, a, b, c)
check("reduction", reduction, rng.standard_normal((5, 7), dtype=np.float32))
check("while_loop", while_loop, rng.standard_normal((3, 3), dtype=np.float32), tf.constant(10))
check("rank7", rank7, rng.standard_normal((2, 1, 3, 1, 2, 2, 3), dtype=np.float32))
check("softmax_xent", softmax_xent, rng.standard_normal((6, 5), dtype=np.float32),
      np.array([0, 1, 2, 3, 4, 0], np.int32))

dump = os.environ.get("XLAC_PJRT_DUMP")
if dump:
    protos = sorted(f for f in os.listdir(dump) if f.endswith(".hlo.pb"))
    print(f"xlac compiled {len(protos)} HLO protos")
    failures += len(protos) < 5
print("FAILED" if failures else "all equal")
sys.exit(1 if failures else 0)
