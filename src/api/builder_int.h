/*
 * builder_int.h - what builder.c (handles, functions, the op core) and
 * builder_ops.c (the typed op functions of include/xlac/builder.h) share.
 *
 * Every op, typed or generic, goes through op_run with an OpReq: operands
 * in groups (reduce's inputs then its init values, scatter's inputs,
 * indices and updates) so that no caller has to concatenate arrays,
 * attributes as specs that op_run turns into IR attributes (and/or as MLIR
 * text), computations for the regions, and how the result types are
 * found.  op_run checks the handles, builds the op, infers or takes its
 * result types, verifies it and hands out the results.
 */
#ifndef XLAC_API_BUILDER_INT_H
#define XLAC_API_BUILDER_INT_H

#include "api/api.h"
#include "ir/ir.h"
#include "xlac/builder.h"

struct xlac_builder {
  uint32_t magic;   /* BLD_MAGIC_BUILDER while alive */
  Module *m;        /* every function and computation, as built so far */
  char *name;       /* module name or NULL */
  VEC(xlac_func *) funcs;
  bool broken;      /* an allocation failed mid-call: only destroy works */
};

struct xlac_func {
  uint32_t magic;   /* BLD_MAGIC_FUNC */
  xlac_builder *b;
  Func *fn;
  bool computation; /* only a body for ops: left out of built programs */
  bool returned;
};

struct xlac_value {
  uint32_t magic;   /* BLD_MAGIC_VALUE */
  xlac_func *f;
  Value *v;
};

enum {
  BLD_MAGIC_BUILDER = 0x424c4452, /* "BLDR" */
  BLD_MAGIC_FUNC = 0x42465543,    /* "BFUC" */
  BLD_MAGIC_VALUE = 0x4256414c,   /* "BVAL" */
};

/* An attribute to attach, described with the caller's data (no allocation
   before op_run has installed its memory guard). */
typedef enum ASpecKind {
  AS_INT,     /* i: "i : i64" (bits 32: i32; bits -1: no type, as dictionary fields are) */
  AS_INTS,    /* p[0..n-1] as array<i64: ...> */
  AS_INT_LIST,/* p[0..n-1] as [a, b] (the dictionary fields of dimension numbers) */
  AS_BOOL,    /* i != 0 */
  AS_STRING,  /* s, slen bytes */
  AS_ENUM,    /* enum_name, s = value */
  AS_SYMBOL,  /* s: @s */
  AS_DENSE2D, /* p: n rows of `cols` as dense<...> : tensor<n x cols x i64> (replica groups, padding) */
  AS_DICT,    /* sub[0..n-1] fields; s = dictionary name ("stablehlo.dot") */
  AS_CHANNEL, /* i: #stablehlo.channel_handle<handle = i, type = 1> */
  AS_HOST,    /* a dense constant: i = xlac_type, p = dims, n = rank, s = data, slen = size */
  AS_SCALAR_F,/* a rank-0 dense constant of xlac_type i holding f */
  AS_SCALAR_I,/* the same holding the integer v */
} ASpecKind;

typedef struct ASpec {
  const char *name;
  ASpecKind kind;
  int64_t i;
  int bits;
  double f;
  int64_t v;  /* AS_SCALAR_I */
  const int64_t *p;
  int n;
  int cols;
  const char *s;
  size_t slen;
  const char *enum_name;
  const struct ASpec *sub;
} ASpec;

/* How an op's result types are found. */
typedef enum ResMode {
  RES_INFER,      /* from operands, attributes and regions */
  RES_TEXT,       /* res_text: MLIR types */
  RES_SHAPES,     /* res_shapes[0..nres_shapes-1] */
  RES_ELEM_LIKE0, /* operand 0's shape with element type res_elem */
  RES_DIMS,       /* res_dims with res_elem (XLAC_TYPE_COUNT: operand 0's element type) */
} ResMode;

typedef struct OpGroup {
  xlac_value *const *v;
  int n;
} OpGroup;

enum { OPREQ_GROUPS = 4, OPREQ_SPECS = 12 };

typedef struct OpReq {
  xlac_func *f;
  OpKind kind;
  OpGroup groups[OPREQ_GROUPS]; /* operands, in order */
  int ngroups;
  ASpec specs[OPREQ_SPECS];
  int nspecs;
  const char *attr_text;        /* more attributes, MLIR dictionary text, or NULL */
  xlac_func *const *comps;      /* region bodies */
  int ncomps;
  /* if/case: the computations' parameters are bound to these values
     instead of becoming region arguments */
  const OpGroup *bind;
  ResMode res_mode;
  const char *res_text;
  const xlac_shape *res_shapes;
  int nres_shapes;
  xlac_type res_elem;
  const int64_t *res_dims;
  int res_rank;
  /* results: outs[0..max_outs-1]; out_num may be NULL */
  xlac_value **outs;
  int max_outs;
  int *out_num;
} OpReq;

/* A request for op `kind` in f with results going to outs (max_outs slots). */
OpReq op_req(xlac_func *f, OpKind kind, xlac_value **outs, int max_outs);
void op_req_operands(OpReq *r, xlac_value *const *v, int n);
ASpec *op_req_spec(OpReq *r, const char *name, ASpecKind kind);
xlac_status *op_run(OpReq *r);

/* xlac_type -> ElemType; ET_INVALID for XLAC_TOKEN and invalid values. */
ElemType bld_elem_type(xlac_type t);
/* A status naming the op: "<op name>: <message>". */
xlac_status *bld_error(OpKind k, xlac_code code, const char *fmt, ...) XLAC_PRINTF(3, 4);

#endif
