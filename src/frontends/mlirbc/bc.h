/*
 * bc.h - what the parts of the MLIR bytecode frontend share.
 *
 *   reader.c   the container: header, sections, string table, dialects and
 *              op names, the attribute/type offset table, properties,
 *              resources, and the IR section (regions, blocks, values)
 *   attrs.c    attribute and type entries: the builtin dialect's encodings
 *              and VHLO's, decoded on demand into BA / BT
 *   ops.c      the VHLO op table and what each op becomes in our IR: the
 *              attributes StableHLO's reader would give the op, with the
 *              defaults it drops and the dimension numbers it rebuilds
 *   export.c   the `jax.export` flatbuffer around an artifact
 *   mlirbc.c   the entry points and the offset-style diagnostics
 *
 * Every length, count and index read from the file is checked against the
 * bytes that remain before it is used, and every error is reported once,
 * at the file offset where the bad bytes are.
 */
#ifndef XLAC_FRONTENDS_MLIRBC_BC_H
#define XLAC_FRONTENDS_MLIRBC_BC_H

#include "frontends/mlirbc/mlirbc.h"
#include "ir/rewrite.h"

/* as the text frontend allows */
#define BC_MAX_RANK 64
/* nested regions, and nested attributes and types: well within what the
   text frontend reads back (and what recursion over them can afford) */
#define BC_MAX_DEPTH 64
/* elements of one constant (a splat may declare any shape) */
#define BC_MAX_ELEMS ((int64_t)1 << 28)

typedef struct Bc Bc;

/* ---- cursors ---- */
typedef struct Cur {
  Bc *bc;
  const uint8_t *p, *end;
  const char *what;  /* what the bytes are, for "truncated ..." */
} Cur;

bool bc_fail(Bc *bc, const uint8_t *at, const char *fmt, ...) XLAC_PRINTF(3, 4);
bool cur_byte(Cur *c, uint8_t *out);
bool cur_bytes(Cur *c, uint64_t n, const uint8_t **out);
/* The prefix varint of MLIR bytecode: the low bits of the first byte say
   how many bytes follow. */
bool cur_varint(Cur *c, uint64_t *out);
bool cur_svarint(Cur *c, int64_t *out);   /* zigzag */
bool cur_varint_flag(Cur *c, uint64_t *out, bool *flag);
/* A count of things that each take at least one byte of what remains. */
bool cur_count(Cur *c, const char *what, uint64_t *out);
bool cur_string(Cur *c, const char **s, size_t *n);  /* a string table index */
static inline bool cur_done(const Cur *c) { return c->p == c->end; }

/* ---- types and attributes as the bytecode has them ---- */
typedef enum BTKind {
  BT_ELEM,    /* an element type (et, and quant for a quantized one) */
  BT_TENSOR,  /* a ranked tensor: t */
  BT_TUPLE,   /* t */
  BT_TOKEN,   /* t */
  BT_FUNC,    /* in, out */
  BT_NONE,    /* vhlo.none / builtin none */
  BT_INDEX,
  BT_OTHER,   /* readable but not a type of ours: name says which */
} BTKind;

typedef struct BT {
  BTKind kind;
  ElemType et;        /* ELEM */
  QuantInfo *quant;   /* ELEM of a quantized type */
  Type *t;            /* ELEM: its rank-0 tensor; TENSOR, TUPLE, TOKEN */
  int nin, nout;      /* FUNC */
  struct BT **in, **out;
  const char *name;   /* OTHER */
} BT;

typedef enum BAKind {
  BA_UNIT,
  BA_BOOL,     /* i */
  BA_INT,      /* i, ty (an element type, or index) */
  BA_FLOAT,    /* f, ty */
  BA_STRING,   /* s, slen */
  BA_SYMBOL,   /* s */
  BA_ARRAY,    /* elems, n */
  BA_DICT,     /* keys (strings), elems, n */
  BA_DENSE,    /* lit */
  BA_INTS,     /* a dense array: ints, n, ty (its element type) */
  BA_TYPE,     /* ty */
  BA_ENUM,     /* one of VHLO's enums: ekind, i */
  BA_ALIAS,    /* output_operand_alias: ints (n), i, ints2 (n2) */
  BA_ACCURACY, /* result_accuracy: f (atol), f2 (rtol), i (ulps), elems[0] (mode) */
  BA_LOC,      /* a location */
  BA_TEXT,     /* an attribute kept as its assembly text (s, slen) */
  BA_SDY,      /* Shardy's encoding (attrs.c): sdy says which kind, ptr what it holds */
  BA_FOREIGN,  /* in another dialect's own encoding, unread: s names the dialect */
  BA_OTHER,    /* readable but not an attribute of ours: s names it */
} BAKind;

typedef enum BAEnum {
  EN_COMPARISON_DIRECTION,
  EN_COMPARISON_TYPE,
  EN_API_VERSION,
  EN_FFT_TYPE,
  EN_PRECISION,
  EN_RNG_ALGORITHM,
  EN_RNG_DISTRIBUTION,
  EN_TRANSPOSE,
  EN_ACCURACY_MODE,
} BAEnum;

/* Shardy's attribute kinds (its bytecode.td numbers them) */
typedef enum BASdy {
  SDY_MANUAL_AXES = 0,    /* elems: the axis names (strings) */
  SDY_MESH_AXIS = 1,      /* s: name, i: size */
  SDY_MESH = 2,           /* ptr: SdyMesh */
  SDY_SUB_AXIS = 3,       /* i: pre-size, i2: size */
  SDY_AXIS_REF = 4,       /* ptr: SdyAxisRef */
  SDY_DIM_SHARDING = 5,   /* ptr: SdyDim */
  SDY_SHARDING = 6,       /* ptr: SdySharding (also kinds 15 and 17) */
  SDY_PER_VALUE = 7,      /* ptr: SdySharding[n] (also kind 16) */
  SDY_DIM_MAPPING = 8,    /* ints, n: factor indices */
  SDY_TENSOR_MAPPING = 9, /* elems, n: dim mappings */
  SDY_RULE = 10,          /* s: the rule's text */
  SDY_COLLECTIVE = 11,    /* kinds 11-14, the parameters of Shardy's collectives */
} BASdy;

typedef struct BA {
  BAKind kind;
  uint32_t off;        /* where its encoding starts, for diagnostics */
  int64_t i;
  double f, f2;
  const char *s;
  size_t slen;
  BT *ty;              /* INT, FLOAT: the element type; TYPE: the value */
  int n, n2;
  struct BA **elems, **keys;
  int64_t *ints, *ints2;
  Literal *lit;
  Type *splat;         /* DENSE: lit is the one element of a large splat of this type (dense_literal) */
  BAEnum ekind;
  BASdy sdy;           /* SDY: which kind */
  int64_t i2;
  void *ptr;
} BA;

const char *ba_enum_name(BAEnum e);            /* "comparison_direction" */
const char *ba_enum_value(BAEnum e, int64_t v); /* "LT", NULL if out of range */
/* The attribute or type with this index in the attr/type section,
   decoded on first use; `at` is where the reference is, for diagnostics. */
BA *bc_attr(Bc *bc, uint64_t index, const uint8_t *at);
/* A dense attribute's elements, all of them also where it was read as a
   splat's one element. */
Literal *ba_literal(Bc *bc, const BA *a);
/* After the module is read: each constant whose value is a large splat
   becomes a scalar constant and a broadcast of it (split_splats); every
   other attribute read as a splat gets its elements. */
void bc_splats(Bc *bc);
BT *bc_type(Bc *bc, uint64_t index, const uint8_t *at);
BA *cur_attr(Cur *c);
BT *cur_type(Cur *c);

/* ---- the container ---- */
typedef enum BcDialectKind { DL_OTHER, DL_BUILTIN, DL_VHLO, DL_SDY, DL_STABLEHLO } BcDialectKind;

typedef struct BcDialect {
  const char *name;
  size_t len;
  BcDialectKind kind;
} BcDialect;

typedef struct VhloOp VhloOp;

typedef struct BcOpName {
  int dialect;
  const char *name;
  size_t len;
  const VhloOp *vhlo;  /* NULL: not a VHLO op */
  bool registered;     /* the producer knew the op (version >= 5) */
} BcOpName;

typedef struct BcEntry {
  const uint8_t *data;
  size_t len;
  int dialect;
  bool custom;         /* the dialect's own encoding, else assembly text */
  uint8_t state;       /* 0: not read, 1: being read, 2: read */
  uint8_t depth;       /* of the tree it heads, once read */
  void *val;           /* BA * or BT * */
} BcEntry;

typedef struct BcResource {
  const uint8_t *data; /* a blob's bytes */
  size_t len;
  bool blob;
} BcResource;

typedef VEC(Value *) ValueVec;

/* Whether values may have this type (what the IR calls a type). */
static inline bool bt_is_value(const BT *t) {
  return t->kind == BT_TENSOR || t->kind == BT_TUPLE || t->kind == BT_TOKEN;
}

struct Bc {
  int file;
  const uint8_t *base;  /* the file's first byte: offsets count from here */
  const uint8_t *origin; /* the artifact's first byte: alignment counts from here */
  Module *m;
  bool failed;
  uint64_t version;     /* of the bytecode format */
  const char *producer; /* "StableHLO_v1.17.0", once the header is read */
  int nstrings;
  const char **str;
  size_t *strlen;
  int ndialects;
  BcDialect *dialects;
  int nopnames;
  BcOpName *opnames;
  int nattrs, ntypes;
  BcEntry *attrs, *types;
  int nprops;
  const uint8_t **props;
  const uint8_t *props_end;
  int nresources;
  BcResource *resources;
  int depth;            /* attribute and type nesting while decoding */
  int nested;           /* the deepest tree the entry being read refers to */
  bool have_module;
  /* the IR section: the values of the current isolated scope, and how
     many slots the IR's size allows in all */
  ValueVec values;
  uint64_t value_budget;
  /* Shardy's manual computations (reader.c): the values the body being
     read returns, and the function bodies whose arguments and results
     became the per-device ones */
  int in_manual;
  Value **manual_ret;
  int nmanual_ret;
  bool manual_done;
  Block *localized;     /* the function body being localized, or NULL */
  /* the Shardy meshes' axes of more than one device (the most any mesh
     has; -1: a mesh without its portable description) and devices */
  int mesh_axes;
  int64_t mesh_devices;
  /* attributes converted from large splats (Attr* -> the splat's Type*;
     NULL once a constant took it): their literal is one element until
     bc_splats runs */
  PtrMap splats;
};

/* The function body whose parameters and results are a manual
   computation's per-device ones (their types differ from the declared
   signature's). */
bool bc_is_localized(const Bc *bc, const Block *body);
/* The call_target_name of a manual computation (reader.c). */
#define MANUAL_TARGET "xlac.manual_computation"
/* Makes the function body b a manual computation's region when it is
   one manual computation of its parameters that fits (reader.c). */
bool bc_localize(Bc *bc, Block *b, bool (*fits)(Bc *, const Op *, void *), void *ud);

/* ---- ops (ops.c) ---- */
const VhloOp *vhlo_op_find(const char *name, size_t n);
/* The inherent attributes of a VHLO op in the order its properties store
   them (their names, sorted), copied into `a`, for reading properties. */
int vhlo_op_prop_names(const VhloOp *v, Arena *a, const char **names, int cap);

typedef struct BcNamed {
  const char *name;
  BA *val;
} BcNamed;

typedef struct BcOp {
  const VhloOp *def;
  const uint8_t *at;   /* where the op's encoding starts */
  int nopnds;
  Value **opnds;
  int nres;
  BT **res;
  int nattrs, acap;
  BcNamed *attrs;      /* inherent and discardable, as the file has them */
  int nregions;
  Block **regions;
} BcOp;

/* Appends to `b` the op a VHLO op becomes; false after reporting.
   func_body: `b` is a function's body (where return is func.return). */
bool vhlo_build_op(Bc *bc, const BcOp *o, Block *b, bool func_body, Op **out);
/* A VHLO op that is a function: vhlo.func_v1 with its body, into bc->m. */
bool vhlo_build_func(Bc *bc, const BcOp *o, Block *body);
bool vhlo_op_is_func(const VhloOp *v);
/* A builtin or VHLO attribute as our IR attribute, the way StableHLO's
   reader converts attributes it has no special rule for. */
Attr *bc_convert_attr(Bc *bc, const BA *a);
/* Whether a discardable attribute goes, with a warning: its value is in
   a dialect whose encoding is not read here (Shardy's shardings, say). */
bool bc_drop_foreign(Bc *bc, const char *name, const BA *a);

/* ---- jax.export (export.c) ---- */
/* Finds the artifact inside a serialized jax.export Exported: its bytes
   [*begin, *end) within data.  False when data is not one. */
bool jax_export_find(const uint8_t *data, size_t n, size_t *begin, size_t *end);

/* ---- reader.c ---- */
/* Reads bytes [begin, end) of the file (an artifact) into bc->m. */
bool bc_read(Bc *bc, size_t begin, size_t end);

#endif
