/*
 * passes.h - the optimization pipeline over the IR.
 *
 * One file per pass.  Each pass takes a module, rewrites it in place, and
 * returns whether it changed anything (or -1 on an error it reported).  The
 * pipeline (pipeline.c) is one readable list of passes; between passes it
 * can run the verifier and dump the module (--xla_dump_hlo_pass_re).
 *
 * Invariant of every pass: the module still verifies and computes the same
 * values (within float reassociation where a pass says so), so the
 * interpreter can run the optimized module and compare with the original —
 * the tests do exactly that.
 */
#ifndef XLAC_PASSES_H
#define XLAC_PASSES_H

#include <stdatomic.h>

#include "ir/rewrite.h"

typedef struct PassOptions {
  bool verify_each;           /* run the verifier after every pass */
  int64_t fold_limit;         /* constant folding: largest result folded, in elements */
  bool fuse;                  /* run the fusion passes */
  bool no_row_fusion;         /* fusion: no row fusions (backends without a row kernel) */
  /* hoist-scan-products: the largest product taken out of a loop, in
     bytes; 0: 64 MiB, negative: none */
  int64_t hoist_limit;
  /* Called after each pass (dumps); may be NULL. */
  void (*after_pass)(const char *pass_name, Module *m, bool changed, void *ud);
  void *ud;
  /* nonzero: stop before the next pass, with an error naming stop_reason
     (--timeout, a cancelled compilation); may be NULL */
  const atomic_int *stop;
  const char *stop_reason;
} PassOptions;

typedef int (*PassFn)(Module *m, const PassOptions *o);
typedef struct Pass {
  const char *name;
  PassFn run;
} Pass;

/* Runs the CPU pipeline.  Returns false if a pass failed or the verifier
   rejected an intermediate module (diagnostics printed). */
bool run_cpu_pipeline(Module *m, const PassOptions *o);
/* The list itself (for --xla_dump_hlo_pass_re and tests). */
const Pass *cpu_pipeline_passes(int *n);

/* ---- the passes (one file each) ---- */
int pass_inline_calls(Module *m, const PassOptions *o);   /* inline.c: func.call of small non-recursive functions */
int pass_chlo_decompose(Module *m, const PassOptions *o); /* chlo.c: CHLO ops into StableHLO where cheap */
int pass_approx_top_k(Module *m, const PassOptions *o);   /* approx_top_k.c: ApproxTopK -> sort + slice */
int pass_simplify(Module *m, const PassOptions *o);       /* simplify.c: algebraic identities, reshape/transpose/broadcast chains */
int pass_constant_fold(Module *m, const PassOptions *o);  /* fold.c: evaluate ops on constants (bounded size) */
int pass_cse(Module *m, const PassOptions *o);            /* cse.c */
int pass_dce(Module *m, const PassOptions *o);            /* dce.c: dead ops and unused private functions */
int pass_expand(Module *m, const PassOptions *o);         /* expand.c: batch_norm_*, dot canonicalization, rng, ... */
int pass_quant_lower(Module *m, const PassOptions *o);    /* quant.c: ops on quantized tensors -> integer/float ops */
int pass_fusion(Module *m, const PassOptions *o);         /* fusion.c: loop, reduction, multi-output, epilogue */
int pass_flatten_tuples(Module *m, const PassOptions *o); /* tuples.c: while loops over tuples -> over their leaves */
int pass_legalize(Module *m, const PassOptions *o);       /* legalize.c: dynamic_*, map, composite, ... -> static ops */
int pass_drop_barriers(Module *m, const PassOptions *o);  /* legalize.c: optimization_barrier -> its operands (after fusion) */
int pass_hoist_products(Module *m, const PassOptions *o); /* hoist.c: a scan's step-by-step input products -> one before it */

/* loops.c: a counted loop (JAX's scan and fori_loop): its cond is only
   `i < C` (C a constant), i a scalar integer of the state that starts at
   a constant and that the body returns as i + 1 (also through fusions of
   one result).  The state index of i, its start and the trip count. */
typedef struct LoopCount {
  int index;
  int64_t start, trips;
} LoopCount;
bool loop_count(Module *m, const Op *w, LoopCount *lc);
/* The literal of the one-element constant v is, looking through
   broadcasts and reshapes of it (a loop's bound, a reduction's init);
   NULL for anything else. */
const Literal *scalar_const_of(const Value *v);

/* Folds the ops of b from `first` to its end whose operands are constants
   (broadcasts too), as a frontend does while it builds: uses later in b
   and the values in keep[0..nkeep-1] are redirected to the constants.
   Returns how many ops were folded. */
int fold_new_ops(Module *m, Block *b, Op *first, int64_t limit, Value **keep, int nkeep);

/* The rule every op of a row fusion obeys (fusion.c forms row fusions by
   it; the code generator checks it again before compiling one): operands
   marked in rowish (the values of stages, and what is computed from them)
   are read only at the row of the element computed; a reduce reduces
   exactly the rows (nrows rows of D). */
bool row_fusion_op_ok(const Op *op, const bool *rowish, int64_t nrows, int64_t D);

/* A private copy of f whose parameters and results are the leaves of f's
   tuple parameters and results (f itself when it has no tuples). */
Func *flatten_entry(Module *m, Func *f);

#endif
