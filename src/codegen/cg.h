/*
 * cg.h - LLVM code generation shared by the CPU and GPU backends.
 *
 * Cg holds the LLVM context/module/builder for one executable and the
 * cached LLVM types.  Element types have a storage type (how a tensor keeps
 * them in memory, identical to Literal storage) and a compute type (what
 * arithmetic works on): pred is stored as i8 and computed as i1; 2/4-bit
 * integers are stored in a byte and computed as i2/i4 so LLVM wraps them;
 * f16/bf16 are computed in f32 and rounded after every op.  The narrow
 * floats (f8/f6/f4, one per byte) are computed in f32 (f8E8M0FNU, whose
 * range exceeds f32's, in f64) and rounded to their format after every op,
 * with the interpreter's rounding, saturation and NaN rules; complex
 * numbers are computed as an LLVM struct {re, im} of float/double that
 * LLVM's scalar passes split into two plain values, so loops over them
 * still vectorize.
 *
 * A kernel computes the values of a set of "roots" from a set of "inputs"
 * (values read from buffers).  The elemental generator produces the value
 * of any value between them at a multi-dimensional index, recursively,
 * memoized per (value, index), so intermediates live in registers.
 */
#ifndef XLAC_CODEGEN_CG_H
#define XLAC_CODEGEN_CG_H

#include <llvm-c/Core.h>

#include "ir/rewrite.h"


#define CG_MAX_RANK 16

/* Constant data linked by name instead of held by the module (Cg.ext):
   a 64-byte aligned copy of the bytes, owned by whoever holds the list. */
typedef struct CgData {
  char name[64];
  void *bytes;
  size_t nb;
} CgData;
typedef VEC(CgData) CgDataVec;
/* constant data above this many bytes goes to Cg.ext when there is one */
#define CG_EXTERN_MIN 4096

typedef struct Cg {
  LLVMContextRef ctx;
  LLVMModuleRef mod;
  LLVMBuilderRef b;
  Module *m;
  LLVMTypeRef t_void, t_i1, t_i8, t_i16, t_i32, t_i64, t_f16, t_bf16, t_f32, t_f64, t_ptr;
  int counter; /* unique names */
  /* delinearize by 32-bit division where a shape has fewer than 2^31
     elements (the GPU, where 64-bit division is a long emulated sequence) */
  bool narrow_div;
  /* device code (the GPU): inline math where the CPU calls libm (f64 pow,
     with the inline version's error, docs/math.md) */
  bool no_libm;
  /* loops tested at the top, for LLVM's own O3 to rotate (the GPU: its
     kernels emitted rotated came out of O3 with a 64-bit mul.hi, an
     instruction GPGPU-Sim does not have) */
  bool top_tested_loops;
  /* > 0: loops closed by loop_end ask LLVM's vectorizer for this many
     lanes (kernels over 16-bit floats, whose cost LLVM overestimates) */
  int loop_vf;
  PtrMap const_globals; /* Literal* -> LLVM global */
  /* non-NULL (the CPU's JIT): constant data larger than CG_EXTERN_MIN
     stays out of the module, which only declares it; the bytes go here and
     the JIT resolves the name to them.  LLVM writes, copies and emits an
     initializer element by element: a network's weights (tens of MB) took
     seconds that way.  Device code and AOT objects keep their data. */
  CgDataVec *ext;
  /* the CPU runtime's entry points (cpu/cpu.c) */
  LLVMTypeRef ty_parallel_for, ty_task, ty_fallback, ty_sgemm;
  LLVMValueRef fn_parallel_for, fn_fallback, fn_sgemm, fn_memcpy;
} Cg;

/* ---- types ---- */
bool cg_elem_native(ElemType et);
/* pred, integers, f16/bf16/f32/f64: one LLVM integer or float per element,
   the types the scalar op emitter and the reduction/window kernels take.
   The other native types (complex, f8/f6/f4) are handled by the elemental
   generator only. */
bool cg_elem_basic(ElemType et);
/* Whether every tensor operand and result of op has a basic element type. */
bool cg_op_basic(const Op *op);
/* f8/f6/f4 */
bool cg_elem_narrow(ElemType et);
/* A tensor type the code generator handles natively (element type, rank). */
bool cg_tensor_native(const Type *t);
/* A fresh Cg for m: a module named `name` in ctx, a builder, the basic
   types (t_ptr in the generic address space); what a backend adds is its
   own (the CPU's runtime functions). */
void cg_init(Cg *cg, LLVMContextRef ctx, Module *m, const char *name);
LLVMTypeRef cg_storage_type(Cg *cg, ElemType et);
LLVMTypeRef cg_compute_type(Cg *cg, ElemType et);
/* Loads element i (i64) of a buffer of et, as the compute type. */
LLVMValueRef cg_load(Cg *cg, ElemType et, LLVMValueRef base, LLVMValueRef i);
void cg_store(Cg *cg, ElemType et, LLVMValueRef base, LLVMValueRef i, LLVMValueRef v);
/* What cg_load does to a value of the storage type it loaded, and cg_store
   to a value of the compute type before it stores it (not complex): for
   code that moves several elements by one vector load or store. */
LLVMValueRef cg_from_storage(Cg *cg, ElemType et, LLVMValueRef v);
LLVMValueRef cg_to_storage(Cg *cg, ElemType et, LLVMValueRef v);
/* Moves the builder to the start of fn's entry block, where allocas and
   one-time setup go (an alloca in a loop grows the stack every iteration);
   returns the block it was in, to go back to with
   LLVMPositionBuilderAtEnd. */
LLVMBasicBlockRef cg_enter_entry(Cg *cg, LLVMValueRef fn);
/* A 64-byte aligned stack slot in fn's entry block. */
LLVMValueRef cg_entry_alloca(Cg *cg, LLVMValueRef fn, LLVMTypeRef t, const char *name);
/* Marks a store (of a whole, suitably aligned vector) as streaming: it
   writes around the caches. */
void cg_set_nontemporal(Cg *cg, LLVMValueRef store);
/* fptrunc (scalars or vectors), except that f32 -> bf16 rounds by the bits
   and keeps subnormals (vector fptrunc to bf16 would flush them). */
LLVMValueRef cg_fptrunc(Cg *cg, LLVMValueRef v, LLVMTypeRef to, const char *name);
LLVMValueRef cg_i64(Cg *cg, int64_t v);
LLVMValueRef cg_min64(Cg *cg, LLVMValueRef a, LLVMValueRef b);
LLVMValueRef cg_max64(Cg *cg, LLVMValueRef a, LLVMValueRef b);
/* The address of element i (i64) of a buffer of et. */
LLVMValueRef cg_elem_ptr(Cg *cg, ElemType et, LLVMValueRef base, LLVMValueRef i);
/* The bytes of a tensor's storage (0 for other types). */
int64_t type_bytes(const Type *t);
/* Constant of the compute type of et with value v (integers wrap). */
LLVMValueRef cg_const(Cg *cg, ElemType et, double v);
LLVMValueRef cg_const_int(Cg *cg, ElemType et, int64_t v);
/* Index arithmetic: the row-major linear index of idx in t's dims, and back;
   an index element (compute type of et) as i64 (unsigned values beyond
   INT64_MAX saturate, as in the interpreter); v clamped into [lo, hi]. */
LLVMValueRef cg_linearize(Cg *cg, const Type *t, LLVMValueRef *idx);
void cg_delinearize(Cg *cg, const Type *t, LLVMValueRef lin, LLVMValueRef *idx);
/* The index in `to` of the element at idx in `from`, a reshape of it. */
void cg_reshape_index(Cg *cg, const Type *from, LLVMValueRef *idx, const Type *to, LLVMValueRef *oidx);
LLVMValueRef cg_index_to_i64(Cg *cg, ElemType et, LLVMValueRef v);
LLVMValueRef cg_clamp_i64(Cg *cg, LLVMValueRef v, int64_t lo, int64_t hi);
/* Narrow floats: the storage bits (i8) as the compute type, a compute-type
   value (f32 or f64) encoded to bits, and a value rounded to the format
   (encode then decode, without the table). */
LLVMValueRef cg_narrow_decode(Cg *cg, ElemType et, LLVMValueRef bits);
LLVMValueRef cg_narrow_encode(Cg *cg, ElemType et, LLVMValueRef v);
LLVMValueRef cg_narrow_round(Cg *cg, ElemType et, LLVMValueRef v);
/* (a + bi) / (c + di) in double by Smith's method (infinities with the
   numerator's signs for a zero divisor), as device code divides. */
void cg_complex_div(Cg *cg, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c, LLVMValueRef d, LLVMValueRef *re,
                    LLVMValueRef *im);
/* The bits (an integer of et's width) of a compute-type value of a native
   et, and back. */
LLVMValueRef cg_to_bits(Cg *cg, ElemType et, LLVMValueRef v);
LLVMValueRef cg_from_bits(Cg *cg, ElemType et, LLVMValueRef bits);
/* An integer (compute type of et, signed or not by et) as a double rounded
   to odd: converting that double to a narrower format rounds correctly. */
LLVMValueRef cg_int_to_f64_odd(Cg *cg, ElemType et, LLVMValueRef v);
/* Complex values: the part type of a complex et, a value from its parts,
   and the parts of one. */
LLVMTypeRef cg_part_type(Cg *cg, ElemType et);
LLVMValueRef cg_complex(Cg *cg, ElemType et, LLVMValueRef re, LLVMValueRef im);
LLVMValueRef cg_re(Cg *cg, LLVMValueRef z);
LLVMValueRef cg_im(Cg *cg, LLVMValueRef z);
/* An LLVM intrinsic call with overloaded type `ty` (NULL: not overloaded). */
LLVMValueRef cg_intrinsic(Cg *cg, const char *name, LLVMTypeRef ty, LLVMValueRef *args, int n);
/* A call to a C function `double name(double...)` with nargs arguments. */
LLVMValueRef cg_libm(Cg *cg, const char *name, LLVMValueRef *args, int n);

/* ---- scalar ops (emit_scalar.c) ----
 * Emits op kind k on compute-type values: operand element types in
 * in_types, result element type out.  Returns NULL when the op/type is not
 * supported natively (the caller then falls back). */
LLVMValueRef emit_scalar_op(Cg *cg, const Op *op, const ElemType *in_types, LLVMValueRef *in,
                            ElemType out);
/* Whether emit_scalar_op handles this op (checked before emitting). */
bool scalar_op_supported(const Op *op);

/* ---- ops on complex and narrow-float values (emit_complex.c) ----
 * Elementwise ops with an operand or result that is not basic (see
 * cg_op_basic); the same contract as the scalar emitter above. */
bool special_op_supported(const Op *op);
LLVMValueRef emit_special_op(Cg *cg, const Op *op, const ElemType *in_types, LLVMValueRef *in,
                             ElemType out);

/* ---- loops ---- */
typedef struct Loop {
  LLVMBasicBlockRef header, body, exit; /* header: top-tested loops only */
  LLVMValueRef iv;
  LLVMValueRef phi;
  LLVMValueRef hi;
} Loop;
/* for (iv = lo; iv < hi; iv++): leaves the builder in the body.  The loop
   is emitted as LLVM's loop passes would leave it (rotated, the exit test
   at the back edge): a test of lo < hi before it (none when both are
   constants), and iv + 1 != hi at the end of each trip; with
   Cg.top_tested_loops, for (;;) { if (!(iv < hi)) break; ... }.  The iv
   is not defined after the loop. */
Loop loop_begin(Cg *cg, LLVMValueRef lo, LLVMValueRef hi, const char *name);
void loop_end(Cg *cg, Loop *l);
/* loop_end for a loop whose iv steps by step > 0 (an i64 value; the loop
   goes on while iv < hi) */
void loop_end_by(Cg *cg, Loop *l, LLVMValueRef step);
/* Asks LLVM's vectorizer for vf lanes on the loop whose back edge is br. */
void cg_loop_width(Cg *cg, LLVMValueRef br, int vf);

/* A private constant global of nb bytes (64-byte aligned), named prefix.N. */
LLVMValueRef cg_bytes_global(Cg *cg, const void *data, size_t nb, const char *prefix);
/* A private read-only global holding a literal's bytes (one per literal). */
LLVMValueRef cg_constant_global(Cg *cg, const Literal *l);

/* ---- the elemental generator (elemental.c) ---- */
typedef struct KernelIO {
  /* inputs: values read from memory; base pointers in the kernel */
  int ninputs;
  Value **inputs;
  LLVMValueRef *input_ptrs;
  /* memo: (value, index) -> LLVM value, valid within one loop body */
  PtrMap memo_vals;
  struct MemoEntry *memo;
  int nmemo, capmemo;
} KernelIO;
/* Whether every value from roots back to inputs can be generated. */
bool elemental_supported(Value *const *roots, int nroots, Value *const *inputs, int ninputs);
/* Is v computed from the inputs by elementwise ops on `shape` only (rank-0
   values and splat constants broadcast)?  Then it can be generated at a
   linear index: a loop kernel is one flat loop, a reduction's producer is
   read linearly.  seen: values already checked. */
bool elemental_flat(Value *v, const Type *shape, Value *const *inputs, int n, PtrMap *seen);
LLVMValueRef emit_elemental(Cg *cg, KernelIO *io, Value *v, LLVMValueRef *idx);
/* Makes v at idx (the same LLVM values) read as val until the memo is
   reset: a value a kernel computed itself (a product under its epilogue). */
void kernel_io_give(KernelIO *io, Value *v, LLVMValueRef *idx, LLVMValueRef val);
/* The operand index (full, one i64 per operand dimension) that element idx
   of a gather the generator accepts reads: its start indices, read through
   io and clamped, plus its batch and offset indices. */
void gather_operand_index(Cg *cg, KernelIO *io, Op *op, LLVMValueRef *idx, LLVMValueRef *full);
void kernel_io_reset_memo(KernelIO *io);
void kernel_io_free(KernelIO *io);
/* Every root at idx, stored at linear index lin of its out buffer: all of
   them computed before the first store, so that a result computed into an
   input's storage (buffers_reads_at_index) overwrites nothing another root
   still reads.  reset: the memo of the last index cleared first (not where
   values were just given for this one). */
void elemental_store_roots(Cg *cg, KernelIO *io, Value *const *roots, int nroots, LLVMValueRef *outs,
                           LLVMValueRef *idx, LLVMValueRef lin, bool reset);

#endif
