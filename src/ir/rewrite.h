/*
 * rewrite.h - what passes need to change the IR: use counts, replacing
 * uses, cloning ops and regions, and erasing dead ops.
 *
 * The IR keeps no use lists (ops point at their operands only), so uses are
 * computed on demand for a function with `uses_compute` and kept up to date
 * by the helpers here that take a UseMap.  Passes that rewrite heavily
 * simply recompute.
 */
#ifndef XLAC_REWRITE_H
#define XLAC_REWRITE_H

#include "ir/ir.h"

/* Pointer-keyed hash map (Value*, Op*, ... -> void* or count). */
typedef struct PtrMap {
  const void **keys;
  void **vals;
  int cap, len;
} PtrMap;
void *ptrmap_get(const PtrMap *m, const void *key);
bool ptrmap_has(const PtrMap *m, const void *key);
void ptrmap_put(PtrMap *m, const void *key, void *val);
void ptrmap_free(PtrMap *m);

/* Use counts of every value defined or used in a function (nested regions
   included; a use inside a region counts as a use). */
typedef struct UseMap {
  PtrMap counts; /* Value* -> (void*)(intptr_t)count */
} UseMap;
void uses_compute(UseMap *u, Func *f);
int uses_count(const UseMap *u, const Value *v);
void uses_free(UseMap *u);

/* Replaces every use of `from` by `to` in b and its nested regions. */
void block_replace_uses(Block *b, Value *from, Value *to);
/* Same for a whole function, also updating u (may be NULL). */
/* Replacing values without searching for their uses: a pass that walks
   forward (as SSA uses go) records each replaced value in `fwd` (value ->
   replacement) and rewrites each op's operands through it when it reaches
   the op, following chains of replacements.  op_forward_operands does one
   op; block_forward_operands a block with its nested regions. */
void op_forward_operands(Op *op, const PtrMap *fwd);
void block_forward_operands(Block *b, const PtrMap *fwd);
void func_replace_uses(Func *f, Value *from, Value *to, UseMap *u);

/* Clones op into module m (same module or another) with operands remapped
   through `map` (Value* -> Value*; values not in the map are kept), nested
   regions cloned recursively; result values of the clone are added to map
   (old result -> new result).  The clone is not inserted anywhere. */
Op *op_clone(Module *m, const Op *op, PtrMap *map);
/* Clones a block's ops (not its arguments: map them first) appending to dst. */
void block_clone_into(Module *m, const Block *src, Block *dst, PtrMap *map);

/* True when the op may be removed if its results are unused. */
bool op_is_pure(const Op *op);
/* Erases ops whose results are unused and which are pure, to a fixed point,
   in f and its regions.  Returns the number erased. */
int func_erase_dead(Func *f);

/* A new op inserted before `before` in its block (or appended to b when
   before is NULL), with one result of type t. */
Op *build_op(Module *m, Block *b, Op *before, OpKind k, int nopnds, Value *const *opnds, Type *t,
             SrcLoc loc);
/* A value of type t whose every element is one's element 0 (of t's
   element type): a scalar constant, broadcast when t has a shape, inserted
   before `before`. */
Value *build_splat(Module *m, Op *before, Type *t, const Literal *one);
/* Every constant of at least `min` elements, all equal, and no attribute
   but its value, becomes a scalar constant and a broadcast of it: JAX
   spells the coefficients of its decompositions (erf's sixteen) as
   splats of the full shape, which every pass would otherwise scan.  The
   readers run it.  `lazy` (may be NULL) maps value attributes holding
   one element of a splat to the splat's type (the bytecode reader keeps
   large splats so); `taken` (may be NULL) receives each value attribute
   it replaced. */
void split_splats(Module *m, int64_t min, const PtrMap *lazy, PtrMap *taken);
enum { SPLIT_SPLAT_MIN = 1024 };

#endif
