"""Measures the partitioned programs of tests/test_spmd.py on xlac and on
JAX's CPU backend (XLA), 8 host devices each, with the same meshes and
shardings:

- the collectives each compiled program holds, by kind, with their bytes
  per device (the size of each collective's result, counted once per
  instruction in the optimized HLO that `compiled.as_text()` returns: XLA's
  own, and for xlac the program its plugin hands back, converted to HLO by
  JAX; a collective inside a loop body counts once);
- the per-device argument, output and temp bytes of `memory_analysis()`,
  against the same program compiled for one device of the same backend:
  sharded operands should make the argument bytes shrink as 1/N;
- the temp bytes per device on 1, 2, 4 and 8 devices.

Run it through the plugin tests' runner, with the build's xlac first on
PATH (run.sh finds the plugin library next to it and the Python
environment with jax that scripts/install-deps.sh prepares):

    plugins/jax/tests/run.sh ../spmd_measure.py [--markdown]

It prints one table of collectives, one of memory, and one of the temp
arena per device on meshes of 1, 2, 4 and 8 devices (each program's mesh
scaled down by halving its largest axis); --markdown prints them as
markdown tables (docs/spmd.md, "Measured").  Nothing is asserted: it
reports.
"""
import os
import re
import sys

os.environ["XLAC_DEVICES"] = "8"
os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"
os.environ["JAX_PLATFORMS"] = "xlac,cpu"

import numpy as np  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P  # noqa: E402

KINDS = ("all-reduce", "all-gather", "reduce-scatter", "all-to-all", "collective-permute")
SIZES = {"pred": 1, "s8": 1, "u8": 1, "s16": 2, "u16": 2, "f16": 2, "bf16": 2, "s32": 4, "u32": 4, "f32": 4,
         "s64": 8, "u64": 8, "f64": 8, "c64": 8, "c128": 16}
# one HLO instruction: `%name = SHAPE kind(` or `kind-start(` (the async
# form's start carries the result; its done is not counted again)
INSTR = re.compile(r"=\s*(\(.*?\)|\S+)\s+(" + "|".join(KINDS) + r")(?:-start)?\(")
ARRAY = re.compile(r"([a-z]+[0-9]*)\[([0-9,]*)\]")


def shape_bytes(text):
    """The bytes of an HLO shape, a tuple's summed (an async start's tuple
    holds the operand and the result: only the last element counts)."""
    arrays = ARRAY.findall(text)
    total = 0
    for dtype, dims in arrays:
        n = 1
        for d in filter(None, dims.split(",")):
            n *= int(d)
        total += n * SIZES.get(dtype, 4)
    return total


def collectives(hlo):
    """{kind: [count, bytes]} of the collectives in an optimized HLO module."""
    out = {k: [0, 0] for k in KINDS}
    for line in hlo.splitlines():
        m = INSTR.search(line)
        if not m:
            continue
        shape, kind = m.group(1), m.group(2)
        if "-start(" in line and shape.startswith("("):
            shape = ARRAY.findall(shape)[-1]
            shape = f"{shape[0]}[{shape[1]}]"
        out[kind][0] += 1
        out[kind][1] += shape_bytes(shape)
    return out


def mesh_of(devs, shape, names):
    return Mesh(np.array(devs[:int(np.prod(shape))]).reshape(shape), names)


def key(i):
    return jax.random.key(i)


x = jax.random.normal(key(0), (16, 8))
w = jax.random.normal(key(1), (8, 12))


# Each program: (name, f, mesh shape, axis names, args, in specs, out specs
# or None, static in/out shardings for jit).  The arguments are placed with
# the in specs; out specs, where given, become out_shardings.

def mlp_step():
    k = jax.random.split(key(3), 4)
    params = [jax.random.normal(k[0], (8, 16)) * 0.3, jnp.zeros(16), jax.random.normal(k[1], (16, 4)) * 0.3,
              jnp.zeros(4)]
    xb, yb = jax.random.normal(k[2], (32, 8)), jax.random.normal(k[3], (32, 4))

    def loss(p, a, b):
        h = jnp.tanh(a @ p[0] + p[1])
        return jnp.mean((h @ p[2] + p[3] - b) ** 2)

    def step(p, a, b):
        g = jax.grad(loss)(p, a, b)
        return [q - 0.1 * gq for q, gq in zip(p, g)], loss(p, a, b)

    return step, params, xb, yb


def dp_step():
    step, params, xb, yb = mlp_step()
    return ("data-parallel MLP step", step, (8,), ("x",), [params, xb, yb],
            [[P()] * 4, P("x", None), P("x", None)], ([P()] * 4, P()))


def fsdp_step():
    # FSDP: every parameter split by its first dimension over the 8 devices,
    # the batch split alike; the updated parameters leave split as they came
    # (the forward pass needs them whole: all-gather; their gradients are
    # sums over the batch that leave split: reduce-scatter)
    k = jax.random.split(key(9), 4)
    params = [jax.random.normal(k[0], (32, 64)) * 0.2, jnp.zeros(64), jax.random.normal(k[1], (64, 32)) * 0.2,
              jnp.zeros(32)]
    xb, yb = jax.random.normal(k[2], (64, 32)), jax.random.normal(k[3], (64, 32))
    step = mlp_step()[0]
    ps = [P("x", None), P("x"), P("x", None), P("x")]
    return ("FSDP MLP step", step, (8,), ("x",), [params, xb, yb], [ps, P("x", None), P("x", None)], (ps, P()))


def fsdp_gradient():
    e = jax.random.normal(key(8), (16, 8))
    return ("FSDP gradient x^T e", lambda a, b: a.T @ b, (8,), ("x",), [x, e], [P("x", None), P("x", None)],
            P("x", None))


def megatron():
    w2 = jax.random.normal(key(2), (12, 8))
    return ("Megatron MLP 2x4", lambda a, b, c: jax.nn.relu(a @ b) @ c, (2, 4), ("data", "model"), [x, w, w2],
            [P("data", None), P(None, "model"), P("model", None)], P("data", None))


def reduction():
    return ("sharded reductions", lambda a: (jnp.sum(a, axis=0), jnp.max(a, axis=1)), (4,), ("x",), [x],
            [P("x", None)], None)


def reduction_2d():
    return ("sharded reductions 2x4", lambda a: (a.mean(), a.min(0), (a > 0).any(1)), (2, 4), ("data", "model"),
            [x], [P("data", "model")], None)


def constraint():
    def f(a, b, mesh):
        y = jax.lax.with_sharding_constraint(a @ b, NamedSharding(mesh, P(None, "x")))
        return jnp.sin(y).sum(1)
    return ("sharding constraint", f, (4,), ("x",), [x, w], [P("x", None), P()], None)


def constraint_back():
    w8 = jax.random.normal(key(7), (8, 8))

    def f(a, b, mesh):
        h = jax.lax.with_sharding_constraint(jnp.tanh(a @ b), NamedSharding(mesh, P("x", None)))
        return h * 2, a.T + 1
    return ("constraint reaching back", f, (8,), ("x",), [x, w8], [P(), P()], (P("x", None), P(None, "x")))


def transpose_split():
    return ("split moved by a transpose", lambda a: (a * 2).T, (8,), ("x",), [x], [P(None, "x")], P(None, "x"))


def gram():
    return ("x^T x, batch split", lambda a: a.T @ a, (8,), ("x",), [x], [P("x", None)], None)


def resnet_block(xb, k1, k2, g, b):
    def conv(a, k):
        return jax.lax.conv_general_dilated(a, k, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))

    def bn(a):
        m = jnp.mean(a, axis=(0, 1, 2))
        v = jnp.mean((a - m) ** 2, axis=(0, 1, 2))
        return (a - m) * jax.lax.rsqrt(v + 1e-5) * g + b

    h = jax.nn.relu(bn(conv(xb, k1)))
    return jax.nn.relu(bn(conv(h, k2)) + xb)


def resnet_args():
    ks = jax.random.split(key(11), 5)
    return [jax.random.normal(ks[0], (8, 8, 8, 4)), 0.3 * jax.random.normal(ks[1], (3, 3, 4, 4)),
            0.3 * jax.random.normal(ks[2], (3, 3, 4, 4)), 1 + 0.1 * jax.random.normal(ks[3], (4,)),
            0.1 * jax.random.normal(ks[4], (4,))]


RESNET_SPECS = [P("x", None, None, None), P(), P(), P(), P()]


def resnet():
    return ("ResNet block, batch split", resnet_block, (8,), ("x",), resnet_args(), RESNET_SPECS,
            P("x", None, None, None))


def resnet_grads():
    def grads(xb, k1, k2, g, b):
        return jax.grad(lambda q1, q2: jnp.sum(resnet_block(xb, q1, q2, g, b) ** 2), argnums=(0, 1))(k1, k2)
    return ("ResNet block gradients", grads, (8,), ("x",), resnet_args(), RESNET_SPECS, None)


PROGRAMS = [dp_step, fsdp_step, fsdp_gradient, megatron, reduction, reduction_2d, constraint, constraint_back,
            transpose_split, gram, resnet, resnet_grads]


def is_spec(s):
    return isinstance(s, P)


def compile_on(devs, prog, sharded=True):
    """The compiled program and its placed arguments: on the program's mesh
    over devs, or (sharded False) on devs[0] alone with no shardings."""
    name, f, shape, names, args, specs, out = prog
    mesh = mesh_of(devs, shape, names) if sharded else mesh_of(devs, (1,) * len(shape), names)
    fn = (lambda *a: f(*a, mesh)) if f.__code__.co_varnames[:f.__code__.co_argcount][-1:] == ("mesh",) else f
    place = lambda v, s: jax.device_put(v, NamedSharding(mesh, s if sharded else P()))  # noqa: E731
    placed = [jax.tree.map(place, a, s, is_leaf=is_spec) if isinstance(s, list) else place(a, s)
              for a, s in zip(args, specs)]
    kw = {}
    if out is not None and sharded:
        kw["out_shardings"] = jax.tree.map(lambda s: NamedSharding(mesh, s), out, is_leaf=is_spec)
    return jax.jit(fn, **kw).lower(*placed).compile(), placed


def scaled(prog, n):
    """prog on a mesh of at most n devices: its largest axis halved (the
    last of equal ones) until the mesh fits."""
    shape = list(prog[2])
    while int(np.prod(shape)) > n:
        i = max(range(len(shape)), key=lambda k: (shape[k], k))
        shape[i] //= 2
    return prog[:2] + (tuple(shape),) + prog[3:]


def temps(prog, counts=(1, 2, 4, 8)):
    """{platform: [temp bytes per device on a mesh of each count]} and the
    meshes used."""
    out, meshes = {}, [scaled(prog, n)[2] for n in counts]
    for plat in ("cpu", "xlac"):
        devs = jax.devices(plat)
        row = []
        for n in counts:
            try:
                m = compile_on(devs, scaled(prog, n))[0].memory_analysis()
                row.append(m.temp_size_in_bytes if m else None)
            except Exception as e:  # report and go on
                row.append(f"{type(e).__name__}")
        out[plat] = row
    return out, meshes


def expected_arg_bytes(placed):
    """Per-device bytes of the arguments as placed: each one's shard."""
    total = 0
    for a in jax.tree.leaves(placed):
        total += int(np.prod(a.sharding.shard_shape(a.shape))) * a.dtype.itemsize
    return total


def sharded_operands(placed):
    """Of the arguments split into more than one piece: their whole bytes,
    their bytes per device, and the set of their piece counts N (the bytes
    per device should be the whole bytes / N)."""
    whole = per = 0
    pieces = set()
    for a in jax.tree.leaves(placed):
        shard = int(np.prod(a.sharding.shard_shape(a.shape)))
        if shard < a.size:
            whole += a.size * a.dtype.itemsize
            per += shard * a.dtype.itemsize
            pieces.add(a.size // shard)
    return whole, per, pieces


def measure(prog):
    row = {"name": prog[0]}
    for plat in ("cpu", "xlac"):
        devs = jax.devices(plat)
        try:
            c, placed = compile_on(devs, prog)
            row[plat] = collectives(c.as_text())
            m = c.memory_analysis()
            row[plat + "_mem"] = (m.argument_size_in_bytes, m.output_size_in_bytes, m.temp_size_in_bytes) if m else None
            row["shard_args"] = expected_arg_bytes(placed)
            row["split"] = sharded_operands(placed)
            c1, placed1 = compile_on(devs, prog, sharded=False)
            m1 = c1.memory_analysis()
            row[plat + "_mem1"] = (m1.argument_size_in_bytes, m1.output_size_in_bytes, m1.temp_size_in_bytes) \
                if m1 else None
            row["whole_args"] = expected_arg_bytes(placed1)
        except Exception as e:  # report and go on: a table, not a test
            row[plat] = None
            row[plat + "_err"] = f"{type(e).__name__}: {str(e)[:300]}"
    return row


def fmt_coll(c):
    if c is None:
        return "error"
    parts = [f"{n} {k} {b} B" for k, (n, b) in c.items() if n]
    return ", ".join(parts) if parts else "none"


def total_bytes(c):
    return sum(b for _, b in c.values()) if c else None


def fmt_mem(m):
    return "n/a" if m is None else "/".join(str(v) for v in m)


def ratio(a, b):
    return "n/a" if not a or not b else f"{a / b:.2f}"


def main():
    md = "--markdown" in sys.argv
    rows = [measure(p()) for p in PROGRAMS]
    n = len(jax.devices("xlac"))
    print(f"devices: {n} xlac, {len(jax.devices('cpu'))} cpu; jax {jax.__version__}")
    head = ["program", "XLA collectives (per device)", "xlac collectives (per device)", "XLA bytes", "xlac bytes",
            "xlac <= XLA"]
    lines = []
    for r in rows:
        xb, cb = total_bytes(r["cpu"]), total_bytes(r["xlac"])
        ok = "n/a" if xb is None or cb is None else ("yes" if cb <= xb else "NO")
        lines.append([r["name"], fmt_coll(r["cpu"]), fmt_coll(r["xlac"]), str(xb), str(cb), ok])
    table(head, lines, md)
    print()
    head = ["program", "split operands: whole -> per device (pieces)", "args whole", "args per device", "XLA arg/out/temp (8 dev)", "XLA arg/out/temp (1 dev)",
            "xlac arg/out/temp (8 dev)", "xlac arg/out/temp (1 dev)", "XLA args 1/8 ratio", "xlac args 1/8 ratio",
            "XLA temp 1/8 ratio", "xlac temp 1/8 ratio"]
    lines = []
    for r in rows:
        xm, xm1, cm, cm1 = r.get("cpu_mem"), r.get("cpu_mem1"), r.get("xlac_mem"), r.get("xlac_mem1")
        sw, sp, pieces = r.get("split", (0, 0, set()))
        split = f"{sw} -> {sp} ({'/'.join(str(k) for k in sorted(pieces))})" if sw else "none split"
        lines.append([r["name"], split, str(r.get("whole_args")), str(r.get("shard_args")), fmt_mem(xm), fmt_mem(xm1),
                      fmt_mem(cm), fmt_mem(cm1),
                      ratio(xm1 and xm1[0], xm and xm[0]), ratio(cm1 and cm1[0], cm and cm[0]),
                      ratio(xm1 and xm1[2], xm and xm[2]), ratio(cm1 and cm1[2], cm and cm[2])])
    table(head, lines, md)
    print()
    # the temp arena per device as the mesh grows (each program's mesh
    # scaled down to 1, 2 and 4 devices: its largest axis halved)
    head = ["program", "meshes", "XLA temp 1 / 2 / 4 / 8 dev", "xlac temp 1 / 2 / 4 / 8 dev", "XLA 1/8 ratio",
            "xlac 1/8 ratio"]
    lines = []
    for p in PROGRAMS:
        prog = p()
        t, meshes = temps(prog)
        mesh_text = " / ".join("x".join(str(a) for a in m) for m in meshes)
        lines.append([prog[0], mesh_text, " / ".join(str(v) for v in t["cpu"]), " / ".join(str(v) for v in t["xlac"]),
                      ratio(t["cpu"][0], t["cpu"][-1]), ratio(t["xlac"][0], t["xlac"][-1])])
    table(head, lines, md)
    for r in rows:
        for plat in ("cpu", "xlac"):
            if plat + "_err" in r:
                print(f"{r['name']} on {plat}: {r[plat + '_err']}")


def table(head, lines, md):
    if md:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for ln in lines:
            print("| " + " | ".join(ln) + " |")
        return
    widths = [max(len(h), *(len(ln[i]) for ln in lines)) for i, h in enumerate(head)]
    print("  ".join(h.ljust(wd) for h, wd in zip(head, widths)))
    for ln in lines:
        print("  ".join(v.ljust(wd) for v, wd in zip(ln, widths)))


if __name__ == "__main__":
    main()
