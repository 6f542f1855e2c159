"""Libraries people use on top of JAX, run on xlac and on JAX's own CPU
backend in one process with the same seeds: a Flax NNX + Optax training
run, a Keras 3 model (JAX backend) through fit, evaluate, predict at
several batch sizes and a save/load round trip, and an equinox model with
eqx.error_if (a host callback) passing and raising.  With TensorFlow
installed, the Keras case runs again in processes that import TensorFlow
before and after jax.  A case whose package is missing is reported as
skipped with the reason, never as passed.

Run by run.sh with the environment scripts/install-deps.sh prepares for
it (XLAC_CLIENTS_VENV): XLAC_JAX_VENV=~/.cache/xlac-clients
plugins/jax/tests/run.sh test_clients.py
"""
import os
import sys
import tempfile
import time

# a child process of the TensorFlow case: `--keras-beside-tf ORDER`
TF_ORDER = sys.argv[2] if len(sys.argv) > 2 and sys.argv[1] == "--keras-beside-tf" else None
os.environ["JAX_PLATFORMS"] = "xlac,cpu"
os.environ["KERAS_BACKEND"] = "jax"
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
if TF_ORDER == "tf-first":
    import tensorflow  # noqa: F401,E402

import numpy as np  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
from jax._src import compiler  # noqa: E402

X = jax.devices("xlac")
C = jax.devices("cpu")
if TF_ORDER == "tf-after":
    import tensorflow  # noqa: F401,E402,F811

failures = []
skipped = []
passed = 0


class Skip(Exception):
    pass


def need(*modules):
    """Imports the modules, or skips the case naming the missing one."""
    import importlib
    for m in modules:
        try:
            importlib.import_module(m)
        except ImportError as e:
            raise Skip(f"{m} is not installed ({e})")


def check(name, fn):
    global passed
    try:
        fn()
        passed += 1
        print(f"PASS {name}", flush=True)
    except Skip as e:
        skipped.append(name)
        print(f"SKIP {name}: {e}", flush=True)
    except Exception as e:  # report every failure, then fail
        failures.append(name)
        print(f"FAIL {name}: {type(e).__name__}: {str(e)[:2000]}", flush=True)


# seconds spent compiling per platform: JAX's call into the backend's
# compiler, timed (tracing and lowering left out)
compile_secs = {}
_platform = [None]
_compile = compiler.compile_or_get_cached


def _timed_compile(backend, *args, **kwargs):
    t = time.perf_counter()
    try:
        return _compile(backend, *args, **kwargs)
    finally:
        compile_secs[backend.platform] = compile_secs.get(backend.platform, 0.0) + time.perf_counter() - t


compiler.compile_or_get_cached = _timed_compile


def compiled(dev, fn):
    """fn() with dev as the default device; its results and the seconds
    spent compiling for dev's platform on the way."""
    _platform[0] = dev.platform
    before = compile_secs.get(dev.platform, 0.0)
    try:
        with jax.default_device(dev):
            r = fn()
    finally:
        _platform[0] = None
    return r, compile_secs.get(dev.platform, 0.0) - before


def digits():
    """scikit-learn's digits (8x8 images, 10 classes) when it is installed,
    else a deterministic synthetic set of the same shape; 1280 training
    and 512 test images, shuffled with a fixed seed, in [0, 1]."""
    rng = np.random.default_rng(0)
    try:
        from sklearn.datasets import load_digits
        d = load_digits()
        xs, ys, source = d.data.astype(np.float32) / 16, d.target.astype(np.int32), "scikit-learn digits"
    except ImportError:
        protos = rng.uniform(size=(10, 64)).astype(np.float32)
        ys = rng.integers(0, 10, 1792).astype(np.int32)
        xs = np.clip(protos[ys] + 0.3 * rng.normal(size=(1792, 64)), 0, 1).astype(np.float32)
        source = "synthetic digits"
    order = rng.permutation(len(xs))
    xs, ys = xs[order], ys[order]
    return source, (xs[:1280], ys[:1280]), (xs[1280:1792], ys[1280:1792])


SOURCE, (XTR, YTR), (XTE, YTE) = digits()
print(f"data: {SOURCE}, {len(XTR)} training and {len(XTE)} test images", flush=True)


def on_platform(a, platform):
    for leaf in jax.tree.leaves(a):
        if isinstance(leaf, jax.Array):
            assert leaf.devices().pop().platform == platform, (leaf.devices(), platform)


def same_losses(name, lx, lc, rtol):
    lx, lc = np.asarray(lx), np.asarray(lc)
    err = float(np.max(np.abs(lx - lc) / np.abs(lc)))
    np.testing.assert_allclose(lx, lc, rtol=rtol, err_msg=name)
    return err


# ---- Flax NNX + Optax: a CNN on the digits ----

def flax_train():
    import optax
    from flax import nnx

    class CNN(nnx.Module):
        def __init__(self, rngs):
            self.conv1 = nnx.Conv(1, 16, kernel_size=(3, 3), rngs=rngs)
            self.conv2 = nnx.Conv(16, 32, kernel_size=(3, 3), rngs=rngs)
            self.linear1 = nnx.Linear(4 * 4 * 32, 64, rngs=rngs)
            self.linear2 = nnx.Linear(64, 10, rngs=rngs)

        def __call__(self, x):
            x = nnx.relu(self.conv1(x))
            x = nnx.avg_pool(nnx.relu(self.conv2(x)), window_shape=(2, 2), strides=(2, 2))
            x = nnx.relu(self.linear1(x.reshape(x.shape[0], -1)))
            return self.linear2(x)

    def loss_fn(model, xb, yb):
        return optax.softmax_cross_entropy_with_integer_labels(model(xb), yb).mean()

    @nnx.jit
    def train_step(model, optimizer, xb, yb):
        loss, grads = nnx.value_and_grad(loss_fn)(model, xb, yb)
        optimizer.update(model, grads)
        return loss

    @nnx.jit
    def classify(model, xb):
        return model(xb).argmax(axis=-1)

    model = CNN(nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, optax.adam(3e-3), wrt=nnx.Param)
    images = XTR.reshape(-1, 8, 8, 1)
    losses, first = [], None
    for epoch in range(4):
        for i in range(0, len(images), 64):
            t = time.perf_counter()
            loss = train_step(model, optimizer, images[i:i + 64], YTR[i:i + 64])
            losses.append(float(loss))
            first = first or time.perf_counter() - t
    on_platform(nnx.state(model), _platform[0])
    predicted = np.asarray(classify(model, XTE.reshape(-1, 8, 8, 1)))
    return np.array(losses), float((predicted == YTE).mean()), predicted, first


def t_flax_nnx_optax():
    """80 Adam steps of a CNN: the same losses (1e-3 relative) and the same
    test predictions on both backends.  xlac computes the 16 -> 32 3x3
    convolution and its input gradient with Winograd's F(2x2, 3x3): per
    product no less accurate than a direct sum against the interpreter (max
    error 3.8e-6 against 7.6e-6 on this layer's shape), but rounded in
    another order than XLA's, and training carries any difference from step
    to step: the losses drift apart to about 1.4e-4 by the last step (1e-6
    with XLAC_WINOGRAD=0, whose sums follow XLA's more closely)."""
    need("flax", "optax")
    (lx, ax, px, fx), cx = compiled(X[0], flax_train)
    (lc, ac, pc, fc), cc = compiled(C[0], flax_train)
    assert lx[-1] < 0.3 * lx[0], f"the loss did not fall: {lx[0]} -> {lx[-1]}"
    err = same_losses("losses", lx, lc, rtol=1e-3)
    assert ax == ac and ax > 0.8, (ax, ac)
    np.testing.assert_array_equal(px, pc)
    print(f"  losses {lx[0]:.6f} -> {lx[-1]:.6f} (cpu {lc[0]:.6f} -> {lc[-1]:.6f}, largest relative difference"
          f" {err:.1e}); test accuracy {ax:.4f} (cpu {ac:.4f})")
    print(f"  compile: xlac {cx:.2f} s, cpu {cc:.2f} s; first step: xlac {fx:.2f} s, cpu {fc:.2f} s")


# ---- Keras 3, JAX backend ----

PREDICT_BATCHES = (64, 100, 512)


def keras_run(tmp):
    import keras
    keras.utils.set_random_seed(0)
    # the last kernel is 64 x 10: predict's output at batch 64 has its shape
    # (the donated state and the predictions must stay apart)
    model = keras.Sequential([keras.Input((64,)), keras.layers.Dense(64, activation="relu"),
                              keras.layers.Dense(10)])
    model.compile(optimizer=keras.optimizers.Adam(3e-3),
                  loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True), metrics=["accuracy"])
    platform = _platform[0]
    t = time.perf_counter()
    history = model.fit(XTR, YTR, batch_size=32, epochs=3, shuffle=True, verbose=0)
    fit_secs = time.perf_counter() - t
    on_platform([v.value for v in model.weights], platform)
    evaluated = model.evaluate(XTE, YTE, batch_size=64, verbose=0, return_dict=True)
    weights = [np.array(w) for w in model.get_weights()]
    preds = {b: model.predict(XTE, batch_size=b, verbose=0) for b in PREDICT_BATCHES}
    for w, v in zip(weights, model.get_weights()):
        np.testing.assert_array_equal(w, v, err_msg="predict changed the weights")
    for b in PREDICT_BATCHES:
        np.testing.assert_allclose(preds[b], preds[64], rtol=1e-5, atol=1e-5, err_msg=f"batch size {b}")
    accuracy = float((preds[64].argmax(axis=1) == YTE).mean())
    assert abs(accuracy - evaluated["accuracy"]) < 1e-6, (accuracy, evaluated)
    path = os.path.join(tmp, f"model-{platform}.keras")
    model.save(path)
    loaded = keras.models.load_model(path)
    on_platform([v.value for v in loaded.weights], platform)
    np.testing.assert_allclose(loaded.predict(XTE, batch_size=64, verbose=0), preds[64], rtol=1e-6, atol=1e-6)
    return history.history["loss"], evaluated, preds, accuracy, fit_secs


def t_keras():
    """fit (3 epochs, batch 32, shuffled), evaluate, predict at batch sizes
    64, 100 and 512, save and load: the same losses (1e-5 relative), the same
    accuracy and predictions on both backends, weights untouched by predict."""
    need("keras")
    with tempfile.TemporaryDirectory() as tmp:
        (hx, ex, px, ax, fx), cx = compiled(X[0], lambda: keras_run(tmp))
        (hc, ec, pc, ac, fc), cc = compiled(C[0], lambda: keras_run(tmp))
    err = same_losses("epoch losses", hx, hc, rtol=1e-5)
    same_losses("evaluate loss", [ex["loss"]], [ec["loss"]], rtol=1e-5)
    assert ax == ac and ex["accuracy"] == ec["accuracy"] and ax > 0.9, (ax, ac, ex, ec)
    for b in PREDICT_BATCHES:
        np.testing.assert_allclose(px[b], pc[b], rtol=1e-4, atol=1e-5, err_msg=f"batch size {b}")
        np.testing.assert_array_equal(px[b].argmax(axis=1), pc[b].argmax(axis=1))
    print(f"  epoch losses {' '.join(f'{v:.6f}' for v in hx)} (cpu {' '.join(f'{v:.6f}' for v in hc)},"
          f" largest relative difference {err:.1e}); test accuracy {ax:.4f} (cpu {ac:.4f})")
    print(f"  compile: xlac {cx:.2f} s, cpu {cc:.2f} s; fit: xlac {fx:.2f} s, cpu {fc:.2f} s")


# ---- equinox, with eqx.error_if ----

def eqx_run():
    import equinox as eqx
    model = eqx.nn.MLP(64, 10, 32, 2, key=jax.random.key(1))

    @eqx.filter_jit
    def step(model, xb, yb):
        xb = eqx.error_if(xb, ~jnp.all(jnp.isfinite(xb)), "the batch is not finite")

        def loss_fn(m):
            logp = jax.nn.log_softmax(jax.vmap(m)(xb))
            return -jnp.take_along_axis(logp, yb[:, None], axis=1).mean()
        loss, grads = eqx.filter_value_and_grad(loss_fn)(model)
        model = eqx.apply_updates(model, jax.tree.map(lambda g: -0.5 * g, grads))
        return model, loss

    losses = []
    for _ in range(2):
        for i in range(0, len(XTR), 64):
            model, loss = step(model, XTR[i:i + 64], YTR[i:i + 64])
            losses.append(float(loss))
    on_platform(eqx.filter(model, eqx.is_array), _platform[0])
    bad = XTR[:64].copy()
    bad[3, 5] = np.nan
    try:
        step(model, bad, YTR[:64])
    except Exception as e:
        text = str(e) + str(e.__cause__) + str(e.__context__)
        assert "the batch is not finite" in text, text[:2000]
        raised = type(e).__name__
    else:
        raise AssertionError("error_if did not raise")
    # the process and the device go on after the error
    _, again = step(model, XTR[:64], YTR[:64])
    return np.array(losses), raised, float(again)


def t_equinox_error_if():
    """An equinox MLP trained 40 steps through eqx.error_if (a host callback
    that passes): the same losses (1e-5 relative); a batch with a NaN makes
    it raise, on both backends, and the next step runs."""
    need("equinox")
    (lx, rx, ax), cx = compiled(X[0], eqx_run)
    (lc, rc, ac), cc = compiled(C[0], eqx_run)
    assert lx[-1] < 0.7 * lx[0], f"the loss did not fall: {lx[0]} -> {lx[-1]}"
    err = same_losses("losses", lx, lc, rtol=1e-5)
    same_losses("after the error", [ax], [ac], rtol=1e-5)
    assert rx == rc, (rx, rc)
    print(f"  losses {lx[0]:.6f} -> {lx[-1]:.6f} (cpu {lc[0]:.6f} -> {lc[-1]:.6f}, largest relative difference"
          f" {err:.1e}); raised {rx} on both; compile: xlac {cx:.2f} s, cpu {cc:.2f} s")


# ---- Keras beside TensorFlow ----

def t_keras_beside_tensorflow():
    """The Keras case in processes that import TensorFlow (whose libraries
    export LLVM's C API) before jax, and after the plugin is loaded."""
    need("tensorflow", "keras")
    import subprocess
    for order in ("tf-first", "tf-after"):
        r = subprocess.run([sys.executable, __file__, "--keras-beside-tf", order], capture_output=True, text=True,
                           timeout=600, env=dict(os.environ))
        lines = r.stdout.splitlines()
        assert r.returncode == 0 and "1 passed, 0 failed" in lines, \
            f"{order}: exit status {r.returncode}\n{r.stdout[-2000:]}{r.stderr[-3000:]}"
        print(f"  {order}: " + "; ".join(line.strip() for line in lines if line.startswith("  ")))


if TF_ORDER:
    import tensorflow as tf
    # TensorFlow's own compiled function works beside the plugin
    v = tf.function(lambda a: tf.tanh(a) * 2, jit_compile=True)(tf.constant(XTE[:4]))
    np.testing.assert_allclose(v.numpy(), np.tanh(XTE[:4]) * 2, rtol=1e-6, atol=1e-6)
    check("keras", t_keras)
else:
    only = sys.argv[1:]  # names of cases to run (default: all)
    if only:
        import jax
        print("xlac device kind:", jax.devices("xlac")[0].device_kind, flush=True)
    for name, fn in list(globals().items()):
        if name.startswith("t_") and callable(fn) and (not only or name[2:] in only):
            check(name[2:], fn)
summary = f"{passed} passed, {len(failures)} failed"
print(summary + (f", {len(skipped)} skipped" if skipped else ""))
if failures:
    sys.exit(1)
if not passed:
    print("skipped: none of the clients' packages is installed")
    sys.exit(77)
