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
    import socket

    import jax
    # device_put between processes: JAX's socket transfers, into buffers
    # the plugin fills piece by piece (64 KiB pieces)
    with socket.socket() as s_:
        s_.bind(("127.0.0.1", 0))
        port = s_.getsockname()[1]
    jax.config.update("jax_force_dcn_cross_host_transfers", True)
    jax.config.update("jax_cross_host_transfer_socket_address", f"127.0.0.1:{port}")
    jax.config.update("jax_cross_host_transfer_transfer_size", 64 * 1024)
    # under mpirun JAX reads Open MPI's numbering; else the launcher's
    coord = os.environ.get("XLAC_TEST_COORDINATOR")
    if coord:
        jax.distributed.initialize(coord, int(os.environ["XLAC_TEST_NUM_PROCESSES"]),
                                   int(os.environ["XLAC_TEST_PROCESS_ID"]))
    else:
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
    nd = len(devs)
    per = len(jax.local_devices())
    mesh = Mesh(np.array(devs), ("x",))
    split = NamedSharding(mesh, P("x"))
    whole = NamedSharding(mesh, P())

    def global_array(a, sharding):
        return jax.make_array_from_callback(a.shape, sharding, lambda idx: a[idx])

    def devices():
        assert jax.device_count() == n * per, (jax.devices(), jax.local_devices())
        assert [d.process_index for d in devs] == [i // per for i in range(nd)], devs
        assert all(d.process_index == me for d in jax.local_devices())
        assert jax.devices()[0].platform == "xlac"

    def shards(r):
        """(place in the mesh, data) of each of this process's shards"""
        return [(devs.index(s.device), np.asarray(s.data)) for s in r.addressable_shards]

    def split_sum():
        a = np.arange(nd * 4, dtype=np.float32)
        s = jax.jit(lambda v: jnp.sum(v * 2.0))(global_array(a, split))
        close("sum", np.asarray(s.addressable_data(0)), a.sum() * 2)

    def shard_map_collectives():
        a = np.arange(nd * 4, dtype=np.float32).reshape(nd, 4)
        ga = global_array(a, split)
        f = jax.jit(jax.shard_map(lambda v: jax.lax.psum(v, "x"), mesh=mesh, in_specs=P("x"), out_specs=P()))
        for _, got in shards(f(ga)):
            close("psum", got, a.sum(0, keepdims=True))
        g = jax.jit(jax.shard_map(lambda v: jax.lax.all_gather(v, "x", tiled=True), mesh=mesh, in_specs=P("x"),
                                  out_specs=P(), check_vma=False))
        for _, got in shards(g(ga)):
            close("all_gather", got, a)
        perm = [(i, (i + 1) % nd) for i in range(nd)]
        h = jax.jit(jax.shard_map(lambda v: jax.lax.ppermute(v, "x", perm), mesh=mesh, in_specs=P("x"),
                                  out_specs=P("x")))
        for i, got in shards(h(ga)):
            close("ppermute", got, a[(i - 1) % nd][None])
        b = np.arange(nd * nd * 2, dtype=np.float32).reshape(nd, nd * 2)
        t = jax.jit(jax.shard_map(lambda v: jax.lax.all_to_all(v, "x", 1, 1, tiled=True), mesh=mesh,
                                  in_specs=P("x"), out_specs=P("x")))
        # block j of row i goes to device j, as block i
        for j, got in shards(t(global_array(b, split))):
            close("all_to_all", got, np.concatenate([b[i, j * 2:(j + 1) * 2] for i in range(nd)])[None])

    def pmap_psum():
        local = np.array([[float(g + 1), 10.0 * (g + 1)] for g in range(me * per, (me + 1) * per)], np.float32)
        r = jax.pmap(lambda v: jax.lax.psum(v, "i"), axis_name="i")(local)
        tot = nd * (nd + 1) / 2
        close("pmap psum", np.asarray(r), [[tot, 10 * tot]] * per)

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
        a = np.arange(nd * 3, dtype=np.int32).reshape(nd, 3)
        got = multihost_utils.process_allgather(global_array(a, split), tiled=True)
        close("process_allgather", got, a)

    def cross_process_put():
        # process 0's devices to the last process's, whole and split
        x = np.arange(256 * 96, dtype=np.float32).reshape(256, 96)
        src = jax.make_mesh((per,), ("x",), devices=jax.local_devices(process_index=0))
        dst = jax.make_mesh((per,), ("x",), devices=jax.local_devices(process_index=n - 1))
        for spec in (P("x"), P()):
            y = jax.device_put(x, NamedSharding(src, spec))
            z = jax.device_put(y, NamedSharding(dst, spec))
            z.block_until_ready()
            if me == n - 1:
                assert len(z.addressable_shards) == per
                for sh in z.addressable_shards:
                    close("device_put across processes", np.asarray(sh.data), x[sh.index])
            else:
                assert not z.addressable_shards

    def own_device():
        v = jnp.arange(3.0) + me
        close("own device", np.asarray(v * 2), (np.arange(3.0) + me) * 2)

    # the transport the processes meet over ("N processes over MPI|TCP")
    print(f"process {me} of {n}: {per} devices of {nd}; {jax.devices()[0].client.platform_version}")
    case(f"{n} processes: the global devices", devices)
    case(f"{n} processes: a sum over a split array", split_sum)
    case(f"{n} processes: shard_map psum, all_gather, ppermute, all_to_all", shard_map_collectives)
    case(f"{n} processes: pmap psum", pmap_psum)
    case(f"{n} processes: data-parallel MLP training, {STEPS} steps", data_parallel_training)
    case(f"{n} processes: Megatron-style split MLP", tensor_parallel)
    case(f"{n} processes: multihost_utils.process_allgather", process_allgather)
    def one_fails():
        # the last process's callback raises before the psum: every
        # process's execution fails (none waits for it forever)
        def cb(v):
            if me == n - 1:
                raise ValueError("the last process fails here")
            return v

        def body(v):
            v = jax.pure_callback(cb, jax.ShapeDtypeStruct(v.shape, v.dtype), v)
            return jax.lax.psum(v, "x")

        f = jax.jit(jax.shard_map(body, mesh=mesh, in_specs=P("x"), out_specs=P()))
        try:
            r = f(global_array(np.ones((nd, 2), np.float32), split))
            jax.block_until_ready(r)
        except Exception as e:  # the failure, or the other process's
            print(f"process {me}: failed as it should: {str(e)[:300]}")
            return
        raise AssertionError("the execution succeeded")

    case(f"{n} processes: work on the process's own device", own_device)
    case(f"{n} processes: device_put from one process's devices to another's", cross_process_put)
    # (last: a failure leaves the processes' collectives unusable)
    case(f"{n} processes: a failure in one process fails the others", one_fails)
    finish()


reference() if mode == "ref" else check()
