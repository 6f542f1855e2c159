/*
 * hostcall.c - the registry of host functions (xlac_custom_call_register
 * and friends), what each custom_call target means, and calling a host
 * function on the buffers of one custom_call (see hostcall.h).
 *
 * The registry is a sorted array of entries under a mutex.  An entry is
 * immutable once published and never freed: replacing a name publishes a
 * new entry that keeps the old one reachable, because an executable
 * compiled earlier holds the old entry and may still call it.
 *
 * Buffers: the interpreter and compiled code both store tensors row-major
 * with one element per byte for the sub-byte types, which is the unpacked
 * host layout xlac.h documents, and xlac_type lists the element types in
 * the order of ir/elemtypes.def; so a host function reads and writes the
 * backends' own storage.  Only a function that asks for another layout
 * (operand_layouts / result_layouts, or the layout of an HLO shape) gets a
 * transposed copy.
 */
#include "interp/hostcall.h"

#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "interp/cplx.h"
#include "interp/lapack.h"
#include "ir/print.h"
#include "ir/rewrite.h"

#undef I /* complex.h's imaginary unit: I is the interpreter here */

/* xlac_type lists elemtypes.def's types in order, from 0 (ElemType starts
   at ET_PRED = 1, after ET_INVALID). */
_Static_assert((int)ET_COUNT - (int)ET_PRED == (int)XLAC_TOKEN, "xlac_type must follow ir/elemtypes.def");
_Static_assert((int)ET_F32 - (int)ET_PRED == (int)XLAC_F32 && (int)ET_F8E8M0FNU - (int)ET_PRED == (int)XLAC_F8E8M0FNU &&
                   (int)ET_C128 - (int)ET_PRED == (int)XLAC_C128,
               "xlac_type must follow ir/elemtypes.def");
static xlac_type xtype(ElemType et) { return (xlac_type)((int)et - (int)ET_PRED); }
static ElemType etype(xlac_type t) { return (ElemType)((int)t + (int)ET_PRED); }

/* ---- the registry ---- */

struct HostFn {
  char *name;
  int api; /* 0: typed (xlac_custom_call_fn); else an xlac_custom_call_api */
  xlac_custom_call_fn typed;
  void *classic;
  void *user;
  struct HostFn *replaced; /* the entry this one replaced: still callable */
};

struct xlac_custom_call_status {
  bool failed;
  char *msg;
};

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static HostFn **reg; /* sorted by name */
static int nreg, reg_cap;

/* Index of name in reg, or where it would go (*found says which). */
static int reg_search(const char *name, bool *found) {
  int lo = 0, hi = nreg;
  while (lo < hi) {
    int mid = lo + (hi - lo) / 2;
    int c = strcmp(reg[mid]->name, name);
    if (c == 0) {
      *found = true;
      return mid;
    }
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  *found = false;
  return lo;
}

static const HostFn *reg_lookup(const char *name) {
  pthread_mutex_lock(&reg_lock);
  bool found;
  int i = reg_search(name, &found);
  const HostFn *h = found ? reg[i] : NULL;
  pthread_mutex_unlock(&reg_lock);
  return h;
}

/* ---- what a target means ---- */

typedef struct Builtin {
  const char *name;
  HostTarget kind;
} Builtin;

/* Targets with a meaning of their own; they cannot be registered. */
static const Builtin builtins[] = {
    {"TopK", HOST_TOPK},
    /* sharding and memory-space annotations: on one device, and for the
       values a program computes, they change nothing */
    {"Sharding", HOST_IDENTITY},
    {"SPMDFullToShardShape", HOST_IDENTITY},
    {"SPMDShardToFullShape", HOST_IDENTITY},
    {"xla.sdy.GlobalToLocalShape", HOST_IDENTITY},
    {"xla.sdy.LocalToGlobalShape", HOST_IDENTITY},
    {"xla.sdy.FuncResultSharding", HOST_IDENTITY},
    {"annotate_device_placement", HOST_IDENTITY},
    {"MoveToHost", HOST_IDENTITY},
    {"MoveToDevice", HOST_IDENTITY},
    {"LayoutConstraint", HOST_IDENTITY},
    {"shape_assertion", HOST_SHAPE_ASSERTION},
    {"AllocateBuffer", HOST_ALLOCATE},
    {"InspectSharding", HOST_NOOP},
    /* jax.lax's dce_sink: an effect that keeps its operands alive */
    {"dce_sink", HOST_NOOP},
    /* what JAX's QR lowers to on platforms without LAPACK (XLA expands
       both into loops of Householder reflections) */
    {"Qr", HOST_QR},
    {"ProductOfElementaryHouseholderReflectors", HOST_HOUSEHOLDER},
    /* and what JAX's eigh written in JAX (QDWH) ends in for small blocks */
    {"Eigh", HOST_EIGH},
};

static HostTarget builtin_kind(const char *target) {
  for (size_t i = 0; i < ARRAY_LEN(builtins); i++)
    if (strcmp(builtins[i].name, target) == 0) return builtins[i].kind;
  /* the LAPACK routines JAX's CPU lowerings call (lapack_sgeev_ffi, ...) */
  if (lapack_is_target(target)) return HOST_LAPACK;
  return HOST_UNKNOWN;
}

static bool reserved(const char *target) {
  return strncmp(target, "check.", 6) == 0 || builtin_kind(target) != HOST_UNKNOWN;
}

HostTarget hostcall_classify(const char *target, const HostFn **fn) {
  if (fn) *fn = NULL;
  if (!target) return HOST_UNKNOWN;
  if (strncmp(target, "check.", 6) == 0) return HOST_CHECK;
  HostTarget k = builtin_kind(target);
  if (k == HOST_TOPK) return k;
  InterpCustomCallFn ifn;
  void *user;
  if (interp_find_custom_call(target, &ifn, &user)) return HOST_INTERP;
  if (k != HOST_UNKNOWN) return k;
  const HostFn *h = reg_lookup(target);
  if (!h) return HOST_UNKNOWN;
  if (fn) *fn = h;
  return HOST_FUNCTION;
}

/* The families of targets JAX emits that xlac does not implement, with
   what they are; the message for an unregistered target names the family
   so that the user knows where the call came from. */
typedef struct Family {
  const char *pat;
  bool prefix;
  const char *what;
} Family;

#define F_PYTHON                                                                                         \
  "a callback into the Python process that traced the program (jax.pure_callback, jax.debug.print, " \
  "io_callback) cannot run outside JAX"
#define F_DEVICE "a GPU or TPU kernel; export the program for the CPU platform instead"
#define F_APPROX "approximate top-k with a dynamic k, or in TPU form, is not supported; ApproxTopK (jax.lax.approx_max_k / approx_min_k) and jax.lax.top_k are"

static const Family families[] = {
    {"lapack_", true,
     "this LAPACK call from jnp.linalg / jax.scipy.linalg is not supported (xlac implements the _ffi targets of "
     "geev, gees, gehrd, geqp3, sytrd/hetrd, gtsv, gesdd, gesvd and getrf)"},
    {"blas_", true, "BLAS calls (jax.lax.linalg.triangular_solve in older JAX) are not supported"},
    {"ducc_fft", false, "the CPU FFT of older JAX releases is not supported (newer ones emit stablehlo.fft)"},
    {"dynamic_ducc_fft", false, "the CPU FFT of older JAX releases is not supported (newer ones emit stablehlo.fft)"},
    {"xla_python_cpu_callback", false, F_PYTHON},
    {"xla_ffi_python_cpu_callback", false, F_PYTHON},
    {"xla_ffi_partitioned_python_cpu_callback", false, F_PYTHON},
    {"xla_python_gpu_callback", false, F_PYTHON},
    {"xla_ffi_python_gpu_callback", false, F_PYTHON},
    {"PartialReduce", false, F_APPROX},
    {"stablehlo.dynamic_approx_top_k", false, F_APPROX},
    {"stablehlo.dynamic_", true, "StableHLO's experimental dynamic-shape ops are not supported; export with static shapes"},
    {"mhlo.", true,
     "MHLO ops carried as custom calls (by an MHLO-to-StableHLO conversion) are not supported; "
     "give xlac the StableHLO or CHLO op itself"},
    {"tf.call_tf_function", false, "calls into TensorFlow (jax2tf.call_tf) are not supported"},
    {"cu_", true, F_DEVICE},
    {"cusolver_", true, F_DEVICE},
    {"cublas", true, F_DEVICE},
    {"cusparse", true, F_DEVICE},
    {"hip_", true, F_DEVICE},
    {"hipsolver_", true, F_DEVICE},
    {"hipblas", true, F_DEVICE},
    {"hipsparse", true, F_DEVICE},
    {"__gpu$", true, F_DEVICE},
    {"__cudnn$", true, F_DEVICE},
    {"mosaic_gpu", true, F_DEVICE},
    {"triton_kernel_call", false, F_DEVICE},
    {"tpu_custom_call", false, F_DEVICE},
    {"LuDecomposition", false, F_DEVICE},
};

static const char *family_of(const char *target) {
  for (size_t i = 0; i < ARRAY_LEN(families); i++) {
    const Family *f = &families[i];
    if (f->prefix ? strncmp(target, f->pat, strlen(f->pat)) == 0 : strcmp(target, f->pat) == 0) return f->what;
  }
  return NULL;
}

static char *unknown_message(const char *target) {
  StrBuf b = {0};
  const char *what = family_of(target);
  if (what)
    sb_printf(&b, "custom_call @%s: %s; a host function registered under this name would be called instead", target,
              what);
  else
    sb_printf(&b, "no implementation for custom_call target '%s': no host function is registered under this name",
              target);
  char *list = xlac_custom_call_list();
  sb_printf(&b, " (registered: %s)", list && *list ? list : "none");
  xfree(list);
  return sb_take(&b);
}

static char *type_text(const Type *t) {
  StrBuf b = {0};
  type_print_mlir(&b, t);
  return sb_take(&b);
}

static bool is_int_scalar(const Type *t) {
  return t->kind == TY_TENSOR && !t->quant && et_is_int(t->elem) && type_num_elements(t) == 1;
}

char *hostcall_problem(const Op *op) {
  const char *t = op_attr_str(op, "call_target_name");
  if (!t) return xstrdup("custom_call has no call_target_name");
  const HostFn *fn;
  HostTarget kind = hostcall_classify(t, &fn);
  switch (kind) {
  case HOST_UNKNOWN:
    return unknown_message(t);
  case HOST_IDENTITY:
    if (op->nres != op->nopnds)
      return xasprintf("custom_call @%s passes its operands through: it needs as many results as operands, got %d and %d",
                     t, op->nres, op->nopnds);
    for (int i = 0; i < op->nres; i++)
      if (!type_equal(op->opnds[i]->type, op->res[i].type)) {
        char *a = type_text(op->opnds[i]->type), *r = type_text(op->res[i].type);
        char *m = xasprintf("custom_call @%s turns operand #%d of type %s into %s: that takes XLA's SPMD partitioner, "
                          "which xlac does not have (it runs a program on one partition, where the types agree)",
                          t, i, a, r);
        xfree(a);
        xfree(r);
        return m;
      }
    return NULL;
  case HOST_SHAPE_ASSERTION: {
    bool ok = op->nres == 0 && op->nopnds >= 1 && op->opnds[0]->type->kind == TY_TENSOR &&
              op->opnds[0]->type->elem == ET_PRED;
    for (int i = 1; ok && i < op->nopnds; i++) ok = is_int_scalar(op->opnds[i]->type);
    if (!ok)
      return xasprintf("custom_call @%s takes a predicate tensor and integer scalars (the values its error message "
                     "shows) and has no results",
                     t);
    return NULL;
  }
  case HOST_ALLOCATE:
    if (op->nopnds != 0 || op->nres != 1 || op->res[0].type->kind != TY_TENSOR)
      return xasprintf("custom_call @%s takes no operands and has one tensor result", t);
    return NULL;
  case HOST_NOOP:
    /* JAX's InspectSharding in a program over several devices returns its
       operand (the sharding it reports was taken when the program was
       partitioned) */
    if (op->nres != 0 && !(op->nres == 1 && op->nopnds == 1 && type_equal(op->opnds[0]->type, op->res[0].type)))
      return xasprintf("custom_call @%s has no results, or returns its one operand", t);
    return NULL;
  case HOST_FUNCTION: {
    char *err = NULL;
    HostCallSite *s = hostcall_site_new(op, fn, &err);
    hostcall_site_free(s);
    return err;
  }
  case HOST_QR:
  case HOST_HOUSEHOLDER: {
    /* Qr: a [..., m, n] -> (a with R above and the reflectors below its
       diagonal, taus [..., min(m, n)]); the product: (that a, taus) -> Q
       [..., m, n], n <= m */
    bool qr = kind == HOST_QR;
    const Type *a = op->nopnds >= 1 ? op->opnds[0]->type : NULL;
    bool ok = a && a->kind == TY_TENSOR && a->rank >= 2 && op->nopnds == (qr ? 1 : 2) && op->nres == (qr ? 2 : 1) &&
              (et_class(a->elem) == EC_FLOAT || et_class(a->elem) == EC_COMPLEX) && type_equal(op->res[0].type, a);
    int64_t m = ok ? a->dims[a->rank - 2] : 0, n = ok ? a->dims[a->rank - 1] : 0;
    const Type *tau = ok ? (qr ? op->res[1].type : op->opnds[1]->type) : NULL;
    ok = ok && tau->kind == TY_TENSOR && tau->elem == a->elem && tau->rank == a->rank - 1 && (qr || n <= m);
    for (int i = 0; ok && i < a->rank - 2; i++) ok = tau->dims[i] == a->dims[i];
    ok = ok && (qr ? tau->dims[tau->rank - 1] == (m < n ? m : n) : tau->dims[tau->rank - 1] <= n);
    if (!ok)
      return xasprintf(qr ? "custom_call @%s takes a float or complex matrix (or a batch of them) and gives it back "
                            "with the taus of its reflectors (one per row or column, the fewer)"
                          : "custom_call @%s takes a float or complex matrix (or a batch) of m x n, n <= m, and the "
                            "taus of at most n of its reflectors, and gives a matrix of the same type",
                       t);
    return NULL;
  }
  case HOST_EIGH: {
    /* a [..., n, n] (its lower or upper triangle) -> (eigenvectors as
       columns [..., n, n], eigenvalues [..., n] of the real type) */
    const Type *a = op->nopnds == 1 ? op->opnds[0]->type : NULL;
    bool ok = a && op->nres == 2 && a->kind == TY_TENSOR && a->rank >= 2 &&
              a->dims[a->rank - 1] == a->dims[a->rank - 2] &&
              (et_class(a->elem) == EC_FLOAT || et_class(a->elem) == EC_COMPLEX) && type_equal(op->res[0].type, a);
    const Type *w = ok ? op->res[1].type : NULL;
    ok = ok && w->kind == TY_TENSOR && w->rank == a->rank - 1 &&
         w->elem == (et_class(a->elem) == EC_COMPLEX ? et_real_part(a->elem) : a->elem);
    for (int i = 0; ok && i < w->rank; i++) ok = w->dims[i] == a->dims[i];
    if (!ok)
      return xasprintf("custom_call @%s takes a square float or complex matrix (or a batch) and gives its "
                       "eigenvectors (same type) and eigenvalues (the real type, one per row)", t);
    return NULL;
  }
  case HOST_LAPACK:
    return lapack_problem(op, t);
  case HOST_CHECK:
  case HOST_TOPK:
  case HOST_INTERP:
    return NULL;
  }
  return NULL;
}

typedef struct Reach {
  Module *m;
  PtrMap seen;
  VEC(Func *) todo;
  Func *cur; /* the function being walked */
  void (*each)(Op *op, Func *in, void *ud);
  void *ud;
  bool ok;
  bool check; /* report the targets that cannot run (else only visit) */
} Reach;

/* Functions named by an attribute are checked too. */
static void note_funcs(Reach *r, const Attr *a) {
  if (a->kind == ATTR_ARRAY) {
    for (int i = 0; i < a->n; i++) note_funcs(r, a->elems[i]);
    return;
  }
  if (a->kind != ATTR_SYMBOL || !a->s) return;
  Func *g = module_find_func(r->m, a->s[0] == '@' ? a->s + 1 : a->s);
  if (g && !ptrmap_has(&r->seen, g)) {
    ptrmap_put(&r->seen, g, (void *)1);
    VEC_PUSH(r->todo, g);
  }
}

static bool check_op(Op *op, void *ud) {
  Reach *r = ud;
  for (int i = 0; i < op->nattrs; i++) note_funcs(r, op->attrs[i].attr);
  if (op->kind != OP_CUSTOM_CALL) return true;
  char *why = r->check ? hostcall_problem(op) : NULL;
  if (why) {
    error_at(op->loc, "%s", why);
    xfree(why);
    r->ok = false;
  } else if (r->each) {
    r->each(op, r->cur, r->ud);
  }
  return true;
}

static bool walk_reachable(Module *m, Func *f, bool check, void (*each)(Op *op, Func *in, void *ud), void *ud) {
  Reach r;
  memset(&r, 0, sizeof r);
  r.check = check;
  r.m = m;
  r.each = each;
  r.ud = ud;
  r.ok = true;
  ptrmap_put(&r.seen, f, (void *)1);
  VEC_PUSH(r.todo, f);
  for (int i = 0; i < r.todo.len; i++) {
    r.cur = r.todo.data[i];
    block_walk(r.cur->body, check_op, &r);
  }
  ptrmap_free(&r.seen);
  VEC_FREE(r.todo);
  return r.ok;
}

bool hostcall_check_reachable(Module *m, Func *f, void (*each)(Op *op, Func *in, void *ud), void *ud) {
  return walk_reachable(m, f, true, each, ud);
}

void hostcall_walk_reachable(Module *m, Func *f, void (*each)(Op *op, Func *in, void *ud), void *ud) {
  walk_reachable(m, f, false, each, ud);
}

/* ---- call sites ---- */

struct HostCallSite {
  const Op *op;
  const HostFn *fn;
  const char *target;     /* the op's attribute (the module outlives the site) */
  int nargs, nres;
  xlac_ffi_buffer *bufs;  /* operands then results; data is set per call */
  size_t *bytes;          /* each buffer's size */
  int64_t **layout;       /* minor-to-major the function expects, or NULL for row-major */
  int64_t *dims;          /* storage of every buffer's dims */
  char *config;
  size_t config_len;
  char *attrs;
};

typedef VEC(const Type *) TypeVec;

static void leaf_types(const Type *t, TypeVec *out) {
  if (t->kind == TY_TUPLE) {
    for (int i = 0; i < t->ntuple; i++) leaf_types(t->tuple[i], out);
  } else {
    VEC_PUSH(*out, t);
  }
}

/* The layout a function expects for leaf i of one side: from the op's
   `<side>_layouts` attribute when it has one (one entry per operand, no
   tuples), else from the leaf type's HLO layout.  NULL for row-major;
   *err when the attribute is malformed. */
static int64_t *leaf_layout(const Op *op, const char *attr, bool has_tuples, int i, const Type *t, char **err) {
  const int64_t *m2m = NULL;
  int n = 0;
  Attr *a = op_attr(op, attr);
  if (a) {
    int64_t *v = NULL;
    int count = a->kind == ATTR_ARRAY ? a->n : -1;
    bool operands = strcmp(attr, "operand_layouts") == 0;
    int want = operands ? op->nopnds : op->nres;
    if (has_tuples || count != want) {
      *err = xasprintf("custom_call @%s: '%s' must have one layout per %s%s", op_attr_str(op, "call_target_name"),
                     attr, operands ? "operand" : "result", has_tuples ? " (and no tuples)" : "");
      return NULL;
    }
    if (!attr_get_ints(a->elems[i], &v, &n)) n = -1;
    m2m = v;
  } else if (t->kind == TY_TENSOR && t->layout) {
    m2m = t->layout;
    n = t->rank;
  } else {
    return NULL;
  }
  int rank = t->kind == TY_TENSOR ? t->rank : 0;
  if (n != rank || !ints_in_range(m2m, n, rank) || !ints_distinct(m2m, n)) {
    *err = xasprintf("custom_call @%s: the layout of %s #%d is not a permutation of its %d dimensions",
                   op_attr_str(op, "call_target_name"), strcmp(attr, "operand_layouts") == 0 ? "operand" : "result",
                   i, rank);
    return NULL;
  }
  bool row_major = true;
  for (int d = 0; d < n; d++) row_major = row_major && m2m[d] == rank - 1 - d;
  if (row_major) return NULL;
  int64_t *copy = xmalloc(sizeof(int64_t) * (size_t)n);
  memcpy(copy, m2m, sizeof(int64_t) * (size_t)n);
  return copy;
}

/* The backend_config as the function sees it: a string's bytes, HLO's
   unparsed text as it was written, anything else as MLIR text. */
static void read_config(const Op *op, HostCallSite *s) {
  Attr *a = op_attr(op, "backend_config");
  if (!a) {
    s->config = xstrdup("");
    s->config_len = 0;
  } else if (a->kind == ATTR_STRING || a->kind == ATTR_OPAQUE) {
    s->config = xstrndup(a->s ? a->s : "", a->s ? a->slen : 0);
    s->config_len = a->s ? a->slen : 0;
  } else {
    StrBuf b = {0};
    print_attr_mlir(&b, a);
    s->config_len = b.len;
    s->config = sb_take(&b);
  }
}

/* Every other attribute, printed as one MLIR dictionary by the module
   printer's own attribute printer. */
static char *attributes_text(const Op *op) {
  const char **keys = xcalloc((size_t)op->nattrs + 1, sizeof(char *));
  Attr **elems = xcalloc((size_t)op->nattrs + 1, sizeof(Attr *));
  int n = 0;
  for (int i = 0; i < op->nattrs; i++) {
    const char *k = op->attrs[i].name;
    if (strcmp(k, "call_target_name") == 0 || strcmp(k, "backend_config") == 0) continue;
    keys[n] = k;
    elems[n++] = op->attrs[i].attr;
  }
  Attr dict;
  memset(&dict, 0, sizeof dict);
  dict.kind = ATTR_DICT;
  dict.n = n;
  dict.keys = keys;
  dict.elems = elems;
  StrBuf b = {0};
  print_attr_mlir(&b, &dict);
  xfree(keys);
  xfree(elems);
  return sb_take(&b);
}

HostCallSite *hostcall_site_new(const Op *op, const HostFn *fn, char **err) {
  *err = NULL;
  TypeVec leaves = {0};
  bool arg_tuples = false, res_tuples = false;
  for (int i = 0; i < op->nopnds; i++) {
    arg_tuples = arg_tuples || op->opnds[i]->type->kind == TY_TUPLE;
    leaf_types(op->opnds[i]->type, &leaves);
  }
  int nargs = leaves.len;
  for (int i = 0; i < op->nres; i++) {
    res_tuples = res_tuples || op->res[i].type->kind == TY_TUPLE;
    leaf_types(op->res[i].type, &leaves);
  }
  int n = leaves.len;
  HostCallSite *s = xcalloc(1, sizeof *s);
  s->op = op;
  s->fn = fn;
  s->target = op_attr_str(op, "call_target_name");
  s->nargs = nargs;
  s->nres = n - nargs;
  s->bufs = xcalloc((size_t)n + 1, sizeof(xlac_ffi_buffer));
  s->bytes = xcalloc((size_t)n + 1, sizeof(size_t));
  s->layout = xcalloc((size_t)n + 1, sizeof(int64_t *));
  int ndims = 0;
  for (int i = 0; i < n; i++) ndims += leaves.data[i]->kind == TY_TENSOR ? leaves.data[i]->rank : 0;
  s->dims = xcalloc((size_t)ndims + 1, sizeof(int64_t));
  ndims = 0;
  for (int i = 0; i < n && !*err; i++) {
    const Type *t = leaves.data[i];
    xlac_ffi_buffer *b = &s->bufs[i];
    b->dims = s->dims + ndims;
    if (t->kind == TY_TENSOR) {
      b->type = xtype(t->elem);
      b->rank = t->rank;
      memcpy(s->dims + ndims, t->dims, sizeof(int64_t) * (size_t)t->rank);
      ndims += t->rank;
      s->bytes[i] = (size_t)type_num_elements(t) * (size_t)et_bytes(t->elem);
    } else if (t->kind == TY_TOKEN) {
      b->type = XLAC_TOKEN;
    } else {
      char *tt = type_text(t);
      *err = xasprintf("custom_call @%s: a host function cannot take or return %s", s->target, tt);
      xfree(tt);
      break;
    }
    bool is_arg = i < nargs;
    s->layout[i] = leaf_layout(op, is_arg ? "operand_layouts" : "result_layouts", is_arg ? arg_tuples : res_tuples,
                               is_arg ? i : i - nargs, t, err);
  }
  VEC_FREE(leaves);
  if (*err) {
    hostcall_site_free(s);
    return NULL;
  }
  read_config(op, s);
  s->attrs = attributes_text(op);
  return s;
}

void hostcall_site_free(HostCallSite *s) {
  if (!s) return;
  for (int i = 0; i < s->nargs + s->nres; i++) xfree(s->layout[i]);
  xfree(s->layout);
  xfree(s->bufs);
  xfree(s->bytes);
  xfree(s->dims);
  xfree(s->config);
  xfree(s->attrs);
  xfree(s);
}

int hostcall_site_nargs(const HostCallSite *s) { return s->nargs; }
int hostcall_site_nresults(const HostCallSite *s) { return s->nres; }

/* Copies a row-major array into the layout minor-to-major m2m (to_layout)
   or back out of it. */
static void relayout(char *dst, const char *src, const xlac_ffi_buffer *b, size_t eb, const int64_t *m2m,
                     bool to_layout) {
  int r = b->rank;
  int64_t stride[64], idx[64] = {0};
  if (r > 64) return; /* the verifier's rank limit is far lower */
  int64_t s = 1;
  for (int k = 0; k < r; k++) {
    stride[m2m[k]] = s;
    s *= b->dims[m2m[k]];
  }
  if (s == 0) return;
  for (int64_t i = 0; i < s; i++) {
    int64_t off = 0;
    for (int d = 0; d < r; d++) off += idx[d] * stride[d];
    if (to_layout)
      memcpy(dst + (size_t)off * eb, src + (size_t)i * eb, eb);
    else
      memcpy(dst + (size_t)i * eb, src + (size_t)off * eb, eb);
    for (int d = r - 1; d >= 0; d--) {
      if (++idx[d] < b->dims[d]) break;
      idx[d] = 0;
    }
  }
}

typedef void (*ClassicFn)(void *out, const void **in);
typedef void (*ClassicStatusFn)(void *out, const void **in, const char *opaque, size_t opaque_len,
                                xlac_custom_call_status *status);

/* Calls the function on bufs (data filled in); a heap message on failure. */
static char *invoke(const HostCallSite *s, const Interp *I, xlac_ffi_buffer *bufs, void **data) {
  const HostFn *h = s->fn;
  if (h->api == 0) {
    xlac_ffi_call c;
    memset(&c, 0, sizeof c);
    c.struct_size = sizeof c;
    c.target = s->target;
    c.num_args = s->nargs;
    c.args = bufs;
    c.num_results = s->nres;
    c.results = bufs + s->nargs;
    c.backend_config = s->config;
    c.backend_config_len = s->config_len;
    c.attributes = s->attrs;
    c.replica_id = I->replica_id;
    c.partition_id = I->partition_id;
    xlac_status *st = h->typed(h->user, &c);
    if (!st) return NULL;
    char *m = xstrdup(*xlac_status_message(st) ? xlac_status_message(st) : "(no message)");
    xlac_status_destroy(st);
    return m;
  }
  /* XLA's classic convention: one result is passed as its data pointer,
     several as an array of them */
  void *out = s->nres == 1 ? data[s->nargs] : s->nres > 1 ? (void *)(data + s->nargs) : NULL;
  const void **in = (const void **)data;
  if (h->api == XLAC_CUSTOM_CALL_CLASSIC) {
    ((ClassicFn)h->classic)(out, in);
    return NULL;
  }
  xlac_custom_call_status st = {false, NULL};
  ((ClassicStatusFn)h->classic)(out, in, s->config, s->config_len, &st);
  if (!st.failed) return NULL;
  char *m = xstrdup(st.msg && *st.msg ? st.msg : "(no message)");
  xfree(st.msg);
  return m;
}

bool hostcall_site_run(Interp *I, const HostCallSite *s, void *const *ptrs) {
  int n = s->nargs + s->nres;
  xlac_ffi_buffer *bufs = xcalloc((size_t)n + 1, sizeof(xlac_ffi_buffer));
  void **data = xcalloc((size_t)n + 1, sizeof(void *));
  void **scratch = xcalloc((size_t)n + 1, sizeof(void *));
  memcpy(bufs, s->bufs, sizeof(xlac_ffi_buffer) * (size_t)n);
  char *err = NULL;
  for (int i = 0; i < n && !err; i++) {
    data[i] = ptrs[i];
    if (s->layout[i] && s->bytes[i]) {
      /* try_aligned_alloc: generated code, which calls this, cannot unwind */
      scratch[i] = try_aligned_alloc(64, s->bytes[i]);
      if (!scratch[i]) {
        err = xasprintf("out of memory: %zu bytes to change the layout of a buffer", s->bytes[i]);
        break;
      }
      size_t eb = (size_t)et_bytes(etype(s->bufs[i].type));
      if (i < s->nargs) relayout(scratch[i], ptrs[i], &s->bufs[i], eb, s->layout[i], true);
      data[i] = scratch[i];
    }
    bufs[i].data = data[i];
  }
  if (!err) err = invoke(s, I, bufs, data);
  for (int i = s->nargs; i < n; i++)
    if (scratch[i] && !err)
      relayout(ptrs[i], scratch[i], &s->bufs[i], (size_t)et_bytes(etype(s->bufs[i].type)), s->layout[i], false);
  for (int i = 0; i < n; i++) xfree(scratch[i]);
  xfree(scratch);
  xfree(data);
  xfree(bufs);
  if (!err) return true;
  interp_error(I, s->op, "custom_call @%s failed: %s", s->target, err);
  xfree(err);
  return false;
}

/* ---- the interpreter's part ---- */

static bool call_host(Interp *I, Op *op, const HostFn *fn, IVal **args, IVal **res) {
  char *err = NULL;
  HostCallSite *s = hostcall_site_new(op, fn, &err);
  if (!s) {
    interp_error(I, op, "%s", err);
    xfree(err);
    return false;
  }
  int nin = 0;
  for (int i = 0; i < op->nopnds; i++) nin += ival_leaf_count(args[i]);
  IVal **in = xcalloc((size_t)nin + 1, sizeof(IVal *));
  int kin = 0;
  for (int i = 0; i < op->nopnds; i++) ival_collect_leaves(args[i], in, &kin);
  int n = s->nargs + s->nres;
  void **ptrs = xcalloc((size_t)n + 1, sizeof(void *));
  IVal **out = xcalloc((size_t)s->nres + 1, sizeof(IVal *));
  bool ok = nin == s->nargs;
  for (int i = 0; ok && i < s->nargs; i++) {
    IVal *v = in[i];
    /* the values must be what the op's types say (the verifier checked
       the program, but the interpreter does not trust its callers) */
    ok = v->kind == (s->bufs[i].type == XLAC_TOKEN ? IV_TOKEN : IV_TENSOR) &&
         (v->kind == IV_TOKEN || (size_t)v->lit->n * (size_t)et_bytes(lit_elem(v->lit)) == s->bytes[i]);
    ptrs[i] = v->kind == IV_TENSOR ? v->lit->data : NULL;
  }
  if (!ok) {
    ok = interp_error(I, op, "custom_call @%s: the operands do not match the op's operand types", s->target);
  } else {
    TypeVec rt = {0};
    for (int i = 0; i < op->nres; i++) leaf_types(op->res[i].type, &rt);
    for (int i = 0; i < s->nres; i++) {
      out[i] = ival_zero_of_type(rt.data[i]);
      ptrs[s->nargs + i] = out[i]->kind == IV_TENSOR ? out[i]->lit->data : NULL;
    }
    VEC_FREE(rt);
    ok = hostcall_site_run(I, s, ptrs);
    int k = 0;
    for (int i = 0; ok && i < op->nres; i++) res[i] = ival_from_leaves(op->res[i].type, out, &k);
  }
  for (int i = 0; i < s->nres; i++) ival_release(out[i]);
  xfree(out);
  xfree(ptrs);
  xfree(in);
  hostcall_site_free(s);
  return ok;
}

/* JAX's shape_assertion(pred, values...) {error_message = "... {0} ..."}:
   fails with the message, {i} replaced by the i-th value, unless every
   element of pred is true. */
static bool shape_assertion(Interp *I, Op *op, IVal **args) {
  const Literal *p = args[0]->lit;
  bool holds = true;
  for (int64_t k = 0; k < p->n && holds; k++) holds = lit_get_b(p, k);
  if (holds) return true;
  const char *fmt = op_attr_str(op, "error_message");
  if (!fmt) fmt = "shape assertion failed";
  StrBuf b = {0};
  for (const char *c = fmt; *c; c++) {
    char *end;
    if (*c == '{' && c[1] >= '0' && c[1] <= '9') {
      long i = strtol(c + 1, &end, 10);
      if (*end == '}' && i >= 0 && i + 1 < op->nopnds) {
        sb_printf(&b, "%lld", (long long)lit_get_i(args[i + 1]->lit, 0));
        c = end;
        continue;
      }
    }
    sb_putc(&b, *c);
  }
  interp_error(I, op, "custom_call @shape_assertion: %s", b.data ? b.data : "");
  sb_free(&b);
  return false;
}

/* ---- Householder QR (Qr, ProductOfElementaryHouseholderReflectors) ----
 * LAPACK's conventions, which JAX's CPU backend follows: column j's
 * reflector is H = I - tau v v^H with v[j] = 1 and v below the diagonal
 * stored in place of the zeros it makes; R is on and above the diagonal;
 * Q = H_0 H_1 ... H_{k-1}.  Computed in double (complex) precision and
 * rounded once when stored. */

typedef double complex zdbl;

/* (lit_get_c and lit_set_c read and store real types too) */
static void read_matrix(const Literal *l, int64_t off, int64_t n, zdbl *out) {
  for (int64_t i = 0; i < n; i++) {
    double re, im;
    lit_get_c(l, off + i, &re, &im);
    out[i] = cplx_make(re, im);
  }
}

static void write_matrix(Literal *l, int64_t off, int64_t n, const zdbl *v) {
  for (int64_t i = 0; i < n; i++) lit_set_c(l, off + i, creal(v[i]), cimag(v[i]));
}

/* geqrf of the m x n row-major a, in place; taus[min(m, n)]. */
static void geqrf(zdbl *a, int64_t m, int64_t n, zdbl *taus) {
  int64_t k = m < n ? m : n;
  for (int64_t j = 0; j < k; j++) {
    zdbl alpha = a[j * n + j];
    double xnorm2 = 0;
    for (int64_t i = j + 1; i < m; i++) xnorm2 += creal(a[i * n + j] * conj(a[i * n + j]));
    if (xnorm2 == 0 && cimag(alpha) == 0) {
      taus[j] = 0;
      continue;
    }
    double beta = -copysign(sqrt(creal(alpha * conj(alpha)) + xnorm2), creal(alpha));
    zdbl tau = (beta - alpha) / beta, scale = 1 / (alpha - beta);
    for (int64_t i = j + 1; i < m; i++) a[i * n + j] *= scale;
    a[j * n + j] = beta;
    taus[j] = tau;
    /* the trailing columns: H^H applied from the left */
    for (int64_t c = j + 1; c < n; c++) {
      zdbl w = a[j * n + c];
      for (int64_t i = j + 1; i < m; i++) w += conj(a[i * n + j]) * a[i * n + c];
      w *= conj(tau);
      a[j * n + c] -= w;
      for (int64_t i = j + 1; i < m; i++) a[i * n + c] -= a[i * n + j] * w;
    }
  }
}

/* orgqr: the m x n Q of the reflectors in a (m x n) and taus[k]. */
static void orgqr(const zdbl *a, int64_t m, int64_t n, const zdbl *taus, int64_t k, zdbl *q) {
  for (int64_t i = 0; i < m; i++)
    for (int64_t c = 0; c < n; c++) q[i * n + c] = i == c;
  for (int64_t j = k - 1; j >= 0; j--) {
    zdbl tau = taus[j];
    for (int64_t c = j; c < n; c++) {
      zdbl w = q[j * n + c];
      for (int64_t i = j + 1; i < m; i++) w += conj(a[i * n + j]) * q[i * n + c];
      w *= tau;
      q[j * n + c] -= w;
      for (int64_t i = j + 1; i < m; i++) q[i * n + c] -= a[i * n + j] * w;
    }
  }
}

static bool householder(Op *op, bool qr, IVal **args, IVal **res) {
  const Literal *a = args[0]->lit;
  const Type *at = a->type;
  int64_t m = at->dims[at->rank - 2], n = at->dims[at->rank - 1], mn = m * n;
  int64_t batch = mn ? a->n / mn : 0;
  Literal *out = lit_new(op->res[0].type);
  const Type *tt = qr ? op->res[1].type : args[1]->lit->type;
  int64_t k = tt->dims[tt->rank - 1];
  Literal *taus = qr ? lit_new(tt) : NULL;
  zdbl *buf = xmalloc(sizeof(zdbl) * (size_t)(2 * mn + k + 1));
  zdbl *q = buf + mn, *tv = buf + 2 * mn;
  for (int64_t b = 0; b < batch; b++) {
    read_matrix(a, b * mn, mn, buf);
    if (qr) {
      geqrf(buf, m, n, tv);
      write_matrix(out, b * mn, mn, buf);
      write_matrix(taus, b * k, k, tv);
    } else {
      read_matrix(args[1]->lit, b * k, k, tv);
      orgqr(buf, m, n, tv, k, q);
      write_matrix(out, b * mn, mn, q);
    }
  }
  xfree(buf);
  res[0] = ival_tensor(out);
  if (qr) res[1] = ival_tensor(taus);
  return true;
}

/* ---- Jacobi eigendecomposition (Eigh) ----
 * Cyclic sweeps of unitary rotations J, each zeroing one off-diagonal
 * pair of the Hermitian a (a <- J^H a J) and accumulated into v (v <- v
 * J), until what is off the diagonal is below a double's rounding of the
 * whole.  With a[p][q] = g e^(i phi), J is the plane rotation (c, s) of
 * the real symmetric [[a_pp, g], [g, a_qq]] after the phase
 * diag(1, e^(-i phi)): J_pp = c, J_pq = s, J_qp = -s e^(-i phi),
 * J_qq = c e^(-i phi). */

static void eigh_one(zdbl *a, int64_t n, zdbl *v, double *w) {
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < n; j++) v[i * n + j] = i == j;
  double norm = 0;
  for (int64_t i = 0; i < n * n; i++) norm += creal(a[i] * conj(a[i]));
  for (int sweep = 0; sweep < 100; sweep++) {
    double off = 0;
    for (int64_t p = 0; p < n; p++)
      for (int64_t q = p + 1; q < n; q++) off += 2 * creal(a[p * n + q] * conj(a[p * n + q]));
    if (off <= 1e-30 * norm || off == 0) break;
    for (int64_t p = 0; p < n; p++)
      for (int64_t q = p + 1; q < n; q++) {
        double g = cabs(a[p * n + q]);
        if (g == 0) continue;
        zdbl e = a[p * n + q] / g; /* e^(i phi) */
        double tau = (creal(a[q * n + q]) - creal(a[p * n + p])) / (2 * g);
        double t = (tau >= 0 ? 1.0 : -1.0) / (fabs(tau) + sqrt(1 + tau * tau));
        double c = 1 / sqrt(1 + t * t), s = t * c;
        zdbl ce = conj(e);
        for (int64_t k = 0; k < n; k++) { /* columns: a J, v J */
          zdbl x = a[k * n + p], y = a[k * n + q];
          a[k * n + p] = c * x - s * ce * y;
          a[k * n + q] = s * x + c * ce * y;
          x = v[k * n + p], y = v[k * n + q];
          v[k * n + p] = c * x - s * ce * y;
          v[k * n + q] = s * x + c * ce * y;
        }
        for (int64_t k = 0; k < n; k++) { /* rows: J^H (a J) */
          zdbl x = a[p * n + k], y = a[q * n + k];
          a[p * n + k] = c * x - s * e * y;
          a[q * n + k] = s * x + c * e * y;
        }
        a[p * n + q] = a[q * n + p] = 0;
        a[p * n + p] = creal(a[p * n + p]);
        a[q * n + q] = creal(a[q * n + q]);
      }
  }
  for (int64_t i = 0; i < n; i++) w[i] = creal(a[i * n + i]);
}

static bool eigh(Op *op, IVal **args, IVal **res) {
  const Literal *a = args[0]->lit;
  const Type *at = a->type;
  int64_t n = at->dims[at->rank - 1], nn = n * n, batch = nn ? a->n / nn : 0;
  /* backend_config "lower,sort,max_iter,tol" */
  const char *cfg = op_attr_str(op, "backend_config");
  bool lower = !cfg || cfg[0] != '0', sort = !cfg || !strchr(cfg, ',') || strchr(cfg, ',')[1] != '0';
  Literal *vl = lit_new(op->res[0].type), *wl = lit_new(op->res[1].type);
  zdbl *buf = xmalloc(sizeof(zdbl) * (size_t)(2 * nn + 1));
  zdbl *v = buf + nn;
  double *w = xmalloc(sizeof(double) * (size_t)(n + 1));
  int64_t *order = xmalloc(sizeof(int64_t) * (size_t)(n + 1));
  for (int64_t b = 0; b < batch; b++) {
    read_matrix(a, b * nn, nn, buf);
    /* the Hermitian matrix the chosen triangle describes */
    for (int64_t i = 0; i < n; i++) {
      buf[i * n + i] = creal(buf[i * n + i]);
      for (int64_t j = i + 1; j < n; j++) {
        if (lower) buf[i * n + j] = conj(buf[j * n + i]);
        else buf[j * n + i] = conj(buf[i * n + j]);
      }
    }
    eigh_one(buf, n, v, w);
    for (int64_t i = 0; i < n; i++) order[i] = i;
    for (int64_t i = 1; sort && i < n; i++) /* insertion sort: stable, n is small */
      for (int64_t j = i; j > 0 && w[order[j]] < w[order[j - 1]]; j--) {
        int64_t tmp = order[j];
        order[j] = order[j - 1];
        order[j - 1] = tmp;
      }
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j < n; j++) buf[i * n + j] = v[i * n + order[j]];
    write_matrix(vl, b * nn, nn, buf);
    for (int64_t j = 0; j < n; j++) lit_set_f(wl, b * n + j, w[order[j]]);
  }
  xfree(buf);
  xfree(w);
  xfree(order);
  res[0] = ival_tensor(vl);
  res[1] = ival_tensor(wl);
  return true;
}

bool hostcall_interp(Interp *I, Op *op, const char *target, IVal **args, IVal **res) {
  const HostFn *fn;
  HostTarget k = hostcall_classify(target, &fn);
  if (k == HOST_FUNCTION) return call_host(I, op, fn, args, res);
  char *why = hostcall_problem(op);
  if (why) {
    interp_error(I, op, "%s", why);
    xfree(why);
    return false;
  }
  switch (k) {
  case HOST_IDENTITY:
    for (int i = 0; i < op->nres; i++) res[i] = ival_retain(args[i]);
    return true;
  case HOST_SHAPE_ASSERTION:
    return shape_assertion(I, op, args);
  case HOST_ALLOCATE:
    res[0] = ival_zero_of_type(op->res[0].type);
    return true;
  case HOST_NOOP:
    for (int i = 0; i < op->nres; i++) res[i] = ival_retain(args[i]);
    return true;
  case HOST_QR:
  case HOST_HOUSEHOLDER:
    return householder(op, k == HOST_QR, args, res);
  case HOST_EIGH:
    return eigh(op, args, res);
  case HOST_LAPACK:
    return lapack_call(I, op, target, args, res);
  default:
    return interp_error(I, op, "internal error: custom_call @%s reached the host-call dispatch", target);
  }
}

/* ---- the public registry functions (include/xlac/xlac.h) ----
   Plain malloc here: these are library entry points, where no out-of-
   memory guard is installed, so a failure becomes an error status. */

static xlac_status *reg_put(const char *fname, const char *target, int api, xlac_custom_call_fn typed,
                            void *classic, void *user) {
  if (!target || !*target)
    return xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: the target name is %s", fname, target ? "empty" : "NULL");
  if (!typed && !classic)
    return xlac_status_create(XLAC_INVALID_ARGUMENT, "%s: the function for target '%s' is NULL", fname, target);
  if (reserved(target))
    return xlac_status_create(XLAC_INVALID_ARGUMENT,
                              "%s: custom_call target '%s' is implemented by xlac itself and cannot be registered",
                              fname, target);
  HostFn *h = calloc(1, sizeof *h);
  char *name = strdup(target);
  if (!h || !name) {
    xfree(h);
    xfree(name);
    return xlac_status_create(XLAC_OUT_OF_MEMORY, "%s: out of memory registering '%s'", fname, target);
  }
  h->name = name;
  h->api = api;
  h->typed = typed;
  h->classic = classic;
  h->user = user;
  pthread_mutex_lock(&reg_lock);
  bool found;
  int i = reg_search(target, &found);
  if (found) {
    h->replaced = reg[i];
    reg[i] = h;
  } else {
    if (nreg == reg_cap) {
      int cap = reg_cap ? 2 * reg_cap : 16;
      HostFn **grown = realloc(reg, sizeof(HostFn *) * (size_t)cap);
      if (!grown) {
        pthread_mutex_unlock(&reg_lock);
        xfree(h->name);
        xfree(h);
        return xlac_status_create(XLAC_OUT_OF_MEMORY, "%s: out of memory registering '%s'", fname, target);
      }
      reg = grown;
      reg_cap = cap;
    }
    memmove(reg + i + 1, reg + i, sizeof(HostFn *) * (size_t)(nreg - i));
    reg[i] = h;
    nreg++;
  }
  pthread_mutex_unlock(&reg_lock);
  return NULL;
}

xlac_status *xlac_custom_call_register(const char *target, xlac_custom_call_fn fn, void *user) {
  return reg_put("xlac_custom_call_register", target, 0, fn, NULL, user);
}

xlac_status *xlac_custom_call_register_classic(const char *target, void *fn, xlac_custom_call_api api) {
  if (api != XLAC_CUSTOM_CALL_CLASSIC && api != XLAC_CUSTOM_CALL_CLASSIC_STATUS)
    return xlac_status_create(XLAC_INVALID_ARGUMENT,
                              "xlac_custom_call_register_classic: unknown api %d for target '%s' (expected "
                              "XLAC_CUSTOM_CALL_CLASSIC or XLAC_CUSTOM_CALL_CLASSIC_STATUS)",
                              (int)api, target ? target : "(NULL)");
  return reg_put("xlac_custom_call_register_classic", target, (int)api, NULL, fn, NULL);
}

xlac_custom_call_status *hostcall_status_new(void) { return xcalloc(1, sizeof(xlac_custom_call_status)); }

const char *hostcall_status_failure(const xlac_custom_call_status *s) {
  return s && s->failed ? (s->msg ? s->msg : "the custom call failed") : NULL;
}

void hostcall_status_free(xlac_custom_call_status *s) {
  if (!s) return;
  xfree(s->msg);
  xfree(s);
}

void xlac_custom_call_status_set_failure(xlac_custom_call_status *status, const char *message, size_t len) {
  if (!status) return;
  status->failed = true;
  xfree(status->msg);
  if (!message) len = 0;
  /* on allocation failure the call still fails, with a generic message */
  status->msg = malloc(len + 1);
  if (status->msg) {
    if (len) memcpy(status->msg, message, len);
    status->msg[len] = 0;
  }
}

char *xlac_custom_call_list(void) {
  pthread_mutex_lock(&reg_lock);
  size_t total = 1;
  for (int i = 0; i < nreg; i++) total += strlen(reg[i]->name) + 2;
  char *s = malloc(total);
  if (s) {
    char *p = s;
    for (int i = 0; i < nreg; i++) {
      if (i) {
        memcpy(p, ", ", 2);
        p += 2;
      }
      size_t k = strlen(reg[i]->name);
      memcpy(p, reg[i]->name, k);
      p += k;
    }
    *p = 0;
  }
  pthread_mutex_unlock(&reg_lock);
  return s;
}
