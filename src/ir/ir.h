/*
 * ir.h - the xlac IR: modules of functions of ops in SSA form.
 *
 * Module  - an arena, a list of functions (computations), module attributes.
 * Func    - a name, a body Block whose arguments are the parameters, and the
 *           result types.  HLO computations become Funcs; the HLO ENTRY is
 *           the module's entry.
 * Block   - arguments plus a doubly linked list of ops, ending in a
 *           terminator (stablehlo.return or func.return).  A region is one
 *           block (every op with regions in StableHLO has single-block
 *           regions).
 * Op      - kind (from ops.def), operands (Value*), results (Value[]),
 *           named attributes, regions, and the source location.
 * Value   - an SSA value: an op result or a block argument, with its Type.
 *
 * Attributes follow StableHLO's generic-form names and shapes (see
 * docs/ir.md); both frontends produce them, so the interpreter and later
 * passes read one vocabulary.  Everything is allocated in the module arena.
 */
#ifndef XLAC_IR_H
#define XLAC_IR_H

#include "ir/literal.h"
#include "ir/types.h"

typedef enum OpKind {
#define OP(id, name, hlo, flags) OP_##id,
#include "ir/ops.def"
#undef OP
  OP_COUNT
} OpKind;

enum {
  OPF_SPEC = 1 << 0,
  OPF_EW = 1 << 1,
  OPF_UNARY = 1 << 2,
  OPF_BINARY = 1 << 3,
  OPF_COMM = 1 << 4,
  OPF_EFFECT = 1 << 5,
  OPF_TERM = 1 << 6,
  OPF_COLL = 1 << 7,
  OPF_QUANT = 1 << 8,
  OPF_DEPRECATED = 1 << 9,
};

typedef struct OpInfo {
  const char *name;      /* "stablehlo.add" */
  const char *hlo_name;  /* "add" or NULL */
  unsigned flags;
} OpInfo;
extern const OpInfo op_info[OP_COUNT];
/* Lookup by qualified MLIR name / HLO opcode; OP_COUNT when unknown. */
OpKind op_kind_from_name(const char *s, size_t n);
OpKind op_kind_from_hlo(const char *s, size_t n);
static inline bool op_has_flag(OpKind k, unsigned f) { return (op_info[k].flags & f) != 0; }

/* ---- attributes ---- */
typedef enum AttrKind {
  ATTR_UNIT,    /* present, no value (e.g. `is_stable` in some dumps) */
  ATTR_BOOL,    /* true / false */
  ATTR_INT,     /* 3 : i64 ; type optional in `type` */
  ATTR_FLOAT,   /* 0.1 : f32 */
  ATTR_STRING,  /* "text" (s, n bytes; may hold NULs) */
  ATTR_SYMBOL,  /* @name (s) */
  ATTR_ENUM,    /* bare keyword or #dialect<enum_name VALUE>: s = "LT", name = "comparison_direction" */
  ATTR_INTS,    /* array<i64: 1, 2> or [1, 2] of ints (ints, n) */
  ATTR_BOOLS,   /* array<i1: true, false> (ints holds 0/1) */
  ATTR_DENSE,   /* dense<...> : tensor<...> (lit) */
  ATTR_TYPE,    /* a type used as attribute (type) */
  ATTR_ARRAY,   /* [a, b, ...] of attributes (elems, n) */
  ATTR_DICT,    /* {k = v, ...} or #dialect.name<k = v, ...> (name, keys, elems, n) */
  ATTR_OPAQUE,  /* anything else kept verbatim for printing (s); name "hlo" marks HLO syntax */
} AttrKind;

typedef struct Attr {
  AttrKind kind;
  bool b;
  int64_t i;
  double f;
  const char *s;            /* STRING / SYMBOL / ENUM / OPAQUE */
  size_t slen;              /* STRING length */
  const char *name;         /* ENUM: enum attr name; DICT: "stablehlo.dot" etc., NULL for plain {} */
  int n;                    /* INTS / BOOLS / ARRAY / DICT element count */
  int64_t *ints;
  struct Attr **elems;
  const char **keys;        /* DICT */
  Literal *lit;             /* DENSE */
  Type *type;               /* TYPE, or the type suffix of INT/FLOAT/DENSE */
} Attr;

typedef struct NamedAttr {
  const char *name;
  Attr *attr;
} NamedAttr;

/* ---- values, ops, blocks ---- */
typedef struct Op Op;
typedef struct Block Block;

typedef struct Value {
  Type *type;
  Op *def;                  /* defining op, or NULL for a block argument */
  Block *owner;             /* block of a block argument */
  int index;                /* result number or argument number */
  const char *name;         /* source name without '%', may be NULL */
  int id;                   /* scratch numbering for printers/passes */
} Value;

struct Op {
  OpKind kind;
  int nopnds;
  Value **opnds;
  int nres;
  Value *res;               /* array of nres values */
  int nattrs;
  NamedAttr *attrs;
  int nregions;
  Block **regions;
  SrcLoc loc;
  Block *parent;
  Op *prev, *next;
};

struct Block {
  int nargs;
  Value **args;
  Op *first, *last;
  Op *parent_op;            /* op owning this region, NULL for a function body */
  struct Func *parent_func; /* function owning this body */
};

typedef struct Func {
  const char *name;         /* without '@' */
  Block *body;
  int nresults;
  Type **result_types;
  int nattrs;
  NamedAttr *attrs;         /* function attributes (e.g. sym_visibility) */
  Attr **arg_attrs;         /* per-argument DICT or NULL; array of body->nargs (may be NULL) */
  Attr **res_attrs;         /* per-result DICT or NULL (may be NULL) */
  bool is_private;
  SrcLoc loc;
  struct Func *next;
} Func;

typedef enum SourceFormat { SRC_STABLEHLO, SRC_HLO } SourceFormat;

/* A Shardy mesh declaration (`sdy.mesh @name = <["x"=4]>`): its name, the
   mesh (src/ir/sharding.h) and the op's other attributes (JAX adds a
   portable copy, `stablehlo.mesh`).  Shardings name meshes by symbol. */
struct SdyMesh;
typedef struct MeshDecl {
  const char *name;         /* without '@' */
  struct SdyMesh *mesh;
  int nattrs;
  NamedAttr *attrs;
  SrcLoc loc;
} MeshDecl;

typedef struct Module {
  Arena arena;
  const char *name;         /* may be NULL */
  Func *funcs, *funcs_tail;
  Func *entry;              /* HLO ENTRY; NULL for MLIR (use module_entry) */
  int nattrs;
  NamedAttr *attrs;         /* module attributes / HLO module options */
  SourceFormat format;
  SrcLoc loc;
  int nmeshes;              /* Shardy's mesh declarations, in source order */
  MeshDecl *meshes;
} Module;

/* ---- construction ---- */
Module *module_new(void);
void module_free(Module *m);
Func *func_new(Module *m, const char *name, SrcLoc loc); /* appended to m */
Func *module_find_func(const Module *m, const char *name);
/* @main if present, else the HLO entry, else the only (public) function, else NULL. */
Func *module_entry(const Module *m);

Block *block_new(Module *m);
Value *block_add_arg(Module *m, Block *b, Type *t, const char *name);
/* Creates an op (not inserted) with nres results of the given types. */
Op *op_new(Module *m, OpKind k, int nopnds, Value *const *opnds, int nres, Type *const *res_types,
           SrcLoc loc);
void op_set_attr(Module *m, Op *op, const char *name, Attr *a); /* replaces if present */
Attr *op_attr(const Op *op, const char *name);                  /* NULL when absent */
void op_add_region(Module *m, Op *op, Block *b);
void block_append(Block *b, Op *op);
void block_insert_before(Block *b, Op *before, Op *op);
void op_erase(Op *op);   /* unlinks; memory stays in the arena */
Op *block_terminator(const Block *b);

/* Attribute constructors (arena-allocated). */
Attr *attr_unit(Module *m);
Attr *attr_bool(Module *m, bool b);
Attr *attr_int(Module *m, int64_t v, Type *t);
Attr *attr_float(Module *m, double v, Type *t);
Attr *attr_string(Module *m, const char *s, size_t n);
Attr *attr_symbol(Module *m, const char *s);
Attr *attr_enum(Module *m, const char *name, const char *value);
Attr *attr_ints(Module *m, int n, const int64_t *v);
Attr *attr_dense(Module *m, Literal *lit);
Attr *attr_type(Module *m, Type *t);
Attr *attr_array(Module *m, int n, Attr *const *elems);
Attr *attr_dict(Module *m, const char *name, int n, const char *const *keys, Attr *const *elems);

/* Tolerant readers: accept INTS, BOOLS, an integer DENSE (flattened), or an
   ARRAY of INTs.  Return false if the attribute has another shape. */
bool attr_get_ints(const Attr *a, int64_t **out, int *n);   /* *out points into a or an arena copy */
Attr *attr_dict_get(const Attr *a, const char *key);        /* DICT field or NULL */
/* Convenience: op attribute as ints / int / enum string / dict field ints.
   Absent -> default (n = 0, or def). */
int op_attr_ints(const Op *op, const char *name, int64_t **out);  /* returns n, or -1 if malformed */
int64_t op_attr_int(const Op *op, const char *name, int64_t def);
const char *op_attr_str(const Op *op, const char *name);          /* ENUM/STRING/SYMBOL s or NULL */
int dict_ints(const Attr *dict, const char *key, int64_t **out);  /* n, 0 if absent */
int64_t dict_int(const Attr *dict, const char *key, int64_t def);

/* Small queries on integer lists (dimension numbers, permutations). */
bool ints_contain(const int64_t *v, int n, int64_t x);

/* Quantized tensors: whether t is one; whether any operand or result of op
   is one; whether op kind k takes quantized values as they are (computes on
   them itself, or only passes them through) -- any other op on quantized
   tensors means dequantize -> op -> quantize, as the spec defines it. */
bool type_is_quant(const Type *t);
bool op_has_quant(const Op *op);
bool op_keeps_quant(OpKind k);
bool ints_in_range(const int64_t *v, int n, int64_t hi); /* every element in [0, hi) */
bool ints_distinct(const int64_t *v, int n);

/* Walks every op in a block recursively (pre-order, including nested regions). */
typedef bool (*OpVisitor)(Op *op, void *ud);   /* return false to stop */
bool block_walk(Block *b, OpVisitor f, void *ud);
bool module_walk(Module *m, OpVisitor f, void *ud);

/* ---- einsum_config ----
 * "ab,bc->ac": a term of letters per input, then the result's.  Read for
 * nin inputs and checked against the tensor types of the inputs and the
 * result (types[0..nin]): a letter per dimension, one size per letter
 * wherever it occurs, result letters taken from the inputs, each once.
 * The verifier and the interpreter read it through this one function. */
typedef struct EinsumSpec {
  const char *term[3]; /* term[nin] is the result's; not NUL-terminated */
  int len[3];
  int64_t size[128];   /* by letter; -1 when absent */
} EinsumSpec;
/* NULL with *out filled, or a heap message saying what is wrong. */
char *einsum_spec_read(const char *cfg, int nin, const Type *const *types, EinsumSpec *out);

#endif
