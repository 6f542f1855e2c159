"""The PJRT plugin under JAX: each jitted function runs on xlac and on
JAX's own CPU backend, in one process, and the results must agree.

Run with the library of a build: XLAC_PJRT_LIBRARY=build/lib/libxlac_pjrt.so
PYTHONPATH=plugins/jax python plugins/jax/tests/test_plugin.py
(XLAC_DEVICES=4 is set here for pmap).
"""
import os
import sys

os.environ.setdefault("XLAC_DEVICES", "4")
os.environ["JAX_PLATFORMS"] = "xlac,cpu"

import numpy as np  # noqa: E402
import jax  # noqa: E402
from harness import check, finish  # noqa: E402
import jax.numpy as jnp  # noqa: E402

X = jax.devices("xlac")
C = jax.devices("cpu")


def on(devices, args):
    return [jax.device_put(a, devices[0]) for a in args]


def same(f, *args, rtol=1e-5, atol=1e-5, jit_kw=None):
    """f jitted on xlac and on cpu: equal within tolerance, results on xlac."""
    jit_kw = jit_kw or {}
    got = jax.jit(f, **jit_kw)(*on(X, args))
    want = jax.jit(f, **jit_kw)(*on(C, args))
    gl, wl = jax.tree.leaves(got), jax.tree.leaves(want)
    assert len(gl) == len(wl)
    for g, w in zip(gl, wl):
        assert g.devices() == {X[0]}, g.devices()
        assert g.dtype == w.dtype and g.shape == w.shape, (g.dtype, g.shape, w.dtype, w.shape)
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=rtol, atol=atol)


key = jax.random.key(0)
k1, k2, k3, k4 = jax.random.split(key, 4)
x = jax.random.normal(k1, (8, 16))
w = jax.random.normal(k2, (16, 4))


def t_devices():
    assert len(X) == 4, X
    assert X[0].platform == "xlac" and X[0].device_kind == "cpu"
    assert [d.id for d in X] == [0, 1, 2, 3]


def t_elementwise():
    same(lambda a: jnp.exp(a) * jnp.sin(a) + jnp.tanh(a) / (1 + a * a), x)
    same(lambda a: jnp.where(a > 0, jnp.sqrt(jnp.abs(a)), jax.nn.gelu(a)), x)
    # xlac rounds every bf16 result; XLA:CPU keeps some in f32: one bf16 ulp apart
    same(lambda a: (a.astype(jnp.bfloat16) * 3).astype(jnp.float32), x, rtol=8e-3)
    same(lambda a: (a * 100).astype(jnp.int32) // 7 % 5, x)


def t_reductions():
    same(lambda a: (a.sum(), a.max(axis=0), a.argmax(axis=1), jnp.mean(a, axis=1)), x)
    same(lambda a: jax.nn.logsumexp(a, axis=1), x)
    same(lambda a: jnp.cumsum(a, axis=1), x)


def t_matmul():
    same(lambda a, b: a @ b, x, w, rtol=1e-4)
    same(lambda a: jnp.einsum("ij,kj->ik", a, a), x, rtol=1e-4)
    b3 = jax.random.normal(k3, (3, 8, 16))
    same(lambda a, b: jnp.matmul(a, b), b3, jnp.swapaxes(b3, 1, 2), rtol=1e-4)


def t_conv():
    img = jax.random.normal(k3, (2, 10, 10, 3))
    ker = jax.random.normal(k4, (3, 3, 3, 5))
    same(lambda i, k: jax.lax.conv_general_dilated(i, k, (1, 1), "SAME",
                                                   dimension_numbers=("NHWC", "HWIO", "NHWC")), img, ker,
         rtol=1e-4, atol=1e-4)
    same(lambda i, k: jax.lax.conv_general_dilated(i, k, (2, 2), "VALID",
                                                   dimension_numbers=("NHWC", "HWIO", "NHWC")), img, ker,
         rtol=1e-4, atol=1e-4)


def t_control_flow():
    same(lambda a: jax.lax.scan(lambda c, r: (c + r, c * r), jnp.zeros(16), a), x)
    same(lambda a: jax.lax.while_loop(lambda c: c[0] < 10, lambda c: (c[0] + 1, c[1] * 1.1), (0, a)), x)
    same(lambda p, a: jax.lax.cond(p > 0, lambda: a.sum(), lambda: a.max()), jnp.int32(1), x)
    same(lambda p, a: jax.lax.cond(p > 0, lambda: a.sum(), lambda: a.max()), jnp.int32(-1), x)
    same(lambda i, a: jax.lax.switch(i, [jnp.sin, jnp.cos, jnp.tanh], a), jnp.int32(2), x)
    same(lambda a: jax.lax.fori_loop(0, 5, lambda i, c: c * 0.5 + i, a), x)


def t_random():
    def draw(k):
        return (jax.random.normal(k, (5, 3)), jax.random.uniform(k, (7,)),
                jax.random.randint(k, (4,), 0, 100), jax.random.permutation(k, 10))
    same(draw, jax.random.key_data(key))
    # typed keys placed on xlac
    a = jax.random.normal(jax.device_put(key, X[0]), (6,))
    b = jax.random.normal(jax.device_put(key, C[0]), (6,))
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-6)


def t_linalg():
    m = jax.random.normal(k2, (3, 6, 6))
    h = m + jnp.swapaxes(m, 1, 2)
    same(jnp.linalg.inv, h[0] + 6 * jnp.eye(6), rtol=1e-4, atol=1e-4)
    same(jnp.linalg.cholesky, h[0] @ h[0].T + jnp.eye(6), rtol=1e-4, atol=1e-4)
    same(jnp.linalg.eigvalsh, h, rtol=1e-4, atol=1e-4)
    same(lambda a: jnp.linalg.svd(a, compute_uv=False), m, rtol=1e-4, atol=1e-4)
    same(lambda a: jnp.abs(jnp.linalg.qr(a)[1]), m, rtol=1e-4, atol=1e-4)  # R, up to the signs of its rows
    w, v = jax.jit(jnp.linalg.eigh)(jax.device_put(h, X[0]))
    rec = np.asarray(v) @ (np.asarray(w)[..., None] * np.swapaxes(np.asarray(v), 1, 2))
    np.testing.assert_allclose(rec, np.asarray(h), atol=1e-4)
    q, r = jax.jit(jnp.linalg.qr)(jax.device_put(m, X[0]))
    np.testing.assert_allclose(np.asarray(q) @ np.asarray(r), np.asarray(m), atol=1e-4)


def mlp_init(k, sizes):
    params = []
    for m, n in zip(sizes[:-1], sizes[1:]):
        k, kw = jax.random.split(k)
        params.append((jax.random.normal(kw, (m, n)) / np.sqrt(m), jnp.zeros(n)))
    return params


def mlp_loss(params, xb, yb):
    h = xb
    for wi, bi in params[:-1]:
        h = jax.nn.relu(h @ wi + bi)
    wo, bo = params[-1]
    logits = h @ wo + bo
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * yb, axis=1))


def t_grad():
    params = mlp_init(k1, [16, 32, 10])
    yb = jax.nn.one_hot(jnp.arange(8) % 10, 10)
    same(jax.grad(mlp_loss), params, x, yb, rtol=1e-4, atol=1e-5)
    same(jax.value_and_grad(lambda a: jnp.sum(jnp.tanh(a) ** 3)), x, rtol=1e-5)


def t_donation():
    f = jax.jit(lambda a, b: (a + b, a * 2), donate_argnums=0)
    a = jax.device_put(jnp.ones(4), X[0])
    s, d = f(a, jax.device_put(jnp.full(4, 2.0), X[0]))
    assert a.is_deleted(), "the donated argument is still alive"
    np.testing.assert_array_equal(np.asarray(s), [3, 3, 3, 3])
    np.testing.assert_array_equal(np.asarray(d), [2, 2, 2, 2])
    try:
        f(a, s)
    except Exception:
        pass
    else:
        raise AssertionError("a deleted buffer was accepted")


def t_donation_matrix():
    """A donated pytree both updated and returned as is (Keras's predict
    step: jit(step, donate_argnums=0) returning (model(state, x), state)),
    and every mix of donated inputs returned 0, 1 or 2 times, updated in
    place or not: each output must hold its own value."""
    def predict_step(state, xb):
        k, b = state
        return jnp.tanh(xb @ k + b), state

    # host copies: device_put of an array already on X[0] would be that
    # array, which the first donation deletes
    state = (np.asarray(jax.random.normal(k1, (16, 16))), np.zeros(16, np.float32))
    xb = np.asarray(jax.random.normal(k2, (16, 16)))  # the predictions have the kernel's shape
    want = jax.jit(predict_step)(*on(C, (state, xb)))
    for _ in range(3):
        got = jax.jit(predict_step, donate_argnums=0)(jax.device_put(state, X[0]), jax.device_put(xb, X[0]))
        for g, w in zip(jax.tree.leaves(got), jax.tree.leaves(want)):
            np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=1e-5, atol=1e-6)
    a0 = np.arange(8, dtype=np.float32) + 1
    b0 = a0 * 10
    bodies = {
        "P": lambda a, b: a, "B": lambda a, b: b, "U": lambda a, b: 2 * a + b,
        "T": lambda a, b: a[::-1] + b,
    }
    import itertools
    for n in (1, 2, 3):
        for outs in itertools.product("PBUT", repeat=n):
            f = lambda a, b, outs=outs: tuple(bodies[o](a, b) for o in outs)
            want = [np.asarray(bodies[o](a0, b0)) for o in outs]
            for donate in ((), (0,), (0, 1)):
                a, b = jax.device_put(a0, X[0]), jax.device_put(b0, X[0])
                got = jax.jit(f, donate_argnums=donate)(a, b)
                for o, g, w in zip(outs, got, want):
                    np.testing.assert_array_equal(np.asarray(g), w, err_msg=f"outputs {outs} donating {donate}: {o}")
                if 0 not in donate:
                    np.testing.assert_array_equal(np.asarray(a), a0)


def t_identity_maps():
    # pmap and shard_map of an identity: a manual computation that returns
    # its argument as is (crashed the process, or failed to compile)
    a = np.array([1.5, -2.0, 3.25], dtype=np.float32)
    f = jax.pmap(lambda v, w: v, in_axes=(None, 0), out_axes=None, devices=X)
    np.testing.assert_array_equal(np.asarray(f(a, np.ones((4, 2), np.float32))), a)
    from jax.sharding import Mesh, PartitionSpec as P
    mesh = Mesh(np.array(X), ("i",))
    b = np.arange(8, dtype=np.float32)
    g = jax.jit(jax.shard_map(lambda v: v, mesh=mesh, in_specs=P("i"), out_specs=P("i")))
    np.testing.assert_array_equal(np.asarray(g(b)), b)
    h = jax.jit(jax.shard_map(lambda u, v: (v, u), mesh=mesh, in_specs=(P("i"), P()), out_specs=(P(), P("i"))))
    r = h(b, a)
    np.testing.assert_array_equal(np.asarray(r[0]), a)
    np.testing.assert_array_equal(np.asarray(r[1]), b)


def t_subbyte_ints():
    # int4/int2 come back as ml_dtypes holds them: low bits, high bits zero
    for dt in (jnp.int4, jnp.uint4, jnp.int2, jnp.uint2):
        a = np.array([-1, -8, 7, 1, 0, 3], dtype=np.int8).astype(dt)
        for f in (lambda v: v, lambda v: v + v, lambda v: -v):
            got = np.asarray(jax.jit(f)(jax.device_put(a, X[0])))
            want = np.asarray(jax.jit(f)(jax.device_put(a, C[0])))
            np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8), err_msg=str(dt))


PCACHE = r'''
import os, sys
import jax, jax.numpy as jnp, numpy as np
from jax._src import monitoring
events = []
monitoring.register_event_listener(lambda e, **kw: events.append(e))
jax.config.update("jax_compilation_cache_dir", sys.argv[1])
jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
jax.config.update("jax_persistent_cache_min_entry_size_bytes", 0)
x = np.arange(16, dtype=np.float32).reshape(4, 4) / 16
r = jax.jit(lambda a: jnp.tanh(a) @ a.T + 1)(jax.device_put(x, jax.devices("xlac")[0]))
print(float(r.sum()), "/jax/compilation_cache/cache_hits" in events)
'''


def t_persistent_cache():
    # JAX's own persistent compilation cache: written by one process on
    # xlac, hit by the next
    import subprocess
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        outs = [subprocess.run([sys.executable, "-c", PCACHE, d], capture_output=True, text=True, check=True,
                               env=dict(os.environ)).stdout.split() for _ in range(2)]
        assert os.listdir(d), "nothing was written to the cache"
        assert outs[0][1] == "False" and outs[1][1] == "True", outs
        assert outs[0][0] == outs[1][0], outs


def t_device_count_flags():
    # the device count JAX's flags ask its CPU backend for, without
    # XLAC_DEVICES: jax_num_cpu_devices and XLA_FLAGS' host device count
    import subprocess
    prog = ("import jax; jax.config.update('jax_num_cpu_devices', 3); "
            "print(len(jax.devices('xlac')), len(jax.devices('cpu')))")
    env = {k: v for k, v in os.environ.items() if k not in ("XLAC_DEVICES", "XLA_FLAGS")}
    out = subprocess.run([sys.executable, "-c", prog], capture_output=True, text=True, env=env, check=True).stdout
    assert out.split() == ["3", "3"], out
    env["XLA_FLAGS"] = "--xla_force_host_platform_device_count=2"
    prog = "import jax; print(len(jax.devices('xlac')), len(jax.devices('cpu')))"
    out = subprocess.run([sys.executable, "-c", prog], capture_output=True, text=True, env=env, check=True).stdout
    assert out.split() == ["2", "2"], out


def t_export_cpu():
    # jax.export artifacts made for "cpu" (alone, or among other platforms)
    # are called on xlac as they are
    from jax import export
    f = lambda a, b: jnp.tanh(a) @ b + 1
    a = np.arange(12, dtype=np.float32).reshape(3, 4) / 12
    b = np.ones((4, 2), np.float32)
    for platforms in (("cpu",), ("tpu", "cpu")):
        exp = export.export(jax.jit(f), platforms=platforms)(a, b)
        got = exp.call(jax.device_put(a, X[0]), jax.device_put(b, X[0]))
        assert got.devices() == {X[0]}, got.devices()
        np.testing.assert_allclose(np.asarray(got), np.tanh(a) @ b + 1, rtol=1e-5, atol=1e-6)


def t_shard_map_ordered_callback():
    # an ordered io_callback in a shard_map over 4 devices: the body's
    # token is a stablehlo type in the bytecode (not a VHLO one)
    from jax.experimental import io_callback
    from jax.sharding import Mesh, PartitionSpec as P
    seen = []

    def rec(v):
        seen.append(np.asarray(v).copy())

    def body(v):
        io_callback(rec, None, v, ordered=True)
        return v * 2
    mesh = Mesh(np.array(X), ("i",))
    f = jax.jit(jax.shard_map(body, mesh=mesh, in_specs=P("i"), out_specs=P("i")))
    a = np.arange(8, dtype=np.float32)
    np.testing.assert_array_equal(np.asarray(f(a)), a * 2)
    assert len(seen) == 4, seen
    np.testing.assert_array_equal(np.sort(np.concatenate(seen)), a)


def t_devices_placement():
    # a single-device program on another device: it runs there
    y = jax.device_put(x, X[2])
    r = jax.jit(lambda a: a * 2)(y)
    assert r.devices() == {X[2]}, r.devices()
    np.testing.assert_allclose(np.asarray(r), np.asarray(x) * 2)
    z = jax.device_put(r, X[3])
    assert z.devices() == {X[3]}
    np.testing.assert_allclose(np.asarray(z), np.asarray(x) * 2)


def t_pmap():
    xs = jnp.arange(4 * 3, dtype=jnp.float32).reshape(4, 3)
    f = jax.pmap(lambda v: (jax.lax.psum(v, "i"), jax.lax.axis_index("i"), jax.lax.pmax(v * v, "i")),
                 axis_name="i", devices=X)
    s, idx, m = f(xs)
    np.testing.assert_allclose(np.asarray(s), np.tile(np.asarray(xs).sum(0), (4, 1)))
    np.testing.assert_array_equal(np.asarray(idx), [0, 1, 2, 3])
    np.testing.assert_allclose(np.asarray(m), np.tile((np.asarray(xs) ** 2).max(0), (4, 1)))
    g = jax.pmap(lambda v: jax.lax.pmean(v @ v.T, "i"), axis_name="i", devices=X)
    xb = jax.random.normal(k2, (4, 5, 6))
    want = np.mean([np.asarray(xb[i]) @ np.asarray(xb[i]).T for i in range(4)], axis=0)
    np.testing.assert_allclose(np.asarray(g(xb)), np.tile(want, (4, 1, 1)), rtol=1e-4, atol=1e-5)


def t_shard_map():
    from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
    mesh = Mesh(np.array(X), ("x",))
    a = jnp.arange(16.0).reshape(8, 2)
    f = jax.jit(jax.shard_map(lambda v: jax.lax.psum(v.sum(0, keepdims=True), "x"), mesh=mesh,
                              in_specs=P("x"), out_specs=P()))
    np.testing.assert_allclose(np.asarray(f(a)), np.asarray(a).sum(0, keepdims=True))
    g = jax.jit(jax.shard_map(lambda v, w: (v * jax.lax.axis_index("x"), jax.lax.all_gather(w, "x", tiled=True)),
                              mesh=mesh, in_specs=(P("x"), P("x")), out_specs=(P("x"), P()), check_vma=False))
    v, w = g(a, a + 1)
    want = np.asarray(a) * np.repeat(np.arange(4), 2)[:, None]
    np.testing.assert_allclose(np.asarray(v), want)
    np.testing.assert_allclose(np.asarray(w), np.asarray(a) + 1)
    # a program left to the compiler to partition runs on the shards
    # (test_spmd.py has more)
    s = jax.device_put(a, NamedSharding(mesh, P("x")))
    r = jax.jit(lambda t: t * 2)(s)
    assert r.sharding.spec == P("x"), r.sharding
    np.testing.assert_allclose(np.asarray(r), np.asarray(a) * 2)


def t_training_loop():
    """100 steps of SGD on an MLP with donated parameters: the losses of
    xlac and of jax's CPU backend agree."""
    xs = jax.random.normal(k3, (64, 16))
    ys = jax.nn.one_hot(jax.random.randint(k4, (64,), 0, 10), 10)

    def step(params, xb, yb):
        loss, grads = jax.value_and_grad(mlp_loss)(params, xb, yb)
        return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads), loss

    def train(devices):
        step_j = jax.jit(step, donate_argnums=0)
        params = jax.device_put(mlp_init(k1, [16, 64, 64, 10]), devices[0])
        xb, yb = jax.device_put((xs, ys), devices[0])
        losses = []
        for _ in range(100):
            old = params
            params, loss = step_j(params, xb, yb)
            losses.append(float(loss))
        if devices is X:
            assert all(p.is_deleted() for p in jax.tree.leaves(old)), "parameters were not donated"
        return np.array(losses)

    lx, lc = train(X), train(C)
    assert lx[-1] < 0.5 * lx[0], f"the loss did not fall: {lx[0]} -> {lx[-1]}"
    np.testing.assert_allclose(lx, lc, rtol=2e-3, atol=1e-4)
    print(f"  losses: {lx[0]:.4f} -> {lx[49]:.4f} -> {lx[-1]:.4f} (cpu {lc[-1]:.4f})")


def t_tokens_and_options():
    from jax import lax
    with jax.default_device(X[0]):
        t, y = jax.jit(lambda t, v: (t, v + 1))(lax.create_token(), jnp.ones(3))
    np.testing.assert_array_equal(np.asarray(y), [2, 2, 2])
    # an outer product: dot_general without contracting or batch dimensions
    same(lambda a: lax.dot_general(a, a, (((), ()), ((), ()))), jnp.float32(3))
    same(lambda a, b: jnp.outer(a, b), x[0], w[:, 0])
    try:
        jax.jit(lambda v: v + 1).lower(x).compile(compiler_options={"invalid_key": "x"})
    except Exception as e:
        assert "No such compile option: 'invalid_key'" in str(e), e
    else:
        raise AssertionError("an unknown compiler option was accepted")
    # XLA's own options are accepted; xla_dump_to writes xlac's dumps
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        c = jax.jit(lambda v: v * 3).lower(jax.device_put(x, X[0])).compile(
            compiler_options={"xla_dump_to": d, "xla_embed_ir_in_executable": True})
        np.testing.assert_allclose(np.asarray(c(jax.device_put(x, X[0]))), np.asarray(x) * 3)
        assert any(f.endswith("after_optimizations.txt") for f in os.listdir(d)), os.listdir(d)


def t_searchsorted():
    # one bin: a gather whose rows are the whole (one-element) operand
    same(lambda a, b: jnp.searchsorted(b, a), jnp.array([4.37, 5.88, -1.0, 4.75, 0.5, 3.0, 2.0, -3.0]),
         jnp.array([-0.5]))
    same(lambda a, b: jnp.digitize(a, b), x[0], jnp.array([-1.0, 0.0, 1.0]))


def t_approx_top_k():
    # ApproxTopK is an exact top-k on xlac; XLA:CPU's fallback is exact too
    # (random values: no ties whose order could differ)
    big = jax.random.normal(k4, (4, 300))
    same(lambda a: jax.lax.approx_max_k(a, 5), x, rtol=0, atol=0)
    same(lambda a: jax.lax.approx_min_k(a, 3, reduction_dimension=0), x, rtol=0, atol=0)
    same(lambda a: jax.lax.approx_max_k(a, 2, recall_target=0.5, aggregate_to_topk=False), big, rtol=0, atol=0)
    same(lambda a: jax.lax.approx_min_k(a.astype(jnp.bfloat16), 4), x, rtol=0, atol=0)
    # its gradient scatters into the chosen positions
    same(jax.grad(lambda a: jax.lax.approx_max_k(a, 3)[0].sum()), x, rtol=0, atol=0)


def t_scatter_window_out():
    # windows of two at 6, 7 and 9 of 10 elements: the one at 9 does not fit
    # and is dropped whole, element 9 included (lax_autodiff_test's
    # testScatterMax1: the JVP of scatter_max and its VJP, second order)
    from jax import lax
    dn = lax.ScatterDimensionNumbers(update_window_dims=(1,), inserted_window_dims=(),
                                     scatter_dims_to_operand_dims=(0,))
    idx = np.array([[6], [7], [9]], np.int32)
    smax = lambda a, u: lax.scatter_max(a, idx, u, dn)
    a = jnp.array([-1.32, 1.85, -0.32, -2.33, -1.95, 2.95, -0.86, -1.69, -0.62, 3.33])
    u = jnp.array([[6.68, 1.14], [1.82, 1.66], [1.37, -0.95]])
    ta = jnp.linspace(-1.0, 1.5, 10)
    tu = jnp.array([[0.5, -0.25], [1.5, 2.0], [-3.0, 4.0]])
    same(smax, a, u)
    same(lambda a, u, ta, tu: jax.jvp(smax, (a, u), (ta, tu)), a, u, ta, tu)
    same(lambda a, u: jax.grad(lambda a, u: jnp.sum(jax.jvp(smax, (a, u), (a, u))[1] * jnp.arange(10.0)),
                               argnums=(0, 1))(a, u), a, u)


def printed(devices, f, *args):
    """What f jitted on devices prints (stdout), and its result (devices
    None: f as it is, on the arguments as they are)."""
    import contextlib
    import io
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        r = jax.jit(f)(*on(devices, args)) if devices else f(*args)
        jax.block_until_ready(r)
        jax.effects_barrier()
    return out.getvalue(), r


def t_debug_print():
    def f(a):
        jax.debug.print("a = {}", a[:3], ordered=True)
        jax.debug.print("sum {s:.4f} max {m}", s=a.sum(), m=a.max(), ordered=True)
        b = jax.lax.fori_loop(0, 3, lambda i, c: (jax.debug.print("step {} {}", i, c[0], ordered=True), c * 2)[1], a)
        jax.debug.print("scan {}", jax.lax.scan(lambda c, r: (c + r, (jax.debug.print("row {}", r, ordered=True),
                                                                     c)[1]), 0.0, a[:3])[0], ordered=True)
        return b
    px, rx = printed(X, f, x[0])
    pc, rc = printed(C, f, x[0])
    assert px == pc, (px, pc)
    assert px.count("\n") == 9, px
    np.testing.assert_allclose(np.asarray(rx), np.asarray(rc))
    # unordered prints in vmap (one per element; unordered, so compared as sets)
    g = jax.vmap(lambda r: (jax.debug.print("elem {}", r.sum()), r * 3)[1])
    px, _ = printed(X, g, x[:4])
    pc, _ = printed(C, g, x[:4])
    assert sorted(px.splitlines()) == sorted(pc.splitlines()) and px.count("\n") == 4, (px, pc)
    # and in a program of 4 devices (pmap): each device prints its row,
    # from a pool thread; one without results as well
    px, _ = printed(None, jax.pmap(lambda r: (jax.debug.print("dev {}", r), r)[1], devices=X), jnp.arange(4.0))
    assert sorted(px.splitlines()) == [f"dev {i}.0" for i in range(4)], px
    px, _ = printed(None, jax.pmap(lambda r: jax.debug.print("only {}", r), devices=X), jnp.arange(4.0))
    assert sorted(px.splitlines()) == [f"only {i}.0" for i in range(4)], px


def t_pure_callback():
    def stats(a):  # several results of other types, a 64-bit one narrowed as JAX does
        return (a * 2).astype(np.int32), a > 0, np.float64(a.sum())

    def types(v):
        return (jax.ShapeDtypeStruct(v.shape, jnp.int32), jax.ShapeDtypeStruct(v.shape, jnp.bool_),
                jax.ShapeDtypeStruct((), jnp.float32))
    same(lambda a: jax.pure_callback(stats, types(a), a), x)
    same(lambda a: jax.pure_callback(np.sin, jax.ShapeDtypeStruct(a.shape, a.dtype), a) * 2 + 1, x)
    for method in ("sequential", "expand_dims", "broadcast_all"):
        same(jax.vmap(lambda r: jax.pure_callback(np.tanh, jax.ShapeDtypeStruct(r.shape, r.dtype), r,
                                                  vmap_method=method)), x)
    same(jax.vmap(lambda r: jax.pure_callback(stats, types(r), r, vmap_method="sequential")), x)
    same(lambda a: jax.lax.scan(lambda c, r: (c + jax.pure_callback(np.cos, jax.ShapeDtypeStruct(r.shape, r.dtype), r),
                                              c.sum()), jnp.zeros(16), a), x)
    # bf16 and int4 pass through as they are
    same(lambda a: jax.pure_callback(lambda v: v * 2, jax.ShapeDtypeStruct(a.shape, a.dtype), a),
         x.astype(jnp.bfloat16))
    i4 = np.array([-8, -1, 0, 1, 7], np.int8).astype(jnp.int4)
    r = jax.jit(lambda a: jax.pure_callback(lambda v: -v, jax.ShapeDtypeStruct(a.shape, a.dtype), a))(
        jax.device_put(i4, X[0]))
    np.testing.assert_array_equal(np.asarray(r).astype(np.int8), [-8, 1, 0, -1, -7])


def t_io_callback():
    from jax.experimental import io_callback

    def run(devices):
        log = []

        def record(i, c):
            log.append((int(i), float(c)))
            return np.float32(c + i)

        def body(i, c):
            return io_callback(record, jax.ShapeDtypeStruct((), jnp.float32), i, c, ordered=True) * 2
        f = jax.jit(lambda c: jax.lax.fori_loop(0, 8, body, c))
        r = f(jax.device_put(jnp.float32(1), devices[0]))
        r = f(r)  # a second execution: its calls come after the first's
        jax.effects_barrier()
        return log, float(r)
    lx, rx = run(X)
    lc, rc = run(C)
    assert lx == lc and rx == rc, (lx, lc, rx, rc)
    assert [i for i, _ in lx] == list(range(8)) * 2, lx
    # unordered, in vmap (JAX makes it a loop): every element once
    seen = {X[0]: [], C[0]: []}
    for d in (X, C):
        got = jax.jit(jax.vmap(lambda r, d=d: io_callback(lambda v: (seen[d[0]].append(float(v.sum())), v + 1)[1],
                                                            jax.ShapeDtypeStruct(r.shape, r.dtype), r)))(
            jax.device_put(x, d[0]))
        jax.effects_barrier()
        np.testing.assert_allclose(np.asarray(got), np.asarray(x) + 1, rtol=1e-6)
    assert sorted(seen[X[0]]) == sorted(seen[C[0]]) and len(seen[X[0]]) == 8, seen


def t_callback_errors():
    import logging
    from jax.experimental import io_callback
    logging.getLogger("jax._src.callback").setLevel(logging.CRITICAL)  # JAX logs the exception too

    def bad(v):
        raise ValueError("the callback refuses")
    for f in (lambda a: jax.pure_callback(bad, jax.ShapeDtypeStruct(a.shape, a.dtype), a),
              lambda a: jax.lax.fori_loop(0, 3, lambda i, c: io_callback(bad, jax.ShapeDtypeStruct(c.shape, c.dtype),
                                                                         c, ordered=True), a),
              lambda a: jax.pure_callback(lambda v: v[:2], jax.ShapeDtypeStruct(a.shape, a.dtype), a)):
        for d in (X, C):
            try:
                jax.block_until_ready(jax.jit(f)(jax.device_put(x[0], d[0])))
            except Exception as e:
                assert "the callback refuses" in str(e) or "shape" in str(e), e
            else:
                raise AssertionError(f"no error on {d[0].platform}")
    # the process and the device go on
    same(lambda a: jax.pure_callback(np.exp, jax.ShapeDtypeStruct(a.shape, a.dtype), a), x)


def t_compiled_text():
    c = jax.jit(lambda a: jnp.tanh(a) * 2).lower(x).compile()
    text = c.as_text()
    assert "tanh" in text, text[:500]


def cost(devices, f, *args):
    return jax.jit(f).lower(*on(devices, args)).compile().cost_analysis()


def t_cost_analysis():
    """compiled.cost_analysis(): xlac's model (docs/api.md, "Cost analysis")
    against the figures XLA gives on JAX's CPU backend."""
    a = jax.random.normal(k3, (64, 32))
    b = jax.random.normal(k4, (32, 16))
    n = 64 * 32
    # a matmul: 2 * 64 * 16 * 32 flops; the three matrices once
    got, want = cost(X, jnp.matmul, a, b), cost(C, jnp.matmul, a, b)
    assert got["flops"] == want["flops"] == 2 * 64 * 16 * 32, (got, want)
    assert got["transcendentals"] == want.get("transcendentals", 0) == 0, (got, want)
    assert got["bytes accessed"] == want["bytes accessed"] == 4 * (n + 32 * 16 + 64 * 16), (got, want)
    # elementwise and a reduction: a tanh per element (a transcendental),
    # a multiply and an add per element, 31 additions per row; one fusion
    # reads both inputs and writes the sums (XLA: the same)
    f = lambda p, q: (jnp.tanh(p) * q + 1.0).sum(axis=1)  # noqa: E731
    got, want = cost(X, f, a, a), cost(C, f, a, a)
    assert got["flops"] == want["flops"] == 2 * n + 64 * 31, (got, want)
    assert got["transcendentals"] == want["transcendentals"] == n, (got, want)
    assert got["bytes accessed"] == want["bytes accessed"] == 4 * (2 * n + 64), (got, want)
    # a convolution with padding: taps on the padding do not count
    # (3 * 10 - 2 per dimension), 2 * N * O * I * 28 * 28
    conv = lambda p, k: jax.lax.conv_general_dilated(p, k, (1, 1), "SAME")  # noqa: E731
    p, k = jnp.ones((2, 3, 10, 10)), jnp.ones((4, 3, 3, 3))
    got, want = cost(X, conv, p, k), cost(C, conv, p, k)
    assert got["flops"] == want["flops"] == 2 * 2 * 4 * 3 * 28 * 28, (got, want)
    # softmax: the same arithmetic as XLA's; fewer bytes (xlac reads each
    # row once, in one fusion)
    got, want = cost(X, jax.nn.softmax, a), cost(C, jax.nn.softmax, a)
    assert got["flops"] == want["flops"] and got["transcendentals"] == want["transcendentals"] == n, (got, want)
    assert got["bytes accessed"] == 2 * 4 * n, got


def device_events(log_dir):
    """{device plane name: [(event name, start ns, duration ns, stats)]} of the
    trace jax.profiler.trace wrote to log_dir."""
    import glob
    files = glob.glob(os.path.join(log_dir, "**", "*.xplane.pb"), recursive=True)
    assert len(files) == 1, files
    out = {}
    for plane in jax.profiler.ProfileData.from_file(files[0]).planes:
        if plane.name.startswith("/device:CUSTOM:"):
            for line in plane.lines:
                assert line.name == "XLA Modules", line.name
                out[plane.name] = [(e.name, e.start_ns, e.duration_ns, dict(e.stats)) for e in line.events]
    return out


def t_profiler():
    """jax.profiler traces hold an event per execution on each xlac device
    it ran on (the PJRT profiler extension), with the executable's cost."""
    import tempfile

    def step(a):
        return jnp.tanh(a @ a.T).sum()

    f = jax.jit(step)
    a = jax.device_put(x, X[0])
    f(a).block_until_ready()  # compiled before the trace
    flops = f.lower(a).compile().cost_analysis()["flops"]
    with tempfile.TemporaryDirectory() as d:
        with jax.profiler.trace(d):
            for _ in range(3):
                f(a).block_until_ready()
        ev = device_events(d)
    assert list(ev) == ["/device:CUSTOM:0"], list(ev)
    runs = ev["/device:CUSTOM:0"]
    assert [r[0] for r in runs] == ["jit_step"] * 3, runs
    assert all(r[2] > 0 for r in runs) and runs[0][1] + runs[0][2] <= runs[1][1], runs
    assert all(r[3]["flops"] == flops for r in runs), (runs, flops)
    # a pmap runs on the four devices: an event on each
    g = jax.pmap(lambda v: jax.lax.psum(v, "i"), axis_name="i", devices=X)
    xs = jnp.ones((4, 3))
    g(xs).block_until_ready()
    with tempfile.TemporaryDirectory() as d:
        with jax.profiler.trace(d):
            g(xs).block_until_ready()
        ev = device_events(d)
    assert sorted(ev) == [f"/device:CUSTOM:{i}" for i in range(4)], list(ev)
    # (JAX may run a program of its own on device 0 to read the result)
    common = set.intersection(*({r[0] for r in v} for v in ev.values()))
    assert len(common) == 1, ev
    starts = {r[1] for v in ev.values() for r in v if r[0] in common}
    assert len(starts) == 1 and all(sum(r[0] in common for r in v) == 1 for v in ev.values()), ev
    # no session: nothing is recorded, and a later session starts empty
    f(a).block_until_ready()
    with tempfile.TemporaryDirectory() as d:
        with jax.profiler.trace(d):
            pass
        assert device_events(d) == {}


for name, fn in list(globals().items()):
    if name.startswith("t_") and callable(fn):
        check(name[2:], fn)
finish()
