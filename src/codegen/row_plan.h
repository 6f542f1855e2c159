/*
 * row_plan.h - row fusions as both backends see them: the stages of a kInput
 * fusion that reduces rows and uses the per-row results on the same rows
 * (softmax, layer norm), and the slots their results live in.
 *
 * row_fusion_analyze checks a fusion call against the row rule (every value
 * a stage reads from another stage is read at the row being computed:
 * row_fusion_op_ok, the rule passes/fusion.c forms such fusions by) and
 * lists its stages in dependency order; the code generators
 * (cpu/kernel_row.c for the CPU, gpu/row.c for the GPU) then run every
 * stage row by row.  A backend passes the check its reduction stages must
 * pass (the shapes of reduction its row kernel can fold).
 */
#ifndef XLAC_CODEGEN_ROW_PLAN_H
#define XLAC_CODEGEN_ROW_PLAN_H

#include "codegen/kernel.h"

enum { ROW_MAX_STAGES = 64, ROW_MAX_BUF_BYTES = 64 * 1024 };

typedef struct RowStage {
  Op *item;         /* the op in the fusion's body: a fusion call or a single op */
  KernelSpec k;     /* inputs: the callee's parameters (or the op's operands); roots */
  Op **reduces;     /* reduction stages: the reduce of each root */
  Value **outer;    /* the body value each input reads */
  bool reduce;
} RowStage;

/* Where a stage result lives while the kernel runs (buf and base are the
   code generator's). */
typedef struct RowSlot {
  Value *v;
  int out;          /* first result index returning it, or -1 */
  bool rows;        /* whole rows (else one value per row) */
  LLVMValueRef buf; /* row buffer or one-value slot, when not returned */
  LLVMValueRef base;/* pointer such that base[linear index] is the element, per row */
} RowSlot;

typedef struct RowFusion {
  Module *m;
  Func *f;
  int64_t nrows, D;
  int nstages;
  RowStage st[ROW_MAX_STAGES];
  int nslots;
  RowSlot *slots;
  PtrMap slot_of; /* body value -> slot index + 1 */
} RowFusion;

bool row_is_fusion_call(const Op *op);
/* Is op a kInput fusion call of the row form (stages calling fusions, or
   a result that is not a reduce's)? */
bool row_fusion_form(Module *m, const Op *op);
/* Builds the stages of fusion call op; false when it is not a row fusion
   or a stage fails the rule or reduce_ok.  Call row_fusion_free either way. */
bool row_fusion_analyze(Module *m, Op *op, RowFusion *rf, bool (*reduce_ok)(const KernelSpec *k));
void row_fusion_free(RowFusion *rf);
/* The first of the trailing dims of t whose sizes multiply to D, or -1. */
int row_suffix_start(const Type *t, int64_t D);
/* idx[d] for d in [from, to) from the row-major linear index lin over
   those dims of t. */
void row_split_index(Cg *cg, const Type *t, int from, int to, LLVMValueRef lin, LLVMValueRef *idx);

/* ---- what both row kernels emit the same way ---- */
/* Each slot's base for row r: a returned value's result buffer (outs), or
   the slot's buffer (buf, set by the backend) moved back by the row's
   offset, so that base[linear index] is the element. */
void row_set_bases(Cg *cg, RowFusion *rf, LLVMValueRef *outs, LLVMValueRef r);
/* The pointer each input of stage s reads: a slot's base, a constant, or
   the fusion's parameter (ins). */
void row_stage_inputs(Cg *cg, RowFusion *rf, const RowStage *s, LLVMValueRef *ins, LLVMValueRef *in_ptrs);
/* Stores stage result root at linear index lin (and into every further
   result returning the same value). */
void row_store_root(Cg *cg, RowFusion *rf, LLVMValueRef *outs, Value *root, LLVMValueRef lin, LLVMValueRef v);

#endif
