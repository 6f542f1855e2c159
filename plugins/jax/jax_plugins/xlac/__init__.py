"""xlac as a JAX backend: `JAX_PLATFORMS=xlac python train.py`.

JAX finds this module (a member of the jax_plugins namespace package, and
an entry point of the group jax_plugins) and calls initialize(), which
registers the PJRT plugin library libxlac_pjrt.so under the platform name
"xlac".  XLAC_PJRT_LIBRARY names another copy of the library.

Environment read by the library: XLAC_DEVICES (how many devices;
otherwise XLA_FLAGS' --xla_force_host_platform_device_count, else 1),
XLAC_NUM_THREADS (threads of the devices' pool; default one per core),
XLAC_COMPILE_CACHE (a directory for compiled code), XLAC_PJRT_DUMP (a
directory that receives every program JAX compiles).

Host callbacks (jax.debug.print, jax.pure_callback, io_callback) run
through callbacks.py.
"""
import os
import pathlib

PLATFORM = "xlac"


def library_path():
    env = os.environ.get("XLAC_PJRT_LIBRARY")
    if env:
        return env
    return str(pathlib.Path(__file__).resolve().parent / "libxlac_pjrt.so")


def _device_options():
    """The device count JAX's flags ask its CPU backend for
    (jax_num_cpu_devices; the library reads XLA_FLAGS' host device count
    itself), read when JAX starts the backend, unless XLAC_DEVICES says
    otherwise."""
    if os.environ.get("XLAC_DEVICES"):
        return {}
    try:
        from jax._src import xla_bridge
        n = xla_bridge.num_cpu_devices.value
    except (ImportError, AttributeError):
        return {}
    return {"num_devices": int(n)} if n and n > 0 else {}


def initialize():
    from jax._src import xla_bridge

    path = library_path()
    if not os.path.exists(path):
        raise RuntimeError(f"xlac: the PJRT plugin library {path} does not exist "
                           "(reinstall with `pip install plugins/jax`, or set XLAC_PJRT_LIBRARY)")
    # jax warns "Platform 'xlac' is experimental..." whenever it starts the
    # backend of a plugin it does not list, which is in every process that
    # initializes all backends, whether or not it uses xlac; what xlac does
    # not support is an error where it is met (docs/jax.md)
    try:
        xla_bridge._nonexperimental_plugins.add(PLATFORM)
    except AttributeError:
        pass
    # a priority below jax's CPU backend: installing the plugin does not
    # change what plain programs run on; JAX_PLATFORMS=xlac chooses it
    # host callbacks (jax.debug.print, pure_callback, io_callback): the
    # plugin calls back into Python through a ctypes trampoline whose
    # address is a client option (callbacks.py)
    from . import callbacks
    xla_bridge.register_plugin(PLATFORM, priority=-100, library_path=path,
                               options=lambda: {"python_callback": callbacks.trampoline_address(),
                                                **_device_options()})
    try:
        callbacks.install()
    except (ImportError, AttributeError) as e:
        import warnings
        warnings.warn(f"xlac: host callbacks are not available with this jax: {e}")
    # jax lowers donated arguments to aliases only for the platforms it
    # lists as supporting donation; xlac does (buffers are consumed and
    # their storage reused by the results)
    try:
        from jax._src.interpreters import mlir
        if PLATFORM not in mlir._platforms_with_donation:
            mlir._platforms_with_donation.append(PLATFORM)
    except (ImportError, AttributeError):
        pass
    # jax.export artifacts made for "cpu" run on xlac as they are: a
    # platform-independent program is the same StableHLO for both (an
    # artifact that uses CPU-only custom calls xlac does not implement
    # fails to compile with the target named); one exported for several
    # platforms including "cpu" runs its cpu lowering
    try:
        import dataclasses
        from jax._src.export import _export
        from jax._src.interpreters import mlir

        def call_exported_lowering(ctx, *args, exported, **params):
            if PLATFORM not in exported.platforms and "cpu" in exported.platforms:
                exported = dataclasses.replace(
                    exported, platforms=tuple(PLATFORM if p == "cpu" else p for p in exported.platforms))
            return _export._call_exported_lowering(ctx, *args, exported=exported, **params)
        mlir.register_lowering(_export.call_exported_p, call_exported_lowering, platform=PLATFORM)
    except (ImportError, AttributeError):
        pass
    # JAX's persistent compilation cache (jax_compilation_cache_dir) is used
    # only for the platforms it lists; xlac serializes its executables
    # (Executable_Serialize / DeserializeAndLoad), so it joins them
    try:
        from jax._src import compilation_cache as cc
        if not getattr(cc.is_cache_used, "_xlac", False):
            jax_is_cache_used = cc.is_cache_used

            def is_cache_used(backend):
                if getattr(backend, "platform", None) == PLATFORM:
                    return cc._is_cache_enabled()
                return jax_is_cache_used(backend)
            is_cache_used._xlac = True
            cc.is_cache_used = is_cache_used
    except (ImportError, AttributeError):
        pass
    # jnp.linalg.eigh (and svd, built on it) has lowerings for LAPACK and
    # the GPU solvers only; the one written in jax itself (QDWH, on top of
    # Householder QR, which xlac implements) serves xlac
    try:
        from jax._src.interpreters import mlir
        from jax._src.lax import linalg as lax_linalg
        from jax._src.tpu.linalg import eigh as qdwh_eigh
        mlir.register_lowering(lax_linalg.eigh_p, qdwh_eigh._eigh_tpu_lowering, platform=PLATFORM)
    except (ImportError, AttributeError):
        pass
    _register_lapack_lowerings()


def _register_lapack_lowerings():
    """eig, schur, hessenberg, pivoted QR, tridiagonal, tridiagonal_solve
    and the SVD have LAPACK lowerings only (JAX's CPU rules), and LU one
    written in jax besides (a loop JAX cannot trace inside a shard_map or
    with sharding in types); xlac implements the LAPACK custom calls those
    rules emit (lapack_*geev_ffi, ..., lapack_*getrf_ffi, docs/ops.md), so
    the CPU rules serve xlac as they are.  The SVD's
    polar algorithm, and a subset of its values, keep the rule written in
    jax (QDWH)."""
    try:
        from functools import partial
        from jax._src.interpreters import mlir
        from jax._src.lax import linalg as ll
        from jax._src.tpu.linalg import svd as polar_svd
        rules = [
            (ll.eig_p, ll._eig_cpu_lowering),
            (ll.schur_p, ll._schur_cpu_lowering),
            (ll.hessenberg_p, ll._hessenberg_cpu_lowering),
            (ll.geqp3_p, partial(ll._geqp3_cpu_gpu_lowering, target_name_prefix="cpu")),
            (ll.tridiagonal_p, partial(ll._tridiagonal_cpu_gpu_lowering, target_name_prefix="cpu")),
            (ll.tridiagonal_solve_p, ll._tridiagonal_solve_cpu_lowering),
            (ll.lu_p, partial(ll._lu_cpu_gpu_lowering, target_name_prefix="cpu")),
        ]
        lapack_svd = partial(ll._svd_cpu_gpu_lowering, target_name_prefix="cpu")
        polar = polar_svd._svd_tpu_lowering_rule
    except (ImportError, AttributeError):
        return

    def svd_lowering(ctx, operand, *, full_matrices, compute_uv, subset_by_index, algorithm=None):
        m, n = ctx.avals_in[0].shape[-2:]
        whole = subset_by_index is None or tuple(subset_by_index) == (0, min(m, n))
        if algorithm == ll.SvdAlgorithm.POLAR or not whole:
            return polar(ctx, operand, full_matrices=full_matrices, compute_uv=compute_uv,
                         subset_by_index=subset_by_index, algorithm=ll.SvdAlgorithm.POLAR)
        if algorithm == ll.SvdAlgorithm.JACOBI:
            # xlac's gesvd is one-sided Jacobi
            algorithm = ll.SvdAlgorithm.QR
        return lapack_svd(ctx, operand, full_matrices=full_matrices, compute_uv=compute_uv,
                          subset_by_index=subset_by_index, algorithm=algorithm)

    for prim, rule in rules + [(ll.svd_p, svd_lowering)]:
        mlir.register_lowering(prim, rule, platform=PLATFORM)
    _register_qr_dtype_check()


def _register_qr_dtype_check():
    """Householder QR (geqrf) and the product of its reflectors (orgqr /
    ungqr) keep their rules written for any platform (xlac's Qr and
    ProductOfElementaryHouseholderReflectors custom calls, computed in
    double precision), but refuse the element types LAPACK lacks (float16,
    bfloat16) as the CPU rules do, with their NotImplementedError
    ("Unsupported dtype float16."), so that a program behaves the same on
    both backends."""
    try:
        import numpy as np
        from jax._src.interpreters import mlir
        from jax._src.lax import linalg as ll
        from jax._src.lib import lapack
        lapack_target = lapack.build_lapack_fn_target
        checked = [(ll.geqrf_p, ll._geqrf_lowering_rule, lambda dt: "geqrf_ffi"),
                   (ll.householder_product_p, ll._householder_product_lowering,
                    lambda dt: ("un" if np.issubdtype(dt, np.complexfloating) else "or") + "gqr_ffi")]
    except (ImportError, AttributeError):
        return

    def refusing(rule, routine):
        def lowering(ctx, *args, **params):
            dtype = ctx.avals_in[0].dtype
            lapack_target(routine(dtype), dtype)  # raises for the types LAPACK lacks
            return rule(ctx, *args, **params)
        return lowering

    for prim, rule, routine in checked:
        mlir.register_lowering(prim, refusing(rule, routine), platform=PLATFORM)
