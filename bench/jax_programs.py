"""The benchmark programs, written once as JAX functions.

gen_programs.py lowers each of them to StableHLO text (bench/programs/*.mlir,
the files xlac runs); xla_bench.py times the very same functions on JAX/XLA's
CPU backend so the comparison is between identical computations.  Each entry
also says how many bytes the program must move at least and how many
floating-point operations it does, so the harness can turn a time into GB/s or
GFLOP/s without knowing anything else about the program.
"""

import math

import jax
import jax.numpy as jnp

F32 = jnp.float32
F16 = jnp.float16
N16M = 16 * 1024 * 1024
N4M = 4 * 1024 * 1024


def reduce_sum_xyz(x, y, z):
    return jnp.sum(x + y * z)


def ew_chain10(a, b):
    # Ten elementwise ops, no constants: each op is one StableHLO op, and a
    # fused kernel reads a and b once and writes the result once.
    t1 = a + b
    t2 = t1 * a
    t3 = jnp.maximum(t2, b)
    t4 = t3 - a
    t5 = jnp.abs(t4)
    t6 = t5 * b
    t7 = jnp.minimum(t6, a)
    t8 = t7 + t1
    t9 = -t8
    return jnp.maximum(t9, t2)


def transpose(x):
    # A plain 2-D transpose: every element moves, no arithmetic.
    return jnp.transpose(x)


def sgemm(a, b):
    return jnp.dot(a, b)


def softmax(x):
    return jax.nn.softmax(x, axis=-1)


def layernorm(x, gamma, beta):
    mean = jnp.mean(x, axis=-1, keepdims=True)
    centered = x - mean
    var = jnp.mean(centered * centered, axis=-1, keepdims=True)
    return centered * jax.lax.rsqrt(var + 1e-5) * gamma + beta


def mlp(x, w1, b1, w2, b2):
    h = jax.nn.gelu(jnp.dot(x, w1) + b1, approximate=True)
    return jnp.dot(h, w2) + b2


def _conv3x3(x, w):
    return jax.lax.conv_general_dilated(
        x, w, window_strides=(1, 1), padding="SAME",
        dimension_numbers=("NHWC", "HWIO", "NHWC"))


def resnet_block(x, w1, b1, w2, b2):
    h = jax.nn.relu(_conv3x3(x, w1) + b1)
    h = _conv3x3(h, w2) + b2
    return jax.nn.relu(h + x)


def attention(q, k, v):
    scale = 1.0 / math.sqrt(q.shape[-1])
    s = jnp.einsum("bhqd,bhkd->bhqk", q, k) * scale
    p = jax.nn.softmax(s, axis=-1)
    return jnp.einsum("bhqk,bhkd->bhqd", p, v)


def matmul(x, w):
    return jnp.dot(x, w)


def matmul_tanh(x, w, b):
    return jnp.tanh(jnp.dot(x, w) + b)


def matmul_gelu_tanh(x, w, b):
    return jax.nn.gelu(jnp.dot(x, w) + b, approximate=True)


def matmul_gelu_erf(x, w, b):
    # jax lowers the exact GELU through chlo.erfc: x/2 erfc(-x/sqrt 2)
    return jax.nn.gelu(jnp.dot(x, w) + b, approximate=False)


def bias_tanh(y, b):
    return jnp.tanh(y + b)


def bias_gelu_tanh(y, b):
    return jax.nn.gelu(y + b, approximate=True)


def bias_gelu_erf(y, b):
    return jax.nn.gelu(y + b, approximate=False)


def rsqrt(x):
    return jax.lax.rsqrt(x * x + 1e-3)


def erf(x):
    return jax.lax.erf(x)


def gelu_erf(x):
    # Exact GELU written with erf, x * 0.5 * (1 + erf(x / sqrt 2)): one fused
    # loop of a transcendental and four cheap ops, all rounded to x's type.
    return x * 0.5 * (1 + jax.lax.erf(x / jnp.sqrt(2).astype(x.dtype)))


def tanh(x):
    return jnp.tanh(x)


def logistic(x):
    return jax.nn.sigmoid(x)


def cumsum_axis0(x):
    return jnp.cumsum(x, axis=0)


def cumsum_axis1(x):
    return jnp.cumsum(x, axis=1)


def rfft(x):
    return jnp.fft.rfft(x)


def fft(x):
    return jnp.fft.fft(x)


def rfft2(x):
    return jnp.fft.rfft2(x)


def embedding_bag(table, idx):
    # The mean of each bag of table rows, squared and summed, and its
    # gradient with respect to the table: a gather of whole rows (then a
    # reduce over the bag) and the scatter-add of rows, with duplicate
    # indices, it differentiates into.
    def loss(t):
        return jnp.sum(jnp.mean(t[idx], axis=1) ** 2)
    return loss(table), jax.grad(loss)(table)


def _spec(*shape, dtype=F32):
    return jax.ShapeDtypeStruct(shape, dtype)


def _bytes(specs):
    return sum(math.prod(s.shape) * s.dtype.itemsize for s in specs)


def _entry(fn, args, out_elems, flops, kind):
    """kind: 'bw' (bandwidth-bound: report GB/s), 'flops' (report GFLOP/s)
    or 'time' (report time only, plus GFLOP/s as a guide).  The result has
    the first argument's element type."""
    return {"fn": fn, "args": args, "bytes": _bytes(args) + out_elems * args[0].dtype.itemsize,
            "flops": flops, "kind": kind}


def _programs():
    p = {}
    p["reduce_sum_xyz"] = _entry(reduce_sum_xyz, [_spec(N16M)] * 3, 1, 3 * N16M, "bw")
    p["ew_chain10"] = _entry(ew_chain10, [_spec(N16M)] * 2, N16M, 10 * N16M, "bw")
    p["transpose"] = _entry(transpose, [_spec(4096, 4096)], 4096 * 4096, 0, "bw")
    for n in (256, 1024, 2048):
        p["sgemm_%d" % n] = _entry(sgemm, [_spec(n, n)] * 2, n * n, 2 * n ** 3, "flops")
    rows, cols = 4096, 1024
    # softmax: max, subtract, exp, sum, divide per element (exp counted as 1).
    p["softmax"] = _entry(softmax, [_spec(rows, cols)], rows * cols, 5 * rows * cols, "bw")
    p["layernorm"] = _entry(layernorm, [_spec(rows, cols), _spec(cols), _spec(cols)],
                            rows * cols, 8 * rows * cols, "bw")
    b, d, h = 256, 1024, 4096
    p["mlp"] = _entry(mlp, [_spec(b, d), _spec(d, h), _spec(h), _spec(h, d), _spec(d)],
                      b * d, 2 * b * d * h * 2, "flops")
    n, hw, c = 8, 56, 64
    p["resnet_block"] = _entry(
        resnet_block, [_spec(n, hw, hw, c), _spec(3, 3, c, c), _spec(c), _spec(3, 3, c, c), _spec(c)],
        n * hw * hw * c, 2 * (2 * n * hw * hw * c * 9 * c), "flops")
    bt, hd, s, dh = 4, 8, 512, 64
    p["attention"] = _entry(attention, [_spec(bt, hd, s, dh)] * 3, bt * hd * s * dh,
                            2 * (2 * bt * hd * s * s * dh), "flops")
    # jnp.cumsum lowers to a reduce_window spanning the axis: one add per element.
    for name, fn in (("cumsum_axis0", cumsum_axis0), ("cumsum_axis1", cumsum_axis1)):
        p[name] = _entry(fn, [_spec(1024, 1024)], 1024 * 1024, 1024 * 1024, "time")
    # Transcendentals, one per element (counted as one flop): 4M f32 and f16.
    p["erf_f32"] = _entry(erf, [_spec(N4M)], N4M, N4M, "time")
    p["erf_f16"] = _entry(erf, [_spec(N4M, dtype=F16)], N4M, N4M, "time")
    p["gelu_erf_f16"] = _entry(gelu_erf, [_spec(rows, cols, dtype=F16)], rows * cols, 6 * rows * cols, "time")
    p["tanh_f16"] = _entry(tanh, [_spec(N4M, dtype=F16)], N4M, N4M, "time")
    p["logistic_f16"] = _entry(logistic, [_spec(N4M, dtype=F16)], N4M, N4M, "time")
    # A transformer's feed-forward layer (GPT-2 small: 512 tokens, 768 ->
    # 3072) with its epilogues fused, and the same epilogues alone on the
    # product: a fusion must take no longer than its parts.
    t, d, f = 512, 768, 3072
    mm_flops = 2 * t * d * f
    for dt, suffix in ((F32, ""), (jnp.bfloat16, "_bf16")):
        mm = [_spec(t, d, dtype=dt), _spec(d, f, dtype=dt)]
        ew = [_spec(t, f, dtype=dt), _spec(f, dtype=dt)]
        p["matmul_ffn" + suffix] = _entry(matmul, mm, t * f, mm_flops, "flops")
        p["matmul_gelu_tanh" + suffix] = _entry(matmul_gelu_tanh, mm + [_spec(f, dtype=dt)], t * f,
                                                mm_flops, "flops")
        p["bias_gelu_tanh" + suffix] = _entry(bias_gelu_tanh, ew, t * f, t * f, "time")
    mm = [_spec(t, d), _spec(d, f), _spec(f)]
    p["matmul_tanh"] = _entry(matmul_tanh, mm, t * f, mm_flops, "flops")
    p["matmul_gelu_erf"] = _entry(matmul_gelu_erf, mm, t * f, mm_flops, "flops")
    p["bias_tanh"] = _entry(bias_tanh, [_spec(t, f), _spec(f)], t * f, t * f, "time")
    p["bias_gelu_erf"] = _entry(bias_gelu_erf, [_spec(t, f), _spec(f)], t * f, t * f, "time")
    p["rsqrt_f32"] = _entry(rsqrt, [_spec(t, f)], t * f, t * f, "time")
    # FFTs along the last axis (2-D for rfft2), counted as 5 n log2 n flops
    # per complex transform of length n and half that per real one.  The
    # complex64 results of the real transforms count as two f32 elements.
    p["rfft_1024"] = _entry(rfft, [_spec(1024, 1024)], 2 * 1024 * 513, 1024 * 5 * 1024 * 10 // 2, "time")
    p["fft_1024_c64"] = _entry(fft, [_spec(1024, 1024, dtype=jnp.complex64)], 1024 * 1024,
                               1024 * 5 * 1024 * 10, "time")
    p["rfft2_512"] = _entry(rfft2, [_spec(512, 512)], 2 * 512 * 257,
                            512 * 5 * 512 * 9 // 2 + 257 * 5 * 512 * 9, "time")
    # 256 bags of 20 rows of a 10000x64 table.  Flops: the bag sums, the
    # squares and their sum, and the scatter-add of 5120 rows.  Random
    # inputs give indices in a narrow range (xlac bench: [-10, 10], which
    # the program wraps like Python indices), so the rows come from cache.
    vocab, dim, bags, bag = 10000, 64, 256, 20
    p["embedding_bag"] = _entry(embedding_bag, [_spec(vocab, dim), _spec(bags, bag, dtype=jnp.int32)],
                                1 + vocab * dim, bags * bag * dim * 2 + 2 * bags * dim, "time")
    return p


PROGRAMS = _programs()
