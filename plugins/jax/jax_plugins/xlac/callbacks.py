"""Host callbacks on xlac: jax.debug.print / debug.callback, jax.pure_callback,
jax.experimental.io_callback (ordered or not) and checkify's checks.

JAX lowers these through one function, jax._src.callback.emit_python_callback,
which emits XLA's FFI callback custom call on the platforms JAX knows and
refuses the others.  install() wraps it: for a program lowered for xlac the
callable goes into this module's registry under a new id, and the program
gets

    stablehlo.custom_call @xlac_python_callback(token?, args...)
        {backend_config = "<id>", has_side_effect = ...} -> (token?, results...)

which the plugin implements (plugins/jax/pjrt/plugin.c): its host function
passes the id and the data pointers of the arguments and results to
TRAMPOLINE, a C-callable function made with ctypes, whose address the plugin
receives as the client creation option "python_callback".  The trampoline
copies the arguments into numpy arrays, calls the callable, checks its
results against the types the program declared and writes them.  An
exception becomes the execution's error, with its traceback.

Devices: in a program the compiler partitions (a jit over several devices)
JAX's CPU backend runs a callback once, on one device: the callback's
`sharding`, else the first of the program's.  _emit writes that sharding on
the custom call as JAX writes it for its CPU backend (`sdy.sharding` over a
maximal mesh, or `mhlo.sharding` "{maximal device=N}"), and xlac's
partitioner runs the call on that partition alone and broadcasts its results
to the others.  A partitioned debug callback (debug.print(...,
partitioned=True)) is `stablehlo.custom_call @xlac_partitioned_python_callback`
instead: it runs on every partition with that partition's shards, whose
shapes the plugin passes (arg_dims).

Ordering: an ordered effect (io_callback(ordered=True), debug.print(ordered=
True)) threads JAX's token through the call as an operand and a result, so
the calls run in program order.  xlac never removes a custom call (even a
pure_callback whose results are unused); unordered calls are promised no
order, as in JAX.

Lifetime: the registry holds weak references.  The callables are also handed
to JAX as the module's host callbacks (ModuleContext.add_host_callback), which
the lowered program and the compiled executable keep alive; JAX also skips
its persistent compilation cache for such programs.

Threads: the trampoline runs on the thread that executes the custom call (the
caller's or one of xlac's pool); ctypes takes the GIL for it, and jaxlib
releases the GIL while an execution runs.
"""
import ctypes
import itertools
import threading
import traceback
import weakref

import numpy as np

PLATFORM = "xlac"
TARGET = "xlac_python_callback"
PARTITIONED_TARGET = "xlac_partitioned_python_callback"

# int trampoline(uint64_t id, int num_args, void *const *args,
#                const int64_t *arg_bytes, const int *arg_ranks,
#                const int64_t *arg_dims, int num_results,
#                void *const *results, const int64_t *result_bytes,
#                char *error, size_t error_size)
# arg_dims: the dimensions of every argument, one after another.
_TRAMPOLINE_TYPE = ctypes.CFUNCTYPE(
    ctypes.c_int, ctypes.c_uint64, ctypes.c_int, ctypes.POINTER(ctypes.c_void_p),
    ctypes.POINTER(ctypes.c_int64), ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int64),
    ctypes.c_int, ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_int64), ctypes.c_void_p,
    ctypes.c_size_t)

_lock = threading.Lock()
_ids = itertools.count()
_registry = {}  # id -> weakref to a _Callback

_SUBBYTE = {"int2": np.int8, "int4": np.int8, "uint2": np.uint8, "uint4": np.uint8}


def _storage_dtype(dtype):
    """The numpy type whose bytes are xlac's host layout of dtype: the
    sub-byte integers are one byte per element, sign- or zero-extended
    (ml_dtypes keeps the value in the low bits, the high bits zero)."""
    dtype = np.dtype(dtype)
    store = _SUBBYTE.get(dtype.name)
    return np.dtype(store) if store is not None else dtype


class _Callback:
    """A callable with the types of its arguments and results."""

    def __init__(self, fn, operand_avals, result_avals, partitioned=False):
        self.fn = fn
        self.partitioned = partitioned  # called with each partition's shards
        self.args = [_shape_dtype(a) for a in operand_avals]
        self.results = [_shape_dtype(a) for a in result_avals]

    def __call__(self, *args):  # as JAX's host callbacks are: flat arrays in, a sequence out
        return self.fn(*args)


class _Inspect:
    """jax.debug.inspect_array_sharding's callback in a program over several
    devices: called, when the program is compiled, with the HLO text of the
    sharding the value got (the plugin passes it as the one argument)."""

    def __init__(self, fn):
        self.fn = fn


def _shape_dtype(aval):
    from jax._src import core
    try:
        aval = core.physical_aval(aval)
    except Exception:  # an aval without a physical form is its own
        pass
    from jax._src import dtypes
    dtype = np.dtype(np.bool_) if aval.dtype == dtypes.float0 else np.dtype(aval.dtype)
    return tuple(aval.shape), dtype


def _register(cb):
    with _lock:
        i = next(_ids)
        _registry[i] = weakref.ref(cb)
        # forget the ids whose callables are gone
        if i % 256 == 255:
            for k in [k for k, r in _registry.items() if r() is None]:
                del _registry[k]
    return i


def _canonical(value):
    from jax._src import dtypes
    a = np.asarray(value)
    try:
        return np.asarray(dtypes.canonicalize_value(a))
    except Exception:
        return a


def _call(i, nargs, args, arg_bytes, arg_ranks, arg_dims, nres, results, result_bytes):
    with _lock:
        ref = _registry.get(i)
    cb = ref() if ref is not None else None
    if cb is None:
        raise RuntimeError(f"host callback #{i} no longer exists (its executable outlived the Python objects "
                           "that own it)")
    if isinstance(cb, _Inspect):
        if nargs != 1 or nres != 0:
            raise RuntimeError(f"inspect_array_sharding #{i}: the plugin passes {nargs} arguments and {nres} "
                               "results, it takes the sharding's text alone")
        cb.fn(ctypes.string_at(args[0], arg_bytes[0]).decode("utf-8"))
        return
    if nargs != len(cb.args) or nres != len(cb.results):
        raise RuntimeError(f"host callback #{i}: the program passes {nargs} arguments and {nres} results, the "
                           f"callback takes {len(cb.args)} and returns {len(cb.results)}")
    flat = []
    at = 0
    for k, (shape, dtype) in enumerate(cb.args):
        rank = arg_ranks[k]
        have = tuple(int(arg_dims[at + d]) for d in range(rank))
        at += rank
        if cb.partitioned and len(have) == len(shape):
            shape = have  # this partition's shard
        elif have != shape:
            raise RuntimeError(f"host callback #{i}: argument {k} has shape {have}, {shape} was declared")
        store = _storage_dtype(dtype)
        n = int(np.prod(shape, dtype=np.int64)) * store.itemsize
        if arg_bytes[k] != n:
            raise RuntimeError(f"host callback #{i}: argument {k} has {arg_bytes[k]} bytes, {dtype}{list(shape)} "
                               f"has {n}")
        raw = (ctypes.c_char * n).from_address(args[k]) if n else b""
        a = np.frombuffer(raw, dtype=store).copy().reshape(shape)
        flat.append(a if store == dtype else a.astype(dtype))
    out = cb.fn(*flat)
    out = tuple(out) if out is not None else ()
    if len(out) != len(cb.results):
        raise RuntimeError(f"the callback returned {len(out)} values, {len(cb.results)} were declared "
                           "(result_shape_dtypes)")
    for k, (value, (shape, dtype)) in enumerate(zip(out, cb.results)):
        a = _canonical(value)
        if a.shape != shape:
            raise RuntimeError(f"result {k} of the callback has shape {a.shape}, {shape} was declared")
        if a.dtype != dtype:
            raise RuntimeError(f"result {k} of the callback has dtype {a.dtype}, {dtype} was declared")
        store = _storage_dtype(dtype)
        a = np.ascontiguousarray(a if store == dtype else a.astype(store))
        if result_bytes[k] != a.nbytes:
            raise RuntimeError(f"host callback #{i}: result {k} has room for {result_bytes[k]} bytes, the value "
                               f"has {a.nbytes}")
        if a.nbytes:
            ctypes.memmove(results[k], a.ctypes.data, a.nbytes)


def _trampoline(i, nargs, args, arg_bytes, arg_ranks, arg_dims, nres, results, result_bytes, error, error_size):
    # an exception must not escape into C: ctypes would print it and return 0
    try:
        _call(i, nargs, args, arg_bytes, arg_ranks, arg_dims, nres, results, result_bytes)
        return 0
    except BaseException as e:  # noqa: B902 - KeyboardInterrupt too: the execution fails with it
        try:
            # the traceback from the callable down, without this module's frames
            tb = e.__traceback__
            while tb is not None and tb.tb_frame.f_code.co_filename == __file__:
                tb = tb.tb_next
            msg = "".join(traceback.format_exception(type(e), e, tb)).strip()
            raw = msg.encode("utf-8", "replace")
            if error and error_size:
                if len(raw) >= error_size:  # keep the end: the exception itself
                    raw = b"..." + raw[len(raw) - error_size + 4:]
                ctypes.memmove(error, raw + b"\0", len(raw) + 1)
        except BaseException:
            pass
        return 1


TRAMPOLINE = _TRAMPOLINE_TYPE(_trampoline)


def trampoline_address():
    """The address the plugin calls, for the client option python_callback."""
    return ctypes.cast(TRAMPOLINE, ctypes.c_void_p).value


def _with_token(sharding, nres):
    """sharding (one entry per result of the callback, or one when it has
    none) for the custom call, whose first result is a token: Shardy wants
    one entry per result, so the token gets the callback's device too."""
    from jax._src import sharding_impls
    if not isinstance(sharding, sharding_impls.SdyArrayList) or len(sharding.shardings) >= nres:
        return sharding
    first = sharding.shardings[0]
    token = sharding_impls.SdyArray(mesh_shape=(), dim_shardings=(), logical_device_ids=first.logical_device_ids)
    return sharding_impls.SdyArrayList((token,) * (nres - len(sharding.shardings)) + tuple(sharding.shardings))


def _emit(ctx, callback, token, operands, operand_avals, result_avals, *, has_side_effect, returns_token=True,
          partitioned=False, sharding=None):
    """emit_python_callback for a program lowered for xlac: the custom call
    described above, with the sharding JAX gives it (None in a program on
    one device, or per-device in a pmap or shard_map: the call runs on
    each device that runs the program)."""
    del returns_token
    from jax._src.interpreters import mlir
    from jax._src.lib.mlir.dialects import hlo
    if partitioned and result_avals:
        raise ValueError("Partitioned callback not supported with return values.")
    cb = _Callback(callback, operand_avals, result_avals, partitioned)
    ctx.module_context.add_host_callback(cb)
    i = _register(cb)
    result_types = [mlir.aval_to_ir_type(ctx.module_context, a) for a in result_avals]
    operands = list(operands)
    if token is not None:
        operands = [token, *operands]
        result_types = [hlo.TokenType.get(), *result_types]
    op = mlir.custom_call(PARTITIONED_TARGET if partitioned else TARGET, result_types=result_types,
                          operands=operands, backend_config=str(i), has_side_effect=has_side_effect,
                          api_version=2)
    if sharding is not None:
        mlir.set_sharding(ctx.module_context, op, _with_token(sharding, max(1, len(result_types))))
    results = list(op.results)
    if token is not None:
        token, *results = results
    return results, token, cb


def _inspect_sharding_lowering(ctx, value, *, callback):
    """inspect_array_sharding on xlac.  On one device JAX's rule calls back
    at once; on several, the sharding is the one the partitioner chooses:
    the program gets custom_call @InspectSharding(value) with
    backend_config "<id>" (no results), and the plugin calls the callable
    under that id once the program is compiled, with the HLO text of the
    value's layout there ("{manual}" in a program partitioned by hand, a
    shard_map: JAX then reports P())."""
    from jax._src import debugging
    from jax._src import mesh as mesh_lib
    from jax._src import sharding_impls
    from jax._src.interpreters import mlir
    from jax._src.lib import xla_client as xc
    from jax._src.lib.mlir import ir
    from jax._src.lib.mlir.dialects import hlo
    axis_context = ctx.module_context.axis_context
    mesh = mesh_lib.thread_resources.env.physical_mesh
    if isinstance(axis_context, sharding_impls.ShardingContext):
        devices = axis_context.device_assignment
        am = axis_context.abstract_mesh
        if devices is not None and am is not None:
            mesh = mesh_lib.Mesh(np.array(devices).reshape(am.axis_sizes), am.axis_names)
    elif isinstance(axis_context, sharding_impls.SPMDAxisContext):
        mesh = axis_context.mesh
        devices = mesh._flat_devices_tuple
    else:
        devices = None
    if devices is None or len(devices) == 1:
        return debugging._inspect_sharding_lowering_rule(ctx, value, callback=callback)

    def report(text):
        hs = xc.HloSharding.from_string(text)
        if mesh.empty:
            return callback(sharding_impls.GSPMDSharding(devices, hs))
        spec = (sharding_impls.PartitionSpec() if hs.is_manual()
                else sharding_impls.parse_flatten_op_sharding(hs, mesh)[0])
        return callback(sharding_impls.NamedSharding(mesh, spec))

    cb = _Inspect(report)
    ctx.module_context.add_keepalive(cb)
    i = _register(cb)
    hlo.CustomCallOp([], [value], call_target_name=ir.StringAttr.get("InspectSharding"),
                     has_side_effect=ir.BoolAttr.get(True), api_version=mlir.i32_attr(1),
                     called_computations=ir.ArrayAttr.get([]), backend_config=ir.StringAttr.get(str(i)),
                     operand_layouts=None, result_layouts=None)
    return []


def install():
    """Routes JAX's host callbacks on xlac through _emit (idempotent)."""
    from jax._src import callback as jax_callback
    from jax._src.interpreters import mlir
    jax_emit = jax_callback.emit_python_callback
    if not getattr(jax_emit, "_xlac", False):
        def emit_python_callback(ctx, callback, token, operands, operand_avals, result_avals, **kw):
            platforms = ctx.module_context.platforms
            if PLATFORM not in platforms:
                return jax_emit(ctx, callback, token, operands, operand_avals, result_avals, **kw)
            if len(platforms) > 1:
                raise NotImplementedError("multi-platform lowering for python_callback")
            return _emit(ctx, callback, token, operands, operand_avals, result_avals, **kw)
        emit_python_callback._xlac = True
        emit_python_callback.__doc__ = jax_emit.__doc__
        jax_callback.emit_python_callback = emit_python_callback
    # pure_callback and io_callback have rules for every platform; these
    # have them for cpu, gpu and tpu only: the same rules serve xlac
    from jax._src import debugging
    rules = [(debugging.debug_callback_p, debugging.debug_callback_lowering),
             (debugging.debug_print_p, getattr(debugging, "debug_print_lowering_rule", None))]
    try:
        from jax._src import checkify
        rules.append((checkify.check_p, checkify.check_lowering_rule))
    except (ImportError, AttributeError):
        pass
    rules.append((debugging.inspect_sharding_p, _inspect_sharding_lowering))
    for prim, rule in rules:
        if rule is not None:
            mlir.register_lowering(prim, rule, platform=PLATFORM)
