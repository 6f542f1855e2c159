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
 * annotations).  Each becomes a HOST step: at its place in program order
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

void gpu_lower_host_op(GpuLower *G, Op *op) {
  for (int i = 0; i < op->nopnds; i++)
    if (op->opnds[i]->type->kind == TY_TUPLE) {
      gpu_unsupported(G, op, "a host op on a tuple; ");
      return;
    }
  for (int i = 0; i < op->nres; i++)
    if (op->res[i].type->kind == TY_TUPLE) {
      gpu_unsupported(G, op, "a host op returning a tuple; ");
      return;
    }
  GpuBuf *bufs;
  int nbufs;
  if (!gpu_op_bufs(G, op, 0, &bufs, &nbufs)) return;
  GpuStep st = {0};
  st.kind = STEP_HOST;
  st.op = op;
  G->nhost++;
  st.bufs = bufs;
  st.nbufs = nbufs;
  VEC_PUSH(*G->cur, st);
}

static size_t value_bytes(const Value *v) {
  return v->type->kind == TY_TENSOR ? (size_t)type_num_elements(v->type) * (size_t)et_bytes(v->type->elem) : 0;
}

bool gpu_run_host(const GpuStep *st, const CudaDriver *drv, const CUdeviceptr *ptrs, Interp *I, char **err) {
  Op *op = st->op;
  int ni = op->nopnds, no = op->nres;
  IVal **in = xcalloc((size_t)ni + 1, sizeof(IVal *)), **out = xcalloc((size_t)no + 1, sizeof(IVal *));
  bool ok = true;
  for (int i = 0; ok && i < ni; i++) {
    if (op->opnds[i]->type->kind == TY_TOKEN) { /* ordered effects: nothing to copy */
      in[i] = ival_token();
      continue;
    }
    Literal *l = lit_new(op->opnds[i]->type);
    size_t nb = value_bytes(op->opnds[i]);
    ok = !nb || cuda_check(drv->cuMemcpyDtoH(l->data, ptrs[i], nb), "cuMemcpyDtoH (an operand of a test op)", err);
    in[i] = ival_tensor(l);
  }
  if (ok && !interp_run_op(I, op, in, out)) {
    /* the interpreter has reported it at the op */
    *err = xasprintf("'%s' failed on the host", op_info[op->kind].name);
    ok = false;
  }
  for (int r = 0; ok && r < no; r++) {
    size_t nb = value_bytes(&op->res[r]);
    if (!nb || !out[r] || out[r]->kind != IV_TENSOR) continue;
    ok = cuda_check(drv->cuMemcpyHtoD(ptrs[ni + r], out[r]->lit->data, nb), "cuMemcpyHtoD (a result of a test op)",
                    err);
  }
  for (int i = 0; i < ni; i++) ival_release(in[i]);
  for (int r = 0; r < no; r++) ival_release(out[r]);
  xfree(in);
  xfree(out);
  return ok;
}
