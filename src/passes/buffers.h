/*
 * buffers.h - buffer assignment: where every tensor of a function lives
 * while the compiled function runs.
 *
 * Run it on a function after fusion.  Every tensor value produced by an op of
 * the function body, or of the regions of its while/if/case ops, gets
 * storage; values inside fused computations (and inside reduce, sort, ...
 * bodies) live in registers and get none.
 *
 *   BUF_PARAM   an entry parameter: the caller's buffer (offset = index).
 *   BUF_RESULT  a value returned by func.return: computed straight into the
 *               caller's result buffer (offset = result index).
 *   BUF_CONST   a constant: a read-only global, no temp.
 *   BUF_TEMP    everything else: a 64-byte aligned slice [offset, offset +
 *               bytes) of one temp arena of temp_bytes bytes.
 *   BUF_NONE    no storage (tuples, tokens).
 *
 * Results that cannot be computed in place (a returned parameter or
 * constant, a value returned twice) are listed in result_copy: the code
 * generator copies that value into the result buffer before returning.
 *
 * Liveness is by program order: ops are numbered in a pre-order walk that
 * enters while/if/case regions; a value is live from its defining op to its
 * last use, and a use inside a region of an op counts as a use at the end
 * of that op.  The results of while/if/case are live from the op's start, so
 * they never share storage with anything the op computes.
 *
 * Loop state: the block arguments of a while's cond and body share the
 * buffers of the while's results (kind and offset of the result, `alias`
 * set).  The code generator copies the init operands into them before the
 * first iteration and the body's returned values into them after each
 * iteration (a body returning a permutation of its arguments needs a
 * scratch copy).  A returned value whose storage is a temp of the body is
 * computed straight into its state buffer instead, when the old state is
 * dead by then or dies at the op computing it, which reads it only at the
 * index it writes (buffers_reads_at_index; with BufferOptions, also a loop
 * fusion of several results): that copy is then none.  An
 * if/case copies the returned values of the branch taken into its result
 * buffers.
 *
 * Views (BufferOptions.reads_view): a loop fusion that only moves an
 * operand's elements (reshapes, slices, transposes: ir/view.h), all of
 * whose users read each result through that view of the operand (the cpu
 * backend's products), is computed by nothing: each result shares the
 * operand's storage (alias and view set), which then lives until the last
 * user.
 *
 * A reshape whose operand is a temp that dies at the reshape reuses the
 * operand's storage (alias set, no copy needed).  So does a scatter's
 * result (its operand's storage, when the operand dies there; or, when the
 * result is the caller's result buffer, the operand temp is computed into
 * that buffer).  So does the result of a
 * one-result op that reads a temp operand of its size only at the index it
 * writes (buffers_reads_at_index) when that temp dies there: the kernel
 * overwrites each element after reading it.
 */
#ifndef XLAC_BUFFERS_H
#define XLAC_BUFFERS_H

#include "ir/rewrite.h"

typedef enum BufferKind { BUF_NONE, BUF_PARAM, BUF_RESULT, BUF_TEMP, BUF_CONST } BufferKind;

typedef struct Buffer {
  const Value *value;
  BufferKind kind;
  int64_t offset;     /* TEMP: byte offset in the arena; PARAM/RESULT: index; else 0 */
  int64_t bytes;      /* elements * element size (0 for BUF_NONE) */
  int start, end;     /* live range in program positions, inclusive */
  const Value *alias; /* shares this value's storage (loop state, in-place reshape) */
  bool view;          /* holds no elements of its own: its users read alias's storage through a view */
} Buffer;

typedef struct ResultCopy {
  int result;         /* result index */
  const Value *from;  /* value to copy into it (a param, a constant, or another result) */
} ResultCopy;

typedef struct BufferAssignment {
  const Func *func;
  int nbufs;
  Buffer *bufs;       /* in program order */
  int64_t temp_bytes; /* size of the temp arena: peak of simultaneously live temps */
  int ncopies;
  ResultCopy *copies;
  PtrMap index;       /* Value* -> index into bufs + 1 */
} BufferAssignment;

/* Whether op (one result) reads its operand i only at the index of the
   element it writes: an elementwise op, or a loop fusion in whose
   computation every path from that operand to the root goes through
   elementwise ops of its shape only (no broadcast, slice, transpose, ...).
   The code generators' kernels for these read element i of every such
   operand before they write element i of the result. */
bool buffers_reads_at_index(Module *m, const Op *op, int i);

/* Assigns buffers for f (never fails on well-formed IR; returns a heap
   object to release with buffers_free). */
BufferAssignment *buffers_assign(Module *m, Func *f);
/* ... with options (NULL: buffers_assign's). */
typedef struct BufferOptions {
  /* loop state computed in place also by a loop fusion of several results
     (of one shape) that reads the old state at the index it writes: the
     gpu backend's kernels compute every root of an element before they
     store one (elemental_store_roots).  Not the cpu backend's: there the
     result's storage being an input's makes LLVM's vectorizer take its
     scalar loop (lstm_scan's gates: 25 -> 200 us a step). */
  bool multi_result_state;
  /* Whether user, one of the users of result r of the fusion op, reads
     that result through a strided view of the fusion's operand *src
     (index into op's operands) instead of the result's elements.  When
     every user of every result of op does (with one source per result, a
     temp), op's results become views of their sources (see above). */
  bool (*reads_view)(Module *m, const Op *op, int r, const Op *user, int *src);
} BufferOptions;
BufferAssignment *buffers_assign_with(Module *m, Func *f, const BufferOptions *o);
/* Kind of v's storage; *offset (may be NULL) gets the TEMP byte offset or
   the PARAM/RESULT index.  BUF_NONE for values that have no buffer. */
BufferKind buffers_lookup(const BufferAssignment *a, const Value *v, int64_t *offset);
/* Whether x and y live in the same storage (one aliases the other, or
   both alias a third value). */
bool buffers_same_storage(const BufferAssignment *a, const Value *x, const Value *y);
/* Where a buffer lies: kind, offset as in Buffer (a backend may number
   its constants instead), and size. */
typedef struct BufferPlace {
  BufferKind kind;
  int64_t offset;
  int64_t bytes;
} BufferPlace;
/* Whether two places are certainly different memory during a run: temps
   whose ranges of the arena do not meet; a temp or a constant and a
   parameter or result (other memory); two results (the caller's distinct
   buffers); a parameter and a result not computed into it (alias_param[r]:
   the parameter result r may be computed into, or -1; nalias entries, as
   the backends' options give it).  Two parameters may be one buffer (the
   caller's choice), and so may two constants. */
bool buffers_places_apart(const BufferPlace *x, const BufferPlace *y, const int *alias_param, int nalias);
/* The same for the buffers of values x and y; values in one storage
   (computed in place) are never apart. */
bool buffers_apart(const BufferAssignment *a, const Value *x, const Value *y, const int *alias_param, int nalias);
/* Whether v's buffer is a view of another value's storage (reads_view):
   nothing computes v, its users read that storage. */
bool buffers_is_view(const BufferAssignment *a, const Value *v);
/* The Buffer record of v, or NULL. */
const Buffer *buffers_get(const BufferAssignment *a, const Value *v);
/* Readable dump (the *.buffer-assignment.txt file): one line per value with
   name, type, bytes, kind, offset and live range; result copies; the peak. */
void buffers_print(StrBuf *b, const BufferAssignment *a);
void buffers_free(BufferAssignment *a);

#endif
