/*
 * aot.c - the end of an ahead-of-time compilation: the module cpu.c
 * lowered becomes an object file for a target.
 *
 * The entry function is renamed `<prefix>_entry` and every other
 * definition is made internal, so several programs link into one binary.
 * A custom call calls `xlac_cc_<target>` (kernel_custom.c), never the
 * target's own name, so it resolves to nothing but a function written for
 * it.
 * The descriptor `<prefix>_program` (runtime/xlacrt.h's
 * xlacrt_aot_program: names, element types, dimensions and sizes of the
 * arguments and results, the temp arena's size, the entry) is constant
 * data built here with the C layout of the target, in the code's object or,
 * as tfcompile's --out_metadata_object asks, in an object of its own.  The
 * module is optimized for the target machine (the host's, with the JIT's
 * features, unless a triple is given) and emitted.
 */
#include <string.h>

#include "codegen/jit.h"
#include "cpu/lower.h"

void cpu_aot_free(CpuAot *a) {
  xfree(a->object);
  xfree(a->metadata);
  for (int i = 0; i < a->ncalls; i++) xfree(a->calls[i].target);
  xfree(a->calls);
  a->object = a->metadata = NULL;
  a->calls = NULL;
  a->ncalls = 0;
}

/* A private constant C string in M. */
static LLVMValueRef cstring(Cg *cg, LLVMModuleRef M, const char *s) {
  LLVMValueRef init = LLVMConstStringInContext(cg->ctx, s, (unsigned)strlen(s), 0);
  LLVMValueRef g = LLVMAddGlobal(M, LLVMTypeOf(init), "str");
  LLVMSetInitializer(g, init);
  LLVMSetGlobalConstant(g, 1);
  LLVMSetLinkage(g, LLVMPrivateLinkage);
  LLVMSetUnnamedAddress(g, LLVMGlobalUnnamedAddr);
  return g;
}

static LLVMValueRef private_const(LLVMModuleRef M, LLVMValueRef init, const char *name) {
  LLVMValueRef g = LLVMAddGlobal(M, LLVMTypeOf(init), name);
  LLVMSetInitializer(g, init);
  LLVMSetGlobalConstant(g, 1);
  LLVMSetLinkage(g, LLVMPrivateLinkage);
  return g;
}

/* The descriptors of n buffers (xlacrt_aot_buffer[n]); NULL pointer when
   there are none. */
static LLVMValueRef buffer_array(Cg *cg, LLVMModuleRef M, LLVMTypeRef bt, Value *const *vals, const Type *const *types,
                                 int n, const char *const *names, int nnames, const char *dflt) {
  if (n == 0) return LLVMConstPointerNull(cg->t_ptr);
  LLVMValueRef *elems = xcalloc((size_t)n, sizeof(LLVMValueRef));
  for (int i = 0; i < n; i++) {
    const Type *t = vals ? vals[i]->type : types[i];
    char fallback[32];
    snprintf(fallback, sizeof fallback, "%s%d", dflt, i);
    const char *name = i < nnames && names[i] ? names[i] : fallback;
    LLVMValueRef dims;
    if (t->rank > 0) {
      LLVMValueRef *d = xcalloc((size_t)t->rank, sizeof(LLVMValueRef));
      for (int k = 0; k < t->rank; k++) d[k] = cg_i64(cg, t->dims[k]);
      dims = private_const(M, LLVMConstArray2(cg->t_i64, d, (uint64_t)t->rank), "dims");
      xfree(d);
    } else {
      dims = LLVMConstPointerNull(cg->t_ptr);
    }
    LLVMValueRef f[6] = {
        cstring(cg, M, name),
        cstring(cg, M, elem_info[t->elem].hlo_name),
        LLVMConstInt(cg->t_i32, (uint64_t)(t->elem - 1), 0), /* xlac_type = ElemType - 1 */
        LLVMConstInt(cg->t_i32, (uint64_t)t->rank, 0),
        dims,
        cg_i64(cg, type_bytes(t)),
    };
    elems[i] = LLVMConstNamedStruct(bt, f, 6);
  }
  LLVMValueRef arr = private_const(M, LLVMConstArray2(bt, elems, (uint64_t)n), "buffers");
  xfree(elems);
  return arr;
}

static void shape_part(StrBuf *b, const char *name, const Type *t) {
  char *ts = type_str(t);
  sb_printf(b, "%s: %s", name, ts);
  xfree(ts);
}

/* "(x: tensor<2x3xf32>, ...) -> (r: tensor<2x2xf32>)" */
static char *program_shape(Func *f, const CpuAot *a) {
  StrBuf b = {0};
  sb_puts(&b, "(");
  for (int i = 0; i < f->body->nargs; i++) {
    char dflt[32];
    snprintf(dflt, sizeof dflt, "arg%d", i);
    if (i) sb_puts(&b, ", ");
    shape_part(&b, i < a->narg_names && a->arg_names[i] ? a->arg_names[i] : dflt, f->body->args[i]->type);
  }
  sb_puts(&b, ") -> (");
  for (int i = 0; i < f->nresults; i++) {
    char dflt[32];
    snprintf(dflt, sizeof dflt, "result%d", i);
    if (i) sb_puts(&b, ", ");
    shape_part(&b, i < a->nresult_names && a->result_names[i] ? a->result_names[i] : dflt, f->result_types[i]);
  }
  sb_puts(&b, ")");
  return b.data;
}

/* The x86 features a CPU name implies, as far as the runtime checks them
   before a run (runtime/cpu_features.c): LLVM's C interface names a
   target machine's CPU and its explicit features but not what the CPU
   brings.  The microarchitecture levels, then the CPUs by family. */
#define V2 "sse3,ssse3,sse4.1,sse4.2,popcnt,cx16"
#define V3 V2 ",avx,avx2,fma,f16c,bmi,bmi2,lzcnt,movbe"
#define V4 V3 ",avx512f,avx512bw,avx512cd,avx512dq,avx512vl"
#define ICX V4 ",avx512vnni,avx512vbmi,avx512vbmi2,avx512ifma,avx512bitalg,avx512vpopcntdq,gfni,vaes,vpclmulqdq"
static const struct {
  const char *cpus, *features;
} cpu_features[] = {
    {",x86-64-v2,nehalem,westmere,silvermont,goldmont,goldmont-plus,tremont,", V2},
    {",sandybridge,", V2 ",avx"},
    {",ivybridge,", V2 ",avx,f16c"},
    {",x86-64-v3,haswell,broadwell,skylake,znver1,znver2,znver3,", V3},
    {",alderlake,raptorlake,meteorlake,arrowlake,gracemont,", V3 ",avxvnni,gfni,vaes,vpclmulqdq"},
    {",x86-64-v4,skylake-avx512,", V4},
    {",cascadelake,", V4 ",avx512vnni"},
    {",cooperlake,", V4 ",avx512vnni,avx512bf16"},
    {",cannonlake,", V4 ",avx512vbmi,avx512ifma"},
    {",icelake-client,icelake-server,rocketlake,", ICX},
    {",tigerlake,", ICX ",avx512vp2intersect"},
    {",znver4,znver5,", ICX ",avx512bf16"},
    {",sapphirerapids,emeraldrapids,graniterapids,", ICX ",avx512bf16,avx512fp16,avxvnni"},
};
#undef V2
#undef V3
#undef V4
#undef ICX

/* Adds (or with remove, takes out) one feature of the list in b. */
static void feature_edit(StrBuf *b, const char *name, size_t n, bool remove) {
  char one[40];
  if (n == 0 || n >= sizeof one - 2) return;
  snprintf(one, sizeof one, ",%.*s,", (int)n, name);
  char want[40];
  snprintf(want, sizeof want, "%.*s", (int)n, name);
  /* not one the runtime could check; nor AMX: generated code has no tile
     instructions (LLVM emits them only for tile intrinsics), and whether
     the runtime's kernels use tiles is decided where they run */
  if (xlacrt_cpu_has(want) < 0 || strncmp(want, "amx", 3) == 0) return;
  char *at = b->data ? strstr(b->data, one) : NULL;
  if (remove && at) {
    memmove(at, at + n + 1, strlen(at + n + 1) + 1);
    b->len -= n + 1;
  } else if (!remove && !at) {
    sb_printf(b, "%s,", want);
  }
}

/* "avx2,fma,...": the features code from tm may use that the runtime can
   check, for the descriptor (xlacrt_aot_program.cpu_features); empty off
   x86-64.  *cpu receives tm's CPU name (heap). */
static char *target_features(LLVMTargetMachineRef tm, char **cpu) {
  char *triple = LLVMGetTargetMachineTriple(tm), *name = LLVMGetTargetMachineCPU(tm);
  char *given = LLVMGetTargetMachineFeatureString(tm);
  *cpu = xstrdup(name);
  StrBuf b = {0};
  sb_puts(&b, ",");
  if (strncmp(triple, "x86_64", 6) == 0) {
    char key[64];
    snprintf(key, sizeof key, ",%s,", name);
    for (size_t i = 0; i < sizeof cpu_features / sizeof *cpu_features; i++)
      if (strstr(cpu_features[i].cpus, key))
        for (const char *s = cpu_features[i].features; *s;) {
          size_t n = strcspn(s, ",");
          feature_edit(&b, s, n, false);
          s += n + (s[n] == ',');
        }
    /* the explicit "+f,-g" features have the last word */
    for (const char *s = given; *s;) {
      size_t n = strcspn(s, ",");
      if (*s == '+' || *s == '-') feature_edit(&b, s + 1, n - 1, *s == '-');
      s += n + (s[n] == ',');
    }
  }
  LLVMDisposeMessage(triple);
  LLVMDisposeMessage(name);
  LLVMDisposeMessage(given);
  /* without the commas at both ends */
  size_t len = b.len;
  char *r = xstrdup(len > 2 ? b.data + 1 : "");
  if (len > 2) r[len - 2] = 0;
  sb_free(&b);
  return r;
}

static void add_descriptor(Cg *cg, LLVMModuleRef M, Func *f, int64_t temp_bytes, int nloops, const CpuAot *a,
                           LLVMValueRef entry, LLVMTargetMachineRef tm) {
  LLVMTypeRef bt = LLVMStructCreateNamed(cg->ctx, "xlacrt_aot_buffer");
  LLVMTypeRef bf[6] = {cg->t_ptr, cg->t_ptr, cg->t_i32, cg->t_i32, cg->t_ptr, cg->t_i64};
  LLVMStructSetBody(bt, bf, 6, 0);
  LLVMTypeRef pt = LLVMStructCreateNamed(cg->ctx, "xlacrt_aot_program");
  LLVMTypeRef pf[12] = {cg->t_i32, cg->t_i32, cg->t_i32, cg->t_i32, cg->t_ptr, cg->t_ptr,
                        cg->t_i64, cg->t_ptr, cg->t_ptr, cg->t_ptr, cg->t_ptr, cg->t_ptr};
  LLVMStructSetBody(pt, pf, 12, 0);
  char *shape = program_shape(f, a), *cpu = NULL, *features = target_features(tm, &cpu);
  LLVMValueRef v[12] = {
      LLVMConstInt(cg->t_i32, XLACRT_ABI_VERSION, 0),
      LLVMConstInt(cg->t_i32, (uint64_t)f->body->nargs, 0),
      LLVMConstInt(cg->t_i32, (uint64_t)f->nresults, 0),
      LLVMConstInt(cg->t_i32, (uint64_t)nloops, 0),
      buffer_array(cg, M, bt, f->body->args, NULL, f->body->nargs, a->arg_names, a->narg_names, "arg"),
      buffer_array(cg, M, bt, NULL, (const Type *const *)f->result_types, f->nresults, a->result_names,
                   a->nresult_names, "result"),
      cg_i64(cg, temp_bytes),
      entry,
      cstring(cg, M, a->name ? a->name : a->prefix),
      cstring(cg, M, shape),
      cstring(cg, M, cpu),
      cstring(cg, M, features),
  };
  xfree(shape);
  xfree(cpu);
  xfree(features);
  char *gname = xasprintf("%s_program", a->prefix);
  LLVMValueRef g = LLVMAddGlobal(M, pt, gname);
  xfree(gname);
  LLVMSetInitializer(g, LLVMConstNamedStruct(pt, v, 12));
  LLVMSetGlobalConstant(g, 1);
  LLVMSetAlignment(g, 8);
}

static bool named(LLVMValueRef v, const char *name) {
  size_t n;
  const char *s = LLVMGetValueName2(v, &n);
  return n == strlen(name) && memcmp(s, name, n) == 0;
}

bool aot_finish(Lower *L, Func *f, int64_t temp_bytes, int nloops) {
  Cg *cg = &L->cg;
  CpuAot *a = L->aot;
  char *err = NULL;
  LLVMTargetMachineRef tm = jit_target_machine(a->triple, a->cpu, a->features, 3, &err);
  if (!tm) {
    error_at(f->loc, "%s", err ? err : "cannot create a target machine for the host");
    xfree(err);
    return false;
  }
  char *entry_name = a->entry_symbol ? xstrdup(a->entry_symbol) : xasprintf("%s_entry", a->prefix);
  LLVMSetValueName2(L->fn, entry_name, strlen(entry_name));
  /* LLVM renames a value whose name is taken: the object would export
     another symbol than the one asked for */
  if (!named(L->fn, entry_name)) {
    error_at(f->loc, "the entry symbol '%s' is also a function the compiled code calls; choose another with "
             "--entry_point or --name", entry_name);
    xfree(entry_name);
    LLVMDisposeTargetMachine(tm);
    return false;
  }
  /* nothing but the entry and the descriptor is visible outside */
  for (LLVMValueRef fn = LLVMGetFirstFunction(cg->mod); fn; fn = LLVMGetNextFunction(fn))
    if (fn != L->fn && !LLVMIsDeclaration(fn)) LLVMSetLinkage(fn, LLVMInternalLinkage);
  for (LLVMValueRef g = LLVMGetFirstGlobal(cg->mod); g; g = LLVMGetNextGlobal(g))
    if (LLVMGetInitializer(g) && LLVMGetLinkage(g) == LLVMExternalLinkage) LLVMSetLinkage(g, LLVMInternalLinkage);
  a->temp_bytes = temp_bytes;
  /* what linkers name the object by in their messages */
  const char *src = a->source ? a->source : a->prefix;
  LLVMSetSourceFileName(cg->mod, src, strlen(src));
  LLVMModuleRef meta = NULL;
  if (a->separate_metadata) {
    meta = LLVMModuleCreateWithNameInContext("xlac-metadata", cg->ctx);
    LLVMValueRef decl = LLVMAddFunction(meta, entry_name, LLVMGlobalGetValueType(L->fn));
    add_descriptor(cg, meta, f, temp_bytes, nloops, a, decl, tm);
    jit_set_target(meta, tm);
  } else {
    add_descriptor(cg, cg->mod, f, temp_bytes, nloops, a, L->fn, tm);
  }
  xfree(entry_name);
  bool ok = jit_optimize_for(cg->mod, tm, 3, &err) && jit_emit_object_for(cg->mod, tm, &a->object, &a->object_size, &err);
  if (ok && meta) ok = jit_emit_object_for(meta, tm, &a->metadata, &a->metadata_size, &err);
  if (meta) LLVMDisposeModule(meta);
  LLVMDisposeTargetMachine(tm);
  if (!ok) {
    error_at(f->loc, "code generation failed: %s", err ? err : "unknown error");
    xfree(err);
  }
  return ok;
}
