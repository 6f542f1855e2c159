"""The linear algebra JAX lowers to LAPACK on its CPU backend, on xlac:
jnp.linalg.eig (and eigvals, left eigenvectors), jax.scipy.linalg.schur
and hessenberg, pivoted QR, LU (and solve, inv, det, slogdet), jax.lax.linalg.tridiagonal and
tridiagonal_solve (with perturb_singular), and jnp.linalg.svd with the
algorithms other than the polar one; in float32, float64 (x64), complex64
and complex128, batched, each against JAX's own CPU backend in the same
process.  Factorizations are compared by what they must satisfy (the
factors rebuild the matrix, the vectors are orthonormal), eigenvalues as
sorted sets and eigenvectors up to a phase, since both backends are free
to choose among equally right answers.  Householder QR, which is not a
LAPACK call on xlac, must still refuse the types LAPACK lacks as the CPU
backend does.

Run through run.sh: plugins/jax/tests/run.sh test_linalg.py
"""
import os

os.environ["JAX_PLATFORMS"] = "xlac,cpu"

import numpy as np  # noqa: E402
import jax  # noqa: E402
from harness import check, finish  # noqa: E402

jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp  # noqa: E402
import jax.scipy.linalg as jsl  # noqa: E402
from jax import lax  # noqa: E402

X = jax.devices("xlac")
C = jax.devices("cpu")
rng = np.random.default_rng(0)
TYPES = [np.float32, np.float64, np.complex64, np.complex128]


def rand(shape, dtype):
    a = rng.standard_normal(shape)
    if np.issubdtype(dtype, np.complexfloating):
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(dtype)


def tol(dtype):
    """A relative tolerance per row of the matrix."""
    return 2e-5 if dtype in (np.float32, np.complex64) else 1e-12


def both(f, *args):
    """f jitted on xlac and on cpu, the results as numpy arrays."""
    def run(devices):
        out = jax.jit(f)(*[jax.device_put(a, devices[0]) for a in args])
        leaves = jax.tree.leaves(out)
        for v in leaves:
            assert v.devices() == {devices[0]}, v.devices()
        return [np.asarray(v) for v in leaves]
    got, want = run(X), run(C)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape, (g.dtype, g.shape, w.dtype, w.shape)
    return got, want


def close(a, b, t, what):
    err = np.max(np.abs(a - b), initial=0) / max(1.0, np.max(np.abs(b), initial=0))
    assert err <= t, f"{what}: relative error {err:.3g} > {t:.3g}"


def H(a):
    return np.conj(np.swapaxes(a, -1, -2))


def same_set(got, want, t, what):
    """The eigenvalues got and want (batched, last axis) match one to one."""
    got, want = np.asarray(got, np.complex128), np.asarray(want, np.complex128)
    scale = max(1.0, np.max(np.abs(want), initial=0))
    for b in np.ndindex(got.shape[:-1]):
        left = list(want[b])
        for g in got[b]:
            k = int(np.argmin([abs(g - w) for w in left]))
            assert abs(g - left[k]) <= t * scale, f"{what}: {g} has no match in {want[b]}"
            left.pop(k)


def t_eig():
    for dt in TYPES:
        for shape in [(1, 1), (4, 4), (7, 7), (2, 5, 5), (30, 30)]:
            a = rand(shape, dt)
            t = tol(dt) * shape[-1]
            got, want = both(lambda x: lax.linalg.eig(x, compute_left_eigenvectors=True), a)
            w, vl, vr = got
            same_set(w, want[0], t, f"eigenvalues {dt.__name__} {shape}")
            a64 = a.astype(np.complex128)
            close(a64 @ vr, vr * w[..., None, :], t, f"A V = V w {dt.__name__} {shape}")
            close(H(vl) @ a64, w[..., :, None] * H(vl), t, f"VL^H A = w VL^H {dt.__name__} {shape}")
            close(np.linalg.norm(vr, axis=-2), np.ones(shape[:-1]), t, "unit right vectors")
            close(np.linalg.norm(vl, axis=-2), np.ones(shape[:-1]), t, "unit left vectors")
            # the largest component of each vector is real, as LAPACK makes it
            idx = np.argmax(np.abs(vr), axis=-2)
            big = np.take_along_axis(vr, idx[..., None, :], axis=-2)
            close(big.imag, np.zeros_like(big.imag), t, "largest component real")
            # up to a phase, a simple eigenvalue's vector is the CPU's
            wc, vc = want[0], want[2]
            for b in np.ndindex(shape[:-2]):
                for j in range(shape[-1]):
                    k = np.argmin(np.abs(wc[b] - w[b][j]))
                    if np.sort(np.abs(wc[b] - w[b][j]))[1:2].min(initial=1) < 1e-2:
                        continue
                    overlap = np.abs(np.vdot(vc[b][:, k], vr[b][:, j]))
                    assert abs(overlap - 1) < 100 * t, (dt, shape, j, overlap)
    # eigvals alone, and real matrices with complex pairs that come out conjugate
    a = np.array([[0.0, -2.0, 1.0], [2.0, 0.0, 0.5], [0.0, 0.0, 3.0]])
    got, want = both(jnp.linalg.eigvals, a)
    same_set(got[0], want[0], 1e-12, "eigvals")
    same_set(got[0], np.array([2j, -2j, 3]), 1e-12, "eigvals by hand")
    got, _ = both(jnp.linalg.eig, a)
    assert np.all(got[1][:, 1] == np.conj(got[1][:, 0])), got[1]


def t_eig_degenerate():
    # NaN and infinity: NaNs everywhere, as on the CPU backend
    for dt in [np.float32, np.complex128]:
        got, want = both(lambda x: lax.linalg.eig(x, compute_left_eigenvectors=True), np.full((4, 4), np.nan, dt))
        assert all(np.all(np.isnan(g)) for g in got), got
    got, want = both(jnp.linalg.eigvals, np.array([[np.inf]], np.float32))
    assert np.all(np.isnan(got[0])), got
    # zeros, the identity (a repeated eigenvalue), a Jordan block
    for a in [np.zeros((3, 3)), np.eye(4), np.array([[2.0, 1.0], [0.0, 2.0]])]:
        got, want = both(jnp.linalg.eig, a)
        same_set(got[0], want[0], 1e-7, "degenerate eigenvalues")
        close(a @ got[1], got[1] * got[0][None, :], 1e-7, "degenerate A V = V w")
    got, want = both(jnp.linalg.eig, np.zeros((0, 0), np.float32))
    assert got[0].shape == (0,) and got[1].shape == (0, 0)


def t_schur():
    for dt in TYPES:
        for shape in [(1, 1), (5, 5), (3, 6, 6), (40, 40)]:
            a = rand(shape, dt)
            t = tol(dt) * shape[-1]
            got, want = both(jsl.schur, a)
            T, Z = got
            close(Z @ T @ H(Z), a, t, f"Z T Z^H = A {dt.__name__} {shape}")
            close(Z @ H(Z), np.broadcast_to(np.eye(shape[-1]), shape), t, "Z unitary")
            low = np.tril(T, -2) if np.isrealobj(T) else np.tril(T, -1)
            assert np.all(low == 0), low
            if np.isrealobj(T):  # 2x2 blocks standardized, and never two in a row
                sub = np.diagonal(T, -1, -2, -1)
                assert not np.any((sub[..., 1:] != 0) & (sub[..., :-1] != 0))
                for b in np.ndindex(shape[:-2]):
                    for k in np.nonzero(sub[b])[0]:
                        assert T[b][k, k] == T[b][k + 1, k + 1]
                        assert T[b][k, k + 1] * T[b][k + 1, k] < 0
            eig_t = np.linalg.eigvals(T.astype(np.complex128))
            eig_c = np.linalg.eigvals(want[0].astype(np.complex128))
            same_set(eig_t, eig_c, t, "Schur eigenvalues")
    # the Schur form alone
    got, want = both(lambda x: jsl.schur(x)[0] if False else lax.linalg.schur(x, compute_schur_vectors=False),
                     rand((4, 4), np.float64))
    assert got[0].shape == (4, 4)


def t_hessenberg():
    for dt in TYPES:
        for shape in [(1, 1), (2, 2), (5, 5), (30, 30)]:
            a = rand(shape, dt)
            t = tol(dt) * shape[-1]
            got, want = both(lambda x: jsl.hessenberg(x, calc_q=True), a)
            h, q = got
            close(q @ h @ H(q), a, t, f"Q H Q^H = A {dt.__name__} {shape}")
            close(q @ H(q), np.eye(shape[-1]), t, "Q unitary")
            assert np.all(np.tril(h, -2) == 0)
            # the reduction is unique up to the signs LAPACK fixes the same way
            close(h, want[0], t * 10, "H as LAPACK's")
        got, want = both(lambda x: lax.linalg.hessenberg(x), rand((3, 5, 5), dt))
        close(got[0], want[0], tol(dt) * 50, "batched gehrd")
        close(got[1], want[1], tol(dt) * 50, "batched taus")


def t_qr_pivoting():
    for dt in TYPES:
        for shape in [(4, 3), (3, 5), (6, 6), (1, 1), (20, 13)]:
            a = rand(shape, dt)
            t = tol(dt) * max(shape)
            for mode in ["full", "economic"]:
                got, want = both(lambda x: jsl.qr(x, pivoting=True, mode=mode), a)
                q, r, p = got
                close(q @ r, a[:, p], t, f"Q R = A P {dt.__name__} {shape} {mode}")
                close(H(q) @ q, np.eye(q.shape[-1]), t, "Q^H Q = I")
                assert np.all(np.tril(r, -1) == 0)
                d = np.abs(np.diagonal(r))
                assert np.all(d[:-1] >= d[1:] * (1 - 1e-5)), d  # pivoting orders |R_ii|
                assert sorted(p) == list(range(shape[1]))
                assert np.array_equal(p, want[2]), (p, want[2])
    # a rank-deficient matrix and zeros
    a = np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]])
    for m in [a, np.zeros((3, 2))]:
        got, want = both(lambda x: jsl.qr(x, pivoting=True), m)
        close(got[0] @ got[1], m[:, got[2]], 1e-12, "rank-deficient Q R = A P")
    # the primitive, batched
    from jax._src.lax.linalg import geqp3
    got, want = both(lambda x: geqp3(x, jnp.zeros(x.shape[:-2] + x.shape[-1:], jnp.int32)),
                     rand((2, 5, 4), np.float32))
    assert np.array_equal(got[1], want[1])


def t_lu():
    # lax.linalg.lu (LAPACK's getrf on both backends): the same pivots and
    # permutation, and L U = P A; and what is built on it
    for dt in TYPES:
        for shape in [(5, 5), (4, 6), (6, 4), (1, 1), (3, 7, 7), (20, 20)]:
            a = rand(shape, dt)
            t = tol(dt) * shape[-1]
            got, want = both(lax.linalg.lu, a)
            lu, piv, perm = got
            assert np.array_equal(piv, want[1]) and np.array_equal(perm, want[2]), (piv, want[1])
            close(lu, want[0], t, f"lu {dt.__name__} {shape}")
            m, n = shape[-2:]
            k = min(m, n)
            low = np.tril(lu[..., :, :k], -1) + np.eye(m, k)
            up = np.triu(lu[..., :k, :])
            pa = np.take_along_axis(a, perm[..., :, None], axis=-2)
            close(low @ up, pa, t, f"L U = P A {dt.__name__} {shape}")
        a, b = rand((3, 6, 6), dt), rand((3, 6, 2), dt)
        t = tol(dt) * 100
        for f in [jnp.linalg.solve, lambda x, y: jnp.linalg.inv(x), lambda x, y: jnp.linalg.det(x),
                  lambda x, y: jnp.linalg.slogdet(x)]:
            got, want = both(f, a, b)
            for g, w in zip(got, want):
                close(g, w, t, f"{dt.__name__}")
    # a singular matrix: a zero pivot (info > 0), the factors still made
    s = np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]], np.float32)
    got, want = both(lax.linalg.lu, s)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-6)
    got, want = both(jnp.linalg.det, s)
    close(got[0], want[0], 1e-6, "det of a singular matrix")


def t_qr_lapack_types():
    # Householder QR (xlac's own Qr custom call, not LAPACK) refuses the
    # types LAPACK lacks as JAX's CPU rules do, with the same error, and
    # computes the others
    from jax._src.lax.linalg import householder_product
    for dt in [np.float16, jnp.bfloat16]:
        a = rand((6, 5), np.float32).astype(dt)
        for devices in (X, C):
            for f in [lambda x: jnp.linalg.qr(x),
                      lambda x: householder_product(x, jnp.ones(x.shape[-1:], x.dtype))]:
                try:
                    jax.block_until_ready(jax.jit(f)(jax.device_put(a, devices[0])))
                except NotImplementedError as e:
                    assert f"Unsupported dtype {np.dtype(dt).name}" in str(e), e
                else:
                    raise AssertionError(f"{np.dtype(dt).name} QR computed on {devices[0].platform}")
    for dt in TYPES:
        a = rand((5, 6), dt)
        got, want = both(lambda x: jnp.linalg.qr(x), a)
        close(got[0] @ got[1], a, tol(dt) * 6, f"Q R = A {dt.__name__}")


def t_tridiagonal():
    for dt in TYPES:
        for lower in [True, False]:
            for shape in [(1, 1), (2, 2), (6, 6), (2, 4, 4), (25, 25)]:
                a = rand(shape, dt)
                a = a + H(a)
                t = tol(dt) * shape[-1]
                got, want = both(lambda x: lax.linalg.tridiagonal(x, lower=lower), a)
                arr, d, e, taus = got
                close(d, want[1], t, f"d {dt.__name__} {shape} lower={lower}")
                close(np.abs(e), np.abs(want[2]), t, f"|e| {dt.__name__} {shape}")
                # Q from the reflectors (as jnp's eigh would) rebuilds a
                n = shape[-1]
                for b in np.ndindex(shape[:-2]):
                    q = np.eye(n, dtype=np.complex128)
                    rng_i = range(n - 1) if lower else range(n - 2, -1, -1)
                    for i in rng_i:
                        v = np.zeros(n, np.complex128)
                        if lower:
                            v[i + 1] = 1
                            v[i + 2:] = arr[b][i + 2:, i]
                        else:
                            v[i] = 1
                            v[:i] = arr[b][:i, i + 1]
                        q = q @ (np.eye(n) - taus[b][i] * np.outer(v, np.conj(v)))
                    tm = np.diag(d[b]).astype(np.complex128)
                    if n > 1:
                        tm += np.diag(e[b], -1) + np.diag(e[b], 1)
                    close(q @ tm @ H(q), a[b], t, f"Q T Q^H = A {dt.__name__} {shape} lower={lower}")


def t_tridiagonal_solve():
    for dt in TYPES:
        for perturb in [False, True]:
            for shape in [(2,), (5,), (3, 4), (2, 3, 6)]:
                d = (1.0 + np.abs(rand(shape, dt))).astype(dt)
                dl, du = rand(shape, dt), rand(shape, dt)
                b = rand(shape + (2,), dt)
                f = lambda dl, d, du, b: lax.linalg.tridiagonal_solve(dl, d, du, b, perturb_singular=perturb)
                got, want = both(f, dl, d, du, b)
                close(got[0], want[0], tol(dt) * 10, f"x {dt.__name__} {shape} perturb={perturb}")
    # pivoting needed (a zero leading entry), by hand
    f32 = np.float32
    dl, d = np.array([0, 2, -2, 3], f32), np.array([1, 4, 1, -1], f32)
    du, b = np.array([2, -1, 1, 0], f32), np.array([[1], [2], [3], [4]], f32)
    for perturb in [False, True]:
        got, _ = both(lambda *a: lax.linalg.tridiagonal_solve(*a, perturb_singular=perturb), dl, d, du, b)
        close(got[0], np.array([[8.0], [-3.5], [0.0], [-4.0]]), 1e-5, "pivoting by hand")
    # singular: NaN without perturbation, large and finite with it
    z = np.zeros(3, f32)
    got, want = both(lambda *a: lax.linalg.tridiagonal_solve(*a), z, z, z, np.ones((3, 1), f32))
    assert np.all(np.isnan(got[0])) and np.all(np.isnan(want[0]))
    got, want = both(lambda *a: lax.linalg.tridiagonal_solve(*a, perturb_singular=True), z, z, z, np.ones((3, 1), f32))
    assert np.all(np.isfinite(got[0])) and np.all(np.abs(got[0]) > 1e6), got[0]
    dl, d, du = np.array([0, 1], f32), np.array([1, 3], f32), np.array([3, 0], f32)
    got, _ = both(lambda *a: lax.linalg.tridiagonal_solve(*a, perturb_singular=True), dl, d, du,
                  np.array([[1], [4]], f32))
    assert np.all(np.isfinite(got[0])) and np.all(np.abs(got[0]) > 1e6), got[0]


def t_svd():
    algorithms = [None, lax.linalg.SvdAlgorithm.QR, lax.linalg.SvdAlgorithm.DIVIDE_AND_CONQUER]
    for dt in TYPES:
        for shape in [(1, 1), (4, 3), (3, 5), (2, 6, 6), (20, 7), (7, 20)]:
            a = rand(shape, dt)
            t = tol(dt) * max(shape)
            k = min(shape[-2:])
            for alg in algorithms:
                for full in [True, False]:
                    got, want = both(lambda x: lax.linalg.svd(x, full_matrices=full, algorithm=alg), a)
                    u, s, vh = got
                    close(s, want[1], t, f"singular values {dt.__name__} {shape} {alg} full={full}")
                    assert np.all(s[..., :-1] >= s[..., 1:])
                    close((u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :], a, t, f"U S V^H = A {dt.__name__} {shape}")
                    close(H(u) @ u, np.broadcast_to(np.eye(u.shape[-1]), u.shape[:-2] + (u.shape[-1],) * 2), t,
                          "U unitary")
                    close(vh @ H(vh), np.broadcast_to(np.eye(vh.shape[-2]), vh.shape[:-2] + (vh.shape[-2],) * 2),
                          t, "V unitary")
                got, want = both(lambda x: lax.linalg.svd(x, compute_uv=False, algorithm=alg), a)
                close(got[0], want[0], t, "singular values alone")
    # rank-deficient, zeros, a tall thin matrix (U stays thin)
    a = np.outer(np.arange(1.0, 6.0), np.arange(1.0, 4.0))
    for m in [a, np.zeros((3, 4))]:
        got, want = both(lambda x: jnp.linalg.svd(x), m)
        close(got[1], want[1], 1e-12, "rank-deficient singular values")
        u, s, vh = got
        close((u[:, :len(s)] * s) @ vh[:len(s)], m, 1e-12, "rank-deficient U S V^H = A")
        close(H(u) @ u, np.eye(u.shape[0]), 1e-12, "rank-deficient U unitary")
    got, want = both(lambda x: jnp.linalg.svd(x, full_matrices=False), rand((5000, 2), np.float32))
    close(got[1], want[1], 1e-4, "tall thin")
    got, want = both(lambda x: jnp.linalg.svd(x), np.full((3, 3), np.nan, np.float32))
    assert all(np.all(np.isnan(g)) for g in got)
    # the polar algorithm keeps JAX's own (QDWH) lowering
    # (which JAX's CPU backend does not have)
    a = rand((6, 4), np.float32)
    f = jax.jit(lambda x: lax.linalg.svd(x, compute_uv=False, algorithm=lax.linalg.SvdAlgorithm.POLAR))
    close(np.asarray(f(jax.device_put(a, X[0]))), np.linalg.svd(a, compute_uv=False), 1e-4, "polar")


for name, fn in list(globals().items()):
    if name.startswith("t_") and callable(fn):
        check(name[2:], fn)
finish()
