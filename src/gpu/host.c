/*
 * host.c - ops that run on the host, between the kernels.
 *
 * The assertions of StableHLO's test files (check.expect_eq, ..._const,
 * expect_almost_eq, expect_close, expect_serialized_eq, and custom_call
 * @check.*) and the interpreter dialect's print and probe are not
 * computations a GPU does: they read values and report on them.  Nor are
 * the custom calls whose targets live on the host (and have no GPU
 * implementation registered): host functions registered with
 * xlac_custom_call_register (the JAX plugin's Python callbacks: print,
 * pure_callback, io_callback), and the targets the interpreter implements
 * (the LAPACK routines of JAX's CPU lowerings, XLA's TopK, Qr, Eigh, the
 * annotations).  Nor are the ops that meet the other processes of a grid
 * of replicas x partitions: the collectives, send and recv, infeed and
 * outfeed run through the interpreter's in-process rendezvous
 * (interp/collectives.c) on the process's own interpreter state, and
 * interpreter.run_parallel (a PARALLEL step, gpu.c) runs its programs,
 * compiled for the GPU, as the processes of such a grid.  Each becomes a
 * HOST step: at its place in program order
 * (the copies wait for the kernels before it) its operands are copied
 * back, the reference interpreter runs the op on them — printing and
 * counting a check, or calling the host function — and its results are
 * copied to the device.  Every other op without a kernel is an error at
 * the op; --verbose counts the host steps.
 */
#include <string.h>

#include "gpu/kernels.h"
#include "interp/hostcall.h"

bool gpu_host_op(const Op *op) {
  switch (op->kind) {
  case OP_CHECK_EXPECT_EQ: case OP_CHECK_EXPECT_EQ_CONST: case OP_CHECK_EXPECT_ALMOST_EQ:
  case OP_CHECK_EXPECT_ALMOST_EQ_CONST: case OP_CHECK_EXPECT_CLOSE: case OP_CHECK_EXPECT_SERIALIZED_EQ:
  case OP_INTERP_PRINT: case OP_INTERP_PROBE:
    return true;
  /* the ops that meet the other processes of a grid (collectives.c) */
  case OP_ALL_GATHER: case OP_ALL_REDUCE: case OP_ALL_TO_ALL: case OP_COLLECTIVE_BROADCAST:
  case OP_COLLECTIVE_REDUCE: case OP_COLLECTIVE_PERMUTE: case OP_CROSS_REPLICA_SUM: case OP_REDUCE_SCATTER:
  case OP_SEND: case OP_RECV: case OP_INFEED: case OP_OUTFEED:
    return true;
  case OP_CUSTOM_CALL: {
    const Attr *t = op_attr(op, "call_target_name");
    if (!t || t->kind != ATTR_STRING || !t->s) return false;
    if (strncmp(t->s, "check.", 6) == 0) return true;
    if (gpu_custom_call_registered(t->s)) return false;
    const HostFn *fn;
    if (hostcall_classify(t->s, &fn) == HOST_UNKNOWN) return false; /* reported by gpu_lower_custom_call */
    char *why = hostcall_problem(op);
    xfree(why);
    return why == NULL;
  }
  default: return false;
  }
}

/* The buffers of a host step's operands then results: tokens have none
   (BUF_NONE); tuples are refused. */
static bool host_bufs(GpuLower *G, Op *op, GpuBuf **bufs, int *nbufs) {
  int n = op->nopnds + op->nres;
  GpuBuf *b = xcalloc((size_t)n + 1, sizeof(GpuBuf));
  bool ok = true;
  for (int i = 0; ok && i < n; i++) {
    Value *v = i < op->nopnds ? op->opnds[i] : &op->res[i - op->nopnds];
    if (v->type->kind == TY_TOKEN) continue;
    ok = v->type->kind == TY_TENSOR && gpu_value_buf(G, v, &b[i]);
  }
  if (!ok) {
    gpu_unsupported(G, op, "a host step on a tuple or a value without device storage; ");
    xfree(b);
    return false;
  }
  *bufs = b;
  *nbufs = n;
  return true;
}

void gpu_lower_host_step(GpuLower *G, Op *op, GpuStepKind kind) {
  GpuBuf *bufs;
  int nbufs;
  if (!host_bufs(G, op, &bufs, &nbufs)) return;
  GpuStep st = {0};
  st.kind = kind;
  st.op = op;
  G->nhost++;
  st.bufs = bufs;
  st.nbufs = nbufs;
  VEC_PUSH(*G->cur, st);
}

void gpu_lower_host_op(GpuLower *G, Op *op) { gpu_lower_host_step(G, op, STEP_HOST); }

static size_t value_bytes(const Value *v) {
  return v->type->kind == TY_TENSOR ? (size_t)type_num_elements(v->type) * (size_t)et_bytes(v->type->elem) : 0;
}

bool gpu_run_host(const GpuStep *st, const CudaDriver *drv, CUstream stream, const CUdeviceptr *ptrs, Interp *I,
                  GpuHostRun run, void *user, char **err) {
  Op *op = st->op;
  int ni = op->nopnds, no = op->nres;
  IVal **in = xcalloc((size_t)ni + 1, sizeof(IVal *)), **out = xcalloc((size_t)no + 1, sizeof(IVal *));
  bool ok = true;
  for (int i = 0; ok && i < ni; i++) {
    if (op->opnds[i]->type->kind == TY_TOKEN) {
      in[i] = ival_token();
      continue;
    }
    Literal *l = lit_new(op->opnds[i]->type);
    size_t nb = value_bytes(op->opnds[i]);
    ok = !nb || cuda_check(drv->cuMemcpyDtoH(l->data, ptrs[i], nb), "cuMemcpyDtoH (an operand of a host step)", err);
    in[i] = ival_tensor(l);
  }
  if (ok && !(run ? run(user, I, op, in, out) : interp_run_op(I, op, in, out))) {
    /* the interpreter has reported it at the op */
    *err = xasprintf("'%s' failed on the host", op_info[op->kind].name);
    ok = false;
  }
  for (int r = 0; ok && r < no; r++) {
    size_t nb = value_bytes(&op->res[r]);
    if (!nb || !out[r] || out[r]->kind != IV_TENSOR) continue;
    /* on the execution's stream, where the kernels after the step run: a
       synchronous copy's transfer is ordered on the default stream only
       (the driver has read the pageable source when the call returns) */
    if (stream)
      ok = cuda_check(drv->cuMemcpyHtoDAsync(ptrs[ni + r], out[r]->lit->data, nb, stream),
                      "cuMemcpyHtoDAsync (a result of a host step)", err);
    else
      ok = cuda_check(drv->cuMemcpyHtoD(ptrs[ni + r], out[r]->lit->data, nb), "cuMemcpyHtoD (a result of a host step)",
                      err);
  }
  for (int i = 0; i < ni; i++)
    if (in[i]) ival_release(in[i]);
  for (int r = 0; r < no; r++) ival_release(out[r]);
  xfree(in);
  xfree(out);
  return ok;
}
