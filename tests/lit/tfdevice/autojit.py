"""Auto-clustering: a plain tf.function (no jit_compile) on /device:XLAC:0,
with TF_XLA_FLAGS asking for auto-jit and compilation on demand, must form
one cluster that xlac compiles (seen in XLAC_PJRT_DUMP), and give
TensorFlow's CPU result."""
import os
import sys

import numpy as np
import tensorflow as tf

rng = np.random.default_rng(0)
x = rng.standard_normal((8, 16)).astype(np.float32)
w = rng.standard_normal((16, 4)).astype(np.float32)


def f(x, w):
    h = tf.nn.relu(tf.matmul(x, w))
    return tf.reduce_sum(h * 2.0 + 1.0, axis=1)


with tf.device("/device:XLAC:0"):
    got = tf.function(f)(tf.constant(x), tf.constant(w))
with tf.device("/CPU:0"):
    want = f(tf.constant(x), tf.constant(w))
ok = np.allclose(got.numpy(), want.numpy(), rtol=1e-5, atol=1e-5)
print(f"autojit: device {got.device.split('/')[-1]}, xlac {got.numpy()[:4]} tf-cpu {want.numpy()[:4]}")

dump = os.environ["XLAC_PJRT_DUMP"]
protos = sorted(f for f in os.listdir(dump) if f.endswith(".hlo.pb"))
# the cluster: one module holding the matmul, the relu and the reduction
from tensorflow.compiler.xla.service import hlo_pb2
clusters = []
for name in protos:
    m = hlo_pb2.HloModuleProto()
    with open(os.path.join(dump, name), "rb") as fh:
        m.ParseFromString(fh.read())
    ops = {i.opcode for c in m.computations for i in c.instructions}
    if {"dot", "maximum", "reduce"} <= ops:
        clusters.append((name, m.name))
print(f"xlac compiled {len(protos)} programs; clusters with dot, relu and reduce: {clusters}")
ok = ok and "XLAC" in got.device and len(clusters) >= 1
print("ok" if ok else "FAILED")
sys.exit(0 if ok else 1)
