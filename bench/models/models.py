"""The JAX models of the benchmark suite, shared by export.py and suite.py.

Each model is a function and the arguments it is called with.  Parameters are
drawn from jax.random.PRNGKey(0) and data with numpy from a fixed seed, so the
exporter and the timer build the same inputs.  Arguments are pytrees; jax
flattens them (jax.tree_util order) into the parameters of the lowered
module's @main, and the results likewise, so `leaves(args)` are xlac's
positional inputs and `leaves(fn(*args))` its results.

A model entry: fn, args, and the tolerances (atol, rtol) xlac's results must
meet against XLA's.
"""

import math

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

F32_TOL = (1e-4, 1e-3)
MODELS = {}


def model(tol=F32_TOL):
    def register(build):
        MODELS[build.__name__] = dict(build=build, tol=tol)
        return build
    return register


def leaves(tree):
    return [np.asarray(x) for x in jax.tree_util.tree_leaves(tree)]


def build(name):
    """(fn, args) of a model, args as numpy arrays."""
    fn, args = MODELS[name]["build"]()
    return fn, jax.tree_util.tree_map(np.asarray, args)


class Init:
    """Parameter initialiser: scaled normals from jax.random.PRNGKey(0)."""

    def __init__(self, seed=0, dtype=jnp.float32):
        self.key = jax.random.PRNGKey(seed)
        self.dtype = dtype

    def normal(self, shape, fan_in=None, scale=1.0):
        self.key, k = jax.random.split(self.key)
        s = scale / math.sqrt(fan_in if fan_in else shape[0])
        return (jax.random.normal(k, shape, jnp.float32) * s).astype(self.dtype)

    def zeros(self, shape):
        return jnp.zeros(shape, self.dtype)

    def ones(self, shape):
        return jnp.ones(shape, self.dtype)


def data(seed=0):
    return np.random.default_rng(seed)


def cross_entropy(logits, labels):
    logp = jax.nn.log_softmax(logits)
    return -jnp.mean(jnp.take_along_axis(logp, labels[:, None], axis=1))


def sgd(loss_fn, lr=0.01):
    """An SGD step: (params, *batch) -> (new params, loss)."""
    def step(params, *batch):
        loss, grads = jax.value_and_grad(loss_fn)(params, *batch)
        return jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads), loss
    return step


# ---- MLP ----

def _mlp_params():
    init = Init()
    sizes = [784, 512, 512, 10]
    return [dict(w=init.normal((a, b)), b=init.zeros((b,))) for a, b in zip(sizes, sizes[1:])]


def _mlp(params, x):
    for layer in params[:-1]:
        x = jax.nn.relu(x @ layer["w"] + layer["b"])
    return x @ params[-1]["w"] + params[-1]["b"]


def _images(rng, *shape):
    return rng.standard_normal(shape, dtype=np.float32)


def _labels(rng, n):
    return rng.integers(0, 10, size=(n,), dtype=np.int32)


@model()
def mlp_infer():
    return _mlp, (_mlp_params(), _images(data(), 64, 784))


@model()
def mlp_train():
    rng = data()
    step = sgd(lambda p, x, y: cross_entropy(_mlp(p, x), y))
    return step, (_mlp_params(), _images(rng, 64, 784), _labels(rng, 64))


# ---- CNN ----

def _conv(x, w, stride=1):
    return lax.conv_general_dilated(x, w, (stride, stride), "SAME",
                                    dimension_numbers=("NHWC", "HWIO", "NHWC"))


def _cnn_params():
    init = Init()
    return dict(c1=init.normal((3, 3, 3, 32), 27), b1=init.zeros((32,)),
                c2=init.normal((3, 3, 32, 64), 288), b2=init.zeros((64,)),
                w=init.normal((64, 10)), b=init.zeros((10,)))


def _cnn(p, x):
    h = jax.nn.relu(_conv(x, p["c1"]) + p["b1"])
    # 2x2 max pooling: its gradient is a select-and-scatter.
    h = lax.reduce_window(h, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
    h = jax.nn.relu(_conv(h, p["c2"]) + p["b2"])
    return jnp.mean(h, axis=(1, 2)) @ p["w"] + p["b"]


@model()
def cnn_infer():
    return _cnn, (_cnn_params(), _images(data(), 16, 32, 32, 3))


@model()
def cnn_train():
    rng = data()
    step = sgd(lambda p, x, y: cross_entropy(_cnn(p, x), y))
    return step, (_cnn_params(), _images(rng, 16, 32, 32, 3), _labels(rng, 16))


# ---- Transformer encoder ----

D, HEADS, FF = 128, 4, 512


def _layer_norm(x, g, b, eps=1e-5):
    mean = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean(jnp.square(x - mean), axis=-1, keepdims=True)
    return (x - mean) * lax.rsqrt(var + eps) * g + b


def _mha(x, wqkv, wo, heads):
    b, s, d = x.shape
    q, k, v = jnp.split(x @ wqkv, 3, axis=-1)
    q, k, v = (t.reshape(b, s, heads, d // heads) for t in (q, k, v))
    scores = jnp.einsum("bqhd,bkhd->bhqk", q, k) / math.sqrt(d // heads)
    out = jnp.einsum("bhqk,bkhd->bqhd", jax.nn.softmax(scores, axis=-1), v)
    return out.reshape(b, s, d) @ wo


def _transformer_params():
    init = Init()
    layers = [dict(ln1_g=init.ones((D,)), ln1_b=init.zeros((D,)),
                   wqkv=init.normal((D, 3 * D)), wo=init.normal((D, D)),
                   ln2_g=init.ones((D,)), ln2_b=init.zeros((D,)),
                   w1=init.normal((D, FF)), b1=init.zeros((FF,)),
                   w2=init.normal((FF, D)), b2=init.zeros((D,)))
              for _ in range(2)]
    return dict(layers=layers, ln_g=init.ones((D,)), ln_b=init.zeros((D,)),
                head=init.normal((D, 10)))


def _transformer(p, x):
    for l in p["layers"]:
        x = x + _mha(_layer_norm(x, l["ln1_g"], l["ln1_b"]), l["wqkv"], l["wo"], HEADS)
        h = _layer_norm(x, l["ln2_g"], l["ln2_b"])
        x = x + jax.nn.gelu(h @ l["w1"] + l["b1"]) @ l["w2"] + l["b2"]
    x = _layer_norm(x, p["ln_g"], p["ln_b"])
    return jnp.mean(x, axis=1) @ p["head"]


@model()
def transformer_infer():
    return _transformer, (_transformer_params(), _images(data(), 8, 64, D))


@model()
def transformer_train():
    rng = data()
    step = sgd(lambda p, x, y: cross_entropy(_transformer(p, x), y))
    return step, (_transformer_params(), _images(rng, 8, 64, D), _labels(rng, 8))


# ---- ResNet basic block ----

def _resnet_params(dtype=jnp.float32):
    init = Init(dtype=dtype)
    c = 64
    return dict(w1=init.normal((3, 3, c, c), 9 * c), g1=init.ones((c,)), b1=init.zeros((c,)),
                w2=init.normal((3, 3, c, c), 9 * c), g2=init.ones((c,)), b2=init.zeros((c,)))


def _bn_stats(c, rng, dtype=np.float32):
    return dict(mean=np.asarray(rng.normal(0, 0.1, c).astype(np.float32), dtype),
                var=np.asarray(rng.uniform(0.5, 1.5, c).astype(np.float32), dtype))


def _bn(x, g, b, mean, var, eps=1e-5):
    return (x - mean) * lax.rsqrt(var + eps) * g + b


def _resnet_block(p, s1, s2, x):
    h = jax.nn.relu(_bn(_conv(x, p["w1"]), p["g1"], p["b1"], s1["mean"], s1["var"]))
    h = _bn(_conv(h, p["w2"]), p["g2"], p["b2"], s2["mean"], s2["var"])
    return jax.nn.relu(h + x)


def _bn_train(x, g, b):
    # Batch statistics over N, H, W, as in training mode.
    mean = jnp.mean(x, axis=(0, 1, 2))
    var = jnp.var(x, axis=(0, 1, 2))
    return _bn(x, g, b, mean, var)


def _resnet_loss(p, x, target):
    h = jax.nn.relu(_bn_train(_conv(x, p["w1"]), p["g1"], p["b1"]))
    h = _bn_train(_conv(h, p["w2"]), p["g2"], p["b2"])
    return jnp.mean(jnp.square(jax.nn.relu(h + x) - target))


@model()
def resnet_block():
    rng = data()
    return _resnet_block, (_resnet_params(), _bn_stats(64, rng), _bn_stats(64, rng),
                           _images(rng, 4, 56, 56, 64))


@model()
def resnet_block_train():
    rng = data()
    return sgd(_resnet_loss), (_resnet_params(), _images(rng, 4, 56, 56, 64),
                               _images(rng, 4, 56, 56, 64))


# ---- Self-attention ----

@model()
def attention():
    init = Init()
    d = 256
    p = dict(wqkv=init.normal((d, 3 * d)), wo=init.normal((d, d)))
    return (lambda p, x: _mha(x, p["wqkv"], p["wo"], 8)), (p, _images(data(), 4, 256, d))


# ---- Embedding bag and its gradient ----

@model()
def embedding_bag():
    rng = data()
    table = Init().normal((10000, 64), 1)
    ids = rng.integers(0, 10000, size=(256, 20), dtype=np.int32)
    cotangent = _images(rng, 256, 64)

    def bag(table, ids):
        return jnp.mean(table[ids], axis=1)

    def fn(table, ids, cotangent):
        # The gradient of <bag(table), cotangent> is the scatter-add of the
        # cotangent rows into the table rows the bags gathered.
        grad = jax.grad(lambda t: jnp.sum(bag(t, ids) * cotangent))(table)
        return bag(table, ids), grad

    return fn, (table, ids, cotangent)


# ---- LSTM over lax.scan ----

@model()
def lstm_scan():
    init, rng = Init(), data()
    hidden, inp = 128, 64
    p = dict(w=init.normal((inp, 4 * hidden)), u=init.normal((hidden, 4 * hidden)),
             b=init.zeros((4 * hidden,)))
    xs = _images(rng, 50, 32, inp)
    h0 = np.zeros((32, hidden), np.float32)

    def fn(p, xs, h0, c0):
        def cell(carry, x):
            h, c = carry
            i, f, g, o = jnp.split(x @ p["w"] + h @ p["u"] + p["b"], 4, axis=-1)
            c = jax.nn.sigmoid(f) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
            h = jax.nn.sigmoid(o) * jnp.tanh(c)
            return (h, c), h
        (h, c), hs = lax.scan(cell, (h0, c0), xs)
        return h, c, hs

    return fn, (p, xs, h0, h0.copy())


# ---- Sorting ----

def _distinct_rows(rng, rows, cols):
    # Distinct values in every row, so that indices are unique and can be
    # compared exactly.
    keys = rng.permuted(np.tile(np.arange(cols, dtype=np.float32), (rows, 1)), axis=1)
    return (keys / cols - 0.5).astype(np.float32)


@model(tol=(0, 0))
def topk_argsort():
    rng = data()

    def fn(x, y):
        values, indices = lax.top_k(x, 16)
        return values, indices, jnp.argsort(y, axis=-1)

    return fn, (_distinct_rows(rng, 512, 4096), _distinct_rows(rng, 256, 1024))


# ---- Scan-like reductions and FFT ----

@model(tol=(1e-3, 1e-3))
def cumsum_rfft():
    def fn(x):
        return jnp.cumsum(x, axis=1), jnp.fft.rfft(x)
    return fn, (_images(data(), 1024, 1024),)


# ---- Half precision ----

@model(tol=(1e-2, 1e-2))
def f16_block():
    init = Init(dtype=jnp.float16)

    def fn(x, w, b):
        h = x @ w + b
        return jax.nn.gelu(h, approximate=False), jnp.tanh(h), jax.nn.sigmoid(h)

    x = _images(data(), 256, 512).astype(np.float16)
    return fn, (x, init.normal((512, 512)), init.zeros((512,)))


@model(tol=(5e-2, 5e-2))
def bf16_block():
    init = Init(dtype=jnp.bfloat16)

    def fn(x, w, g, b):
        h = _layer_norm(x @ w, g, b)
        return jax.nn.gelu(h)

    x = jnp.asarray(_images(data(), 256, 512), jnp.bfloat16)
    return fn, (x, init.normal((512, 512)), init.ones((512,)), init.zeros((512,)))


@model(tol=(5e-2, 5e-2))
def resnet_block_bf16():
    # resnet_block with every parameter and activation in bfloat16 (as
    # bench/torch/bf16.py runs it in PyTorch); the same draws, rounded
    rng = data()
    bf16 = jnp.bfloat16
    return _resnet_block, (_resnet_params(bf16), _bn_stats(64, rng, bf16), _bn_stats(64, rng, bf16),
                           np.asarray(_images(rng, 4, 56, 56, 64), bf16))
