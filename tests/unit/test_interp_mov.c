/*
 * test_interp_mov.c - unit tests for the interpreter's data movement,
 * indexing, reduction and sort ops, on IR built by hand so they do not
 * depend on a frontend.  Each case builds one op, runs its interp_<ID>
 * entry directly and compares every element with the expected values.
 * Also times the reduce fast path on a million elements.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "interp/interp.h"

static int passed, failed;

#define EXPECT(cond, ...)                     \
  do {                                        \
    if (cond) {                               \
      passed++;                               \
    } else {                                  \
      failed++;                               \
      printf("FAIL %s:%d: ", __FILE__, __LINE__); \
      printf(__VA_ARGS__);                    \
      printf("\n");                           \
    }                                         \
  } while (0)

static Module *M;
static Interp I;

static Type *ty(ElemType et, int rank, const int64_t *dims) { return type_tensor(&M->arena, et, rank, dims); }
static Type *ty1(ElemType et, int64_t a) { return ty(et, 1, (int64_t[]){a}); }
static Type *ty2(ElemType et, int64_t a, int64_t b) { return ty(et, 2, (int64_t[]){a, b}); }
static Type *sc(ElemType et) { return type_scalar(&M->arena, et); }

/* A tensor value filled from doubles (converted by lit_set_f / lit_set_i). */
static IVal *tens(Type *t, const double *v) {
  Literal *l = lit_new(t);
  for (int64_t i = 0; i < l->n; i++) {
    if (et_is_float(t->elem)) lit_set_f(l, i, v[i]);
    else lit_set_i(l, i, (int64_t)v[i]);
  }
  return ival_tensor(l);
}

/* A fake operand value of type t (ops only read opnds for types). */
static Value *val(Type *t) {
  Value *v = ARENA_NEW(&M->arena, Value);
  v->type = t;
  return v;
}

static Op *mkop(OpKind k, int nin, Type **in_types, int nres, Type **res_types) {
  Value *in[16];
  for (int i = 0; i < nin; i++) in[i] = val(in_types[i]);
  return op_new(M, k, nin, in, nres, res_types, SRCLOC_NONE);
}

static void set_ints(Op *op, const char *name, int n, const int64_t *v) {
  op_set_attr(M, op, name, attr_ints(M, n, v));
}

/* A region `(a: s, b: s) -> kind(a, b)` for scalar element type et; with
   `slow` an unused extra op in front defeats the fast-path matcher. */
static Block *binary_region(OpKind kind, ElemType et, bool slow) {
  Block *b = block_new(M);
  Value *a = block_add_arg(M, b, sc(et), "a");
  Value *c = block_add_arg(M, b, sc(et), "b");
  Value *ab[2] = {a, c};
  Type *st = sc(et);
  if (slow) block_append(b, op_new(M, OP_MULTIPLY, 2, ab, 1, &st, SRCLOC_NONE));
  Op *o = op_new(M, kind, 2, ab, 1, &st, SRCLOC_NONE);
  block_append(b, o);
  Value *r = &o->res[0];
  block_append(b, op_new(M, OP_RETURN, 1, &r, 0, NULL, SRCLOC_NONE));
  return b;
}

static void add_region(Op *op, Block *b) {
  op_add_region(M, op, b);
  b->parent_op = op;
}

typedef bool (*InterpFn)(Interp *, Op *, IVal **, IVal **);
static const InterpFn table[OP_COUNT] = {
#define OP(id, name, hlo, flags) [OP_##id] = interp_##id,
#include "ir/ops.def"
#undef OP
};

static bool run(Op *op, IVal **args, IVal **res) {
  memset(res, 0, sizeof(IVal *) * (size_t)op->nres);
  I.failed = false;
  return table[op->kind](&I, op, args, res);
}

static void release(IVal **v, int n) {
  for (int i = 0; i < n; i++) ival_release(v[i]);
}

static void expect_vals(IVal *v, const double *want, int64_t n, const char *what) {
  if (!v || v->kind != IV_TENSOR) {
    EXPECT(false, "%s: no tensor result", what);
    return;
  }
  bool ok = v->lit->n == n;
  for (int64_t i = 0; ok && i < n; i++) {
    double got = et_is_float(lit_elem(v->lit)) ? lit_get_f(v->lit, i) : (double)lit_get_i(v->lit, i);
    if (!(got == want[i] || (isnan(got) && isnan(want[i])))) {
      printf("  %s: element %lld is %g, want %g\n", what, (long long)i, got, want[i]);
      ok = false;
    }
  }
  EXPECT(ok, "%s", what);
}

/* ---- movement ---- */
static void test_movement(void) {
  IVal *x = tens(ty2(ET_S32, 2, 3), (double[]){1, 2, 3, 4, 5, 6}), *r[2];
  {
    Op *op = mkop(OP_TRANSPOSE, 1, (Type *[]){x->lit->type}, 1, (Type *[]){ty2(ET_S32, 3, 2)});
    set_ints(op, "permutation", 2, (int64_t[]){1, 0});
    EXPECT(run(op, &x, r), "transpose ran");
    expect_vals(r[0], (double[]){1, 4, 2, 5, 3, 6}, 6, "transpose");
    release(r, 1);
  }
  {
    Op *op = mkop(OP_REVERSE, 1, (Type *[]){x->lit->type}, 1, (Type *[]){ty2(ET_S32, 2, 3)});
    set_ints(op, "dimensions", 2, (int64_t[]){0, 1});
    EXPECT(run(op, &x, r), "reverse ran");
    expect_vals(r[0], (double[]){6, 5, 4, 3, 2, 1}, 6, "reverse");
    release(r, 1);
  }
  {
    Op *op = mkop(OP_BROADCAST_IN_DIM, 1, (Type *[]){x->lit->type}, 1,
                  (Type *[]){ty(ET_S32, 3, (int64_t[]){3, 2, 2})});
    set_ints(op, "broadcast_dimensions", 2, (int64_t[]){1, 0});
    /* operand 2x3 -> dims (1, 0): result[i][j][k] = x[j][i] */
    EXPECT(run(op, &x, r), "broadcast_in_dim (transposing) ran");
    expect_vals(r[0], (double[]){1, 1, 4, 4, 2, 2, 5, 5, 3, 3, 6, 6}, 12, "broadcast_in_dim transposing");
    release(r, 1);
    Op *op2 = mkop(OP_BROADCAST_IN_DIM, 1, (Type *[]){x->lit->type}, 1,
                   (Type *[]){ty(ET_S32, 3, (int64_t[]){2, 2, 3})});
    set_ints(op2, "broadcast_dimensions", 2, (int64_t[]){0, 2});
    EXPECT(run(op2, &x, r), "broadcast_in_dim ran");
    expect_vals(r[0], (double[]){1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 6}, 12, "broadcast_in_dim");
    release(r, 1);
  }
  {
    Op *op = mkop(OP_SLICE, 1, (Type *[]){x->lit->type}, 1, (Type *[]){ty2(ET_S32, 2, 2)});
    set_ints(op, "start_indices", 2, (int64_t[]){0, 0});
    set_ints(op, "limit_indices", 2, (int64_t[]){2, 3});
    set_ints(op, "strides", 2, (int64_t[]){1, 2});
    EXPECT(run(op, &x, r), "slice ran");
    expect_vals(r[0], (double[]){1, 3, 4, 6}, 4, "slice");
    release(r, 1);
  }
  {
    IVal *pv = tens(sc(ET_S32), (double[]){0});
    IVal *in[2] = {x, pv};
    /* rows: low 1 high -1 interior 1 -> 1 + 3 - 1 = 3; cols: low -1 high 2 -> -1 + 3 + 2 = 4 */
    Op *op = mkop(OP_PAD, 2, (Type *[]){x->lit->type, pv->lit->type}, 1, (Type *[]){ty2(ET_S32, 3, 4)});
    set_ints(op, "edge_padding_low", 2, (int64_t[]){1, -1});
    set_ints(op, "edge_padding_high", 2, (int64_t[]){-1, 2});
    set_ints(op, "interior_padding", 2, (int64_t[]){1, 0});
    EXPECT(run(op, in, r), "pad ran");
    expect_vals(r[0], (double[]){0, 0, 0, 0, 2, 3, 0, 0, 0, 0, 0, 0}, 12, "pad");
    release(r, 1);
    ival_release(pv);
  }
  {
    IVal *in[2] = {x, x};
    Op *op = mkop(OP_CONCATENATE, 2, (Type *[]){x->lit->type, x->lit->type}, 1,
                  (Type *[]){ty2(ET_S32, 2, 6)});
    op_set_attr(M, op, "dimension", attr_int(M, 1, NULL));
    EXPECT(run(op, in, r), "concatenate ran");
    expect_vals(r[0], (double[]){1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 6}, 12, "concatenate");
    release(r, 1);
  }
  {
    Op *op = mkop(OP_IOTA, 0, NULL, 1, (Type *[]){ty2(ET_F32, 2, 3)});
    op_set_attr(M, op, "iota_dimension", attr_int(M, 1, NULL));
    EXPECT(run(op, NULL, r), "iota ran");
    expect_vals(r[0], (double[]){0, 1, 2, 0, 1, 2}, 6, "iota");
    release(r, 1);
  }
  ival_release(x);
}

/* ---- indexing ---- */
static void test_indexing(void) {
  IVal *x = tens(ty2(ET_S64, 3, 3), (double[]){1, 2, 3, 4, 5, 6, 7, 8, 9}), *r[2];
  {
    IVal *a = tens(sc(ET_S32), (double[]){2}), *b = tens(sc(ET_S32), (double[]){-5});
    IVal *in[3] = {x, a, b};
    Op *op = mkop(OP_DYNAMIC_SLICE, 3, (Type *[]){x->lit->type, a->lit->type, b->lit->type}, 1,
                  (Type *[]){ty2(ET_S64, 2, 2)});
    set_ints(op, "slice_sizes", 2, (int64_t[]){2, 2});
    EXPECT(run(op, in, r), "dynamic_slice ran");
    /* start (2, -5) clamps to (1, 0) */
    expect_vals(r[0], (double[]){4, 5, 7, 8}, 4, "dynamic_slice clamps");
    release(r, 1);
    ival_release(a);
    ival_release(b);
  }
  {
    /* gather rows [2, 0] of x: offset_dims=[1], collapsed=[0], map=[0], ivd=1 */
    IVal *idx = tens(ty2(ET_S32, 2, 1), (double[]){2, 0});
    IVal *in[2] = {x, idx};
    Op *op = mkop(OP_GATHER, 2, (Type *[]){x->lit->type, idx->lit->type}, 1,
                  (Type *[]){ty2(ET_S64, 2, 3)});
    const char *keys[] = {"offset_dims", "collapsed_slice_dims", "start_index_map", "index_vector_dim"};
    Attr *vals[] = {attr_ints(M, 1, (int64_t[]){1}), attr_ints(M, 1, (int64_t[]){0}),
                    attr_ints(M, 1, (int64_t[]){0}), attr_int(M, 1, NULL)};
    op_set_attr(M, op, "dimension_numbers", attr_dict(M, "stablehlo.gather", 4, keys, vals));
    set_ints(op, "slice_sizes", 2, (int64_t[]){1, 3});
    EXPECT(run(op, in, r), "gather ran");
    expect_vals(r[0], (double[]){7, 8, 9, 1, 2, 3}, 6, "gather");
    release(r, 1);
    ival_release(idx);
  }
  {
    /* scatter-add rows: indices [0, 0, 5 (out of bounds)], updates 3x3 */
    IVal *idx = tens(ty1(ET_S32, 3), (double[]){0, 0, 5});
    IVal *upd = tens(ty2(ET_S64, 3, 3), (double[]){10, 10, 10, 20, 20, 20, 30, 30, 30});
    IVal *in[3] = {x, idx, upd};
    Op *op = mkop(OP_SCATTER, 3, (Type *[]){x->lit->type, idx->lit->type, upd->lit->type}, 1,
                  (Type *[]){x->lit->type});
    const char *keys[] = {"update_window_dims", "inserted_window_dims", "scatter_dims_to_operand_dims",
                          "index_vector_dim"};
    Attr *vals[] = {attr_ints(M, 1, (int64_t[]){1}), attr_ints(M, 1, (int64_t[]){0}),
                    attr_ints(M, 1, (int64_t[]){0}), attr_int(M, 1, NULL)};
    op_set_attr(M, op, "scatter_dimension_numbers", attr_dict(M, "stablehlo.scatter", 4, keys, vals));
    add_region(op, binary_region(OP_ADD, ET_S64, false));
    EXPECT(run(op, in, r), "scatter ran");
    expect_vals(r[0], (double[]){31, 32, 33, 4, 5, 6, 7, 8, 9}, 9, "scatter");
    release(r, 1);
    ival_release(idx);
    ival_release(upd);
  }
  ival_release(x);
}

/* ---- reductions and sort ---- */
static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void test_reduce(void) {
  IVal *r[2];
  {
    IVal *x = tens(ty2(ET_S32, 2, 3), (double[]){1, 2, 3, 4, 5, 6});
    IVal *init = tens(sc(ET_S32), (double[]){100});
    IVal *in[2] = {x, init};
    for (int slow = 0; slow < 2; slow++) {
      Op *op = mkop(OP_REDUCE, 2, (Type *[]){x->lit->type, init->lit->type}, 1,
                    (Type *[]){ty1(ET_S32, 3)});
      set_ints(op, "dimensions", 1, (int64_t[]){0});
      add_region(op, binary_region(OP_ADD, ET_S32, slow));
      EXPECT(run(op, in, r), "reduce ran");
      expect_vals(r[0], (double[]){105, 107, 109}, 3, slow ? "reduce (region)" : "reduce (fast)");
      release(r, 1);
    }
    ival_release(x);
    ival_release(init);
  }
  {
    /* f32 sums: the fast path must round like the region does */
    int64_t n = 1 << 20;
    Literal *l = lit_new(ty1(ET_F32, n));
    uint32_t seed = 1;
    for (int64_t i = 0; i < n; i++) {
      seed = seed * 1664525u + 1013904223u;
      ((float *)l->data)[i] = (float)(seed >> 8) / (float)(1 << 24) - 0.25f;
    }
    IVal *x = ival_tensor(l), *init = tens(sc(ET_F32), (double[]){0});
    IVal *in[2] = {x, init};
    Op *op = mkop(OP_REDUCE, 2, (Type *[]){x->lit->type, init->lit->type}, 1, (Type *[]){sc(ET_F32)});
    set_ints(op, "dimensions", 1, (int64_t[]){0});
    add_region(op, binary_region(OP_ADD, ET_F32, false));
    double t0 = now();
    EXPECT(run(op, in, r), "big reduce ran");
    double dt = now() - t0;
    printf("reduce of %lld f32 (fast path): %.1f ms\n", (long long)n, dt * 1e3);
    EXPECT(dt < 1.0, "reduce of 1M elements took %.3f s", dt);
    float acc = 0;
    for (int64_t i = 0; i < n; i++) acc += ((float *)l->data)[i];
    expect_vals(r[0], (double[]){acc}, 1, "big reduce sequential f32 order");
    release(r, 1);
    /* the general path on a prefix agrees bit for bit */
    Literal *small = lit_new(ty1(ET_F32, 4096));
    memcpy(small->data, l->data, 4096 * sizeof(float));
    IVal *xs = ival_tensor(small), *in2[2] = {xs, init}, *r2[1];
    Op *fast = mkop(OP_REDUCE, 2, (Type *[]){xs->lit->type, init->lit->type}, 1, (Type *[]){sc(ET_F32)});
    Op *slow = mkop(OP_REDUCE, 2, (Type *[]){xs->lit->type, init->lit->type}, 1, (Type *[]){sc(ET_F32)});
    set_ints(fast, "dimensions", 1, (int64_t[]){0});
    set_ints(slow, "dimensions", 1, (int64_t[]){0});
    add_region(fast, binary_region(OP_ADD, ET_F32, false));
    add_region(slow, binary_region(OP_ADD, ET_F32, true));
    bool ok = run(fast, in2, r) && run(slow, in2, r2);
    EXPECT(ok && lit_equal(r[0]->lit, r2[0]->lit), "fast and region reduce agree");
    if (ok) {
      release(r, 1);
      release(r2, 1);
    }
    ival_release(xs);
    ival_release(x);
    ival_release(init);
  }
  {
    /* reduce_window max 2x2 stride 1 with padding 1 on the high side */
    IVal *x = tens(ty2(ET_F32, 2, 2), (double[]){1, -2, 3, NAN});
    IVal *init = tens(sc(ET_F32), (double[]){-INFINITY});
    IVal *in[2] = {x, init};
    Op *op = mkop(OP_REDUCE_WINDOW, 2, (Type *[]){x->lit->type, init->lit->type}, 1,
                  (Type *[]){ty2(ET_F32, 2, 2)});
    set_ints(op, "window_dimensions", 2, (int64_t[]){2, 2});
    set_ints(op, "padding", 4, (int64_t[]){0, 1, 0, 1});
    add_region(op, binary_region(OP_MAXIMUM, ET_F32, false));
    EXPECT(run(op, in, r), "reduce_window ran");
    expect_vals(r[0], (double[]){NAN, NAN, NAN, NAN}, 4, "reduce_window max with NaN");
    release(r, 1);
    ival_release(x);
    ival_release(init);
  }
  {
    /* sort two operands by the first, descending, stable */
    IVal *k = tens(ty1(ET_S32, 5), (double[]){3, 1, 3, 2, 1});
    IVal *v = tens(ty1(ET_F32, 5), (double[]){0, 1, 2, 3, 4});
    IVal *in[2] = {k, v};
    for (int slow = 0; slow < 2; slow++) {
      Op *op = mkop(OP_SORT, 2, (Type *[]){k->lit->type, v->lit->type}, 2,
                    (Type *[]){k->lit->type, v->lit->type});
      op_set_attr(M, op, "dimension", attr_int(M, 0, NULL));
      op_set_attr(M, op, "is_stable", attr_bool(M, true));
      Block *b = block_new(M);
      Value *a0 = block_add_arg(M, b, sc(ET_S32), NULL), *a1 = block_add_arg(M, b, sc(ET_S32), NULL);
      block_add_arg(M, b, sc(ET_F32), NULL);
      block_add_arg(M, b, sc(ET_F32), NULL);
      Type *bt = sc(ET_PRED);
      Value *ab[2] = {a0, a1};
      if (slow) block_append(b, op_new(M, OP_ADD, 2, ab, 1, (Type *[]){sc(ET_S32)}, SRCLOC_NONE));
      Op *cmp = op_new(M, OP_COMPARE, 2, ab, 1, &bt, SRCLOC_NONE);
      op_set_attr(M, cmp, "comparison_direction", attr_enum(M, "comparison_direction", "GT"));
      block_append(b, cmp);
      Value *cr = &cmp->res[0];
      block_append(b, op_new(M, OP_RETURN, 1, &cr, 0, NULL, SRCLOC_NONE));
      add_region(op, b);
      bool ok = run(op, in, r);
      EXPECT(ok, "sort ran");
      if (!ok) continue;
      expect_vals(r[0], (double[]){3, 3, 2, 1, 1}, 5, "sort keys");
      expect_vals(r[1], (double[]){0, 2, 3, 1, 4}, 5, slow ? "sort values (region)" : "sort values (fast)");
      release(r, 2);
    }
    ival_release(k);
    ival_release(v);
  }
  {
    IVal *x = tens(ty2(ET_F32, 2, 4), (double[]){1, 5, 5, 2, NAN, 0, -1, 7});
    Op *op = mkop(OP_CHLO_TOP_K, 1, (Type *[]){x->lit->type}, 2,
                  (Type *[]){ty2(ET_F32, 2, 2), ty2(ET_S32, 2, 2)});
    op_set_attr(M, op, "k", attr_int(M, 2, NULL));
    EXPECT(run(op, &x, r), "top_k ran");
    expect_vals(r[0], (double[]){5, 5, NAN, 7}, 4, "top_k values");
    expect_vals(r[1], (double[]){1, 2, 0, 3}, 4, "top_k indices");
    release(r, 2);
    ival_release(x);
  }
}

int main(void) {
  M = module_new();
  interp_init(&I, M, NULL);
  test_movement();
  test_indexing();
  test_reduce();
  module_free(M);
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
