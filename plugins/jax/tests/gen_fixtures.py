#!/usr/bin/env python3
"""Generate fixtures of what JAX hands the PJRT plugin.

The artifacts JAX serializes for a plugin hold what `lower().as_text()`
never shows: Shardy's ops bracketed by unrealized casts, and manual
computations (`shard_map`, `pmap`).  This script runs each case below on
xlac through the plugin with XLAC_PJRT_DUMP set, keeps the artifact of
the case's program, and writes ``tests/fixtures/mlirbc/pjrt_<case>/``:

  module.mlirbc   the artifact, as the plugin received it
  input<i>.npy    inputs (the same on every partition)
  expected<i>.npy the outputs (JAX's CPU backend, or computed here for
                  a program of several partitions)
  run.test        RUN lines: the artifact run against them, and printed

Rerun from the repository root with the environment of the plugin's tests
(plugins/jax/tests/run.sh sets it up):

    PATH=build/bin:$PATH plugins/jax/tests/run.sh gen_fixtures.py
"""
import glob
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
OUT = os.path.join(ROOT, "tests", "fixtures", "mlirbc")

CASES = {
    # name: (what the case shows, partitions, print checks)
    "random": ("jax.random.normal: the key's Shardy sharding on an empty mesh is read and kept, and nothing else "
               "of Shardy's is left", 1,
               ["PRINT: sdy.mesh @empty_mesh = <[]>",
                "PRINT: func.func @main(%arg0: tensor<2xui32> {sdy.sharding = #sdy.sharding<@empty_mesh, [{}]>}) -> "
                "(tensor<3x4xf32>",
                "PRINT-NOT: sdy", "PRINT-NOT: unrealized"]),
    "shard_map": ("shard_map over 4 devices: the manual computation is the program of each partition, with "
                  "per-device types and the shardings they imply", 4,
                  ["PRINT: module @jit_f attributes {xlac.manual_partitions, mhlo.num_partitions = 4 : i32",
                   'PRINT: func.func @main(%arg0: tensor<2x3xf32> {mhlo.sharding = "{devices=[4,1]<=[4]}"}) -> '
                   '(tensor<1x3xf32> {jax.result_info = "result", mhlo.sharding = "{replicated}"})',
                   "PRINT: stablehlo.all_reduce"]),
    "shard_map_identity": ("shard_map of the identity over 4 devices: the manual computation returns its argument "
                           "as is", 4,
                           ['PRINT: func.func @main(%arg0: tensor<2xf32> {mhlo.sharding = "{devices=[4]<=[4]}"})',
                            "PRINT: return %arg0"]),
    "pmap_identity": ("pmap(lambda x, y: x, in_axes=(None, 0), out_axes=None): a replicated argument returned as "
                      "is by every device", 4,
                      ['PRINT: func.func @main(%arg0: tensor<3xf32> {mhlo.sharding = "{replicated}"})',
                       "PRINT: return %arg0"]),
}


def child(name, dump):
    """Runs one case on xlac (with the dump directory set); writes the
    inputs and expected outputs next to the dump."""
    os.environ["XLAC_PJRT_DUMP"] = dump
    os.environ["XLAC_DEVICES"] = "4"
    os.environ["JAX_PLATFORMS"] = "xlac,cpu"
    import jax
    import jax.numpy as jnp
    from jax.sharding import Mesh, PartitionSpec as P
    # source locations name this script by its path in the repository, not
    # by where the checkout happens to be
    jax.config.update("jax_hlo_source_file_canonicalization_regex", r".*/(?=plugins/jax/tests/)")
    xlac = jax.devices("xlac")
    if name == "random":
        key = np.array([0, 42], dtype=np.uint32)
        f = jax.jit(lambda k: jax.random.normal(jax.random.wrap_key_data(k), (3, 4)))
        want = np.asarray(f(jax.device_put(key, jax.devices("cpu")[0])))
        got = np.asarray(f(jax.device_put(key, xlac[0])))
        np.testing.assert_allclose(got, want, rtol=1e-6)
        inputs, expected = [key], [want]
    elif name == "shard_map_identity":
        mesh = Mesh(np.array(xlac), ("x",))
        g = jax.jit(jax.shard_map(lambda v: v, mesh=mesh, in_specs=P("x"), out_specs=P("x")))
        a = np.arange(8, dtype=np.float32) + 0.5
        np.testing.assert_array_equal(np.asarray(g(a)), a)
        inputs, expected = [a[:2]], [a[:2]]
    elif name == "pmap_identity":
        f = jax.pmap(lambda v, w: v, in_axes=(None, 0), out_axes=None, devices=xlac)
        a = np.array([1.5, -2.0, 3.25], dtype=np.float32)
        np.testing.assert_array_equal(np.asarray(f(a, np.ones((4, 2), np.float32))), a)
        inputs, expected = [a], [a]
    else:
        mesh = Mesh(np.array(xlac), ("x",))

        def f(v):
            return jax.lax.psum(jnp.sum(v * v, axis=0, keepdims=True), "x")
        g = jax.jit(jax.shard_map(f, mesh=mesh, in_specs=P("x"), out_specs=P()))
        a = np.arange(24, dtype=np.float32).reshape(8, 3) / 4
        np.testing.assert_allclose(np.asarray(g(a)), (a * a).sum(0, keepdims=True), rtol=1e-6)
        # one shard, given to every partition: each adds up 4 copies
        shard = a[:2]
        inputs, expected = [shard], [4 * (shard * shard).sum(0, keepdims=True)]
    for i, v in enumerate(inputs):
        np.save(os.path.join(dump, f"input{i}.npy"), v)
    for i, v in enumerate(expected):
        np.save(os.path.join(dump, f"expected{i}.npy"), v)


def pick(dump, name):
    """The dumped artifact of the case's program: the largest one (the
    others are JAX's small helpers: device_put, reshapes)."""
    files = glob.glob(os.path.join(dump, "program-*.mlirbc"))
    if name.endswith("_identity"):  # smaller than the helpers: the last program compiled
        return max(files, key=lambda f: int(f.rsplit("-", 1)[1].split(".")[0]))
    return max(files, key=os.path.getsize)


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        child(sys.argv[2], sys.argv[3])
        return
    only = sys.argv[1:]
    for name, (what, parts, checks) in CASES.items():
        if only and not any(o in name for o in only):
            continue
        with tempfile.TemporaryDirectory() as dump:
            subprocess.check_call([sys.executable, os.path.abspath(__file__), "--child", name, dump])
            out = os.path.join(OUT, "pjrt_" + name)
            os.makedirs(out, exist_ok=True)
            shutil.copyfile(pick(dump, name), os.path.join(out, "module.mlirbc"))
            for f in glob.glob(os.path.join(dump, "*.npy")):
                shutil.copyfile(f, os.path.join(out, os.path.basename(f)))
        import jax
        run = ["xlac run"] + ([f"--partitions {parts}"] if parts > 1 else []) + [
            "%S/module.mlirbc --input 0=@%S/input0.npy --expect 0=@%S/expected0.npy --atol 1e-5 --rtol 1e-5"]
        lines = [f"# pjrt_{name}: {what}.",
                 f"# Generated by plugins/jax/tests/gen_fixtures.py with JAX {jax.__version__}; do not edit.",
                 "# RUN: " + " ".join(run) + " | FileCheck %s",
                 "# RUN: xlac print %S/module.mlirbc 2>&1 | FileCheck %s --check-prefix=PRINT",
                 "# CHECK: expect result[0]{{.*}}: ok"]
        lines += ["# " + c for c in checks]
        with open(os.path.join(out, "run.test"), "w") as f:
            f.write("\n".join(lines) + "\n")
        print(f"wrote {out}")


if __name__ == "__main__":
    main()
