/*
 * custom.c - custom calls on the GPU: the registry of targets with XLA's
 * GPU signature (xlac_gpu_custom_call_register, include/xlac/xlac.h) and
 * their lowering to a host step that hands the target the execution's
 * stream and the device pointers of the call's operands and results.
 */
#include <pthread.h>
#include <string.h>

#include "gpu/kernels.h"
#include "interp/hostcall.h"
#include "xlac/xlac.h"

typedef struct Entry {
  char *name;
  xlac_gpu_custom_call_fn fn;
} Entry;

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static VEC(Entry) reg;

xlac_status *xlac_gpu_custom_call_register(const char *target, xlac_gpu_custom_call_fn fn) {
  if (!target || !*target)
    return xlac_status_create(XLAC_INVALID_ARGUMENT, "xlac_gpu_custom_call_register: the target name is empty");
  if (!fn) return xlac_status_create(XLAC_INVALID_ARGUMENT, "xlac_gpu_custom_call_register: fn is NULL");
  pthread_mutex_lock(&reg_lock);
  int i = 0;
  while (i < reg.len && strcmp(reg.data[i].name, target) != 0) i++;
  if (i == reg.len) {
    Entry e = {xstrdup(target), fn};
    VEC_PUSH(reg, e);
  } else {
    reg.data[i].fn = fn;
  }
  pthread_mutex_unlock(&reg_lock);
  return NULL;
}

static xlac_gpu_custom_call_fn lookup(const char *name, StrBuf *known) {
  xlac_gpu_custom_call_fn fn = NULL;
  pthread_mutex_lock(&reg_lock);
  for (int i = 0; i < reg.len; i++) {
    if (name && strcmp(reg.data[i].name, name) == 0) fn = reg.data[i].fn;
    if (known) sb_printf(known, "%s%s", known->len ? ", " : "", reg.data[i].name);
  }
  pthread_mutex_unlock(&reg_lock);
  return fn;
}

bool gpu_custom_call_registered(const char *target) { return target && lookup(target, NULL) != NULL; }

void gpu_lower_custom_call(GpuLower *G, Op *op) {
  const char *target = op_attr_str(op, "call_target_name");
  bool tensors = true;
  for (int i = 0; i < op->nopnds; i++) tensors &= op->opnds[i]->type->kind == TY_TENSOR;
  for (int i = 0; i < op->nres; i++) tensors &= op->res[i].type->kind == TY_TENSOR;
  if (!tensors) {
    gpu_unsupported(G, op, "a custom call with token or tuple operands; ");
    return;
  }
  StrBuf known = {0};
  xlac_gpu_custom_call_fn fn = lookup(target, &known);
  if (!fn) {
    error_at(op->loc, "custom_call target '%s' has no gpu implementation (xlac_gpu_custom_call_register; "
             "registered for the gpu: %s)", target ? target : "", known.len ? known.data : "none");
    sb_free(&known);
    G->failed = true;
    return;
  }
  sb_free(&known);
  GpuBuf *bufs;
  int nbufs;
  if (!gpu_op_bufs(G, op, 0, &bufs, &nbufs)) return;
  const Attr *cfg = op_attr(op, "backend_config");
  const char *opaque = cfg && cfg->kind == ATTR_STRING && cfg->s ? cfg->s : "";
  GpuStep st = {0};
  st.kind = STEP_CUSTOM;
  st.op = op;
  st.custom = (void (*)(void))fn;
  st.name = xstrdup(target);
  st.opaque = xstrdup(opaque);
  st.bufs = bufs;
  st.nbufs = nbufs;
  VEC_PUSH(*G->cur, st);
}

bool gpu_run_custom(const GpuStep *st, void *stream, void **ptrs, char **err) {
  xlac_gpu_custom_call_fn fn = (xlac_gpu_custom_call_fn)st->custom;
  xlac_custom_call_status *status = hostcall_status_new();
  fn(stream, ptrs, st->opaque, strlen(st->opaque), status);
  const char *msg = hostcall_status_failure(status);
  if (msg) *err = xasprintf("custom call '%s' failed: %s", st->name, msg);
  hostcall_status_free(status);
  return msg == NULL;
}
