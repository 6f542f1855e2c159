/*
 * test_collectives.c - builds small grid programs by hand and runs them
 * through interp_run_grid: replica/partition ids, all_reduce, all_gather,
 * all_to_all, reduce_scatter, collective_permute, send/recv, and the
 * failure paths (a deadlocked grid and a failing process must both end with
 * an error instead of hanging).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interp/interp.h"

static int passed, failed;

#define EXPECT(cond)                                                     \
  do {                                                                   \
    if (cond) {                                                          \
      passed++;                                                          \
    } else {                                                             \
      failed++;                                                          \
      fprintf(stderr, "%s:%d: FAILED: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                    \
  } while (0)

static Type *vec_i64(Module *m, int64_t n) { return type_tensor(&m->arena, ET_S64, 1, &n); }

static Attr *groups(Module *m, int rows, int cols, const int64_t *ids) {
  int64_t dims[2] = {rows, cols};
  Literal *l = lit_new_in(&m->arena, type_tensor(&m->arena, ET_S64, 2, dims));
  for (int i = 0; i < rows * cols; i++) lit_set_i(l, i, ids[i]);
  return attr_dense(m, l);
}

static Attr *channel(Module *m, int64_t handle) {
  const char *keys[2] = {"handle", "type"};
  Attr *vals[2] = {attr_int(m, handle, NULL), attr_int(m, 1, NULL)};
  return attr_dict(m, "stablehlo.channel_handle", 2, keys, vals);
}

static void ret(Module *m, Block *b, OpKind kind, int n, Value **vals) {
  block_append(b, op_new(m, kind, n, vals, 0, NULL, SRCLOC_NONE));
}

/* A region computing arg0 `kind` arg1 on scalars of type t. */
static Block *binary_region(Module *m, OpKind kind, Type *t) {
  Block *b = block_new(m);
  Value *x = block_add_arg(m, b, t, "x"), *y = block_add_arg(m, b, t, "y");
  Value *xy[2] = {x, y};
  Op *op = op_new(m, kind, 2, xy, 1, &t, SRCLOC_NONE);
  block_append(b, op);
  Value *r = &op->res[0];
  ret(m, b, OP_RETURN, 1, &r);
  return b;
}

/* func(x: tensor<n x i64>) -> result_type { collective(x) } */
static Func *collective_func(Module *m, const char *name, OpKind kind, int64_t n, Type *rt) {
  Func *f = func_new(m, name, SRCLOC_NONE);
  Value *x = block_add_arg(m, f->body, vec_i64(m, n), "x");
  Op *op = op_new(m, kind, 1, &x, 1, &rt, SRCLOC_NONE);
  block_append(f->body, op);
  Value *r = &op->res[0];
  ret(m, f->body, OP_FUNC_RETURN, 1, &r);
  f->nresults = 1;
  f->result_types = ARENA_ARRAY(&m->arena, Type *, 1);
  f->result_types[0] = rt;
  return f;
}

static IVal *vec_val(Module *m, int64_t n, const int64_t *v) {
  Literal *l = lit_new(vec_i64(m, n));
  for (int64_t i = 0; i < n; i++) lit_set_i(l, i, v[i]);
  return ival_tensor(l);
}

static bool vec_is(const IVal *v, int64_t n, const int64_t *want) {
  if (!v || v->kind != IV_TENSOR || v->lit->n != n) return false;
  for (int64_t i = 0; i < n; i++)
    if (lit_get_i(v->lit, i) != want[i]) return false;
  return true;
}

/* Runs f on an nr x np grid with one vector argument per process; returns
   the results (first result of each process) in out. */
static bool run1(Module *m, Func *f, int nr, int np, int64_t len, const int64_t *inputs, IVal **out) {
  InterpOptions opts = {0};
  Interp I;
  interp_init(&I, m, &opts);
  int n = nr * np;
  GridProgram progs[16];
  IVal *args[16];
  IVal **results[16];
  for (int i = 0; i < n; i++) {
    args[i] = vec_val(m, len, inputs + i * len);
    progs[i] = (GridProgram){.func = f, .nargs = f->body->nargs, .args = &args[i]};
  }
  bool ok = interp_run_grid(&I, nr, np, progs, results);
  for (int i = 0; i < n; i++) {
    ival_release(args[i]);
    out[i] = NULL;
    if (ok) {
      out[i] = results[i][0];
      for (int k = 1; k < f->nresults; k++) ival_release(results[i][k]);
      free(results[i]);
    }
  }
  return ok;
}

static void release_n(IVal **v, int n) {
  for (int i = 0; i < n; i++) ival_release(v[i]);
}

static void test_ids(void) {
  Module *m = module_new();
  Type *u32 = type_scalar(&m->arena, ET_U32);
  Func *f = func_new(m, "ids", SRCLOC_NONE);
  Op *r = op_new(m, OP_REPLICA_ID, 0, NULL, 1, &u32, SRCLOC_NONE);
  Op *p = op_new(m, OP_PARTITION_ID, 0, NULL, 1, &u32, SRCLOC_NONE);
  block_append(f->body, r);
  block_append(f->body, p);
  Value *rv[2] = {&r->res[0], &p->res[0]};
  ret(m, f->body, OP_FUNC_RETURN, 2, rv);
  f->nresults = 2;
  InterpOptions opts = {0};
  Interp I;
  interp_init(&I, m, &opts);
  GridProgram progs[6];
  IVal **results[6];
  for (int i = 0; i < 6; i++) progs[i] = (GridProgram){.func = f};
  bool ok = interp_run_grid(&I, 3, 2, progs, results);
  EXPECT(ok);
  for (int i = 0; ok && i < 6; i++) {
    EXPECT(lit_get_u(results[i][0]->lit, 0) == (uint64_t)(i / 2));
    EXPECT(lit_get_u(results[i][1]->lit, 0) == (uint64_t)(i % 2));
    release_n(results[i], 2);
    free(results[i]);
  }
  /* outside a grid: replica 0, partition 0 */
  IVal *res[2];
  EXPECT(interp_call(&I, f, 0, NULL, res));
  EXPECT(lit_get_u(res[0]->lit, 0) == 0 && lit_get_u(res[1]->lit, 0) == 0);
  release_n(res, 2);
  module_free(m);
}

static void test_all_reduce(void) {
  Module *m = module_new();
  Type *s = type_scalar(&m->arena, ET_S64);
  Func *f = collective_func(m, "ar", OP_ALL_REDUCE, 3, vec_i64(m, 3));
  Op *op = f->body->first;
  op_add_region(m, op, binary_region(m, OP_ADD, s));
  int64_t g[4] = {0, 2, 1, 3};
  op_set_attr(m, op, "replica_groups", groups(m, 2, 2, g));
  int64_t in[12] = {1, 2, 3, 10, 20, 30, 100, 200, 300, 1000, 2000, 3000};
  IVal *out[4];
  EXPECT(run1(m, f, 4, 1, 3, in, out));
  int64_t w02[3] = {101, 202, 303}, w13[3] = {1010, 2020, 3030};
  EXPECT(vec_is(out[0], 3, w02) && vec_is(out[2], 3, w02));
  EXPECT(vec_is(out[1], 3, w13) && vec_is(out[3], 3, w13));
  release_n(out, 4);

  /* the generic (non-add) path: maximum through the region */
  op->regions[0] = binary_region(m, OP_MAXIMUM, s);
  op->regions[0]->parent_op = op;
  EXPECT(run1(m, f, 4, 1, 3, in, out));
  int64_t m02[3] = {100, 200, 300}, m13[3] = {1000, 2000, 3000};
  EXPECT(vec_is(out[0], 3, m02) && vec_is(out[3], 3, m13));
  release_n(out, 4);

  /* flattened ids over a 2x2 grid: groups {0,3} and {1,2} */
  int64_t fg[4] = {0, 3, 1, 2};
  op_set_attr(m, op, "replica_groups", groups(m, 2, 2, fg));
  op_set_attr(m, op, "channel_handle", channel(m, 1));
  op_set_attr(m, op, "use_global_device_ids", attr_unit(m));
  EXPECT(run1(m, f, 2, 2, 3, in, out));
  int64_t f03[3] = {1000, 2000, 3000}, f12[3] = {100, 200, 300};
  EXPECT(vec_is(out[0], 3, f03) && vec_is(out[3], 3, f03));
  EXPECT(vec_is(out[1], 3, f12) && vec_is(out[2], 3, f12));
  release_n(out, 4);
  module_free(m);
}

static void test_all_gather_and_scatter(void) {
  Module *m = module_new();
  /* cross_replica_and_partition on a 2x2 grid: one group of all four, in
     the order (0,0), (1,0), (0,1), (1,1) */
  Func *f = collective_func(m, "ag", OP_ALL_GATHER, 1, vec_i64(m, 4));
  Op *op = f->body->first;
  int64_t g[2] = {0, 1};
  op_set_attr(m, op, "replica_groups", groups(m, 1, 2, g));
  op_set_attr(m, op, "channel_handle", channel(m, 7));
  op_set_attr(m, op, "all_gather_dim", attr_int(m, 0, NULL));
  int64_t in[4] = {0, 1, 2, 3}; /* process (r,p) holds 2r+p */
  IVal *out[4];
  EXPECT(run1(m, f, 2, 2, 1, in, out));
  int64_t want[4] = {0, 2, 1, 3};
  for (int i = 0; i < 4; i++) EXPECT(vec_is(out[i], 4, want));
  release_n(out, 4);

  /* reduce_scatter over 2 replicas */
  Type *s = type_scalar(&m->arena, ET_S64);
  Func *rs = collective_func(m, "rs", OP_REDUCE_SCATTER, 4, vec_i64(m, 2));
  op = rs->body->first;
  op_add_region(m, op, binary_region(m, OP_ADD, s));
  op_set_attr(m, op, "replica_groups", groups(m, 1, 2, g));
  op_set_attr(m, op, "scatter_dimension", attr_int(m, 0, NULL));
  int64_t rin[8] = {1, 2, 3, 4, 10, 20, 30, 40};
  EXPECT(run1(m, rs, 2, 1, 4, rin, out));
  int64_t r0[2] = {11, 22}, r1[2] = {33, 44};
  EXPECT(vec_is(out[0], 2, r0) && vec_is(out[1], 2, r1));
  release_n(out, 2);

  /* all_to_all across partitions: 2 parts each */
  Func *aa = collective_func(m, "aa", OP_ALL_TO_ALL, 4, vec_i64(m, 4));
  op = aa->body->first;
  op_set_attr(m, op, "replica_groups", groups(m, 1, 2, g));
  op_set_attr(m, op, "channel_handle", channel(m, 1));
  op_set_attr(m, op, "split_dimension", attr_int(m, 0, NULL));
  op_set_attr(m, op, "concat_dimension", attr_int(m, 0, NULL));
  op_set_attr(m, op, "split_count", attr_int(m, 2, NULL));
  EXPECT(run1(m, aa, 1, 2, 4, rin, out));
  int64_t a0[4] = {1, 2, 10, 20}, a1[4] = {3, 4, 30, 40};
  EXPECT(vec_is(out[0], 4, a0) && vec_is(out[1], 4, a1));
  release_n(out, 2);
  module_free(m);
}

static void test_permute_and_failures(void) {
  Module *m = module_new();
  Func *f = collective_func(m, "cp", OP_COLLECTIVE_PERMUTE, 1, vec_i64(m, 1));
  Op *op = f->body->first;
  int64_t pairs[4] = {0, 1, 1, 2};
  op_set_attr(m, op, "source_target_pairs", groups(m, 2, 2, pairs));
  int64_t in[3] = {5, 6, 7};
  IVal *out[3];
  EXPECT(run1(m, f, 3, 1, 1, in, out));
  int64_t z[1] = {0}, five[1] = {5}, six[1] = {6};
  EXPECT(vec_is(out[0], 1, z) && vec_is(out[1], 1, five) && vec_is(out[2], 1, six));
  release_n(out, 3);

  /* quiet the expected diagnostics */
  FILE *devnull = fopen("/dev/null", "w");
  diag_set_stream(devnull);

  /* out-of-range group id: every process fails, nobody hangs */
  Func *ag = collective_func(m, "bad", OP_ALL_GATHER, 1, vec_i64(m, 2));
  int64_t g[2] = {0, 5};
  op_set_attr(m, ag->body->first, "replica_groups", groups(m, 1, 2, g));
  op_set_attr(m, ag->body->first, "all_gather_dim", attr_int(m, 0, NULL));
  EXPECT(!run1(m, ag, 2, 1, 1, in, out));

  /* a group some members never join: replica 1 has no collective at all */
  Func *nop = func_new(m, "nop", SRCLOC_NONE);
  Value *x = block_add_arg(m, nop->body, vec_i64(m, 1), "x");
  ret(m, nop->body, OP_FUNC_RETURN, 1, &x);
  nop->nresults = 1;
  Func *ar = collective_func(m, "ar", OP_ALL_REDUCE, 1, vec_i64(m, 1));
  op_add_region(m, ar->body->first, binary_region(m, OP_ADD, type_scalar(&m->arena, ET_S64)));
  InterpOptions opts = {0};
  Interp I;
  interp_init(&I, m, &opts);
  IVal *args[2] = {vec_val(m, 1, in), vec_val(m, 1, in + 1)};
  GridProgram progs[2] = {{.func = ar, .nargs = 1, .args = &args[0]}, {.func = nop, .nargs = 1, .args = &args[1]}};
  IVal **results[2];
  EXPECT(!interp_run_grid(&I, 2, 1, progs, results));

  /* recv with no sender */
  Type *tok = type_token(&m->arena);
  Type *rt[2] = {vec_i64(m, 1), tok};
  Func *rv = func_new(m, "recv", SRCLOC_NONE);
  Value *t = block_add_arg(m, rv->body, tok, "t");
  Op *recv = op_new(m, OP_RECV, 1, &t, 2, rt, SRCLOC_NONE);
  op_set_attr(m, recv, "channel_handle", channel(m, 3));
  block_append(rv->body, recv);
  Value *rr = &recv->res[0];
  ret(m, rv->body, OP_FUNC_RETURN, 1, &rr);
  rv->nresults = 1;
  IVal *tk = ival_token();
  GridProgram rp[2] = {{.func = rv, .nargs = 1, .args = &tk}, {.func = rv, .nargs = 1, .args = &tk}};
  EXPECT(!interp_run_grid(&I, 1, 2, rp, results));

  /* send on one partition, recv on the other */
  Func *sd = func_new(m, "send", SRCLOC_NONE);
  Value *sx = block_add_arg(m, sd->body, vec_i64(m, 1), "x");
  Value *st = block_add_arg(m, sd->body, tok, "t");
  Value *sargs[2] = {sx, st};
  Op *send = op_new(m, OP_SEND, 2, sargs, 1, &tok, SRCLOC_NONE);
  op_set_attr(m, send, "channel_handle", channel(m, 3));
  block_append(sd->body, send);
  ret(m, sd->body, OP_FUNC_RETURN, 1, &sx);
  sd->nresults = 1;
  IVal *sendargs[2] = {args[0], tk};
  GridProgram sp[2] = {{.func = sd, .nargs = 2, .args = sendargs}, {.func = rv, .nargs = 1, .args = &tk}};
  diag_set_stream(stderr);
  bool ok = interp_run_grid(&I, 1, 2, sp, results);
  EXPECT(ok);
  if (ok) {
    EXPECT(vec_is(results[1][0], 1, five));
    for (int i = 0; i < 2; i++) {
      ival_release(results[i][0]);
      free(results[i]);
    }
  }
  ival_release(tk);
  release_n(args, 2);
  fclose(devnull);
  module_free(m);
}

int main(void) {
  test_ids();
  test_all_reduce();
  test_all_gather_and_scatter();
  test_permute_and_failures();
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
