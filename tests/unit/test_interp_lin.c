/*
 * test_interp_lin.c - unit tests for the interpreter's linear algebra,
 * convolution, FFT, RNG, batch norm and quantization ops.
 *
 * Each test builds a one-op function by hand (arguments -> op -> return),
 * runs it with interp_call and compares the results with values worked out
 * by hand, from the spec's examples, or (for rng_bit_generator) produced by
 * XLA through JAX.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interp/interp.h"

static int passed, failed;

/* While the tree still links weak fallbacks for unwritten ops, naming the
   entry points here makes the static link pick the real definitions. */
static bool (*const lin_ops[])(Interp *, Op *, IVal **, IVal **) = {
    interp_CONVOLUTION, interp_DYNAMIC_CONV, interp_FFT, interp_RNG, interp_RNG_BIT_GENERATOR,
    interp_UNIFORM_QUANTIZE, interp_UNIFORM_DEQUANTIZE, interp_DOT_GENERAL, interp_CHLO_RAGGED_DOT,
};

#define CHECK(cond, ...)                                  \
  do {                                                    \
    if (cond) {                                           \
      passed++;                                           \
    } else {                                              \
      failed++;                                           \
      printf("FAIL %s:%d: ", __FILE__, __LINE__);         \
      printf(__VA_ARGS__);                                \
      printf("\n");                                       \
    }                                                     \
  } while (0)

/* ---- building one-op programs ---- */
typedef struct Prog {
  Module *m;
  Func *f;
  Op *op;
  int nin;
  Literal *ins[8];
} Prog;

static Type *ty(Module *m, ElemType et, int rank, const int64_t *dims) {
  return type_tensor(&m->arena, et, rank, dims);
}

static Literal *mklit(ElemType et, int rank, const int64_t *dims, const double *v) {
  Arena a;
  arena_init(&a);
  Literal *l = lit_new(type_tensor(&a, et, rank, dims));
  arena_free(&a);
  for (int64_t i = 0; v && i < l->n; i++) lit_set_f(l, i, v[i]);
  return l;
}

static Literal *mklit_c(ElemType et, int rank, const int64_t *dims, const double *re_im) {
  Literal *l = mklit(et, rank, dims, NULL);
  for (int64_t i = 0; i < l->n; i++) lit_set_c(l, i, re_im[2 * i], re_im[2 * i + 1]);
  return l;
}

/* Starts a program whose op takes the given literals (ownership passes). */
static Prog prog(OpKind k, int nin, Literal **ins, int nres, Type **rtypes_or_null, Module *m) {
  Prog p = {0};
  p.m = m;
  p.f = func_new(m, "main", SRCLOC_NONE);
  p.nin = nin;
  Value *vals[8];
  for (int i = 0; i < nin; i++) {
    p.ins[i] = ins[i];
    vals[i] = block_add_arg(m, p.f->body, type_clone(&m->arena, ins[i]->type), NULL);
  }
  p.op = op_new(m, k, nin, vals, nres, rtypes_or_null, SRCLOC_NONE);
  block_append(p.f->body, p.op);
  Value *rv[8];
  for (int i = 0; i < nres; i++) rv[i] = &p.op->res[i];
  Op *ret = op_new(m, OP_FUNC_RETURN, nres, rv, 0, NULL, SRCLOC_NONE);
  block_append(p.f->body, ret);
  p.f->nresults = nres;
  return p;
}

/* Runs p; on success out[] holds nres new references.  Frees inputs. */
static bool run(Prog *p, IVal **out) {
  Interp I;
  InterpOptions opts = {0};
  interp_init(&I, p->m, &opts);
  IVal *args[8];
  for (int i = 0; i < p->nin; i++) args[i] = ival_tensor(p->ins[i]);
  bool ok = interp_call(&I, p->f, p->nin, args, out);
  for (int i = 0; i < p->nin; i++) ival_release(args[i]);
  return ok;
}

static void expect_f(const char *what, IVal *v, const double *want, int64_t n, double tol) {
  if (!v || v->kind != IV_TENSOR || v->lit->n != n) {
    CHECK(0, "%s: wrong result shape", what);
    return;
  }
  for (int64_t i = 0; i < n; i++) {
    double got = lit_get_f(v->lit, i);
    bool ok = (isnan(want[i]) && isnan(got)) || fabs(got - want[i]) <= tol * (1 + fabs(want[i]));
    CHECK(ok, "%s[%lld]: got %.9g want %.9g", what, (long long)i, got, want[i]);
  }
}

static void expect_c(const char *what, IVal *v, const double *want, int64_t n, double tol) {
  if (!v || v->kind != IV_TENSOR || v->lit->n != n) {
    CHECK(0, "%s: wrong result shape", what);
    return;
  }
  for (int64_t i = 0; i < n; i++) {
    double re, im;
    lit_get_c(v->lit, i, &re, &im);
    CHECK(fabs(re - want[2 * i]) <= tol && fabs(im - want[2 * i + 1]) <= tol,
          "%s[%lld]: got (%g, %g) want (%g, %g)", what, (long long)i, re, im, want[2 * i], want[2 * i + 1]);
  }
}

static void expect_u(const char *what, IVal *v, const uint64_t *want, int64_t n) {
  if (!v || v->kind != IV_TENSOR || v->lit->n != n) {
    CHECK(0, "%s: wrong result shape", what);
    return;
  }
  for (int64_t i = 0; i < n; i++) {
    uint64_t got = lit_get_bits(v->lit, i);
    CHECK(got == want[i], "%s[%lld]: got %llu want %llu", what, (long long)i, (unsigned long long)got,
          (unsigned long long)want[i]);
  }
}

static void release_all(IVal **v, int n) {
  for (int i = 0; i < n; i++) ival_release(v[i]);
}

static Attr *dot_dims(Module *m, int nb, const int64_t *lb, const int64_t *rb, int nc,
                      const int64_t *lc, const int64_t *rc) {
  const char *keys[4] = {"lhs_batching_dimensions", "rhs_batching_dimensions",
                         "lhs_contracting_dimensions", "rhs_contracting_dimensions"};
  Attr *v[4] = {attr_ints(m, nb, lb), attr_ints(m, nb, rb), attr_ints(m, nc, lc), attr_ints(m, nc, rc)};
  return attr_dict(m, "stablehlo.dot", 4, keys, v);
}

/* ---- dot_general / dot / einsum ---- */
static void test_dot_general(void) {
  {
    /* [2,3] x [3,2] f32 */
    Module *m = module_new();
    double a[] = {1, 2, 3, 4, 5, 6}, b[] = {7, 8, 9, 10, 11, 12};
    Literal *in[2] = {mklit(ET_F32, 2, (int64_t[]){2, 3}, a), mklit(ET_F32, 2, (int64_t[]){3, 2}, b)};
    Type *rt = ty(m, ET_F32, 2, (int64_t[]){2, 2});
    Prog p = prog(OP_DOT_GENERAL, 2, in, 1, &rt, m);
    op_set_attr(m, p.op, "dot_dimension_numbers", dot_dims(m, 0, NULL, NULL, 1, (int64_t[]){1}, (int64_t[]){0}));
    IVal *out[1] = {0};
    CHECK(run(&p, out), "dot_general f32 ran");
    expect_f("dot_general f32", out[0], (double[]){58, 64, 139, 154}, 4, 0);
    release_all(out, 1);
    module_free(m);
  }
  {
    /* batch dim last on lhs, contracting first: lhs [3(k), 2(b)], rhs [2(b), 3(k)] */
    Module *m = module_new();
    double a[] = {1, 2, 3, 4, 5, 6}, b[] = {1, 1, 1, 2, 2, 2};
    Literal *in[2] = {mklit(ET_F64, 2, (int64_t[]){3, 2}, a), mklit(ET_F64, 2, (int64_t[]){2, 3}, b)};
    Type *rt = ty(m, ET_F64, 1, (int64_t[]){2});
    Prog p = prog(OP_DOT_GENERAL, 2, in, 1, &rt, m);
    op_set_attr(m, p.op, "dot_dimension_numbers",
                dot_dims(m, 1, (int64_t[]){1}, (int64_t[]){0}, 1, (int64_t[]){0}, (int64_t[]){1}));
    IVal *out[1] = {0};
    CHECK(run(&p, out), "dot_general batch ran");
    /* b0: 1+3+5 = 9; b1: 2*(2+4+6) = 24 */
    expect_f("dot_general batch", out[0], (double[]){9, 24}, 2, 0);
    release_all(out, 1);
    module_free(m);
  }
  {
    /* i8 x i8 -> i32 converts first: 100*100*2 = 20000, no i8 wrap */
    Module *m = module_new();
    double a[] = {100, -100}, b[] = {100, -100};
    Literal *in[2] = {mklit(ET_S8, 1, (int64_t[]){2}, a), mklit(ET_S8, 1, (int64_t[]){2}, b)};
    Type *rt = ty(m, ET_S32, 0, NULL);
    Prog p = prog(OP_DOT_GENERAL, 2, in, 1, &rt, m);
    op_set_attr(m, p.op, "dot_dimension_numbers", dot_dims(m, 0, NULL, NULL, 1, (int64_t[]){0}, (int64_t[]){0}));
    IVal *out[1] = {0};
    CHECK(run(&p, out), "dot_general i8->i32 ran");
    expect_f("dot_general i8->i32", out[0], (double[]){20000}, 1, 0);
    release_all(out, 1);
    module_free(m);
  }
  {
    /* i32 wraps: 65536 * 65536 = 2^32 -> 0 */
    Module *m = module_new();
    Literal *in[2] = {mklit(ET_S32, 1, (int64_t[]){1}, (double[]){65536}),
                      mklit(ET_S32, 1, (int64_t[]){1}, (double[]){65537})};
    Type *rt = ty(m, ET_S32, 0, NULL);
    Prog p = prog(OP_DOT_GENERAL, 2, in, 1, &rt, m);
    op_set_attr(m, p.op, "dot_dimension_numbers", dot_dims(m, 0, NULL, NULL, 1, (int64_t[]){0}, (int64_t[]){0}));
    IVal *out[1] = {0};
    CHECK(run(&p, out), "dot_general wrap ran");
    expect_f("dot_general wrap", out[0], (double[]){65536}, 1, 0);
    release_all(out, 1);
    module_free(m);
  }
  {
    /* complex: (1+2i)(3+4i) = -5+10i */
    Module *m = module_new();
    Literal *in[2] = {mklit_c(ET_C64, 1, (int64_t[]){1}, (double[]){1, 2}),
                      mklit_c(ET_C64, 1, (int64_t[]){1}, (double[]){3, 4})};
    Type *rt = ty(m, ET_C64, 0, NULL);
    Prog p = prog(OP_DOT_GENERAL, 2, in, 1, &rt, m);
    op_set_attr(m, p.op, "dot_dimension_numbers", dot_dims(m, 0, NULL, NULL, 1, (int64_t[]){0}, (int64_t[]){0}));
    IVal *out[1] = {0};
    CHECK(run(&p, out), "dot_general complex ran");
    expect_c("dot_general complex", out[0], (double[]){-5, 10}, 1, 0);
    release_all(out, 1);
    module_free(m);
  }
  {
    /* a wrong result shape is a runtime error, not a crash */
    Module *m = module_new();
    Literal *in[2] = {mklit(ET_F32, 1, (int64_t[]){2}, NULL), mklit(ET_F32, 1, (int64_t[]){3}, NULL)};
    Type *rt = ty(m, ET_F32, 0, NULL);
    Prog p = prog(OP_DOT_GENERAL, 2, in, 1, &rt, m);
    op_set_attr(m, p.op, "dot_dimension_numbers", dot_dims(m, 0, NULL, NULL, 1, (int64_t[]){0}, (int64_t[]){0}));
    IVal *out[1] = {0};
    FILE *devnull = fopen("/dev/null", "w");
    diag_set_stream(devnull);
    CHECK(!run(&p, out), "dot_general size mismatch fails");
    diag_set_stream(stderr);
    fclose(devnull);
    release_all(out, 1);
    module_free(m);
  }
  {
    /* dot: matrix x vector */
    Module *m = module_new();
    Literal *in[2] = {mklit(ET_S64, 2, (int64_t[]){2, 2}, (double[]){1, 2, 3, 4}),
                      mklit(ET_S64, 1, (int64_t[]){2}, (double[]){5, 6})};
    Type *rt = ty(m, ET_S64, 1, (int64_t[]){2});
    Prog p = prog(OP_DOT, 2, in, 1, &rt, m);
    IVal *out[1] = {0};
    CHECK(run(&p, out), "dot ran");
    expect_f("dot", out[0], (double[]){17, 39}, 2, 0);
    release_all(out, 1);
    module_free(m);
  }
  {
    /* einsum "ij,jk->ki" */
    Module *m = module_new();
    Literal *in[2] = {mklit(ET_F32, 2, (int64_t[]){2, 2}, (double[]){1, 2, 3, 4}),
                      mklit(ET_F32, 2, (int64_t[]){2, 2}, (double[]){5, 6, 7, 8})};
    Type *rt = ty(m, ET_F32, 2, (int64_t[]){2, 2});
    Prog p = prog(OP_EINSUM, 2, in, 1, &rt, m);
    op_set_attr(m, p.op, "einsum_config", attr_string(m, "ij,jk->ki", 9));
    IVal *out[1] = {0};
    CHECK(run(&p, out), "einsum ran");
    expect_f("einsum", out[0], (double[]){19, 43, 22, 50}, 4, 0);
    release_all(out, 1);
    module_free(m);
  }
  {
    /* unary_einsum "ii->i" takes the diagonal */
    Module *m = module_new();
    Literal *in[1] = {mklit(ET_S32, 2, (int64_t[]){2, 2}, (double[]){1, 2, 3, 4})};
    Type *rt = ty(m, ET_S32, 1, (int64_t[]){2});
    Prog p = prog(OP_UNARY_EINSUM, 1, in, 1, &rt, m);
    op_set_attr(m, p.op, "einsum_config", attr_string(m, "ii->i", 5));
    IVal *out[1] = {0};
    CHECK(run(&p, out), "unary_einsum ran");
    expect_f("unary_einsum", out[0], (double[]){1, 4}, 2, 0);
    release_all(out, 1);
    module_free(m);
  }
}

/* ---- convolution ---- */
static Attr *conv_dims(Module *m, int ns, int64_t ib, int64_t ifd, const int64_t *is, int64_t ki,
                       int64_t ko, const int64_t *ks, int64_t ob, int64_t of, const int64_t *os) {
  const char *keys[9] = {"input_batch_dimension", "input_feature_dimension", "input_spatial_dimensions",
                         "kernel_input_feature_dimension", "kernel_output_feature_dimension",
                         "kernel_spatial_dimensions", "output_batch_dimension", "output_feature_dimension",
                         "output_spatial_dimensions"};
  Attr *v[9] = {attr_int(m, ib, NULL), attr_int(m, ifd, NULL), attr_ints(m, ns, is),
                attr_int(m, ki, NULL), attr_int(m, ko, NULL), attr_ints(m, ns, ks),
                attr_int(m, ob, NULL), attr_int(m, of, NULL), attr_ints(m, ns, os)};
  return attr_dict(m, "stablehlo.conv", 9, keys, v);
}

static void test_convolution(void) {
  double lhs[16] = {1, 2, 5, 6, 3, 4, 7, 8, 10, 11, 14, 15, 12, 13, 16, 17};
  {
    /* the spec's example: [b,0,1,f]x[0,1,i,o]->[b,0,1,f], stride 4, lhs_dilation 2 */
    Module *m = module_new();
    double ones[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
    Literal *in[2] = {mklit(ET_S64, 4, (int64_t[]){1, 4, 4, 1}, lhs), mklit(ET_S64, 4, (int64_t[]){3, 3, 1, 1}, ones)};
    Type *rt = ty(m, ET_S64, 4, (int64_t[]){1, 2, 2, 1});
    Prog p = prog(OP_CONVOLUTION, 2, in, 1, &rt, m);
    op_set_attr(m, p.op, "dimension_numbers",
                conv_dims(m, 2, 0, 3, (int64_t[]){1, 2}, 2, 3, (int64_t[]){0, 1}, 0, 3, (int64_t[]){1, 2}));
    op_set_attr(m, p.op, "window_strides", attr_ints(m, 2, (int64_t[]){4, 4}));
    op_set_attr(m, p.op, "lhs_dilation", attr_ints(m, 2, (int64_t[]){2, 2}));
    IVal *out[1] = {0};
    CHECK(run(&p, out), "conv ran");
    expect_f("conv spec example", out[0], (double[]){10, 26, 46, 62}, 4, 0);
    release_all(out, 1);
    module_free(m);
  }
  {
    /* 1-D, [b,f,0]: negative low padding, rhs dilation 2, reversal */
    Module *m = module_new();
    Literal *in[2] = {mklit(ET_F32, 3, (int64_t[]){1, 1, 6}, (double[]){1, 2, 3, 4, 5, 6}),
                      mklit(ET_F32, 3, (int64_t[]){1, 1, 2}, (double[]){10, 1})};
    /* padded input = [2..6] (pad -1, 0); window taps at 0 and 2, reversed kernel [1, 10]
       outputs: x[i]*1 + x[i+2]*10 for windows starting at 0,1,2 -> 2+40, 3+50, 4+60 */
    Type *rt = ty(m, ET_F32, 3, (int64_t[]){1, 1, 3});
    Prog p = prog(OP_CONVOLUTION, 2, in, 1, &rt, m);
    op_set_attr(m, p.op, "dimension_numbers",
                conv_dims(m, 1, 0, 1, (int64_t[]){2}, 1, 0, (int64_t[]){2}, 0, 1, (int64_t[]){2}));
    op_set_attr(m, p.op, "rhs_dilation", attr_ints(m, 1, (int64_t[]){2}));
    op_set_attr(m, p.op, "padding", attr_ints(m, 2, (int64_t[]){-1, 0}));
    Attr *rev = attr_ints(m, 1, (int64_t[]){1});
    rev->kind = ATTR_BOOLS;
    op_set_attr(m, p.op, "window_reversal", rev);
    IVal *out[1] = {0};
    CHECK(run(&p, out), "conv 1d ran");
    expect_f("conv 1d", out[0], (double[]){42, 53, 64}, 3, 0);
    release_all(out, 1);
    module_free(m);
  }
  {
    /* zero spatial dims with feature groups: a grouped matmul */
    Module *m = module_new();
    /* lhs [b=1, f=4]; rhs [i=2, o=2]; groups of 2 input features -> 1 output each */
    Literal *in[2] = {mklit(ET_S32, 2, (int64_t[]){1, 4}, (double[]){1, 2, 3, 4}),
                      mklit(ET_S32, 2, (int64_t[]){2, 2}, (double[]){1, 10, 100, 1000})};
    Type *rt = ty(m, ET_S32, 2, (int64_t[]){1, 2});
    Prog p = prog(OP_CONVOLUTION, 2, in, 1, &rt, m);
    op_set_attr(m, p.op, "dimension_numbers", conv_dims(m, 0, 0, 1, NULL, 0, 1, NULL, 0, 1, NULL));
    op_set_attr(m, p.op, "feature_group_count", attr_int(m, 2, NULL));
    IVal *out[1] = {0};
    CHECK(run(&p, out), "conv grouped ran");
    /* out0 = 1*1 + 2*100 = 201; out1 = 3*10 + 4*1000 = 4030 */
    expect_f("conv grouped", out[0], (double[]){201, 4030}, 2, 0);
    release_all(out, 1);
    module_free(m);
  }
}

/* ---- fft ---- */
static void test_fft(void) {
  {
    Module *m = module_new();
    Literal *in[1] = {mklit(ET_F32, 1, (int64_t[]){4}, (double[]){1, 2, 3, 4})};
    Type *rt = ty(m, ET_C64, 1, (int64_t[]){3});
    Prog p = prog(OP_FFT, 1, in, 1, &rt, m);
    op_set_attr(m, p.op, "fft_type", attr_enum(m, "fft_type", "RFFT"));
    op_set_attr(m, p.op, "fft_length", attr_ints(m, 1, (int64_t[]){4}));
    IVal *out[1] = {0};
    CHECK(run(&p, out), "rfft ran");
    expect_c("rfft", out[0], (double[]){10, 0, -2, 2, -2, 0}, 3, 1e-6);
    release_all(out, 1);
    module_free(m);
  }
  {
    /* length 3 (not a power of two), forward then compare with the DFT */
    Module *m = module_new();
    Literal *in[1] = {mklit_c(ET_C128, 1, (int64_t[]){3}, (double[]){1, 0, 2, 0, 3, 0})};
    Type *rt = ty(m, ET_C128, 1, (int64_t[]){3});
    Prog p = prog(OP_FFT, 1, in, 1, &rt, m);
    op_set_attr(m, p.op, "fft_type", attr_enum(m, "fft_type", "FFT"));
    op_set_attr(m, p.op, "fft_length", attr_ints(m, 1, (int64_t[]){3}));
    IVal *out[1] = {0};
    CHECK(run(&p, out), "fft3 ran");
    double s = sqrt(3) / 2;
    expect_c("fft3", out[0], (double[]){6, 0, -1.5, s, -1.5, -s}, 3, 1e-12);
    release_all(out, 1);
    module_free(m);
  }
  {
    /* IRFFT of odd length 5 round-trips a known spectrum: x = [1,0,0,0,0] */
    Module *m = module_new();
    Literal *in[1] = {mklit_c(ET_C128, 1, (int64_t[]){3}, (double[]){1, 0, 1, 0, 1, 0})};
    Type *rt = ty(m, ET_F64, 1, (int64_t[]){5});
    Prog p = prog(OP_FFT, 1, in, 1, &rt, m);
    op_set_attr(m, p.op, "fft_type", attr_enum(m, "fft_type", "IRFFT"));
    op_set_attr(m, p.op, "fft_length", attr_ints(m, 1, (int64_t[]){5}));
    IVal *out[1] = {0};
    CHECK(run(&p, out), "irfft5 ran");
    expect_f("irfft5", out[0], (double[]){1, 0, 0, 0, 0}, 5, 1e-12);
    release_all(out, 1);
    module_free(m);
  }
}

/* ---- triangular_solve / cholesky ---- */
static void test_solvers(void) {
  {
    Module *m = module_new();
    Literal *in[2] = {mklit(ET_F32, 2, (int64_t[]){3, 3}, (double[]){1, 0, 0, 2, 4, 0, 3, 5, 6}),
                      mklit(ET_F32, 2, (int64_t[]){3, 3}, (double[]){2, 0, 0, 4, 8, 0, 6, 10, 12})};
    Type *rt = ty(m, ET_F32, 2, (int64_t[]){3, 3});
    Prog p = prog(OP_TRIANGULAR_SOLVE, 2, in, 1, &rt, m);
    op_set_attr(m, p.op, "left_side", attr_bool(m, true));
    op_set_attr(m, p.op, "lower", attr_bool(m, true));
    op_set_attr(m, p.op, "unit_diagonal", attr_bool(m, false));
    op_set_attr(m, p.op, "transpose_a", attr_enum(m, "transpose", "NO_TRANSPOSE"));
    IVal *out[1] = {0};
    CHECK(run(&p, out), "triangular_solve ran");
    expect_f("triangular_solve", out[0], (double[]){2, 0, 0, 0, 2, 0, 0, 0, 2}, 9, 1e-6);
    release_all(out, 1);
    module_free(m);
  }
  {
    /* right side, upper, transposed: x * A^T = b with A upper -> A^T lower */
    Module *m = module_new();
    Literal *in[2] = {mklit(ET_F64, 2, (int64_t[]){2, 2}, (double[]){2, 1, 99, 4}),
                      mklit(ET_F64, 2, (int64_t[]){1, 2}, (double[]){4, 8})};
    /* A^T = [[2,0],[1,4]]; x A^T = [2x0 + x1, 4x1] = [4, 8] -> x1 = 2, x0 = 1 */
    Type *rt = ty(m, ET_F64, 2, (int64_t[]){1, 2});
    Prog p = prog(OP_TRIANGULAR_SOLVE, 2, in, 1, &rt, m);
    op_set_attr(m, p.op, "left_side", attr_bool(m, false));
    op_set_attr(m, p.op, "lower", attr_bool(m, false));
    op_set_attr(m, p.op, "unit_diagonal", attr_bool(m, false));
    op_set_attr(m, p.op, "transpose_a", attr_enum(m, "transpose", "TRANSPOSE"));
    IVal *out[1] = {0};
    CHECK(run(&p, out), "triangular_solve right ran");
    expect_f("triangular_solve right", out[0], (double[]){1, 2}, 2, 1e-12);
    release_all(out, 1);
    module_free(m);
  }
  {
    Module *m = module_new();
    Literal *in[1] = {mklit(ET_F64, 2, (int64_t[]){3, 3}, (double[]){1, 2, 3, 2, 20, 26, 3, 26, 70})};
    Type *rt = ty(m, ET_F64, 2, (int64_t[]){3, 3});
    Prog p = prog(OP_CHOLESKY, 1, in, 1, &rt, m);
    op_set_attr(m, p.op, "lower", attr_bool(m, true));
    IVal *out[1] = {0};
    CHECK(run(&p, out), "cholesky ran");
    expect_f("cholesky lower", out[0], (double[]){1, 0, 0, 2, 4, 0, 3, 5, 6}, 9, 1e-12);
    release_all(out, 1);
    module_free(m);
  }
  {
    Module *m = module_new();
    Literal *in[1] = {mklit(ET_F32, 2, (int64_t[]){3, 3}, (double[]){1, 2, 3, 2, 20, 26, 3, 26, 70})};
    Type *rt = ty(m, ET_F32, 2, (int64_t[]){3, 3});
    Prog p = prog(OP_CHOLESKY, 1, in, 1, &rt, m);
    op_set_attr(m, p.op, "lower", attr_bool(m, false));
    IVal *out[1] = {0};
    CHECK(run(&p, out), "cholesky upper ran");
    expect_f("cholesky upper", out[0], (double[]){1, 2, 3, 0, 4, 5, 0, 0, 6}, 9, 1e-6);
    release_all(out, 1);
    module_free(m);
  }
}

/* ---- batch norm (the spec's examples) ---- */
static void test_batch_norm(void) {
  double x[8] = {1, 2, 3, 4, 3, 4, 1, 2};
  int64_t xd[3] = {2, 2, 2}, vd[1] = {2};
  {
    Module *m = module_new();
    Literal *in[5] = {mklit(ET_F64, 3, xd, x), mklit(ET_F64, 1, vd, (double[]){1, 1}),
                      mklit(ET_F64, 1, vd, (double[]){1, 1}), mklit(ET_F64, 1, vd, (double[]){2, 3}),
                      mklit(ET_F64, 1, vd, (double[]){1, 1})};
    Type *rt = ty(m, ET_F64, 3, xd);
    Prog p = prog(OP_BATCH_NORM_INFERENCE, 5, in, 1, &rt, m);
    op_set_attr(m, p.op, "epsilon", attr_float(m, 0, NULL));
    op_set_attr(m, p.op, "feature_index", attr_int(m, 2, NULL));
    IVal *out[1] = {0};
    CHECK(run(&p, out), "bn inference ran");
    expect_f("bn inference", out[0], (double[]){0, 0, 2, 2, 2, 2, 0, 0}, 8, 1e-12);
    release_all(out, 1);
    module_free(m);
  }
  {
    Module *m = module_new();
    Literal *in[3] = {mklit(ET_F64, 3, xd, x), mklit(ET_F64, 1, vd, (double[]){1, 1}),
                      mklit(ET_F64, 1, vd, (double[]){1, 1})};
    Type *rts[3] = {ty(m, ET_F64, 3, xd), ty(m, ET_F64, 1, vd), ty(m, ET_F64, 1, vd)};
    Prog p = prog(OP_BATCH_NORM_TRAINING, 3, in, 3, rts, m);
    op_set_attr(m, p.op, "epsilon", attr_float(m, 0, NULL));
    op_set_attr(m, p.op, "feature_index", attr_int(m, 2, NULL));
    IVal *out[3] = {0};
    CHECK(run(&p, out), "bn training ran");
    expect_f("bn training out", out[0], (double[]){0, 0, 2, 2, 2, 2, 0, 0}, 8, 1e-12);
    expect_f("bn training mean", out[1], (double[]){2, 3}, 2, 1e-12);
    expect_f("bn training var", out[2], (double[]){1, 1}, 2, 1e-12);
    release_all(out, 3);
    module_free(m);
  }
  {
    Module *m = module_new();
    double g[8] = {0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1};
    Literal *in[5] = {mklit(ET_F64, 3, xd, x), mklit(ET_F64, 1, vd, (double[]){1, 1}),
                      mklit(ET_F64, 1, vd, (double[]){2, 3}), mklit(ET_F64, 1, vd, (double[]){1, 1}),
                      mklit(ET_F64, 3, xd, g)};
    Type *rts[3] = {ty(m, ET_F64, 3, xd), ty(m, ET_F64, 1, vd), ty(m, ET_F64, 1, vd)};
    Prog p = prog(OP_BATCH_NORM_GRAD, 5, in, 3, rts, m);
    op_set_attr(m, p.op, "epsilon", attr_float(m, 0, NULL));
    op_set_attr(m, p.op, "feature_index", attr_int(m, 2, NULL));
    IVal *out[3] = {0};
    CHECK(run(&p, out), "bn grad ran");
    expect_f("bn grad operand", out[0], (double[]){0, 0, 0, 0, 0, 0, 0, 0}, 8, 1e-12);
    expect_f("bn grad scale", out[1], (double[]){0, 0}, 2, 1e-12);
    expect_f("bn grad offset", out[2], (double[]){0.4, 0.4}, 2, 1e-12);
    release_all(out, 3);
    module_free(m);
  }
}

/* ---- rng_bit_generator: expected values produced by XLA (via JAX) ---- */
static void rbg_run(const char *alg, int nstate, const uint64_t *state, ElemType et, int rank,
                    const int64_t *dims, const uint64_t *want_state, const uint64_t *want) {
  Module *m = module_new();
  int64_t ns = nstate;
  Literal *st = mklit(ET_U64, 1, &ns, NULL);
  for (int i = 0; i < nstate; i++) lit_set_u(st, i, state[i]);
  Literal *in[1] = {st};
  Type *rts[2] = {ty(m, ET_U64, 1, &ns), ty(m, et, rank, dims)};
  int64_t n = type_num_elements(rts[1]);
  Prog p = prog(OP_RNG_BIT_GENERATOR, 1, in, 2, rts, m);
  op_set_attr(m, p.op, "rng_algorithm", attr_enum(m, "rng_algorithm", alg));
  IVal *out[2] = {0};
  CHECK(run(&p, out), "rng_bit_generator %s ran", alg);
  char what[64];
  snprintf(what, sizeof what, "rbg %s state", alg);
  expect_u(what, out[0], want_state, nstate);
  snprintf(what, sizeof what, "rbg %s %s", alg, elem_info[et].mlir_name);
  expect_u(what, out[1], want, n);
  release_all(out, 2);
  module_free(m);
}

static void rbg_case2(const char *alg, uint64_t k0, uint64_t k1, ElemType et, int rank,
                      const int64_t *dims, const uint64_t *want_state, const uint64_t *want) {
  rbg_run(alg, 2, (uint64_t[]){k0, k1}, et, rank, dims, want_state, want);
}

static void rbg_case(const char *alg, uint64_t k0, uint64_t k1, ElemType et, int64_t n,
                     const uint64_t *want_state, const uint64_t *want) {
  rbg_case2(alg, k0, k1, et, 1, &n, want_state, want);
}

static void test_rng_bit_generator(void) {
  rbg_case("THREE_FRY", 1, 2, ET_U64, 4, (uint64_t[]){1, 6},
           (uint64_t[]){9236835810183407956ull, 16087790271692313299ull, 18212823393184779219ull,
                        2658481902456610144ull});
  rbg_case("THREE_FRY", 1, 2, ET_U32, 5, (uint64_t[]){1, 5},
           (uint64_t[]){43444564, 2150618427, 3979645651, 3745730563, 1672743891});
  rbg_case("THREE_FRY", 1, 2, ET_U16, 3, (uint64_t[]){1, 4}, (uint64_t[]){59732, 54587, 37587});
  rbg_case2("THREE_FRY", 1, 2, ET_U8, 2, (int64_t[]){2, 3}, (uint64_t[]){1, 5},
            (uint64_t[]){84, 211, 211, 59, 3, 97});
  rbg_case("THREE_FRY", 0x123456789abcdef0ull, 0xfedcba9876543210ull, ET_U32, 5,
           (uint64_t[]){0x123456789abcdef0ull, 18364758544493064723ull},
           (uint64_t[]){2454742025, 2188719829, 1300334949, 576655657, 3928822841});
  rbg_case("PHILOX", 1, 2, ET_U64, 4, (uint64_t[]){1, 4},
           (uint64_t[]){12229731395331991369ull, 3437131457114678231ull, 13465615291114923006ull,
                        9328616520744100567ull});
  rbg_case("PHILOX", 1, 2, ET_U32, 5, (uint64_t[]){1, 4},
           (uint64_t[]){2100602697, 2847456232, 2074354647, 800269529, 1828267006});
  rbg_case("PHILOX", 1, 2, ET_U16, 3, (uint64_t[]){1, 3}, (uint64_t[]){42825, 48104, 9175});
  rbg_case("PHILOX", 0x123456789abcdef0ull, 0xfedcba9876543210ull, ET_U64, 3,
           (uint64_t[]){0x123456789abcdef0ull, 18364758544493064722ull},
           (uint64_t[]){11806536631397518251ull, 18287371812999769369ull, 2372688214173612639ull});
  rbg_case2("DEFAULT", 0x123456789abcdef0ull, 0xfedcba9876543210ull, ET_U8, 2, (int64_t[]){2, 3},
           (uint64_t[]){0x123456789abcdef0ull, 18364758544493064722ull},
           (uint64_t[]){171, 131, 25, 197, 95, 92});
  /* 3-word PHILOX states: a 128-bit counter, including the carry */
  rbg_run("PHILOX", 3, (uint64_t[]){1, 2, 3}, ET_U32, 1, (int64_t[]){5}, (uint64_t[]){1, 4, 3},
          (uint64_t[]){4031113034, 1366700262, 495645701, 3051723414, 89414891});
  rbg_run("PHILOX", 3, (uint64_t[]){5, UINT64_MAX, 7}, ET_U32, 1, (int64_t[]){5}, (uint64_t[]){5, 1, 8},
          (uint64_t[]){408654879, 156914071, 4246078289, 2550873154, 1414544935});
}

/* ---- quantization ---- */
bool interp_quantized_wrap(Interp *I, Op *op, IVal **args, IVal **res,
                           bool (*fn)(Interp *I, Op *op, IVal **args, IVal **res));

static Type *qtype(Module *m, ElemType storage, int64_t n, double scale, int64_t zp) {
  Type *t = ty(m, storage, 1, &n);
  QuantInfo *q = ARENA_NEW(&m->arena, QuantInfo);
  q->storage = storage;
  q->expressed = ET_F32;
  q->storage_min = -128;
  q->storage_max = 127;
  q->quant_dim = -1;
  q->nscales = 1;
  q->scales = ARENA_ARRAY(&m->arena, double, 1);
  q->zero_points = ARENA_ARRAY(&m->arena, int64_t, 1);
  q->scales[0] = scale;
  q->zero_points[0] = zp;
  t->quant = q;
  return t;
}

/* The public suite's quantized add: dequantize -> add -> quantize. */
static void test_quantized_wrap(void) {
  Module *m = module_new();
  Type *t1 = qtype(m, ET_S8, 2, 0.1, -30), *t2 = qtype(m, ET_S8, 2, 0.5, -20);
  Literal *a = lit_new(t1), *b = lit_new(t2);
  lit_set_i(a, 0, -20), lit_set_i(a, 1, -10); /* 1.0, 2.0 */
  lit_set_i(b, 0, -14), lit_set_i(b, 1, -12); /* 3.0, 4.0 */
  Literal *in[2] = {a, b};
  Prog p = prog(OP_ADD, 2, in, 1, &t2, m);
  Interp I;
  InterpOptions opts = {0};
  interp_init(&I, m, &opts);
  IVal *args[2] = {ival_tensor(a), ival_tensor(b)}, *out[1] = {0};
  CHECK(interp_quantized_wrap(&I, p.op, args, out, interp_ADD), "quantized add ran");
  expect_f("quantized add", out[0], (double[]){-12, -8}, 2, 0);
  CHECK(out[0] && out[0]->lit->type->quant && out[0]->lit->type->quant->scales[0] == 0.5,
        "quantized add keeps the result's quantization");
  release_all(args, 2);
  release_all(out, 1);
  module_free(m);
}

int main(void) {
  for (size_t i = 0; i < sizeof lin_ops / sizeof lin_ops[0]; i++) CHECK(lin_ops[i] != NULL, "entry %zu", i);
  test_dot_general();
  test_convolution();
  test_fft();
  test_solvers();
  test_batch_norm();
  test_rng_bit_generator();
  test_quantized_wrap();
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
