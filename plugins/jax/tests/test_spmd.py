"""Programs JAX leaves to the compiler to partition (jax.jit over sharded
arrays): each runs on xlac's and on JAX's CPU backend, 8 devices each, with
the same meshes and shardings; values must agree, and so must the
shardings JAX reads back from the executables.

Run through run.sh: plugins/jax/tests/run.sh test_spmd.py
"""
import os
from functools import partial

os.environ["XLAC_DEVICES"] = "8"
os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
os.environ["JAX_PLATFORMS"] = "xlac,cpu"

import numpy as np  # noqa: E402
import jax  # noqa: E402
from harness import check, finish  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P  # noqa: E402

X = jax.devices("xlac")
C = jax.devices("cpu")


def both(build, rtol=1e-5, atol=1e-5):
    """build(devices) on xlac and on cpu: the results' values, shapes and
    sharding specs agree; returns xlac's."""
    got, want = build(X), build(C)
    gl, wl = jax.tree.leaves(got), jax.tree.leaves(want)
    assert len(gl) == len(wl)
    for g, w in zip(gl, wl):
        assert g.shape == w.shape and g.dtype == w.dtype, (g.shape, g.dtype, w.shape, w.dtype)
        assert {d.platform for d in g.devices()} == {"xlac"}, g.devices()
        gs, ws = getattr(g.sharding, "spec", None), getattr(w.sharding, "spec", None)
        if gs is not None and ws is not None and gs != ws:
            # an unconstrained result: either layout is right, but the
            # same data must come out
            assert len(g.devices()) == len(w.devices()), (g.sharding, w.sharding)
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=rtol, atol=atol)
    return got


def mesh_of(devs, shape, names):
    return Mesh(np.array(devs[:int(np.prod(shape))]).reshape(shape), names)


x = jax.random.normal(jax.random.key(0), (16, 8))
w = jax.random.normal(jax.random.key(1), (8, 12))


def jit_on(devs, f, shape, names, args, specs, out=None):
    mesh = mesh_of(devs, shape, names)
    a = [jax.device_put(v, NamedSharding(mesh, s)) for v, s in zip(args, specs)]
    kw = {}
    if out is not None:
        kw["out_shardings"] = jax.tree.map(lambda s: NamedSharding(mesh, s), out,
                                           is_leaf=lambda s: isinstance(s, P))
    return jax.jit(f, **kw)(*a)


def t_elementwise_1d():
    r = both(lambda d: jit_on(d, lambda a: jnp.sin(a) * 2 + 1, (4,), ("data",), [x], [P("data", None)]))
    assert r.sharding.spec == P("data", None), r.sharding


def t_elementwise_2d():
    both(lambda d: jit_on(d, lambda a, b: jnp.maximum(a, b) - a * b, (2, 4), ("data", "model"), [x, x + 1],
                          [P("data", None), P("data", None)]))


def t_matmul_1d():
    r = both(lambda d: jit_on(d, lambda a, b: a @ b, (4,), ("data",), [x, w], [P("data", None), P()]))
    assert r.sharding.spec == P("data", None), r.sharding


def t_matmul_2d():
    both(lambda d: jit_on(d, lambda a, b: a @ b, (2, 4), ("data", "model"), [x, w],
                          [P("data", None), P(None, "model")]))
    # Megatron's MLP: column- then row-parallel weights
    w2 = jax.random.normal(jax.random.key(2), (12, 8))
    both(lambda d: jit_on(d, lambda a, b, c: jax.nn.relu(a @ b) @ c, (2, 4), ("data", "model"), [x, w, w2],
                          [P("data", None), P(None, "model"), P("model", None)], out=P("data", None)),
         rtol=1e-4, atol=1e-4)


def t_mesh_3d():
    a = jnp.arange(128.0).reshape(8, 16)
    both(lambda d: jit_on(d, lambda t: (t * t, t.sum(), t.T), (2, 2, 2), ("a", "b", "c"), [a],
                          [P(("a", "c"), "b")], out=(P("c", ("b", "a")), P(), P("b", None))))


def t_out_shardings():
    r = both(lambda d: jit_on(d, lambda a: a * 3, (2, 4), ("data", "model"), [x], [P("data", None)],
                              out=P(None, "model")))
    assert r.sharding.spec == P(None, "model"), r.sharding


def t_reduce_sharded_axis():
    s, m = both(lambda d: jit_on(d, lambda a: (jnp.sum(a, axis=0), jnp.max(a, axis=1)), (4,), ("x",), [x],
                                 [P("x", None)]))
    assert s.sharding.spec == P(), s.sharding
    assert m.sharding.spec == P("x"), m.sharding
    both(lambda d: jit_on(d, lambda a: (a.mean(), a.min(0), (a > 0).any(1)), (2, 4), ("data", "model"), [x],
                          [P("data", "model")]))


def t_sharding_constraint():
    def build(devs):
        mesh = mesh_of(devs, (4,), ("x",))

        def f(a, b):
            y = jax.lax.with_sharding_constraint(a @ b, NamedSharding(mesh, P(None, "x")))
            return jnp.sin(y).sum(1)

        return jax.jit(f)(jax.device_put(x, NamedSharding(mesh, P("x", None))), w)

    both(build)


def t_gspmd_attributes():
    # the sharding strings JAX writes when Shardy is off
    jax.config.update("jax_use_shardy_partitioner", False)
    try:
        r = both(lambda d: jit_on(d, lambda t: jax.lax.with_sharding_constraint(t * 2, NamedSharding(
            mesh_of(d, (2, 2), ("x", "y")), P(None, "y"))) + 1, (2, 2), ("x", "y"), [x], [P("x", None)],
            out=P("y", "x")))
        assert r.sharding.spec == P("y", "x"), r.sharding
    finally:
        jax.config.update("jax_use_shardy_partitioner", True)


def t_pmap_results():
    def build(devs):
        xs = jnp.arange(4 * 3, dtype=jnp.float32).reshape(4, 3)
        l = jax.pmap(lambda v: v * 2 + jax.lax.psum(v, "i"), axis_name="i", devices=devs[:4])(xs)
        return l[0], l.mean(), l + 1, l[1:3].sum(0), jnp.sum(l * l)

    first, mean, plus, part, sq = both(build)
    want = np.arange(12.0).reshape(4, 3) * 2 + np.arange(12.0).reshape(4, 3).sum(0)
    np.testing.assert_allclose(np.asarray(first), want[0])
    np.testing.assert_allclose(np.asarray(mean), want.mean(), rtol=1e-6)
    np.testing.assert_allclose(np.asarray(plus), want + 1)


def dp_step(devs):
    """The data-parallel SGD step of an MLP on devs (the batch split, the
    parameters replicated), compiled, and its arguments placed."""
    mesh = mesh_of(devs, (8,), ("x",))
    rep, dsh = NamedSharding(mesh, P()), NamedSharding(mesh, P("x", None))
    k = jax.random.split(jax.random.key(3), 4)
    params = [jax.random.normal(k[0], (8, 16)) * 0.3, jnp.zeros(16), jax.random.normal(k[1], (16, 4)) * 0.3,
              jnp.zeros(4)]
    xb, yb = jax.random.normal(k[2], (32, 8)), jax.random.normal(k[3], (32, 4))

    def loss(p, a, b):
        h = jnp.tanh(a @ p[0] + p[1])
        return jnp.mean((h @ p[2] + p[3] - b) ** 2)

    def step(p, a, b):
        g = jax.grad(loss)(p, a, b)
        return [q - 0.1 * gq for q, gq in zip(p, g)], loss(p, a, b)

    f = jax.jit(step, in_shardings=([rep] * 4, dsh, dsh), out_shardings=([rep] * 4, rep))
    return f, [jax.device_put(q, rep) for q in params], jax.device_put(xb, dsh), jax.device_put(yb, dsh)


def t_training_step():
    # data parallel: the batch split, parameters replicated, three SGD steps
    def build(devs):
        f, p, a, b = dp_step(devs)
        losses = []
        for _ in range(3):
            p, lv = f(p, a, b)
            losses.append(lv)
        return p, losses

    both(build, rtol=1e-4, atol=1e-5)


def collectives(devs, f, shape, names, args, specs, out=None):
    """The collectives in the program xlac compiled for f: {kind: count}."""
    mesh = mesh_of(devs, shape, names)
    a = [jax.device_put(v, NamedSharding(mesh, s)) for v, s in zip(args, specs)]
    kw = {}
    if out is not None:
        kw["out_shardings"] = NamedSharding(mesh, out)
    text = jax.jit(f, **kw).lower(*a).compile().as_text()
    return count_collectives(text)


def count_collectives(text):
    return {k: text.count("stablehlo." + k) + text.count(k.replace("_", "-") + "(")
            for k in ("all_gather", "all_reduce", "all_to_all", "reduce_scatter")}


def t_megatron_no_gather():
    # column- then row-parallel: one all_reduce over "model", nothing gathered
    w2 = jax.random.normal(jax.random.key(2), (12, 8))
    f = lambda a, b, c: jax.nn.relu(a @ b) @ c  # noqa: E731
    args, specs = [x, w, w2], [P("data", None), P(None, "model"), P("model", None)]
    both(lambda d: jit_on(d, f, (2, 4), ("data", "model"), args, specs, out=P("data", None)), rtol=1e-4, atol=1e-4)
    c = collectives(X, f, (2, 4), ("data", "model"), args, specs, out=P("data", None))
    assert c["all_gather"] == 0 and c["all_reduce"] == 1, c


def t_dot_split_operands():
    q = jax.random.normal(jax.random.key(4), (4, 8, 16))
    k = jax.random.normal(jax.random.key(5), (4, 8, 16))
    # batch split alike, contracting split alike: partial products summed
    both(lambda d: jit_on(d, lambda a, b: jnp.einsum("bqd,bkd->bqk", a, b), (2, 4), ("data", "model"),
                          [q, k], [P("data", None, "model"), P("data", None, "model")]), rtol=1e-4, atol=1e-4)
    # lhs split on its free dim, rhs on the contracting one
    both(lambda d: jit_on(d, lambda a, b: a @ b, (2, 4), ("data", "model"), [x, w],
                          [P("data", None), P("model", None)]), rtol=1e-4, atol=1e-4)
    # contracting dims split on both sides (x^T x over a split batch)
    both(lambda d: jit_on(d, lambda a: a.T @ a, (8,), ("x",), [x], [P("x", None)]), rtol=1e-4, atol=1e-4)
    c = collectives(X, lambda a: a.T @ a, (8,), ("x",), [x], [P("x", None)])
    assert c["all_gather"] == 0 and c["all_reduce"] == 1, c


def t_movement_on_shards():
    b = jax.random.normal(jax.random.key(6), (8,))

    def f(a, v):
        h = a + v  # broadcast of a split vector
        return (h.T * 2, h.reshape(4, 4, 8), a[3:9], jnp.concatenate([a, h], axis=0),
                a * jnp.arange(16.0)[:, None])

    both(lambda d: jit_on(d, f, (4,), ("x",), [x, b], [P(None, "x"), P("x")]))
    c = collectives(X, f, (4,), ("x",), [x, b], [P(None, "x"), P("x")])
    assert c["all_gather"] == 0, c


def t_training_step_no_gather():
    # the data-parallel step: gradients summed by all_reduce, nothing gathered
    f, p, a, b = dp_step(X)
    c = count_collectives(f.lower(p, a, b).compile().as_text())
    # the gradients' and the loss's all_reduces are one
    assert c["all_gather"] == 0 and c["all_reduce"] == 1, c


def t_constraint_reaches_back():
    # a constraint and an output sharding reach back to the ops before them:
    # the dot and tanh work on row shards of whole operands, nothing moves
    w8 = jax.random.normal(jax.random.key(7), (8, 8))

    def build(devs, lower=False):
        mesh = mesh_of(devs, (8,), ("x",))

        def f(a, b):
            h = jax.lax.with_sharding_constraint(jnp.tanh(a @ b), NamedSharding(mesh, P("x", None)))
            return h * 2, a.T + 1

        rep = NamedSharding(mesh, P())
        g = jax.jit(f, out_shardings=(NamedSharding(mesh, P("x", None)), NamedSharding(mesh, P(None, "x"))))
        args = (jax.device_put(x, rep), jax.device_put(w8, rep))
        return g.lower(*args).compile().as_text() if lower else g(*args)

    r, t = both(build)
    assert r.sharding.spec == P("x", None) and t.sharding.spec == P(None, "x"), (r.sharding, t.sharding)
    c = count_collectives(build(X, lower=True))
    assert sum(c.values()) == 0, c


def t_constraint_alone():
    # a value made inside, constrained: no sharded argument or result
    def build(devs):
        mesh = mesh_of(devs, (2, 2), ("x", "y"))
        return jax.jit(lambda: jax.lax.with_sharding_constraint(jnp.arange(128.0).reshape(16, 8) * 2,
                                                                NamedSharding(mesh, P("x", "y"))))()

    r = both(build)
    assert r.sharding.spec == P("x", "y"), r.sharding
    assert {s.data.shape for s in r.addressable_shards} == {(8, 4)}, r.addressable_shards


def t_reduce_scatter():
    # partial products whose sum leaves split: one reduce_scatter each (the
    # FSDP gradient x^T e over a split batch, kept split by rows)
    e = jax.random.normal(jax.random.key(8), (16, 8))
    f = lambda a, b: a.T @ b  # noqa: E731
    both(lambda d: jit_on(d, f, (8,), ("x",), [x, e], [P("x", None), P("x", None)], out=P("x", None)),
         rtol=1e-4, atol=1e-4)
    c = collectives(X, f, (8,), ("x",), [x, e], [P("x", None), P("x", None)], out=P("x", None))
    assert c["reduce_scatter"] == 1 and c["all_reduce"] == 0 and c["all_gather"] == 0, c
    both(lambda d: jit_on(d, lambda a, b: a @ b, (2, 4), ("data", "model"), [x, w],
                          [P(None, "model"), P("model", None)], out=P("model", None)), rtol=1e-4, atol=1e-4)


def t_all_to_all():
    # a split that moves from one dimension to another: one all_to_all
    f = lambda a: (a * 2).T  # noqa: E731
    for shape, names, spec, out in [((8,), ("x",), P(None, "x"), P(None, "x")),
                                    ((2, 4), ("data", "model"), P(None, "data"), P(None, "data"))]:
        both(lambda d: jit_on(d, f, shape, names, [x], [spec], out=out))
        c = collectives(X, f, shape, names, [x], [spec], out=out)
        assert c["all_to_all"] >= 1 and c["all_gather"] == 0, c


def t_uneven_refused():
    # an output split unevenly is refused (by JAX before it compiles; the
    # file tests cover the partitioner's own check)
    mesh = mesh_of(X, (4,), ("x",))
    a = jnp.ones((6, 4))
    try:
        jax.jit(lambda t: t + 1, out_shardings=NamedSharding(mesh, P("x", None)))(a)
    except Exception as e:
        assert "evenly" in str(e) or "divisible" in str(e), e
    else:
        raise AssertionError("an uneven output sharding ran")


def t_uneven_constraint():
    # a constraint that splits 10 rows over 4 devices: pieces of 3 rows,
    # the last padded (3, 3, 3, 1); elementwise ops, a product over the
    # split rows and reductions over them (the padding masked, even where
    # a log makes it -inf) run on the pieces, and the results come back at
    # their true sizes, equal to JAX's CPU backend's
    a = jax.random.normal(jax.random.key(20), (10, 8))
    b = jax.random.normal(jax.random.key(21), (8, 6))

    def run(d, lower=False):
        mesh = mesh_of(d, (4,), ("x",))

        def f(u, v):
            s = jax.lax.with_sharding_constraint(u, NamedSharding(mesh, P("x", None)))
            e = jnp.exp(s) * 2
            return e @ v, jnp.sum(e, axis=0), jnp.max(jnp.log(jnp.abs(s)), axis=0), e.T @ e

        args = [jax.device_put(t, NamedSharding(mesh, P())) for t in (a, b)]
        return jax.jit(f).lower(*args).compile().as_text() if lower else jax.jit(f)(*args)

    both(run, rtol=1e-4, atol=1e-4)
    text = run(X, lower=True)
    # the pieces, and only the product's split result gathered (for its
    # whole value); the sums and the contraction are all-reduces
    assert "f32[3,8]" in text or "tensor<3x8xf32>" in text, text
    c = count_collectives(text)
    assert c["all_gather"] == 1 and c["all_reduce"] >= 1, c


def t_slice_keeps_splits():
    # arr[:, -1, :] of an array split over a 2x2x2 mesh: gathered along the
    # middle dimension alone, the result split along the first and last
    # (2x4 pieces), as on JAX's CPU backend
    arr = jax.random.normal(jax.random.key(22), (4, 6, 8))

    def run(d):
        mesh = mesh_of(d, (2, 2, 2), ("x", "y", "z"))
        return jax.jit(lambda a: a[:, -1, :])(jax.device_put(arr, NamedSharding(mesh, P("x", "y", "z"))))

    r = same_specs(run)
    assert r.sharding.spec == P("x", "z"), r.sharding


def same_specs(build):
    """both(build), and each result's sharding spec the same on xlac as on
    JAX's CPU backend (layouts the program leaves to the compiler)."""
    got, want = both(build), build(C)
    for g, w in zip(jax.tree.leaves(got), jax.tree.leaves(want)):
        assert g.sharding.spec == w.sharding.spec, (g.sharding, w.sharding)
        assert [s.data.shape for s in g.addressable_shards] == [s.data.shape for s in w.addressable_shards]
    return got


def t_open_constraints():
    # constraints that leave dimensions open (`?`): the value takes the
    # axes named, and the open dimensions the operand's splits that fit
    from jax.sharding import AxisType, explicit_axes
    inp = np.arange(16).reshape(8, 2)

    def vmapped(devs, axis):
        mesh = jax.make_mesh((2, 2), ("x", "y"), axis_types=(AxisType.Auto,) * 2, devices=devs[:4])
        arr = jax.device_put(inp, NamedSharding(mesh, P("x", "y")))

        def f(v):
            return jax.lax.with_sharding_constraint(v, NamedSharding(mesh.abstract_mesh, P("x"))) * 2
        return jax.jit(jax.vmap(f, spmd_axis_name=axis))(arr)

    assert same_specs(lambda d: vmapped(d, None)).sharding.spec == P(None, "x")
    assert same_specs(lambda d: vmapped(d, "y")).sharding.spec == P("y", "x")

    def auto_to_explicit(devs):
        mesh = jax.make_mesh((2, 2), ("x", "y"), axis_types=(AxisType.Auto,) * 2, devices=devs[:4])
        with jax.set_mesh(mesh):
            arr = jax.device_put(inp.astype(np.float32), NamedSharding(mesh, P("x", "y")))

            @jax.jit
            def f(v):
                @partial(explicit_axes, axes="y", in_sharding=P(None, "y"))
                def h(y):
                    z = jnp.sin(y)
                    return jnp.einsum("ab,bc->ac", z, z.T, out_sharding=P(None, "y"))
                return h(v * 2)
            return f(arr)

    assert same_specs(auto_to_explicit).sharding.spec == P("x", "y")

    def iota(devs):
        mesh = jax.make_mesh((2, 2, 2), ("x", "y", "z"),
                             axis_types=(AxisType.Auto, AxisType.Explicit, AxisType.Explicit), devices=devs[:8])
        yz = NamedSharding(mesh, P(("y", "z"), None))
        with jax.set_mesh(mesh):
            return jax.jit(lambda: jax.lax.broadcasted_iota(jnp.int32, (16, 24), 1, out_sharding=yz))()

    assert same_specs(iota).sharding.spec == P(("y", "z"), None)


def t_donation_unpaired():
    # a donated argument no result can take the storage of (another size
    # per device) stays alive, as on JAX's CPU backend; one a result of its
    # shape takes is consumed, and so is one a result of its size in bytes
    # takes (XLA pairs donors and results by size)
    for devs in (X, C):
        mesh = mesh_of(devs, (2,), ("x",))
        s = NamedSharding(mesh, P("x"))
        a = jax.device_put(np.arange(16.0, dtype=np.float32).reshape(8, 2), s)
        r = jax.jit(lambda v: v @ v.T, donate_argnums=0)(a)
        assert not a.is_deleted(), devs[0].platform
        np.testing.assert_allclose(np.asarray(r), np.asarray(a) @ np.asarray(a).T)
        b = jax.device_put(np.arange(16.0, dtype=np.float32).reshape(8, 2), s)
        r = jax.jit(lambda v: v * 2, donate_argnums=0)(b)
        assert b.is_deleted(), devs[0].platform
        np.testing.assert_allclose(np.asarray(r), np.arange(16.0).reshape(8, 2) * 2)
        s2 = NamedSharding(mesh, P(None, "x", None))
        u = jax.device_put(np.arange(16).reshape(16, 1), s)
        v = jax.device_put(np.arange(16).reshape(2, 2, 4), s)
        f = jax.jit(lambda p, q: (jnp.reshape(p, (16,)), q), out_shardings=(s, s2), donate_argnums=(0, 1))
        r = f(u, v)
        assert u.is_deleted() and v.is_deleted(), devs[0].platform
        np.testing.assert_array_equal(np.asarray(r[0]), np.arange(16))
        np.testing.assert_array_equal(np.asarray(r[1]), np.arange(16).reshape(2, 2, 4))


def calls_of(devs, f, shape, names, args, specs, out=None):
    """f jitted over the mesh of devs, with cb(v) recording what each host
    call sees; returns (the calls' values, f's result)."""
    seen = []
    r = jit_on(devs, lambda *a: f(lambda v: seen.append(np.asarray(v).copy()), *a), shape, names, args,
               specs, out=out)
    jax.block_until_ready(r)
    jax.effects_barrier()
    return seen, r


def t_callback_once():
    # a host callback in a program the compiler partitions runs once, on
    # one device (the callback's sharding, else the first), with the whole
    # value; its results reach every device
    from jax.experimental import io_callback

    def f(cb, a):
        io_callback(lambda v: cb(v), None, a)
        io_callback(lambda v: cb(v), None, a * 2, ordered=True)
        return a + 1
    for d in (X, C):
        seen, r = calls_of(d, f, (8,), ("x",), [x], [P("x", None)], out=P())
        assert len(seen) == 2, len(seen)
        got = sorted(seen, key=lambda v: float(v.sum()))
        want = sorted([np.asarray(x), np.asarray(x) * 2], key=lambda v: float(v.sum()))
        for g, w_ in zip(got, want):
            np.testing.assert_allclose(g, w_, rtol=1e-6)
        np.testing.assert_allclose(np.asarray(r), np.asarray(x) + 1, rtol=1e-6)
    # with results, on the device the callback names: every shard of the
    # result is right
    for d in (X, C):
        def g(cb, a):
            y = jax.pure_callback(lambda v: (cb(v), v[::-1] * 3)[1], jax.ShapeDtypeStruct(a.shape, a.dtype), a,
                                  sharding=jax.sharding.SingleDeviceSharding(d[5]))
            return y - a
        seen, r = calls_of(d, g, (8,), ("x",), [x], [P("x", None)], out=P("x", None))
        assert len(seen) == 1, len(seen)
        np.testing.assert_allclose(seen[0], np.asarray(x), rtol=1e-6)
        want = np.asarray(x)[::-1] * 3 - np.asarray(x)
        np.testing.assert_allclose(np.asarray(r), want, rtol=1e-5, atol=1e-5)
        for sh in r.addressable_shards:
            np.testing.assert_allclose(np.asarray(sh.data), want[sh.index], rtol=1e-5, atol=1e-5)
    mesh = mesh_of(X, (8,), ("x",))
    text = jax.jit(lambda a: jax.pure_callback(np.sin, jax.ShapeDtypeStruct(a.shape, a.dtype), a,
                                               sharding=jax.sharding.SingleDeviceSharding(X[5]))).lower(
        jax.device_put(x, NamedSharding(mesh, P("x", None)))).as_text()
    assert "sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_5, []>]>" in text, text
    # ordered calls over two executions, in order, each once
    seen = []

    def h(a):
        io_callback(lambda v: seen.append(float(v.sum())), None, a, ordered=True)
        io_callback(lambda v: seen.append(float(v.sum())), None, a + 1, ordered=True)
        return a
    hj = jax.jit(h, in_shardings=NamedSharding(mesh, P("x")), out_shardings=NamedSharding(mesh, P()))
    v = jnp.arange(8.0)
    hj(v)
    hj(v + 5)
    jax.effects_barrier()
    assert seen == [28.0, 36.0, 68.0, 76.0], seen
    # an unordered print inside a loop: once per iteration
    for d in (X, C):
        def k(cb, a):
            return jax.lax.fori_loop(0, 3, lambda i, c: (jax.debug.callback(lambda v: cb(v), c[0, 0]), c * 2)[1], a)
        seen, r = calls_of(d, k, (8,), ("x",), [x], [P("x", None)])
        assert len(seen) == 3, len(seen)
        np.testing.assert_allclose(sorted(float(s) for s in seen),
                                   sorted(float(x[0, 0]) * m for m in (1, 2, 4)), rtol=1e-6)


def t_partitioned_callback():
    # debug callbacks with partitioned=True: one call per device, with that
    # device's shard (compared with JAX's CPU backend as sets)
    def f(cb, a):
        jax.debug.callback(lambda v: cb(v), a, partitioned=True)
        return a * 2

    def shards(d, shape, names, spec):
        seen, r = calls_of(d, f, shape, names, [x], [spec])
        return sorted(tuple(v.ravel().tolist()) for v in seen), [v.shape for v in seen], r
    for shape, names, spec, piece in [((8,), ("x",), P("x", None), (2, 8)),
                                      ((2, 4), ("data", "model"), P("data", "model"), (8, 2)),
                                      ((2, 4), ("data", "model"), P(None, "model"), (16, 2))]:
        gx, sx, rx = shards(X, shape, names, spec)
        gc, _, _ = shards(C, shape, names, spec)
        assert len(gx) == 8 and all(s == piece for s in sx), sx
        assert gx == gc, (len(gx), len(gc))
        np.testing.assert_allclose(np.asarray(rx), np.asarray(x) * 2, rtol=1e-6)
    # under vmap: a call per element per device, with the element's shard
    def g(cb, a):
        jax.vmap(lambda r: jax.debug.callback(lambda v: cb(v), r, partitioned=True))(a)
        return a
    three = jnp.arange(2 * 3 * 8.0).reshape(2, 3, 8)
    got = {}
    for name, d in (("xlac", X), ("cpu", C)):
        seen, _ = calls_of(d, g, (8,), ("x",), [three], [P(None, None, "x")])
        got[name] = sorted(tuple(v.ravel().tolist()) for v in seen)
        assert len(seen) == 16 and all(v.shape == (3, 1) for v in seen), [v.shape for v in seen]
    assert got["xlac"] == got["cpu"]


def t_inspect_sharding():
    # inspect_array_sharding reports the layout the partitioner chose
    def f(specs, a):
        jax.debug.inspect_array_sharding(a, callback=lambda s: specs.append(s))
        jax.debug.inspect_array_sharding(a.T, callback=lambda s: specs.append(s))
        return jnp.square(a)
    got = {}
    for name, d in (("xlac", X), ("cpu", C)):
        specs = []
        jit_on(d, lambda a: f(specs, a), (2, 4), ("data", "model"), [x], [P("data", "model")])
        assert len(specs) == 2, specs
        assert all(isinstance(s, NamedSharding) and len(s.device_set) == 8 for s in specs), specs
        got[name] = [s.spec for s in specs]
    assert got["xlac"] == got["cpu"] == [P("data", "model"), P("model", "data")], got
    # in a shard_map (partitioned by hand): called, with the manual layout
    specs = []
    mesh = mesh_of(X, (8,), ("x",))
    jax.shard_map(lambda a: (jax.debug.inspect_array_sharding(a, callback=specs.append), a)[1], mesh=mesh,
                  in_specs=P("x"), out_specs=P("x"))(jnp.arange(16.0))
    assert len(specs) == 1 and specs[0].spec == P(), specs


def t_shard_map_2d():
    # shard_map over both axes of a 2x4 mesh, a psum over one of them
    def build(d):
        m = mesh_of(d, (2, 4), ("x", "y"))
        f = jax.shard_map(lambda a: jax.lax.psum(a, "y") * 2, mesh=m, in_specs=P("x", "y"), out_specs=P("x", None))
        return jax.jit(f)(x)
    r = both(build)
    assert r.sharding.spec in (P("x"), P("x", None)), r.sharding


def t_shard_map_partial_auto():
    # manual over "x" only, "y" left to the partitioner; work outside too
    def build(d):
        m = mesh_of(d, (2, 4), ("x", "y"))
        f = jax.shard_map(lambda a: jax.lax.psum(jnp.sin(a), "x"), mesh=m, in_specs=P("x"), out_specs=P(),
                          axis_names={"x"})
        a = jax.device_put(x, NamedSharding(m, P(None, "y")))
        return jax.jit(lambda a: f(a * 3) + 1)(a)
    both(build)


def t_shard_map_twice():
    # two manual computations in one program, by rows then by columns,
    # with axis_index and work between them
    def build(d):
        m = mesh_of(d, (8,), ("x",))
        f = jax.shard_map(lambda a: a * 2 + jax.lax.axis_index("x"), mesh=m, in_specs=P("x"), out_specs=P("x"))
        g = jax.shard_map(lambda a: jax.lax.psum(a, "x"), mesh=m, in_specs=P(None, "x"), out_specs=P())
        return jax.jit(lambda a: g(jnp.cos(f(a)) + 1))(x)
    both(build)


def t_shard_map_in_loop():
    # a manual computation in a loop's body
    def build(d):
        m = mesh_of(d, (8,), ("x",))
        f = jax.shard_map(lambda a: a * 2 + jax.lax.axis_index("x"), mesh=m, in_specs=P("x"), out_specs=P("x"))
        return jax.jit(lambda a: jax.lax.fori_loop(0, 3, lambda i, v: f(v) * 0.5, a))(x)
    both(build)


def t_shard_map_unreduced():
    # a shard_map whose result is left unreduced (each device's partial
    # sum, as it is), read back shard by shard, then summed by another
    from jax.sharding import AxisType
    got = {}
    for name, d in (("xlac", X), ("cpu", C)):
        m = jax.make_mesh((2,), ("x",), axis_types=(AxisType.Explicit,), devices=d[:2])
        a = jax.device_put(np.arange(4.0, dtype=np.float32), NamedSharding(m, P("x")))
        f = jax.jit(jax.shard_map(lambda v: v * 3, mesh=m, in_specs=P("x"), out_specs=P(unreduced={"x"})))
        g = jax.jit(jax.shard_map(lambda v: jax.lax.psum(v, "x"), mesh=m, in_specs=P(unreduced={"x"}),
                                  out_specs=P()))
        out = f(a)
        assert out.sharding.spec == P(None, unreduced={"x"}), out.sharding
        got[name] = ([np.asarray(s.data) for s in out.addressable_shards], np.asarray(g(out)))
    for x_s, c_s in zip(got["xlac"][0], got["cpu"][0]):
        np.testing.assert_array_equal(x_s, c_s)
    np.testing.assert_array_equal(got["xlac"][1], got["cpu"][1])
    np.testing.assert_array_equal(got["xlac"][1], [6.0, 12.0])



def unreduced_shards(build):
    """build(devices) on xlac and on cpu (explicit 2x4 meshes): each
    device's own shard of every result, a partial sum, must equal the CPU
    backend's; returns xlac's results."""
    res = {}
    for name, d in (("xlac", X), ("cpu", C)):
        res[name] = build(d)
    for g, w in zip(jax.tree.leaves(res["xlac"]), jax.tree.leaves(res["cpu"])):
        assert g.sharding.spec == w.sharding.spec, (g.sharding, w.sharding)
        assert g.sharding.spec.unreduced, g.sharding
        gs, ws = g.addressable_shards, w.addressable_shards
        assert len(gs) == len(ws) == 8
        for a, b in zip(gs, ws):
            assert a.device.id == b.device.id, (a.device, b.device)
            np.testing.assert_allclose(np.asarray(a.data), np.asarray(b.data), rtol=1e-5, atol=1e-5)
    return res["xlac"]


def explicit_mesh(d):
    from jax.sharding import AxisType
    return jax.make_mesh((2, 4), ("x", "y"), axis_types=(AxisType.Explicit,) * 2, devices=d[:8])


a16 = jax.random.normal(jax.random.key(3), (8, 16))
b16 = jax.random.normal(jax.random.key(4), (16, 8))


def t_unreduced_einsum():
    # an einsum over a split contracting dimension with an unreduced
    # result: each device returns its local partial product, no all-reduce
    texts = {}

    def build(d):
        m = explicit_mesh(d)
        with jax.set_mesh(m):
            a = jax.device_put(a16, P("x", "y"))
            b = jax.device_put(b16, P("y", None))
            f = jax.jit(lambda u, v: jnp.einsum("ab,bc->ac", u, v, out_sharding=P("x", unreduced={"y"})))
            texts[d[0].platform] = f.lower(a, b).compile().as_text()
            out = f(a, b)
            total = jax.sharding.reshard(out, P("x"))
        return out, total
    out = unreduced_shards(lambda d: build(d)[0])
    assert out.sharding.spec == P("x", None, unreduced={"y"}), out.sharding
    assert "all-reduce" not in texts["xlac"] and "all-reduce" not in texts["cpu"]
    np.testing.assert_allclose(np.asarray(build(X)[1]), np.asarray(a16 @ b16), rtol=1e-5, atol=1e-5)


def t_unreduced_add():
    # two unreduced einsums added (still partial sums), then summed by a
    # reshard; and the partial sums of the add read back as they are
    def build(d, reduce):
        m = explicit_mesh(d)
        with jax.set_mesh(m):
            a = jax.device_put(a16, P("x", "y"))
            b = jax.device_put(b16, P("y", None))

            def f(u, v):
                m1 = jnp.einsum("ab,bc->ac", u, v, out_sharding=P("x", unreduced={"y"}))
                m2 = jnp.einsum("ab,bc->ac", u * 2, v, out_sharding=P("x", unreduced={"y"}))
                s = m1 + m2
                return jax.sharding.reshard(s, P("x")) if reduce else s
            return jax.jit(f)(a, b)
    unreduced_shards(lambda d: build(d, False))
    np.testing.assert_allclose(np.asarray(build(X, True)), np.asarray(3 * (a16 @ b16)), rtol=1e-4, atol=1e-4)


def t_unreduced_sum():
    # a sum over a split dimension left unreduced: each device's local sum;
    # a split value made unreduced: each device's piece in place in zeros
    def build(d):
        m = explicit_mesh(d)
        with jax.set_mesh(m):
            a = jax.device_put(a16, P("x", "y"))
            s = jax.jit(lambda u: jax.lax.reduce_sum(u, axes=(0,), out_sharding=P("y", unreduced={"x"})))(a)
            r = jax.device_put(np.arange(8.0, dtype=np.float32), P("x"))
            i = jax.jit(lambda u: u, out_shardings=P(unreduced={"x"}))(r)
        return s, i
    unreduced_shards(build)



def t_unreduced_bitcast():
    # shard_map(check_vma=False) reads an unreduced parameter's partial
    # sums as they are (each device its own), nothing summed before
    from jax.sharding import AxisType
    got = {}
    for name, d in (("xlac", X), ("cpu", C)):
        m = jax.make_mesh((2,), ("x",), axis_types=(AxisType.Explicit,), devices=d[:2])
        with jax.set_mesh(m):
            arr = jax.device_put(np.arange(8.0, dtype=np.float32), P())
            f = jax.jit(jax.shard_map(lambda v: v, in_specs=P(), out_specs=P(unreduced={"x"}), check_vma=False))
            g = jax.jit(jax.shard_map(lambda v: v * 2, in_specs=P(unreduced={"x"}), out_specs=P(), check_vma=False))
            out = g(f(arr))
            got[name] = [np.asarray(s.data) for s in out.addressable_shards]
    for a, b in zip(got["xlac"], got["cpu"]):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(got["xlac"][1], 2 * np.arange(8.0))


def t_loop_on_shards():
    # a data-parallel loop (fori_loop of SGD steps over split rows): the
    # rows stay split through the loop, nothing is gathered, and the
    # gradient's partial products are summed in each step (the next step
    # reads the weights)
    y = jax.random.normal(jax.random.key(7), (16, 12))

    def f(a, b, p):
        def step(i, p):
            g = jax.grad(lambda q: jnp.mean((jnp.tanh(a @ q) - b) ** 2))(p)
            return p - 0.1 * g
        return jax.lax.fori_loop(0, 3, step, p)
    args, specs = [x, y, w], [P("x", None), P("x", None), P()]
    both(lambda d: jit_on(d, f, (8,), ("x",), args, specs), rtol=1e-4, atol=1e-5)
    c = collectives(X, f, (8,), ("x",), args, specs)
    assert c["all_gather"] == 0 and c["all_reduce"] == 1, c


def t_scan_unreduced_minibatch():
    # a scan over minibatches accumulating unreduced gradients in its
    # carry: summed once, after the loop (one all-reduce, as on the CPU
    # backend), not in every iteration
    from jax.sharding import AxisType
    texts, got = {}, {}
    for name, d in (("xlac", X), ("cpu", C)):
        m = jax.make_mesh((2,), ("x",), axis_types=(AxisType.Explicit,), devices=d[:2])
        with jax.set_mesh(m):
            def loss(ws, xb):
                for q in ws:
                    xb = jnp.dot(xb, q)
                return jnp.sum(xb)

            @jax.jit
            def step(ws, xs):
                def body(acc, xb):
                    return jax.tree.map(jnp.add, acc, jax.grad(loss)(ws, xb)), None
                acc = jax.sharding.reshard(jax.tree.map(jnp.zeros_like, ws), P(unreduced={"x"}))
                acc, _ = jax.lax.scan(body, acc, xs)
                return jax.sharding.reshard(acc, P())
            ws = tuple(jax.device_put(jnp.full((4, 4), 0.5 + k), P(reduced={"x"})) for k in range(2))
            xs = jax.device_put(jax.random.normal(jax.random.key(9), (3, 4, 4)), P(None, "x", None))
            texts[name] = step.lower(ws, xs).compile().as_text()
            got[name] = [np.asarray(g) for g in step(ws, xs)]
    for a, b in zip(got["xlac"], got["cpu"]):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-4)
    assert count_collectives(texts["xlac"])["all_reduce"] == 1, count_collectives(texts["xlac"])
    assert texts["cpu"].count("all-reduce(") == 1


def resnet_block(xb, k1, k2, g, b):
    # conv, batch normalization (the batch's statistics), relu, conv,
    # normalization, the residual, relu: NHWC, SAME padding
    def conv(a, k):
        return jax.lax.conv_general_dilated(a, k, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))

    def bn(a):
        m = jnp.mean(a, axis=(0, 1, 2))
        v = jnp.mean((a - m) ** 2, axis=(0, 1, 2))
        return (a - m) * jax.lax.rsqrt(v + 1e-5) * g + b

    h = jax.nn.relu(bn(conv(xb, k1)))
    return jax.nn.relu(bn(conv(h, k2)) + xb)


def resnet_args():
    ks = jax.random.split(jax.random.key(11), 5)
    return [jax.random.normal(ks[0], (8, 8, 8, 4)), 0.3 * jax.random.normal(ks[1], (3, 3, 4, 4)),
            0.3 * jax.random.normal(ks[2], (3, 3, 4, 4)), 1 + 0.1 * jax.random.normal(ks[3], (4,)),
            0.1 * jax.random.normal(ks[4], (4,))]


def t_resnet_block_sharded_batch():
    # a ResNet block over a batch split 8 ways: the convolutions on each
    # device's images, the normalization's statistics summed, nothing
    # gathered; its training gradient (the kernels' gradients summed over
    # the batch) alike
    args, specs = resnet_args(), [P("x", None, None, None), P(), P(), P(), P()]
    both(lambda d: jit_on(d, resnet_block, (8,), ("x",), args, specs, out=P("x", None, None, None)),
         rtol=1e-4, atol=1e-4)
    c = collectives(X, resnet_block, (8,), ("x",), args, specs, out=P("x", None, None, None))
    assert c["all_gather"] == 0 and c["all_reduce"] >= 1, c

    def grads(xb, k1, k2, g, b):
        return jax.grad(lambda q1, q2: jnp.sum(resnet_block(xb, q1, q2, g, b) ** 2), argnums=(0, 1))(k1, k2)

    both(lambda d: jit_on(d, grads, (8,), ("x",), args, specs), rtol=1e-3, atol=1e-3)
    c = collectives(X, grads, (8,), ("x",), args, specs)
    assert c["all_gather"] == 0, c


def t_conv_rows_halo():
    # the image's rows split 4 ways (the batch 2 ways): a 3x3 convolution
    # and a 3x3 max pooling at stride 2 exchange the rows their windows
    # need with the neighbouring devices (collective permutes), nothing
    # gathered
    a = jax.random.normal(jax.random.key(12), (2, 16, 8, 4))
    k = jax.random.normal(jax.random.key(13), (3, 3, 4, 8))

    def f(a, k):
        y = jax.lax.conv_general_dilated(a, k, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
        return jax.lax.reduce_window(y, -jnp.inf, jax.lax.max, (1, 3, 3, 1), (1, 2, 2, 1), "SAME")

    specs = [P("d", "r", None, None), P()]
    both(lambda d: jit_on(d, f, (2, 4), ("d", "r"), [a, k], specs, out=P("d", "r", None, None)), rtol=1e-4, atol=1e-4)
    mesh = mesh_of(X, (2, 4), ("d", "r"))
    args = [jax.device_put(v, NamedSharding(mesh, s)) for v, s in zip([a, k], specs)]
    text = jax.jit(f, out_shardings=NamedSharding(mesh, P("d", "r", None, None))).lower(*args).compile().as_text()
    c = count_collectives(text)
    assert c["all_gather"] == 0 and c["all_to_all"] == 0, c
    assert text.count("collective_permute") + text.count("collective-permute(") >= 2, text


def t_conv_rows_valid():
    # rows split 8 ways (pieces of 2), a VALID 3x3 convolution: 14 rows of
    # output in pieces of 2, the last padded, each taking two rows of the
    # next piece (collective permutes); a VALID max pooling after it; the
    # values the CPU backend's
    a = jax.random.normal(jax.random.key(15), (2, 16, 6, 3))
    k = jax.random.normal(jax.random.key(16), (3, 3, 3, 4))

    def f(a, k):
        y = jax.lax.conv_general_dilated(a, k, (1, 1), "VALID", dimension_numbers=("NHWC", "HWIO", "NHWC"))
        return jnp.tanh(y), jax.lax.reduce_window(a, -jnp.inf, jax.lax.max, (1, 3, 3, 1), (1, 1, 1, 1), "VALID")

    specs = [P(None, "r", None, None), P()]
    both(lambda d: jit_on(d, f, (8,), ("r",), [a, k], specs), rtol=1e-4, atol=1e-4)
    mesh = mesh_of(X, (8,), ("r",))
    args = [jax.device_put(v, NamedSharding(mesh, s)) for v, s in zip([a, k], specs)]
    text = jax.jit(f).lower(*args).compile().as_text()
    assert text.count("collective_permute") + text.count("collective-permute(") >= 2, text


def t_gather_on_shards():
    # an embedding table split by columns: each device looks the rows up
    # in its columns, nothing gathered; a sort and an argmax along the
    # unsplit dimension of rows split by rows, a pad of the columns
    table = jax.random.normal(jax.random.key(14), (32, 16))
    ids = jnp.array([3, 0, 31, 7, 9, 12])

    def f(t, a):
        return t[ids] * 2, jnp.sort(a, axis=1), jnp.argmax(a, axis=1), jnp.pad(a, ((0, 0), (1, 2)))

    args, specs = [table, x], [P(None, "x"), P("x", None)]
    both(lambda d: jit_on(d, f, (8,), ("x",), args, specs))
    c = collectives(X, f, (8,), ("x",), args, specs)
    assert c["all_gather"] == 0, c


def t_argmax_split_axis():
    # the argmax over a vocabulary split by columns (and on a 2x4 mesh, rows
    # by data): each device reduces its columns, only the [pieces x rows]
    # results are gathered (two all-gathers: values and indices), never
    # the logits; ties across pieces take the first index, as on one device
    logits = jax.random.normal(jax.random.key(15), (16, 64))
    ties = jnp.tile(jnp.array([1.0, 3.0, 3.0, 0.0]), (16, 16))
    f = lambda a: (jnp.argmax(a, axis=1), jnp.argmin(a, axis=1), jnp.max(a, axis=1))  # noqa: E731
    for args in ([logits], [ties]):
        both(lambda d: jit_on(d, f, (8,), ("x",), args, [P(None, "x")]))
        both(lambda d: jit_on(d, f, (2, 4), ("data", "model"), args, [P("data", "model")]))
    c = collectives(X, lambda a: jnp.argmax(a, axis=1), (8,), ("x",), [logits], [P(None, "x")])
    # (gathering the logits instead would be one all-gather of [16 x 64])
    assert c["all_gather"] == 2 and c["all_reduce"] == 0, c

def t_embedding_rows_split():
    # Megatron's vocabulary-parallel embedding: the table split by rows,
    # the ids whole; each device looks up its own rows (zeros for ids in
    # other pieces) and one all-reduce sums the lookups, the table never
    # gathered; also on a 2x4 mesh (rows by model, columns by data)
    table = jax.random.normal(jax.random.key(16), (64, 16))
    ids = jnp.array([[0, 7, 8, 63], [15, 16, 31, 32], [40, 41, 2, 9]], dtype=jnp.int32)
    f = lambda t, i: jnp.tanh(t[i]) * 2  # noqa: E731
    both(lambda d: jit_on(d, f, (8,), ("x",), [table, ids], [P("x", None), P()]))
    both(lambda d: jit_on(d, f, (2, 4), ("data", "model"), [table, ids], [P("model", "data"), P()]))
    c = collectives(X, f, (8,), ("x",), [table, ids], [P("x", None), P()])
    assert c["all_gather"] == 0 and c["all_reduce"] == 1, c


def t_top_k_split_axis():
    # lax.top_k over a vocabulary split by columns, over rows split by data,
    # and both; ties take the smaller index.  JAX hands the op over as a
    # composite whose decomposition is a sort: over split rows it runs on
    # the pieces (nothing gathered); over a split vocabulary the rows are
    # gathered (docs/spmd.md, "Not done yet")
    logits = jax.random.normal(jax.random.key(17), (8, 64))
    ties = jnp.tile(jnp.array([1.0, 3.0, 3.0, 0.0]), (8, 16))
    f = lambda a: jax.lax.top_k(a, 4)  # noqa: E731
    for args in ([logits], [ties]):
        both(lambda d: jit_on(d, f, (8,), ("x",), args, [P(None, "x")]))
        both(lambda d: jit_on(d, f, (2, 4), ("data", "model"), args, [P("data", "model")]))
        both(lambda d: jit_on(d, f, (8,), ("x",), args, [P("x", None)]))
    c = collectives(X, f, (8,), ("x",), [logits], [P("x", None)])
    assert c["all_gather"] == 0, c


for name, fn in list(globals().items()):
    if name.startswith("t_") and callable(fn):
        check(name[2:], fn)
finish()
