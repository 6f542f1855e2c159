"""Writes the HloModuleProto fixtures of tests/lit/hlopb: for each program,
NAME.hlo.pb (the serialized HloModuleProto JAX compiles) and NAME.hlo (the
same module as HLO text), which the tests run side by side.

    python make_fixtures.py            # with jax and jaxlib installed
    python make_fixtures.py --tf       # also tf_*.hlo.pb, with tensorflow
    python make_fixtures.py --scrub F  # drop source paths from protos (tensorflow's hlo_pb2)

The metadata keeps op types and names; source files and stack frames (paths
of the machine that made a fixture) are dropped: JAX's protos carry the
path of this script, so run --scrub on them (with tensorflow's Python)
after generating them.
"""
import sys

import numpy as np


def jax_fixtures():
    import jax
    import jax.numpy as jnp

    def save(name, f, *args):
        c = jax.jit(f).lower(*args).compiler_ir('hlo')
        with open(name + '.hlo.pb', 'wb') as out:
            out.write(c.as_serialized_hlo_module_proto())
        with open(name + '.hlo', 'w') as out:
            out.write(c.as_hlo_text())

    f32 = jnp.float32
    rng = np.random.default_rng(0)

    # an MLP: loss and gradients (forward and backward)
    w1 = jnp.asarray(rng.standard_normal((8, 16)), f32)
    w2 = jnp.asarray(rng.standard_normal((16, 4)), f32)

    def mlp_loss(params, x, y):
        a, b = params
        h = jax.nn.relu(x @ a)
        logits = h @ b
        return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * y, axis=-1))

    def mlp_step(params, x, y):
        loss, g = jax.value_and_grad(mlp_loss)(params, x, y)
        return loss, [p - 0.1 * d for p, d in zip(params, g)]

    save('mlp_step', mlp_step, (w1, w2), jnp.zeros((4, 8), f32), jnp.zeros((4, 4), f32))

    # a conv net training step: conv, max pool, dense, gradients
    k = jnp.asarray(rng.standard_normal((3, 3, 2, 4)) * 0.3, f32)
    d = jnp.asarray(rng.standard_normal((4 * 4 * 4, 3)) * 0.1, f32)

    def cnn_loss(params, x):
        kk, dd = params
        y = jax.lax.conv_general_dilated(x, kk, (1, 1), 'SAME', dimension_numbers=('NHWC', 'HWIO', 'NHWC'))
        y = jnp.tanh(y)
        y = jax.lax.reduce_window(y, -jnp.inf, jax.lax.max, (1, 2, 2, 1), (1, 2, 2, 1), 'VALID')
        y = y.reshape(y.shape[0], -1) @ dd
        return jnp.mean(y * y)

    def cnn_step(params, x):
        loss, g = jax.value_and_grad(cnn_loss)(params, x)
        return loss, [p - 0.05 * gg for p, gg in zip(params, g)]

    save('cnn_step', cnn_step, (k, d), jnp.zeros((2, 8, 8, 2), f32))

    # a while loop (Newton's iteration for a square root, a fixed count)
    def loop(x):
        def body(c):
            i, y = c
            return i + 1, 0.5 * (y + x / y)
        return jax.lax.while_loop(lambda c: c[0] < 6, body, (0, jnp.ones_like(x)))[1]

    save('while_loop', loop, jnp.zeros((5,), f32))

    # reductions: sum, max, argmax (a variadic reduce), over different axes
    def reduces(x):
        return jnp.sum(x, axis=0), jnp.max(x, axis=1), jnp.argmax(x, axis=1), jnp.prod(x)

    save('reduce', reduces, jnp.zeros((3, 4), f32))

    # dynamic slicing and updating, gather and scatter
    def dyn(x, i):
        s = jax.lax.dynamic_slice(x, (i, 1), (2, 3))
        u = jax.lax.dynamic_update_slice(x, s * 2.0, (1, i))
        g = x[jnp.array([2, 0, 1])]
        return s, u, g, x.at[jnp.array([0, 2])].add(1.0)

    save('dynamic_slice', dyn, jnp.zeros((4, 5), f32), jnp.int32(1))

    # a tuple of results of several types, a conditional, a sort, a constant
    def tup(x, flag):
        c = jnp.array([[1.5, -2.0], [0.25, 3.0]], f32)
        y = jax.lax.cond(flag, lambda v: v @ c, lambda v: v - 1.0, x)
        return y, jnp.sort(x, axis=-1), (x > 0).astype(jnp.int32), jnp.cumsum(x, 0)

    save('tuple_result', tup, jnp.zeros((3, 2), f32), True)


def tf_fixtures():
    import tensorflow as tf

    w = tf.Variable(np.linspace(-1, 1, 12).reshape(4, 3).astype(np.float32))

    @tf.function(jit_compile=True)
    def dense_step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(tf.nn.tanh(tf.matmul(x, w)) - y))
        g = tape.gradient(loss, w)
        w.assign_sub(0.1 * g)
        return loss

    import re

    from tensorflow.compiler.xla.service import hlo_pb2

    x = tf.zeros((2, 4), tf.float32)
    y = tf.zeros((2, 3), tf.float32)
    # the metadata keeps op types and names; source files (paths of the
    # machine that made the fixture) are dropped
    m = hlo_pb2.HloModuleProto.FromString(dense_step.experimental_get_compiler_ir(x, y)(stage='hlo_serialized'))
    m.ClearField('stack_frame_index')
    for c in m.computations:
        for i in c.instructions:
            i.metadata.ClearField('source_file')
            i.metadata.ClearField('source_line')
    with open('tf_dense_step.hlo.pb', 'wb') as out:
        out.write(m.SerializeToString())
    text = dense_step.experimental_get_compiler_ir(x, y)(stage='hlo')
    with open('tf_dense_step.hlo', 'w') as out:
        out.write(re.sub(r' source_file="[^"]*" source_line=[0-9]+', '', text))


def scrub(paths):
    from tensorflow.compiler.xla.service import hlo_pb2
    for path in paths:
        with open(path, 'rb') as f:
            m = hlo_pb2.HloModuleProto.FromString(f.read())
        m.ClearField('stack_frame_index')
        for c in m.computations:
            for i in c.instructions:
                i.metadata.ClearField('source_file')
                i.metadata.ClearField('source_line')
        with open(path, 'wb') as f:
            f.write(m.SerializeToString())


if __name__ == '__main__':
    if '--scrub' in sys.argv:
        scrub(sys.argv[sys.argv.index('--scrub') + 1:])
    elif '--tf' in sys.argv:
        tf_fixtures()
    else:
        jax_fixtures()
