/*
 * checks.c - the test-assertion ops (check.expect_*), their custom_call
 * spellings, and the interpreter's debugging ops (interpreter.probe,
 * interpreter.print).
 *
 * Semantics follow the StableHLO reference checker:
 *  - expect_eq: exact.  Floats must be bitwise equal (so -0 differs from
 *    +0, which matters for an oracle) except that any two NaNs are equal.
 *  - expect_almost_eq: floats (and each complex part) are equal when both
 *    are NaN, compare equal, or are finite with |a - b| <= tolerance
 *    (absolute; default 1e-4).  Integers and booleans must match exactly.
 *  - expect_close: ULP distance, counted on the bit patterns as the
 *    reference does (opposite signs add their distances from zero; two NaNs
 *    are 0 apart; any other non-finite mismatch is infinitely far), must
 *    lie in [min_ulp_difference, max_ulp_difference], defaults 0 and 1.
 *  - expect_serialized_eq: the value a probe stored under the same probe_id
 *    (the iter-th time it ran) must equal the operand exactly.
 * A failed check is reported on the interpreter's output with its location
 * and the first differing elements; it never stops execution.  Counters:
 * a passing check increments checks_run, a failing one checks_failed.
 *
 * Probes write <probe_dir>/probe<N>.npy and append "probe_id,type,file" to
 * <probe_dir>/index.csv; the index is what serialized_eq consults.
 */
#include "interp/checks.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "support/npy.h"

/* Threads of a replica grid share the output stream and the probe index. */
static pthread_mutex_t probe_lock = PTHREAD_MUTEX_INITIALIZER;

static FILE *out_of(const Interp *I) { return I->opts && I->opts->out ? I->opts->out : stdout; }

static void put_loc(StrBuf *b, SrcLoc loc) {
  const SrcFile *f = src_get(loc.file);
  if (!f) {
    sb_puts(b, "<unknown location>");
    return;
  }
  int line, col;
  src_line_col(loc, &line, &col);
  sb_printf(b, "%s:%d:%d", f->name, line, col);
}

static void emit(const Interp *I, StrBuf *b) {
  FILE *out = out_of(I);
  flockfile(out);
  fputs(b->data ? b->data : "", out);
  fflush(out);
  funlockfile(out);
}

/* ---- human-readable values ---- */
static void format_float(StrBuf *b, double v) {
  if (isnan(v)) {
    sb_puts(b, "nan");
  } else if (isinf(v)) {
    sb_puts(b, v < 0 ? "-inf" : "inf");
  } else {
    char buf[40];
    snprintf(buf, sizeof buf, "%.7g", v);
    sb_puts(b, buf);
  }
}

static void format_elem(StrBuf *b, const Literal *l, int64_t i) {
  ElemType et = lit_elem(l);
  switch (et_class(et)) {
  case EC_PRED: sb_puts(b, lit_get_b(l, i) ? "true" : "false"); break;
  case EC_SINT: sb_printf(b, "%lld", (long long)lit_get_i(l, i)); break;
  case EC_UINT: sb_printf(b, "%llu", (unsigned long long)lit_get_u(l, i)); break;
  case EC_FLOAT: format_float(b, lit_get_f(l, i)); break;
  case EC_COMPLEX: {
    double re, im;
    lit_get_c(l, i, &re, &im);
    sb_putc(b, '(');
    format_float(b, re);
    sb_puts(b, ", ");
    format_float(b, im);
    sb_putc(b, ')');
    break;
  }
  default: sb_puts(b, "?"); break;
  }
}

enum { EDGE = 3, SUMMARY_THRESHOLD = 1000 };

static void format_nested(StrBuf *b, const Literal *l, int dim, int64_t base, bool summarize) {
  const Type *t = l->type;
  if (dim == t->rank) {
    format_elem(b, l, base);
    return;
  }
  int64_t stride = 1;
  for (int k = dim + 1; k < t->rank; k++) stride *= t->dims[k];
  int64_t n = t->dims[dim];
  bool cut = summarize && n > 2 * EDGE;
  sb_putc(b, '[');
  for (int64_t i = 0; i < n; i++) {
    if (cut && i == EDGE) {
      sb_puts(b, ", ...");
      i = n - EDGE - 1;
      continue;
    }
    if (i) sb_puts(b, ", ");
    format_nested(b, l, dim + 1, base + i * stride, summarize);
  }
  sb_putc(b, ']');
}

void interp_format_tensor(StrBuf *b, const Literal *l, bool all) {
  format_nested(b, l, 0, 0, !all && l->n > SUMMARY_THRESHOLD);
}

void interp_format_value(StrBuf *b, const IVal *v, bool all) {
  switch (v->kind) {
  case IV_TENSOR: {
    char *ts = type_str(v->lit->type);
    sb_printf(b, "%s = ", ts);
    xfree(ts);
    interp_format_tensor(b, v->lit, all);
    break;
  }
  case IV_TOKEN: sb_puts(b, "!stablehlo.token"); break;
  case IV_TUPLE:
    sb_puts(b, "tuple(");
    for (int i = 0; i < v->n; i++) {
      if (i) sb_puts(b, ", ");
      interp_format_value(b, v->elems[i], all);
    }
    sb_putc(b, ')');
    break;
  }
}

/* ---- element comparison ---- */
typedef enum { CMP_EQ, CMP_ALMOST, CMP_CLOSE } CmpMode;
typedef struct CmpSpec {
  CmpMode mode;
  double tol;
  uint64_t min_ulp, max_ulp;
} CmpSpec;

/* Bit pattern and value of a float element, or of part `part` (0 = real,
   1 = imaginary) of a complex one; *et is the scalar float type. */
static void float_part(const Literal *l, int64_t i, int part, ElemType *et, uint64_t *bits, double *val) {
  ElemType t = lit_elem(l);
  if (et_is_complex(t)) {
    const char *p = (const char *)lit_ptr(l, i);
    if (t == ET_C64) {
      float f;
      uint32_t u;
      memcpy(&f, p + 4 * part, 4);
      memcpy(&u, p + 4 * part, 4);
      *et = ET_F32, *bits = u, *val = f;
    } else {
      double d;
      uint64_t u;
      memcpy(&d, p + 8 * part, 8);
      memcpy(&u, p + 8 * part, 8);
      *et = ET_F64, *bits = u, *val = d;
    }
    return;
  }
  *et = t;
  *bits = lit_get_bits(l, i);
  *val = lit_get_f(l, i);
}

static uint64_t ulp_distance(ElemType et, uint64_t a, double av, uint64_t b, double bv) {
  if (a == b) return 0;
  if (isnan(av) && isnan(bv)) return 0;
  if (!isfinite(av) || !isfinite(bv) || isnan(av) || isnan(bv)) return UINT64_MAX;
  /* f8E8M0FNU has no sign bit */
  uint64_t sign = et == ET_F8E8M0FNU ? 0 : UINT64_C(1) << (et_bits(et) - 1);
  uint64_t ma = a & ~sign, mb = b & ~sign;
  if ((a & sign) != (b & sign)) return ma + mb;
  return ma > mb ? ma - mb : mb - ma;
}

static bool almost_equal(double a, double b, double tol) {
  if (a == b) return true;
  if (isnan(a) || isnan(b)) return isnan(a) && isnan(b);
  if (!isfinite(a) || !isfinite(b)) return false;
  return fabs(a - b) <= tol;
}

/* Whether element i of got matches element i of want; *ulp gets the ULP
   distance in CMP_CLOSE mode. */
static bool elem_ok(const Literal *got, const Literal *want, int64_t i, const CmpSpec *s, uint64_t *ulp) {
  ElemType et = lit_elem(got);
  *ulp = 0;
  if (!et_is_fp(et)) return lit_get_u(got, i) == lit_get_u(want, i);
  int parts = et_is_complex(et) ? 2 : 1;
  bool ok = true;
  for (int p = 0; p < parts; p++) {
    ElemType pt;
    uint64_t ga, wa;
    double gv, wv;
    float_part(got, i, p, &pt, &ga, &gv);
    float_part(want, i, p, &pt, &wa, &wv);
    switch (s->mode) {
    case CMP_EQ: ok = ok && (ga == wa || (isnan(gv) && isnan(wv))); break;
    case CMP_ALMOST: ok = ok && almost_equal(gv, wv, s->tol); break;
    case CMP_CLOSE: {
      uint64_t d = ulp_distance(pt, ga, gv, wa, wv);
      if (d > *ulp) *ulp = d;
      break;
    }
    }
  }
  if (s->mode == CMP_CLOSE) ok = *ulp >= s->min_ulp && *ulp <= s->max_ulp;
  return ok;
}

static void put_index(StrBuf *b, const Type *t, int64_t flat) {
  int64_t idx[64] = {0};
  int rank = t->rank < 64 ? t->rank : 64;
  for (int k = rank - 1; k >= 0; k--) {
    int64_t d = t->dims[k] > 0 ? t->dims[k] : 1;
    idx[k] = flat % d;
    flat /= d;
  }
  sb_putc(b, '[');
  for (int k = 0; k < rank; k++) sb_printf(b, "%s%lld", k ? ", " : "", (long long)idx[k]);
  sb_putc(b, ']');
}

static void put_elem_exact(StrBuf *b, const Literal *l, int64_t i) {
  lit_format_elem(b, l, i);
  /* two different NaNs or zeros print alike; show the bits of odd floats */
  if (et_is_float(lit_elem(l))) {
    double v = lit_get_f(l, i);
    if (isnan(v) || (v == 0 && signbit(v)))
      sb_printf(b, " (0x%llX)", (unsigned long long)lit_get_bits(l, i));
  }
}

static bool check_done(Interp *I, const Op *op, const char *what, bool pass, StrBuf *detail) {
  if (pass) {
    I->checks_run++;
    if (I->opts && !I->opts->quiet_checks) {
      StrBuf b = {0};
      sb_printf(&b, "%s passed at ", what);
      put_loc(&b, op->loc);
      sb_putc(&b, '\n');
      emit(I, &b);
      sb_free(&b);
    }
  } else {
    I->checks_failed++;
    StrBuf b = {0};
    sb_printf(&b, "%s failed at ", what);
    put_loc(&b, op->loc);
    sb_printf(&b, ": %s\n", detail && detail->data ? detail->data : "");
    emit(I, &b);
    sb_free(&b);
  }
  return pass;
}

static bool same_type(const Type *a, const Type *b) {
  if (a->elem != b->elem || a->rank != b->rank) return false;
  for (int i = 0; i < a->rank; i++)
    if (a->dims[i] != b->dims[i]) return false;
  return true;
}

enum { SHOW = 5 };

/* Compares and records the outcome; returns whether the check passed. */
static bool compare(Interp *I, const Op *op, const char *what, const Literal *got, const Literal *want,
                    const CmpSpec *s) {
  StrBuf d = {0};
  if (!same_type(got->type, want->type)) {
    char *g = type_str(got->type), *w = type_str(want->type);
    sb_printf(&d, "type mismatch: got %s, expected %s", g, w);
    xfree(g);
    xfree(w);
    bool r = check_done(I, op, what, false, &d);
    sb_free(&d);
    return r;
  }
  int64_t ndiff = 0, shown[SHOW];
  uint64_t ulps[SHOW];
  for (int64_t i = 0; i < got->n; i++) {
    uint64_t ulp;
    if (elem_ok(got, want, i, s, &ulp)) continue;
    if (ndiff < SHOW) {
      shown[ndiff] = i;
      ulps[ndiff] = ulp;
    }
    ndiff++;
  }
  if (ndiff == 0) return check_done(I, op, what, true, NULL);
  for (int k = 0; k < ndiff && k < SHOW; k++) {
    int64_t i = shown[k];
    if (k) sb_puts(&d, "\n  ");
    if (got->type->rank == 0) {
      sb_puts(&d, "value");
    } else {
      sb_puts(&d, "element ");
      put_index(&d, got->type, i);
    }
    sb_puts(&d, ": got ");
    put_elem_exact(&d, got, i);
    sb_puts(&d, ", expected ");
    put_elem_exact(&d, want, i);
    if (s->mode == CMP_CLOSE) {
      if (ulps[k] == UINT64_MAX)
        sb_puts(&d, ", ULP difference: not comparable");
      else
        sb_printf(&d, ", ULP difference %llu", (unsigned long long)ulps[k]);
      sb_printf(&d, " (allowed %llu..%llu)", (unsigned long long)s->min_ulp,
                (unsigned long long)s->max_ulp);
    } else if (s->mode == CMP_ALMOST && et_is_fp(lit_elem(got))) {
      sb_printf(&d, " (tolerance %g)", s->tol);
    }
    if (k == 0 && got->n > 1)
      sb_printf(&d, " (%lld of %lld elements differ)", (long long)ndiff, (long long)got->n);
  }
  if (ndiff > SHOW) sb_printf(&d, "\n  ... and %lld more", (long long)(ndiff - SHOW));
  bool r = check_done(I, op, what, false, &d);
  sb_free(&d);
  return r;
}

static bool tensor_arg(Interp *I, Op *op, IVal **args, int i, Literal **out) {
  *out = NULL;
  if (i >= op->nopnds || !args[i] || args[i]->kind != IV_TENSOR)
    return interp_error(I, op, "%s expects a tensor operand #%d", op_info[op->kind].name, i);
  *out = args[i]->lit;
  return true;
}

static bool const_attr(Interp *I, Op *op, Literal **out) {
  *out = NULL;
  Attr *a = op_attr(op, "value");
  if (!a || a->kind != ATTR_DENSE || !a->lit)
    return interp_error(I, op, "%s needs a dense 'value' attribute", op_info[op->kind].name);
  *out = a->lit;
  return true;
}

static double tolerance_attr(const Op *op, double def) {
  Attr *a = op_attr(op, "tolerance");
  if (!a) return def;
  if (a->kind == ATTR_FLOAT) return a->f;
  if (a->kind == ATTR_INT) return (double)a->i;
  return def;
}

static uint64_t ulp_attr(const Op *op, const char *name, uint64_t def) {
  Attr *a = op_attr(op, name);
  if (!a || a->kind != ATTR_INT) return def;
  return (uint64_t)a->i;
}

static bool float_operand(Interp *I, Op *op, const char *what, const Literal *l) {
  if (!et_is_fp(lit_elem(l)))
    return interp_error(I, op, "%s needs float or complex operands, got %s", what,
                        elem_info[lit_elem(l)].mlir_name);
  return true;
}

/* ---- the check ops ---- */
bool interp_CHECK_EXPECT_EQ(Interp *I, Op *op, IVal **args, IVal **res) {
  Literal *a, *b;
  if (!tensor_arg(I, op, args, 0, &a) || !tensor_arg(I, op, args, 1, &b)) return false;
  CmpSpec s = {CMP_EQ, 0, 0, 0};
  compare(I, op, "check.expect_eq", a, b, &s);
  return true;
}

bool interp_CHECK_EXPECT_EQ_CONST(Interp *I, Op *op, IVal **args, IVal **res) {
  Literal *a, *b;
  if (!tensor_arg(I, op, args, 0, &a) || !const_attr(I, op, &b)) return false;
  CmpSpec s = {CMP_EQ, 0, 0, 0};
  compare(I, op, "check.expect_eq_const", a, b, &s);
  return true;
}

bool interp_CHECK_EXPECT_ALMOST_EQ(Interp *I, Op *op, IVal **args, IVal **res) {
  Literal *a, *b;
  if (!tensor_arg(I, op, args, 0, &a) || !tensor_arg(I, op, args, 1, &b)) return false;
  CmpSpec s = {CMP_ALMOST, tolerance_attr(op, 1e-4), 0, 0};
  compare(I, op, "check.expect_almost_eq", a, b, &s);
  return true;
}

bool interp_CHECK_EXPECT_ALMOST_EQ_CONST(Interp *I, Op *op, IVal **args, IVal **res) {
  Literal *a, *b;
  if (!tensor_arg(I, op, args, 0, &a) || !const_attr(I, op, &b)) return false;
  CmpSpec s = {CMP_ALMOST, tolerance_attr(op, 1e-4), 0, 0};
  compare(I, op, "check.expect_almost_eq_const", a, b, &s);
  return true;
}

bool interp_CHECK_EXPECT_CLOSE(Interp *I, Op *op, IVal **args, IVal **res) {
  Literal *a, *b;
  if (!tensor_arg(I, op, args, 0, &a) || !tensor_arg(I, op, args, 1, &b)) return false;
  if (!float_operand(I, op, "check.expect_close", a)) return false;
  CmpSpec s = {CMP_CLOSE, 0, ulp_attr(op, "min_ulp_difference", 0), ulp_attr(op, "max_ulp_difference", 1)};
  compare(I, op, "check.expect_close", a, b, &s);
  return true;
}

/* ---- probes ---- */
static char *fallback_probe_dir;

static void remove_fallback_dir(void) {
  if (!fallback_probe_dir) return;
  /* only files we wrote live there: index.csv and probe<N>.npy */
  char *idx = xasprintf("%s/index.csv", fallback_probe_dir);
  FILE *f = fopen(idx, "r");
  if (f) {
    char line[4096];
    while (fgets(line, sizeof line, f)) {
      char *nl = strchr(line, '\n');
      if (nl) *nl = 0;
      char *c = strrchr(line, ',');
      if (c && !strchr(c + 1, '/')) {
        char *p = xasprintf("%s/%s", fallback_probe_dir, c + 1);
        unlink(p);
        xfree(p);
      }
    }
    fclose(f);
  }
  unlink(idx);
  xfree(idx);
  rmdir(fallback_probe_dir);
  xfree(fallback_probe_dir);
  fallback_probe_dir = NULL;
}

/* The probe directory; without one configured, a private temporary
   directory removed at exit.  Call with probe_lock held. */
static const char *probe_dir(const Interp *I) {
  if (I->opts && I->opts->probe_dir) return I->opts->probe_dir;
  if (!fallback_probe_dir) {
    const char *tmp = getenv("TMPDIR");
    char *templ = xasprintf("%s/xlac-probe-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(templ)) {
      xfree(templ);
      return NULL;
    }
    fallback_probe_dir = templ;
    atexit(remove_fallback_dir);
  }
  return fallback_probe_dir;
}

/* Splits an index line "probe_id,type,file" from the right, since only the
   probe id may contain commas. */
static bool split_index_line(char *line, char **id, char **type, char **file) {
  char *nl = strchr(line, '\n');
  if (nl) *nl = 0;
  char *c2 = strrchr(line, ',');
  if (!c2) return false;
  *c2 = 0;
  char *c1 = strrchr(line, ',');
  if (!c1) return false;
  *c1 = 0;
  *id = line, *type = c1 + 1, *file = c2 + 1;
  return true;
}

bool interp_INTERP_PROBE(Interp *I, Op *op, IVal **args, IVal **res) {
  Literal *l;
  if (!tensor_arg(I, op, args, 0, &l)) return false;
  const char *id = op_attr_str(op, "probe_id");
  if (!id) return interp_error(I, op, "interpreter.probe needs a 'probe_id' attribute");
  if (strchr(id, '\n')) return interp_error(I, op, "probe_id must not contain a newline");
  pthread_mutex_lock(&probe_lock);
  bool ok = false;
  const char *dir = probe_dir(I);
  char *idx = NULL, *path = NULL, *err = NULL, *ts = NULL;
  if (!dir) {
    interp_error(I, op, "cannot create a temporary probe directory");
    goto done;
  }
  mkdir(dir, 0777); /* an existing directory is fine */
  idx = xasprintf("%s/index.csv", dir);
  int count = 0;
  FILE *f = fopen(idx, "r");
  if (f) {
    int ch;
    while ((ch = fgetc(f)) != EOF) count += ch == '\n';
    fclose(f);
  }
  char name[40];
  snprintf(name, sizeof name, "probe%d.npy", count + 1);
  path = xasprintf("%s/%s", dir, name);
  if (!npy_write(path, l, &err)) {
    interp_error(I, op, "interpreter.probe: %s", err);
    goto done;
  }
  f = fopen(idx, "a");
  if (!f) {
    interp_error(I, op, "interpreter.probe: cannot write '%s'", idx);
    goto done;
  }
  ts = type_str(l->type);
  fprintf(f, "%s,%s,%s\n", id, ts, name);
  fclose(f);
  ok = true;
done:
  pthread_mutex_unlock(&probe_lock);
  xfree(idx);
  xfree(path);
  xfree(err);
  xfree(ts);
  if (ok) res[0] = ival_retain(args[0]);
  return ok;
}

bool interp_CHECK_EXPECT_SERIALIZED_EQ(Interp *I, Op *op, IVal **args, IVal **res) {
  Literal *l;
  if (!tensor_arg(I, op, args, 0, &l)) return false;
  const char *id = op_attr_str(op, "probe_id");
  if (!id) return interp_error(I, op, "check.expect_serialized_eq needs a 'probe_id' attribute");
  int64_t iter = op_attr_int(op, "iteration", op_attr_int(op, "iter", 0));
  const char *what = "check.expect_serialized_eq";
  StrBuf d = {0};
  char *file = NULL, *type = NULL;
  pthread_mutex_lock(&probe_lock);
  const char *dir = probe_dir(I);
  char *idx = dir ? xasprintf("%s/index.csv", dir) : NULL;
  FILE *f = idx ? fopen(idx, "r") : NULL;
  if (f) {
    StrBuf line = {0};
    int64_t seen = 0;
    int ch;
    do {
      ch = fgetc(f);
      if (ch != EOF && ch != '\n') {
        sb_putc(&line, (char)ch);
        continue;
      }
      char *lid, *lty, *lfile;
      if (line.data && split_index_line(line.data, &lid, &lty, &lfile) && strcmp(lid, id) == 0 &&
          seen++ == iter) {
        file = xasprintf("%s/%s", dir, lfile);
        type = xstrdup(lty);
        break;
      }
      line.len = 0;
      if (line.data) line.data[0] = 0;
    } while (ch != EOF);
    sb_free(&line);
    fclose(f);
  }
  pthread_mutex_unlock(&probe_lock);
  xfree(idx);
  if (!file) {
    sb_printf(&d, "no value was recorded for probe '%s' (iteration %lld)", id, (long long)iter);
    check_done(I, op, what, false, &d);
  } else {
    char *ts = type_str(l->type), *err = NULL;
    if (strcmp(ts, type) != 0) {
      sb_printf(&d, "probe '%s' recorded a %s, the operand is a %s", id, type, ts);
      check_done(I, op, what, false, &d);
    } else {
      Literal *want = npy_read(file, l->type, &err);
      if (!want) {
        sb_printf(&d, "cannot read the value of probe '%s': %s", id, err);
        check_done(I, op, what, false, &d);
      } else {
        CmpSpec s = {CMP_EQ, 0, 0, 0};
        compare(I, op, what, l, want, &s);
        lit_free(want);
      }
    }
    xfree(ts);
    xfree(err);
  }
  xfree(file);
  xfree(type);
  sb_free(&d);
  return true;
}

bool interp_INTERP_PRINT(Interp *I, Op *op, IVal **args, IVal **res) {
  StrBuf b = {0};
  const Value *v = op->nopnds > 0 ? op->opnds[0] : NULL;
  if (v && v->name)
    sb_printf(&b, "%%%s: ", v->name);
  else
    sb_puts(&b, "interpreter.print: ");
  if (op->nopnds > 0 && args[0]) interp_format_value(&b, args[0], false);
  sb_putc(&b, '\n');
  emit(I, &b);
  sb_free(&b);
  return true;
}

/* ---- custom_call @check.* ---- */
bool interp_custom_check(Interp *I, Op *op, const char *target, IVal **args, IVal **res,
                         bool *handled) {
  *handled = false;
  CmpSpec s = {CMP_EQ, 0, 0, 0};
  bool is_eq = strcmp(target, "check.eq") == 0;
  if (is_eq) {
    s.mode = CMP_ALMOST, s.tol = 1e-4; /* integers compare exactly in this mode */
  } else if (strcmp(target, "check.expect_eq") == 0) {
    s.mode = CMP_EQ;
  } else if (strcmp(target, "check.expect_almost_eq") == 0) {
    s.mode = CMP_ALMOST, s.tol = 1e-3;
  } else if (strcmp(target, "check.expect_close") == 0) {
    s.mode = CMP_CLOSE, s.min_ulp = 0, s.max_ulp = 3;
  } else {
    return false;
  }
  *handled = true;
  if (op->nopnds != 2)
    return interp_error(I, op, "custom_call @%s expects 2 operands, got %d", target, op->nopnds);
  Literal *a, *b;
  if (!tensor_arg(I, op, args, 0, &a) || !tensor_arg(I, op, args, 1, &b)) return false;
  if (s.mode == CMP_CLOSE && !float_operand(I, op, target, a)) return false;
  char what[80];
  snprintf(what, sizeof what, "custom_call @%s", target);
  bool pass = compare(I, op, what, a, b, &s);
  for (int i = 0; i < op->nres; i++) {
    const Type *t = op->res[i].type;
    if (!is_eq || t->kind != TY_TENSOR || t->elem != ET_PRED)
      return interp_error(I, op, "custom_call @%s has an unexpected result", target);
    Literal *r = lit_new(t);
    for (int64_t k = 0; k < r->n; k++) lit_set_b(r, k, pass);
    res[i] = ival_tensor(r);
  }
  return true;
}
