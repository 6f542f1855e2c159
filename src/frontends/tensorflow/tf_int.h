/*
 * tf_int.h - what the parts of the TensorFlow frontend share.
 *
 *   graph.c     GraphDef / FunctionDef -> TfGraph: nodes, their parsed
 *               inputs, names, the frames of TF1 control flow, pruning
 *   lower.c     the engine: nodes lowered on demand into IR, constant
 *               folding as it goes, the Config's feeds/fetches/variables,
 *               must-compile error collection, the inlining budget,
 *               tf_import
 *   config.c    the tf2xla Config checked against the graph
 *   util.c      what op lowerings use: attributes, dtypes, constants,
 *               broadcasting, reductions, any op from MLIR attribute text
 *   ops_*.c     the op table, one entry per TensorFlow op type
 *   control.c   function calls, While/If, TensorLists, and TF1 control
 *               flow (Enter/Exit/Switch/Merge/NextIteration/LoopCond) into
 *               while loops and selects
 *   clusters.c  `xlac tf-clusters`, the op table as Markdown
 *
 * An op lowering sees a TfCtx: the node, its data inputs already lowered
 * (Values with static types, so every shape is known), and a Builder that
 * appends to the current block at the node's location.  It appends its
 * outputs with tf_out and returns true, or reports with tf_error and
 * returns false.  Inputs that decide shapes (Reshape's shape, a
 * reduction's axes) are read with tf_const_ints: constant after folding or
 * an error naming the node, as tfcompile requires.
 */
#ifndef XLAC_FRONTENDS_TENSORFLOW_TF_INT_H
#define XLAC_FRONTENDS_TENSORFLOW_TF_INT_H

#include "frontends/tensorflow/pb.h"
#include "frontends/tensorflow/tf.h"
#include "passes/build.h"
#include "tensorflow.pb-c.h"
#include "tf2xla.pb-c.h"

typedef Tensorflow__NodeDef TfNodeDef;
typedef Tensorflow__AttrValue TfAttr;
typedef Tensorflow__FunctionDef TfFunctionDef;

/* The most outputs a node may be asked for (an input "node:i", a Config's
   output_index): a bound on the arrays indexed by output. */
#define TF_MAX_OUTPUTS 1000000

/* Inlining: library functions are lowered again at every call (and for
   every While/If region), so functions that call each other twice each,
   40 deep, would make 2^40 copies of a small library.  A call may nest at
   most TF_INLINE_MAX_DEPTH deep, and all the calls of one import together
   lower at most TF_INLINE_MAX_NODES nodes of function bodies. */
#define TF_INLINE_MAX_DEPTH 64
#define TF_INLINE_MAX_NODES 1000000

/* ---- graphs ---- */
typedef struct TfInput {
  int node;     /* index in the graph's nodes */
  int out;      /* output index */
} TfInput;

typedef struct TfNode {
  const char *name;   /* node name (in a function: "function/node") */
  const char *op;     /* op type */
  const TfNodeDef *def;
  int ninputs;        /* data inputs */
  TfInput *inputs;
  int nctrl;          /* control inputs (^name) */
  int *ctrl;
  int arg;            /* a function's argument: its index, else -1 */
  int frame;          /* TF1 control flow: the frame the node runs in (0: none) */
  SrcLoc loc;         /* its line in the graph's node listing */
} TfNode;

typedef struct TfFrame {
  const char *name;   /* Enter's frame_name */
  int parent;         /* enclosing frame (0: none) */
} TfFrame;

typedef struct TfGraph {
  const char *name;   /* "graph", or the function's name */
  TfNode *nodes;
  int nnodes;
  StrMap by_name;     /* name -> index + 1 */
  TfFrame *frames;    /* frames[0] is the top level */
  int nframes;
  /* a function: its results, by index, as node outputs */
  TfInput *rets;
  int nrets;
  const TfFunctionDef *fdef;
} TfGraph;

TfGraph *tf_graph_new(Arena *a, const Tensorflow__GraphDef *gd, char **err);
TfGraph *tf_graph_of_function(Arena *a, const TfFunctionDef *f, char **err);
void tf_graph_free(TfGraph *g);
int tf_graph_find(const TfGraph *g, const char *name); /* -1 when absent */
/* Attribute `name` of node n (NULL when absent), and a function-valued one's
   function name (NULL when absent or not a function). */
const TfAttr *tf_node_attr(const TfNode *n, const char *name);
const char *tf_node_func_attr(const TfNode *n, const char *name);

/* ---- the op table ---- */
typedef struct TfCtx TfCtx;
typedef struct TfOpDef {
  const char *op;                 /* TensorFlow op type */
  bool (*lower)(TfCtx *c);
  /* output argument names when there are several, comma separated
     ("y,batch_mean,batch_variance,..."), for FunctionDef references
     "node:arg:i"; NULL: one output argument */
  const char *outputs;
  const char *note;               /* what is supported, for docs/tensorflow.md */
} TfOpDef;

/* Table parts, each ending with a {NULL} entry. */
extern const TfOpDef tf_ops_math[];    /* ops_math.c: elementwise, comparisons, reductions, casts */
extern const TfOpDef tf_ops_nn[];      /* ops_nn.c: matmul, conv, pooling, normalization, activations */
extern const TfOpDef tf_ops_array[];   /* ops_array.c: shapes, slicing, concat, gather, pad, ... */
extern const TfOpDef tf_ops_control[]; /* control.c: While, If, calls, TensorList, TF1 control flow */
const TfOpDef *tf_op_lookup(const char *op);
/* Every entry, sorted by op name (docs, tf-clusters). */
const TfOpDef *const *tf_op_all(int *n);

/* ---- one node being lowered ---- */
typedef struct TfLower TfLower;
struct TfCtx {
  TfLower *L;
  TfGraph *g;
  const TfNode *node;
  Builder b;          /* appends to the current block at the node's location */
  int nin;
  Value **in;         /* data inputs, lowered */
  int nout, capout;
  Value **out;        /* outputs appended by tf_out */
};

/* Appends output v (in output order). */
void tf_out(TfCtx *c, Value *v);
/* Reports an error at the node ("NODE (Op): ..."); returns false. */
bool tf_error(TfCtx *c, const char *fmt, ...) XLAC_PRINTF(2, 3);
Module *tf_module(TfCtx *c);

/* ---- attributes ---- */
const TfAttr *tf_attr(const TfCtx *c, const char *name); /* NULL when absent */
/* Required type attribute (error when absent or not supported). */
bool tf_attr_type(TfCtx *c, const char *name, ElemType *out);
int64_t tf_attr_int(const TfCtx *c, const char *name, int64_t def);
double tf_attr_float(const TfCtx *c, const char *name, double def);
bool tf_attr_bool(const TfCtx *c, const char *name, bool def);
/* string attribute as a NUL-terminated string in the module arena, or def */
const char *tf_attr_str(TfCtx *c, const char *name, const char *def);
/* list(int) attribute: count (and *out, arena copy), -1 when absent */
int tf_attr_ints(TfCtx *c, const char *name, int64_t **out);
/* TensorFlow DataType -> element type; ET_INVALID when xlac has none. */
ElemType tf_elem_of_dtype(int dtype);
const char *tf_dtype_name(int dtype);

/* ---- constants ---- */
/* Input i as a constant literal (after folding), or NULL. */
Literal *tf_const(const TfCtx *c, int i);
/* Input i as integers; an error naming the node when it is not a
   compile-time constant ("what" says what the input is, e.g. "the shape"). */
bool tf_const_ints(TfCtx *c, int i, const char *what, int64_t **vals, int *n);
/* TensorProto -> literal in the module arena (NULL with *err, heap). */
Literal *tf_tensor_literal(Module *m, const Tensorflow__TensorProto *t, char **err);
/* How many values the TensorProto lists in the field of its dtype. */
size_t tf_tensor_nvals(const Tensorflow__TensorProto *t);
Value *tf_constant(TfCtx *c, Literal *lit);
Value *tf_scalar(TfCtx *c, ElemType et, double v);     /* rank 0 */
Value *tf_iscalar(TfCtx *c, ElemType et, int64_t v);    /* rank 0 */
/* A constant of type tensor<n x i64> / of rank-1 ints with element et. */
Value *tf_const_vec(TfCtx *c, ElemType et, int n, const int64_t *v);

/* ---- shapes and broadcasting ---- */
Type *tf_type(TfCtx *c, ElemType et, int rank, const int64_t *dims);
/* t as text ("tensor<2x3xf32>") in the module's arena, for messages */
const char *tf_type_str(TfCtx *c, const Type *t);
/* axis in [-rank, rank) -> [0, rank); an error naming the node otherwise */
bool tf_axis(TfCtx *c, int64_t axis, int rank, int64_t *out);
/* NumPy broadcasting of x and y to one shape (error if incompatible). */
bool tf_broadcast2(TfCtx *c, Value **x, Value **y);
/* x broadcast to `dims` (NumPy rules: trailing dims aligned). */
Value *tf_broadcast_to(TfCtx *c, Value *x, int rank, const int64_t *dims);
/* Elementwise op k on broadcast operands (NULL after an error). */
Value *tf_binary(TfCtx *c, OpKind k, Value *x, Value *y);
Value *tf_convert(TfCtx *c, Value *x, ElemType et);

/* reduce of x over dims with a body of scalar op k (OP_ADD, OP_MAX, OP_MIN,
   OP_MUL, OP_AND, OP_OR) starting from init (a rank-0 value) */
Value *tf_reduce(TfCtx *c, Value *x, int n, const int64_t *dims, OpKind k, Value *init);
/* reduce_window with body k over x (window/strides/padding per dim, padding
   as lo,hi pairs) */
Value *tf_reduce_window(TfCtx *c, Value *x, Value *init, OpKind k, const int64_t *window,
                        const int64_t *strides, const int64_t *padding);
/* TensorFlow's SAME/VALID padding for one spatial dim: output size and
   (lo, hi); false with an error for an unknown padding name. */
bool tf_padding(TfCtx *c, const char *padding, int64_t in, int64_t window, int64_t stride,
                int64_t dilation, int64_t *out, int64_t *lo, int64_t *hi);

/* ---- any op ----
   An op of kind k on opnds appended at the node, with attributes written
   as an MLIR attribute dictionary (printf format, e.g.
   "{dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>,"
   " window_strides = array<i64: %d, %d>}"; NULL for none), the way
   StableHLO text spells them.  tf_op takes the result type; tf_op_infer
   gives the result element type and rank and lets the verifier compute the
   dimensions (convolution, dot_general, gather, slice, pad, ...).  NULL
   after an error at the node. */
Value *tf_op(TfCtx *c, OpKind k, int n, Value *const *opnds, Type *t, const char *attrs, ...) XLAC_PRINTF(6, 7);
Value *tf_op_infer(TfCtx *c, OpKind k, int n, Value *const *opnds, ElemType et, int rank, const char *attrs, ...)
    XLAC_PRINTF(7, 8);
/* The same with several results of the given types (sort, top_k, ...). */
Op *tf_op_multi(TfCtx *c, OpKind k, int n, Value *const *opnds, int nres, Type *const *types, const char *attrs,
                ...) XLAC_PRINTF(7, 8);

/* ---- functions (calls, While, If) ---- */
/* Lowers function fname of the library on args into the current block;
   results into *res (arena array of *nres). */
bool tf_call_function(TfCtx *c, const char *fname, int nargs, Value *const *args, int *nres,
                      Value ***res);
/* Lowers function fname into a new block whose arguments have the types of
   args' values (a region body: while cond/body, if branches); the block
   ends with a stablehlo.return of its results. */
Block *tf_function_region(TfCtx *c, const char *fname, int nargs, Type *const *arg_types, int *nres);

/* ---- scopes (lower.c) ----
   Values are memoized per scope: the top-level graph, a function body, or
   one region of a loop frame.  Nodes of graph g in frame f are lowered in
   the innermost scope of g and f; a region captures values of enclosing
   scopes. */
typedef struct TfScope TfScope;
TfScope *tf_scope_push(TfLower *L, TfGraph *g, int frame, Block *blk, Value *const *args, int nargs);
void tf_scope_pop(TfLower *L);
Block *tf_scope_block(TfLower *L);
/* Accounts for lowering function fname (a body of nnodes nodes) at node
   c: false, with an error at the node naming the function, when that goes
   past the inlining depth or budget.  Once either is exceeded every later
   call fails without a message of its own, so the first is the only
   report.  Each successful enter is matched by a leave. */
bool tf_inline_enter(TfCtx *c, const char *fname, int nnodes);
void tf_inline_leave(TfLower *L);
/* A function of the graph's library as a graph (built once); NULL with
   *err (heap) when there is none. */
TfGraph *tf_function_graph(TfLower *L, const char *name, char **err);

/* ---- the tf2xla Config (config.c) ---- */
typedef struct TfConfig {
  const Tensorflow__Tf2xla__Config *msg;
  int file;     /* where it was read: its entries' locations are there */
  PbLocs locs;
} TfConfig;
/* Checks every feed, fetch and variable against graph g (nodes, output
   indexes, shapes, types, names given twice); false after reporting every
   problem at its entry of the Config. */
bool tf_config_check(const TfConfig *c, const TfGraph *g, const char *graph_path);
/* Where entry i of the Config's field ("feed", "fetch", "variable") is. */
SrcLoc tf_config_loc(const TfConfig *c, const char *field, size_t i);
/* Whether fetch i's value, of type t, has the shape and type the Config
   gives it (when it gives them); an error at the fetch otherwise. */
bool tf_config_check_fetch(const TfConfig *c, size_t i, const Type *t);

/* ---- checkpoints (checkpoint.c) ----
   A TensorFlow checkpoint, V2 (PREFIX.index and its data files) or V1 (one
   file), whose tensors freeze variables.  Every problem with the files is
   an error at the offending byte of the table (file:OFFSET). */
typedef struct TfCheckpoint TfCheckpoint;
/* PATH: a V2 prefix (PATH.index exists), a V2 index (PATH ends in .index)
   or a V1 file.  NULL after an error. */
TfCheckpoint *tf_checkpoint_open(const char *path);
/* The table already loaded as `file`: a V2 index whose data files are
   PREFIX.data-SSSSS-of-NNNNN, or with prefix NULL a V1 checkpoint.  The
   checkpoint registers an OOM cleanup (its protobuf messages) that
   tf_checkpoint_free pops: free it before popping cleanups pushed before
   it was opened. */
TfCheckpoint *tf_checkpoint_open_table(int file, const char *prefix);
void tf_checkpoint_free(TfCheckpoint *ck);
int tf_checkpoint_version(const TfCheckpoint *ck); /* 1 or 2 */
/* The tensors' names, in the table's order. */
int tf_checkpoint_count(const TfCheckpoint *ck);
const char *tf_checkpoint_name(const TfCheckpoint *ck, int i);
bool tf_checkpoint_has(const TfCheckpoint *ck, const char *name);
/* Tensor `name`'s value, read (and its crc checked) now, in m's arena;
   NULL after an error. */
Literal *tf_checkpoint_read(TfCheckpoint *ck, Module *m, const char *name);
/* Whether the SaverDef at path (binary, or text by its name) agrees with
   the checkpoint's format; false after an error. */
bool tf_saver_check(const char *path, const TfCheckpoint *ck);
/* The masked crc32c the formats store. */
uint32_t tf_crc32c_masked(const void *p, size_t n);

/* ---- TF1 control flow (control.c) ---- */
/* The engine's memo, for control.c: the value of output `out` of node n in
   the current scope (lowering it and what it needs on demand) and setting
   one. */
Value *tf_value(TfLower *L, TfGraph *g, int node, int out);
void tf_set_value(TfLower *L, int node, int out, Value *v);

#endif
