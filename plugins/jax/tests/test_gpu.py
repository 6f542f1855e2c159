"""JAX on xlac's gpu backend (XLAC_PJRT_BACKEND=gpu): jitted functions run
on the GPU through the plugin and agree with JAX's CPU backend; the
device's kind is the GPU's name.  Needs a CUDA driver with a GPU, or
GPGPU-Sim (tests/lit/jax/gpu.test runs this through
tests/lit/gpu/Inputs/sim.sh).

Run through run.sh: plugins/jax/tests/run.sh test_gpu.py [--default]
(--default: XLAC_PJRT_BACKEND unset, which takes the GPU where there is
one; runs the first tests only)
"""
import os
import sys

DEFAULT = "--default" in sys.argv[1:]
if DEFAULT:
    os.environ.pop("XLAC_PJRT_BACKEND", None)
else:
    os.environ["XLAC_PJRT_BACKEND"] = "gpu"
os.environ["JAX_PLATFORMS"] = "xlac,cpu"

import numpy as np  # noqa: E402
import jax  # noqa: E402
from harness import check, finish  # noqa: E402
import jax.numpy as jnp  # noqa: E402



X = jax.devices("xlac")
C = jax.devices("cpu")[0]
print("device kind:", X[0].device_kind)


def both(f, *args, rtol=1e-5, atol=1e-5):
    got = jax.jit(f)(*[jax.device_put(a, X[0]) for a in args])
    want = jax.jit(f)(*[jax.device_put(a, C) for a in args])
    for g, w in zip(jax.tree.leaves(got), jax.tree.leaves(want)):
        assert {d.platform for d in g.devices()} == {"xlac"}, g.devices()
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=rtol, atol=atol)


rng = np.random.default_rng(0)
x = rng.standard_normal((32, 48), dtype=np.float32)
w = rng.standard_normal((48, 24), dtype=np.float32)
b = rng.standard_normal((24,), dtype=np.float32)


def one_device():
    assert len(X) == 1, X
    assert X[0].device_kind not in ("", "cpu"), X[0].device_kind


def mlp():
    both(lambda x, w, b: jax.nn.relu(x @ w + b), x, w, b)


def softmax_rows():
    both(lambda x: jax.nn.softmax(x, axis=-1), x, atol=1e-6)


def reductions():
    both(lambda x: (x.sum(), x.max(axis=0), jnp.argmax(x, axis=1), (x * x).mean(axis=1)), x, rtol=1e-4)


def loop():
    def f(x):
        return jax.lax.fori_loop(0, 5, lambda i, v: jnp.tanh(v) * 1.5 + i, x)
    both(f, x)


def grad_step():
    def loss(w, x):
        return jnp.mean(jnp.tanh(x @ w) ** 2)
    both(lambda w, x: w - 0.1 * jax.grad(loss)(w, x), w, x, rtol=1e-4)


def embedding_grad():
    E = rng.standard_normal((20, 8), dtype=np.float32)
    idx = np.array([3, 1, 3, 19, 0, 3, 7], np.int32)
    both(lambda E, i: jax.grad(lambda E: (jnp.tanh(E[i]) ** 2).sum())(E), E, idx)
    both(lambda E, i: E.at[i].add(1.5), E, idx)


def sorting():
    both(lambda x: (jnp.sort(x, axis=1), jnp.argsort(x, axis=1), jax.lax.top_k(x, 5)), x)


def cnn_step():
    """conv + bias + relu + max pool + dense, one SGD step (the pool's
    gradient is a select_and_scatter, the conv's gradients convolutions)"""
    img = rng.standard_normal((4, 10, 10, 3), dtype=np.float32)
    k = rng.standard_normal((3, 3, 3, 8), dtype=np.float32) * 0.3
    d = rng.standard_normal((5 * 5 * 8, 10), dtype=np.float32) * 0.1

    def loss(k, d, img):
        y = jax.lax.conv_general_dilated(img, k, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
        y = jax.nn.relu(y)
        y = jax.lax.reduce_window(y, -jnp.inf, jax.lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
        return jnp.mean(jax.nn.log_softmax(y.reshape(4, -1) @ d)[:, 0])

    def step(k, d, img):
        gk, gd = jax.grad(loss, argnums=(0, 1))(k, d, img)
        return k - 0.1 * gk, d - 0.1 * gd
    both(step, k, d, img, rtol=1e-4, atol=1e-5)


def random_numbers():
    """jax.random inside jit, the same key on both backends: threefry (the
    default, elementwise ops) and the rbg keys (rng_bit_generator, Philox).
    Bits, uniform and bernoulli are integer or exact arithmetic (equal);
    normal goes through erf_inv (the inline math's few ULP)."""
    for impl in ("threefry2x32", "rbg", "unsafe_rbg"):
        def draw(seed, x):
            k1, k2, k3 = jax.random.split(jax.random.key(seed, impl=impl), 3)
            keep = jax.random.bernoulli(k3, 0.8, x.shape)
            return (jax.random.bits(k1, (33, 7)), jax.random.bits(k1, (5,), jnp.uint8),
                    jax.random.uniform(k2, (64, 5)), jnp.where(keep, x * 1.25, 0.0))

        def normal(seed):
            return jax.random.normal(jax.random.key(seed, impl=impl), (300,))
        both(draw, np.uint32(42), x, rtol=0, atol=0)
        both(normal, np.uint32(7), rtol=1e-5, atol=1e-6)


def host_work():
    """What runs on the host between the kernels: jax.debug.print and
    jax.pure_callback (the plugin's host functions), eigh (a LAPACK call),
    then an FFT-based convolution on the device, against the CPU backend."""
    seen = []

    def cb(a):
        seen.append(np.asarray(a).copy())
        return np.asarray(a) * 2 + 1

    def f(x):
        y = jnp.tanh(x) * 1.5
        jax.debug.print("row0 sum {s:.4f}", s=y[0].sum())
        z = jax.pure_callback(cb, jax.ShapeDtypeStruct(y.shape, y.dtype), y)
        return jnp.tanh(z)
    both(f, x)
    assert len(seen) == 2 and np.allclose(seen[0], seen[1], rtol=1e-5, atol=1e-6), len(seen)
    m = x[:8, :8] @ x[:8, :8].T + 8 * np.eye(8, dtype=np.float32)
    both(lambda m: jnp.linalg.eigh(m)[0], m, rtol=1e-4, atol=1e-4)
    if "GPGPU-Sim" in X[0].device_kind:
        return  # its PTX parser misreads the f64 twiddles' 64-bit immediates (docs/gpu.md)
    sig = x[:4].astype(np.float32)
    both(lambda s: jnp.fft.irfft(jnp.fft.rfft(s, axis=-1) * jnp.fft.rfft(s[::-1], axis=-1), axis=-1), sig,
         rtol=1e-4, atol=1e-4)


def ordered_effects():
    """Ordered effects (a token through the program, and through a scan's
    loop): jax.debug.print(ordered=True) and an ordered io_callback run in
    program order, once per call and per iteration."""
    from jax.experimental import io_callback
    seen = []

    def record(v):
        seen.append(float(v))
        return np.float32(v * 2)

    def f(x):
        jax.debug.print("first {v:.3f}", v=x[0, 0], ordered=True)

        def body(c, i):
            r = io_callback(record, jax.ShapeDtypeStruct((), jnp.float32), c + i, ordered=True)
            return c + r, r
        c, rs = jax.lax.scan(body, x[0, 0], x[1, :3])
        jax.debug.print("last {v:.3f}", v=c, ordered=True)
        return c, rs

    got = jax.jit(f)(jax.device_put(x, X[0]))
    jax.effects_barrier()
    c0 = float(x[0, 0])
    want = []
    c = c0
    for i in x[1, :3].astype(np.float64):
        want.append(c + i)
        c = c + 2 * (c + i)
    assert len(seen) == 3 and np.allclose(seen, want, rtol=1e-5), (seen, want)
    np.testing.assert_allclose(float(got[0]), c, rtol=1e-5)
    np.testing.assert_allclose(np.asarray(got[1]), 2 * np.asarray(want, np.float32), rtol=1e-5)


def resident_donation():
    """Buffers stay on the device between calls (not on the CPU for
    numpy), and donation: a training loop feeding its donated state back,
    and Keras's predict_step form (the donated state updated into one
    result and returned as it is as another) gives both results their
    values."""
    xs = jax.device_put(x, X[0])
    assert xs.devices() == {X[0]}

    def step(s, y):
        return s * 0.5 + jnp.tanh(y), s.sum()

    stepj = jax.jit(step, donate_argnums=0)
    s_x, s_c = jax.device_put(x, X[0]), jax.device_put(x, C)
    y = xs * 0.25
    for _ in range(4):
        old = s_x
        s_x, t_x = stepj(s_x, y)
        assert old.is_deleted()
        s_c, t_c = jax.jit(step)(s_c, jax.device_put(np.asarray(y), C))
    np.testing.assert_allclose(np.asarray(s_x), np.asarray(s_c), rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(np.asarray(t_x), np.asarray(t_c), rtol=1e-5)

    def predict_step(state, v):
        return jnp.tanh(v @ state["k"]), state

    st = {"k": jax.device_put(w, X[0])}
    out, st2 = jax.jit(predict_step, donate_argnums=0)(st, xs)
    assert st["k"].is_deleted()
    np.testing.assert_allclose(np.asarray(st2["k"]), w)
    np.testing.assert_allclose(np.asarray(out), np.tanh(x @ w), rtol=1e-5, atol=1e-5)


TESTS = [("one_device", one_device), ("mlp", mlp), ("softmax_rows", softmax_rows),
         ("reductions", reductions), ("loop", loop), ("grad_step", grad_step),
         ("embedding_grad", embedding_grad), ("sorting", sorting), ("cnn_step", cnn_step),
         ("random_numbers", random_numbers), ("host_work", host_work),
         ("resident_donation", resident_donation), ("ordered_effects", ordered_effects)]
for name, fn in TESTS[:2] if DEFAULT else TESTS:
    check(name, fn)
finish()
