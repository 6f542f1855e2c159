"""JAX over several processes on xlac: `jax.distributed.initialize()` under
mpirun, one xlac device per process, collectives over MPI.

    test_multiprocess.py ref FILE      one process, JAX's own CPU backend:
                                       writes the reference values to FILE
    mpirun -np N ... test_multiprocess.py check FILE
                                       every process runs the same programs
                                       on xlac and checks them against FILE

(multiprocess.sh runs both.)  The programs: a jitted reduction over an
array split across the processes, shard_map collectives (psum,
all_gather, ppermute, all_to_all), pmap over the processes, a
data-parallel MLP trained for a few steps (the losses and parameters of
one process on JAX's CPU backend, within float reordering), a Megatron-
style split MLP, multihost_utils.process_allgather, and work on a
process's own device alone."""
import json
import os
import sys

mode, path = sys.argv[1], sys.argv[2]
if mode == "check":
    import jax
    jax.distributed.initialize()
else:
    os.environ["JAX_PLATFORMS"] = "cpu"
    import jax

import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

STEPS = 4
BATCH = 16  # split over 1, 2 or 4 processes


def mlp_data():
    rng = np.random.default_rng(7)
    params = {
        "w1": rng.standard_normal((6, 16)).astype(np.float32) * 0.3,
        "b1": np.zeros(16, np.float32),
        "w2": rng.standard_normal((16, 3)).astype(np.float32) * 0.3,
        "b2": np.zeros(3, np.float32),
    }
    x = rng.standard_normal((BATCH, 6)).astype(np.float32)
    y = rng.standard_normal((BATCH, 3)).astype(np.float32)
    return params, x, y


def loss_fn(p, x, y):
    h = jnp.tanh(x @ p["w1"] + p["b1"])
    return jnp.mean((h @ p["w2"] + p["b2"] - y) ** 2)


@jax.jit
def train_step(p, x, y):
    loss, g = jax.value_and_grad(loss_fn)(p, x, y)
    return jax.tree_util.tree_map(lambda a, b: a - 0.1 * b, p, g), loss


def megatron(x, w1, w2):
    return jnp.maximum(x @ w1, 0.0) @ w2


def reference():
    params, x, y = mlp_data()
    losses = []
    p = params
    for _ in range(STEPS):
        p, loss = train_step(p, x, y)
        losses.append(float(loss))
    rng = np.random.default_rng(3)
    mx = rng.standard_normal((8, 12)).astype(np.float32)
    w1 = rng.standard_normal((12, 16)).astype(np.float32)
    w2 = rng.standard_normal((16, 5)).astype(np.float32)
    out = {
        "losses": losses,
        "params": {k: np.asarray(v).tolist() for k, v in p.items()},
        "megatron": np.asarray(jax.jit(megatron)(mx, w1, w2)).tolist(),
    }
    with open(path, "w") as f:
        json.dump(out, f)
    print(f"reference written: losses {losses}")


def close(name, got, want, rtol=1e-5, atol=1e-5):
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    if got.shape != want.shape or not np.allclose(got, want, rtol=rtol, atol=atol):
        raise AssertionError(f"{name}: got {got.tolist()}, want {want.tolist()}")


def check():
    from harness import check as case, finish
    from jax.experimental import multihost_utils

    with open(path) as f:
        ref = json.load(f)
    n = jax.process_count()
    me = jax.process_index()
    devs = jax.devices()
    mesh = Mesh(np.array(devs), ("x",))
    split = NamedSharding(mesh, P("x"))
    whole = NamedSharding(mesh, P())

    def global_array(a, sharding):
        return jax.make_array_from_callback(a.shape, sharding, lambda idx: a[idx])

    def devices():
        assert jax.device_count() == n and len(jax.local_devices()) == 1, (jax.devices(), jax.local_devices())
        assert [d.process_index for d in devs] == list(range(n)), devs
        assert jax.local_devices()[0].process_index == me
        assert jax.devices()[0].platform == "xlac"

    def split_sum():
        a = np.arange(n * 4, dtype=np.float32)
        s = jax.jit(lambda v: jnp.sum(v * 2.0))(global_array(a, split))
        close("sum", np.asarray(s.addressable_data(0)), a.sum() * 2)

    def shard_map_collectives():
        a = np.arange(n * 4, dtype=np.float32).reshape(n, 4)
        ga = global_array(a, split)
        f = jax.jit(jax.shard_map(lambda v: jax.lax.psum(v, "x"), mesh=mesh, in_specs=P("x"), out_specs=P()))
        close("psum", np.asarray(f(ga).addressable_data(0)), a.sum(0, keepdims=True))
        g = jax.jit(jax.shard_map(lambda v: jax.lax.all_gather(v, "x", tiled=True), mesh=mesh, in_specs=P("x"),
                                  out_specs=P(), check_vma=False))
        close("all_gather", np.asarray(g(ga).addressable_data(0)), a)
        perm = [(i, (i + 1) % n) for i in range(n)]
        h = jax.jit(jax.shard_map(lambda v: jax.lax.ppermute(v, "x", perm), mesh=mesh, in_specs=P("x"),
                                  out_specs=P("x")))
        close("ppermute", np.asarray(h(ga).addressable_data(0)), a[(me - 1) % n][None])
        b = np.arange(n * n * 2, dtype=np.float32).reshape(n, n * 2)
        t = jax.jit(jax.shard_map(lambda v: jax.lax.all_to_all(v, "x", 1, 1, tiled=True), mesh=mesh,
                                  in_specs=P("x"), out_specs=P("x")))
        # block j of row i goes to process j, as block i
        want = np.concatenate([b[i, me * 2:(me + 1) * 2] for i in range(n)])[None]
        close("all_to_all", np.asarray(t(global_array(b, split)).addressable_data(0)), want)

    def pmap_psum():
        local = jnp.array([[float(me + 1), 10.0 * (me + 1)]])
        r = jax.pmap(lambda v: jax.lax.psum(v, "i"), axis_name="i")(local)
        tot = n * (n + 1) / 2
        close("pmap psum", np.asarray(r), [[tot, 10 * tot]])

    def data_parallel_training():
        params, x, y = mlp_data()
        p = jax.tree_util.tree_map(lambda v: global_array(v, whole), params)
        gx, gy = global_array(x, split), global_array(y, split)
        losses = []
        for _ in range(STEPS):
            p, loss = train_step(p, gx, gy)
            losses.append(float(np.asarray(loss.addressable_data(0))))
        print(f"process {me} of {n}: losses {losses} (one process on JAX's CPU backend: {ref['losses']})")
        close("losses", losses, ref["losses"])
        for k, v in p.items():
            close(k, np.asarray(v.addressable_data(0)), ref["params"][k])

    def tensor_parallel():
        rng = np.random.default_rng(3)
        mx = rng.standard_normal((8, 12)).astype(np.float32)
        w1 = rng.standard_normal((12, 16)).astype(np.float32)
        w2 = rng.standard_normal((16, 5)).astype(np.float32)
        f = jax.jit(megatron, out_shardings=whole)
        r = f(global_array(mx, whole), global_array(w1, NamedSharding(mesh, P(None, "x"))),
              global_array(w2, NamedSharding(mesh, P("x", None))))
        close("megatron", np.asarray(r.addressable_data(0)), ref["megatron"], rtol=1e-4, atol=1e-4)

    def process_allgather():
        a = np.arange(n * 3, dtype=np.int32).reshape(n, 3)
        got = multihost_utils.process_allgather(global_array(a, split), tiled=True)
        close("process_allgather", got, a)

    def own_device():
        v = jnp.arange(3.0) + me
        close("own device", np.asarray(v * 2), (np.arange(3.0) + me) * 2)

    case(f"{n} processes: the global devices", devices)
    case(f"{n} processes: a sum over a split array", split_sum)
    case(f"{n} processes: shard_map psum, all_gather, ppermute, all_to_all", shard_map_collectives)
    case(f"{n} processes: pmap psum", pmap_psum)
    case(f"{n} processes: data-parallel MLP training, {STEPS} steps", data_parallel_training)
    case(f"{n} processes: Megatron-style split MLP", tensor_parallel)
    case(f"{n} processes: multihost_utils.process_allgather", process_allgather)
    case(f"{n} processes: work on the process's own device", own_device)
    finish()


reference() if mode == "ref" else check()
