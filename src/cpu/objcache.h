/*
 * objcache.h - the persistent compile cache: the object files cpu_compile
 * generates, kept in a directory and loaded by later compilations of the
 * same LLVM IR (in this process or another) instead of being generated
 * again.  See objcache.c for the key and the file format.
 *
 * One compilation:
 *   c = objcache_open(dir, M, opt_level, lookup)   before optimizing M
 *   j = objcache_load(c, ...)                      a hit: done, M unused
 *   otherwise optimize M, then j = objcache_compile(c, M, ...), or compile
 *   it in parts and objcache_store(c, objects, n) before linking them
 *   objcache_close(c, stats)                       what happened, and why
 * Nothing here prints: problems (an unusable directory, a bad entry) are
 * reported through the stats, and compilation goes on without the cache.
 */
#ifndef XLAC_CPU_OBJCACHE_H
#define XLAC_CPU_OBJCACHE_H

#include "cpu/cpu.h"
#include "codegen/jit.h"

typedef struct ObjCache ObjCache;

/* Keys the module M, which is not yet optimized, for the cache in dir
   (created, with its parents, if missing).  With lookup false the entry is
   not read (the compilation must run in full) but is still written. */
ObjCache *objcache_open(const char *dir, LLVMModuleRef M, int opt_level, bool lookup);
/* The cached object, linked with syms, when there is a valid entry; its
   symbol `entry` is looked up to check that it links.  NULL: compile. */
Jit *objcache_load(ObjCache *c, const JitSymbol *syms, int nsyms, const char *entry);
/* Generates the object for M (optimized; consumed), stores it, and JITs it
   (even when it cannot be stored).  NULL with *err set on failure. */
Jit *objcache_compile(ObjCache *c, LLVMModuleRef M, const JitSymbol *syms, int nsyms, char **err);
/* Stores the objects of a compilation made without objcache_compile (a
   module compiled in parts, codegen/jit_split.c); the caller keeps them. */
void objcache_store(ObjCache *c, const LLVMMemoryBufferRef *objs, int n);
/* Records the outcome in st (cache, cache_note) and frees c (may be NULL). */
void objcache_close(ObjCache *c, CpuStats *st);

/* The entry file for a key digest (hex), for tools and tests: its path in
   dir (heap string). */
char *objcache_entry_path(const char *dir, const uint64_t digest[2]);
/* The 128-bit digest the cache keys and checks entries with. */
void objcache_digest(const void *p, size_t n, uint64_t out[2]);

#endif
