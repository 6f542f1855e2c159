"""The PJRT plugin in a process that also loads TensorFlow, whose libraries
export LLVM's C API: TensorFlow imported before jax, after it, and not
used at all while the plugin is merely found (JAX_PLATFORMS=cpu).  Each
case runs in a process of its own (a clash would crash it) and must exit
0 with xlac's results equal to JAX's CPU backend and TensorFlow's own
XLA-compiled function working beside it.

Run by run.sh with the environment scripts/install-deps.sh prepares with
tensorflow-cpu (XLAC_TF_VENV)."""
import os
import subprocess
import sys

CASE = r'''
import os, sys
order, platforms = sys.argv[1], sys.argv[2]
os.environ["JAX_PLATFORMS"] = platforms
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
if order == "tf-first":
    import tensorflow as tf
import numpy as np
import jax, jax.numpy as jnp
if order == "tf-after":
    import tensorflow as tf
x = np.linspace(-2, 2, 64, dtype=np.float32).reshape(8, 8)
f = lambda a: jnp.tanh(a) @ jnp.exp(a.T) + 1
got = jax.jit(f)(x)
want = jax.jit(f, backend="cpu")(x)
np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-5, atol=1e-5)
print("platform", got.devices().pop().platform)
tfx = tf.function(lambda a: tf.tanh(a) * 2, jit_compile=True)(tf.constant(x))
np.testing.assert_allclose(tfx.numpy(), np.tanh(x) * 2, rtol=1e-6, atol=1e-6)
g = jax.jit(jax.grad(lambda a: jnp.sum(jnp.sin(a) ** 2)))(x)
np.testing.assert_allclose(np.asarray(g), np.sin(2 * x), rtol=1e-5, atol=1e-5)
print("ok")
'''

failures = 0
for order, platforms, want_platform in (("tf-first", "xlac,cpu", "xlac"), ("tf-after", "xlac,cpu", "xlac"),
                                        ("tf-first", "cpu", "cpu"), ("tf-after", "cpu", "cpu")):
    name = f"{order}, JAX_PLATFORMS={platforms}"
    r = subprocess.run([sys.executable, "-c", CASE, order, platforms], capture_output=True, text=True, timeout=600,
                       env=dict(os.environ))
    out = r.stdout.split()
    if r.returncode == 0 and f"platform {want_platform}".split() == out[-3:-1] and out[-1] == "ok":
        print(f"PASS {name}")
    else:
        failures += 1
        print(f"FAIL {name}: exit status {r.returncode}\n{r.stdout[-2000:]}{r.stderr[-3000:]}")
print(f"{4 - failures} passed, {failures} failed")
sys.exit(1 if failures else 0)
