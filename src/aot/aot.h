/*
 * aot.h - ahead-of-time compilation: a program becomes an object file and
 * a header (and, on request, the sources of a test and a benchmark).
 *
 * aot.c names the arguments and results, asks the CPU backend for the
 * object (cpu/cpu.h, CpuAot) and, for the test, runs the reference
 * interpreter on the same inputs first; header.c writes the header: a C
 * API over runtime/xlacrt.h's instances and, with a C++ class name,
 * tfcompile's class interface on top of it; testgen.c writes the test and
 * benchmark programs.  Nothing here writes files: the command line
 * (driver/aot.c) does, once everything succeeded.
 */
#ifndef XLAC_AOT_H
#define XLAC_AOT_H

#include "cpu/cpu.h"

typedef struct AotRequest {
  Module *m;
  Func *entry;
  const char *source;      /* the input file, for the header's comment (escaped) */
  const char *name;        /* C identifier: symbol and function prefix (see
                              aot_name_problem) */
  const char *entry_symbol;/* tfcompile's --entry_point (NULL: <name>_entry) */
  const char *cpp_class;   /* "ns1::ns2::Class" (NULL: C API only) */
  const char *header_name; /* how test sources include the header ("model.h"; the
                              command refuses one aot_include_problem objects to) */
  const char *triple, *cpu, *features; /* NULL: the host */
  bool separate_metadata;  /* the descriptor in its own object */
  bool gen_name_to_index;  /* C++: LookupArgIndex / LookupResultIndex / names */
  bool gen_program_shape;  /* C++: ProgramShape() */
  bool gen_test;           /* test_source: zero and random inputs, checked
                              against the interpreter's results */
  bool gen_bench;          /* bench_source: times run */
  /* names of the flattened arguments / results (NULL: from the program:
     jax.arg_info / jax.result_info, the parameter's name, argN / resultN) */
  const char *const *arg_names;
  int narg_names;
  const char *const *result_names;
  int nresult_names;
} AotRequest;

typedef struct AotResult {
  CpuAot obj;       /* object, metadata, custom-call targets */
  char **arg_names; /* as used: C identifiers, unique */
  char **result_names;
  int nargs, nresults;
  char *header;
  char *test_source;
  char *bench_source;
  CpuStats stats;
} AotResult;

/* Compiles; false with diagnostics reported.  r->m is optimized in place. */
bool aot_compile(const AotRequest *req, AotResult *r);
void aot_result_free(AotResult *r);

/* header.c */
char *aot_header(const AotRequest *req, const AotResult *r, Func *flat);
/* testgen.c: expected[i] are the interpreter's results for inputs[i]
   (flattened), for the test. */
typedef struct AotCase {
  const char *what;  /* "zero inputs", "random inputs (seed 1)" */
  Literal **inputs;  /* per flattened argument */
  Literal **outputs; /* per flattened result */
} AotCase;
char *aot_test_source(const AotRequest *req, const AotResult *r, const AotCase *cases, int ncases);
char *aot_bench_source(const AotRequest *req, const AotResult *r);

/* header.c: the file-scope functions of the C API, '@' standing for the
   name; NULL-terminated. */
extern const char *const aot_c_api_functions[];

/* The symbol the object calls for custom-call target T: AOT_CUSTOM_CALL_PREFIX
   T (cpu/kernel_custom.c declares it), never T itself, so that a target
   named like a function of the C library (`system`) or of the program
   cannot resolve to it. */
#define AOT_CUSTOM_CALL_PREFIX CPU_AOT_CALL_PREFIX

/* names.c: what may reach the generated sources.  Each returns NULL when
   the value is fine, else why not (heap, for a message). */
char *aot_name_problem(const char *name);                      /* --name */
char *aot_class_problem(const char *cpp_class, const char *name); /* --cpp_class */
char *aot_symbol_problem(const char *sym, const char *name);  /* --entry_point */
char *aot_include_problem(const char *header_name);           /* the test's #include */
/* Appends s to a C comment (block or line) so that it can end neither the
   comment nor the line: printable ASCII but the backslash as is, any
   other byte, and the slash of a star-slash or slash-star, as \xHH. */
void aot_comment_text(StrBuf *b, const char *s);

/* aot.c: whether LLVM knows the CPU and features for the triple
   (NULL: this machine's).  LLVM only warns about an unknown CPU or
   feature and generates code for a generic one; this makes it an error.
   False with *err (heap) saying why. */
bool aot_check_target(const char *triple, const char *cpu, const char *features, char **err);

/* Bytes of a tensor of type t (one element per byte for sub-byte types). */
static inline int64_t aot_bytes(const Type *t) { return type_num_elements(t) * et_bytes(t->elem); }

/* The C type of one stored element of et ("float", "uint16_t", ...). */
const char *aot_c_type(ElemType et);

#endif
