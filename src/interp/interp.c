/*
 * interp.c - the interpreter's core: runtime values, the evaluation loop
 * over blocks, function calls, and the custom-call registry.  The per-op
 * semantics live in the other files of this folder, one family per file.
 */
#include "interp/interp.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ir/verify.h"

/* ---- values ---- */
IVal *ival_tensor(Literal *lit) {
  IVal *v = xcalloc(1, sizeof(IVal));
  v->kind = IV_TENSOR;
  v->refs = 1;
  v->lit = lit;
  return v;
}

IVal *ival_new_tensor(const Type *t) { return ival_tensor(lit_new(t)); }

IVal *ival_tuple(int n, IVal *const *elems) {
  IVal *v = xcalloc(1, sizeof(IVal));
  v->kind = IV_TUPLE;
  v->refs = 1;
  v->n = n;
  v->elems = xcalloc((size_t)(n > 0 ? n : 1), sizeof(IVal *));
  for (int i = 0; i < n; i++) v->elems[i] = ival_retain(elems[i]);
  return v;
}

IVal *ival_token(void) {
  IVal *v = xcalloc(1, sizeof(IVal));
  v->kind = IV_TOKEN;
  v->refs = 1;
  return v;
}

IVal *ival_zero_of_type(const Type *t) {
  switch (t->kind) {
  case TY_TENSOR: return ival_new_tensor(t);
  case TY_TOKEN: return ival_token();
  case TY_FUTURE: return ival_zero_of_type(t->tuple[0]);
  case TY_TUPLE: {
    IVal **e = xcalloc((size_t)(t->ntuple > 0 ? t->ntuple : 1), sizeof(IVal *));
    for (int i = 0; i < t->ntuple; i++) e[i] = ival_zero_of_type(t->tuple[i]);
    IVal *v = ival_tuple(t->ntuple, e);
    for (int i = 0; i < t->ntuple; i++) ival_release(e[i]);
    xfree(e);
    return v;
  }
  }
  return NULL;
}

/* Reference counts are touched from several replica threads when values are
   shared across a grid, so they are atomic. */
IVal *ival_retain(IVal *v) {
  if (v) __atomic_add_fetch(&v->refs, 1, __ATOMIC_RELAXED);
  return v;
}

void ival_release(IVal *v) {
  if (!v) return;
  if (__atomic_sub_fetch(&v->refs, 1, __ATOMIC_ACQ_REL) != 0) return;
  if (v->kind == IV_TENSOR) lit_free(v->lit);
  for (int i = 0; i < v->n; i++) ival_release(v->elems[i]);
  xfree(v->elems);
  xfree(v);
}

void ival_collect_leaves(IVal *v, IVal **out, int *k) {
  if (v && v->kind == IV_TUPLE) {
    for (int i = 0; i < v->n; i++) ival_collect_leaves(v->elems[i], out, k);
  } else {
    out[(*k)++] = v;
  }
}

int ival_leaf_count(const IVal *v) {
  if (!v || v->kind != IV_TUPLE) return 1;
  int n = 0;
  for (int i = 0; i < v->n; i++) n += ival_leaf_count(v->elems[i]);
  return n;
}

IVal *ival_from_leaves(const Type *t, IVal *const *leaves, int *k) {
  if (t->kind != TY_TUPLE) return ival_retain(leaves[(*k)++]);
  IVal **parts = xcalloc((size_t)(t->ntuple + 1), sizeof(IVal *));
  for (int i = 0; i < t->ntuple; i++) parts[i] = ival_from_leaves(t->tuple[i], leaves, k);
  IVal *v = ival_tuple(t->ntuple, parts);
  for (int i = 0; i < t->ntuple; i++) ival_release(parts[i]);
  xfree(parts);
  return v;
}

int type_leaf_count(const Type *t) {
  if (t->kind != TY_TUPLE) return 1;
  int n = 0;
  for (int i = 0; i < t->ntuple; i++) n += type_leaf_count(t->tuple[i]);
  return n;
}

bool ival_equal(const IVal *a, const IVal *b) {
  if (a->kind != b->kind) return false;
  switch (a->kind) {
  case IV_TENSOR: return lit_equal(a->lit, b->lit);
  case IV_TOKEN: return true;
  case IV_TUPLE:
    if (a->n != b->n) return false;
    for (int i = 0; i < a->n; i++)
      if (!ival_equal(a->elems[i], b->elems[i])) return false;
    return true;
  }
  return false;
}

/* ---- custom calls ---- */
typedef struct CustomCall {
  InterpCustomCallFn fn;
  void *user;
} CustomCall;
static StrMap custom_calls;
static pthread_mutex_t custom_calls_lock = PTHREAD_MUTEX_INITIALIZER;

void interp_register_custom_call(const char *target, InterpCustomCallFn fn, void *user) {
  CustomCall *c = xmalloc(sizeof(CustomCall));
  c->fn = fn;
  c->user = user;
  pthread_mutex_lock(&custom_calls_lock);
  xfree(strmap_get(&custom_calls, target));
  strmap_put(&custom_calls, target, c);
  pthread_mutex_unlock(&custom_calls_lock);
}

bool interp_find_custom_call(const char *target, InterpCustomCallFn *fn, void **user);
bool interp_find_custom_call(const char *target, InterpCustomCallFn *fn, void **user) {
  pthread_mutex_lock(&custom_calls_lock);
  CustomCall *c = strmap_get(&custom_calls, target);
  pthread_mutex_unlock(&custom_calls_lock);
  if (!c) return false;
  *fn = c->fn;
  *user = c->user;
  return true;
}

/* ---- errors ---- */
bool interp_error(Interp *I, const Op *op, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  StrBuf b = {0};
  sb_puts(&b, "runtime error: ");
  sb_vprintf(&b, fmt, ap);
  va_end(ap);
  error_at(op ? op->loc : SRCLOC_NONE, "%s", b.data);
  sb_free(&b);
  I->failed = true;
  return false;
}

void interp_init(Interp *I, Module *m, const InterpOptions *opts) {
  memset(I, 0, sizeof *I);
  I->module = m;
  I->opts = opts;
  I->num_replicas = 1;
  I->num_partitions = 1;
}

/* ---- evaluation ---- */
static const InterpOpFn interp_table[OP_COUNT] = {
#define OP(id, name, hlo, flags) [OP_##id] = interp_##id,
#include "ir/ops.def"
#undef OP
};

bool interp_run_op(Interp *I, Op *op, IVal **args, IVal **res) {
  if (!op_keeps_quant(op->kind) && op_has_quant(op))
    return interp_quantized_wrap(I, op, args, res, interp_table[op->kind]);
  return interp_table[op->kind](I, op, args, res);
}

/* Values live in a side table indexed by Value::id, numbered per block on
   first execution.  An environment is a small hash from Value* to IVal*:
   simple and good enough for an oracle. */
typedef struct Env {
  Value **keys;
  IVal **vals;
  int cap, len;
  struct Env *parent; /* enclosing block's environment (regions see outer values) */
} Env;

static size_t env_hash(const Value *v) { return ((uintptr_t)v >> 4) * 0x9E3779B97F4A7C15ull; }

static void env_put(Env *e, Value *k, IVal *v);

static void env_grow(Env *e) {
  Env old = *e;
  e->cap = e->cap ? e->cap * 2 : 64;
  e->keys = xcalloc((size_t)e->cap, sizeof(Value *));
  e->vals = xcalloc((size_t)e->cap, sizeof(IVal *));
  e->len = 0;
  for (int i = 0; i < old.cap; i++)
    if (old.keys[i]) env_put(e, old.keys[i], old.vals[i]);
  xfree(old.keys);
  xfree(old.vals);
}

/* takes ownership of the reference */
static void env_put(Env *e, Value *k, IVal *v) {
  if ((e->len + 1) * 2 > e->cap) env_grow(e);
  size_t i = env_hash(k) & (size_t)(e->cap - 1);
  while (e->keys[i] && e->keys[i] != k) i = (i + 1) & (size_t)(e->cap - 1);
  if (e->keys[i]) {
    ival_release(e->vals[i]);
  } else {
    e->keys[i] = k;
    e->len++;
  }
  e->vals[i] = v;
}

static IVal *env_get(const Env *e, const Value *k) {
  for (; e; e = e->parent) {
    if (!e->cap) continue;
    size_t i = env_hash(k) & (size_t)(e->cap - 1);
    while (e->keys[i]) {
      if (e->keys[i] == k) return e->vals[i];
      i = (i + 1) & (size_t)(e->cap - 1);
    }
  }
  return NULL;
}

static void env_free(Env *e) {
  for (int i = 0; i < e->cap; i++)
    if (e->keys[i]) ival_release(e->vals[i]);
  xfree(e->keys);
  xfree(e->vals);
}

/* The environment of the block being executed on this thread, so that nested
   regions (run through interp_run_block from op functions) can see values
   defined outside them, as MLIR's implicit capture allows. */
static _Thread_local Env *current_env;

void interp_thread_reset(void) { current_env = NULL; }

static bool run_block_in(Interp *I, Block *b, int nargs, IVal **args, IVal **results, Env *parent) {
  Env env = {0};
  env.parent = parent;
  if (nargs != b->nargs) {
    return interp_error(I, b->parent_op, "region expects %d arguments, got %d", b->nargs, nargs);
  }
  for (int i = 0; i < nargs; i++) env_put(&env, b->args[i], ival_retain(args[i]));
  Env *saved = current_env;
  current_env = &env;
  bool ok = true;
  IVal *stack_in[8], *stack_out[8];
  for (Op *op = b->first; op && ok; op = op->next) {
    IVal **in = op->nopnds <= 8 ? stack_in : xcalloc((size_t)op->nopnds, sizeof(IVal *));
    for (int i = 0; i < op->nopnds; i++) {
      in[i] = env_get(&env, op->opnds[i]);
      if (!in[i]) {
        ok = interp_error(I, op, "operand %d has no value (used before definition?)", i);
        break;
      }
    }
    if (ok && op_has_flag(op->kind, OPF_TERM)) {
      for (int i = 0; i < op->nopnds; i++) results[i] = ival_retain(in[i]);
      if (in != stack_in) xfree(in);
      break;
    }
    if (ok) {
      IVal **out = op->nres <= 8 ? stack_out : xcalloc((size_t)op->nres, sizeof(IVal *));
      memset(out, 0, sizeof(IVal *) * (size_t)(op->nres <= 8 ? 8 : op->nres));
      /* an allocation that fails in the op is reported at the op */
      OomLoc prev_loc = oom_set_loc(op->loc, op_info[op->kind].name);
      ok = interp_run_op(I, op, in, out);
      oom_restore_loc(prev_loc);
      for (int i = 0; i < op->nres; i++) {
        if (ok && !out[i]) ok = interp_error(I, op, "result %d was not produced", i);
        if (out[i]) env_put(&env, &op->res[i], out[i]);
      }
      if (out != stack_out) xfree(out);
    }
    if (in != stack_in) xfree(in);
  }
  current_env = saved;
  env_free(&env);
  return ok && !I->failed;
}

bool interp_run_op_captured(Interp *I, Op *op, IVal **args, IVal **res, int ncaps,
                            Value *const *cap_vals, IVal **caps) {
  Env env = {0};
  for (int i = 0; i < ncaps; i++) env_put(&env, cap_vals[i], ival_retain(caps[i]));
  Env *saved = current_env;
  current_env = &env;
  bool ok = interp_run_op(I, op, args, res);
  current_env = saved;
  env_free(&env);
  return ok;
}

bool interp_run_block(Interp *I, Block *b, int nargs, IVal **args, IVal **results) {
  return run_block_in(I, b, nargs, args, results, current_env);
}

bool interp_call(Interp *I, Func *f, int nargs, IVal **args, IVal **results) {
  if (I->depth > XLAC_MAX_CALL_DEPTH) return interp_error(I, NULL, "call depth exceeded calling @%s", f->name);
  I->depth++;
  /* a function body does not see its caller's values */
  Env *saved = current_env;
  current_env = NULL;
  bool ok = run_block_in(I, f->body, nargs, args, results, NULL);
  current_env = saved;
  I->depth--;
  return ok;
}

bool interp_run_scalar_region(Interp *I, Block *b, int nargs, Literal **args, int nres,
                              Literal **res) {
  IVal *in[16], *out[16] = {0};
  if (nargs > 16 || nres > 16) return interp_error(I, b->parent_op, "region has too many values");
  for (int i = 0; i < nargs; i++) in[i] = ival_tensor(lit_clone(args[i]));
  bool ok = interp_run_block(I, b, nargs, in, out);
  for (int i = 0; i < nargs; i++) ival_release(in[i]);
  for (int i = 0; i < nres; i++) {
    res[i] = NULL;
    if (ok && out[i] && out[i]->kind == IV_TENSOR) {
      res[i] = out[i]->lit;
      out[i]->lit = NULL;
      out[i]->kind = IV_TOKEN; /* so release does not free the stolen literal */
    } else if (ok) {
      ok = interp_error(I, b->parent_op, "region did not return a tensor");
    }
    ival_release(out[i]);
  }
  return ok;
}
