/*
 * sharding.h - Shardy's meshes and tensor shardings in the IR.
 *
 * A program JAX partitions automatically declares device meshes at module
 * level (`sdy.mesh @mesh = <["data"=2, "model"=4]>`, kept in the module's
 * mesh table, Module::meshes) and annotates values with shardings:
 *
 *   function arguments and results  `sdy.sharding` = #sdy.sharding<...> in
 *                                   their attribute dictionaries
 *   results of any op               `sdy.sharding` =
 *                                   #sdy.sharding_per_value<[<...>, ...]>
 *   sdy.sharding_constraint         its `sharding` = #sdy.sharding<...>
 *
 * A sharding says, per dimension of a tensor, which mesh axes split it
 * (major to minor; an axis may be a sub-axis "x":(pre)size, the part of
 * axis x of `size` devices whose stride is `pre`), whether propagation may
 * add more (open, `?`) and with which priority (`p0` first), plus the axes
 * the value is explicitly replicated on and those it is an unreduced
 * partial result over.
 *
 * In attributes a sharding is kept as Shardy's own text in canonical form
 * (ATTR_OPAQUE, Attr::name "sdy.sharding", "sdy.sharding_per_value" or
 * "sdy.mesh"), so it prints back as read and two equal shardings are equal
 * strings.  Passes do not parse it themselves: the functions below give
 * the structures (allocated in the module's arena) and build attributes
 * from them.  docs/ir.md describes the representation.
 */
#ifndef XLAC_IR_SHARDING_H
#define XLAC_IR_SHARDING_H

#include "ir/ir.h"

#define SDY_ATTR_SHARDING "sdy.sharding"              /* Attr::name of #sdy.sharding<...> */
#define SDY_ATTR_PER_VALUE "sdy.sharding_per_value"   /* of #sdy.sharding_per_value<[...]> */
#define SDY_ATTR_MESH "sdy.mesh"                      /* of #sdy.mesh<...> */
#define SDY_KEY "sdy.sharding"                        /* the attribute's key on values */

/* Bounds on what a reader accepts (far above any real mesh). */
#define SDY_MAX_AXES 64          /* axes of a mesh, refs of a list */
#define SDY_MAX_DEVICES (1 << 24)

typedef struct SdyMeshAxis {
  const char *name;
  int64_t size;
} SdyMeshAxis;

typedef struct SdyMesh {
  int naxes;
  SdyMeshAxis *axes;
  /* explicit device order, major axis first; 0 when it is iota (the
     canonical form drops iota).  A maximal mesh has no axes and one id. */
  int ndevices;
  int64_t *device_ids;
} SdyMesh;

typedef struct SdyAxisRef {
  const char *name;
  int64_t pre_size, size; /* a sub-axis "name":(pre_size)size; size 0: the whole axis */
} SdyAxisRef;

typedef struct SdyDim {
  int naxes;
  SdyAxisRef *axes;       /* major to minor */
  bool closed;            /* false: `?`, propagation may add axes */
  int64_t priority;       /* -1: none */
} SdyDim;

typedef enum SdyReduction { SDY_SUM, SDY_MAX, SDY_MIN } SdyReduction;

typedef struct SdySharding {
  const char *mesh_name;  /* the mesh it names (without '@'), or NULL: */
  SdyMesh *mesh;          /* an inline mesh */
  int ndims;
  SdyDim *dims;
  int nreplicated;
  SdyAxisRef *replicated;
  int nunreduced;
  SdyAxisRef *unreduced;
  SdyReduction reduction; /* how the unreduced partial results combine */
} SdySharding;

/* ---- text (Shardy's syntax) ----
 * Each reads from s[0..n) and returns how many bytes it read, or 0 with a
 * heap message in *err and its offset (from s) in *err_off.  Blanks and
 * // comments between tokens are skipped.  What is read is allocated in a.
 *   mesh:      <["x"=4, "y"=2], device_ids=[...]>
 *   sharding:  <@mesh, [{"x"}, {"y", ?}p1], replicated={"z"}, unreduced={"w"}>
 *              (the stripped form: what follows `#sdy.sharding`)
 *   per value: <[<@mesh, [...]>, ...]>   (what follows `#sdy.sharding_per_value`) */
size_t sdy_parse_mesh(Arena *a, const char *s, size_t n, SdyMesh *out, size_t *err_off, char **err);
size_t sdy_parse_sharding(Arena *a, const char *s, size_t n, SdySharding *out, size_t *err_off, char **err);
size_t sdy_parse_per_value(Arena *a, const char *s, size_t n, SdySharding **out, int *count, size_t *err_off,
                           char **err);

/* The canonical text, as Shardy prints it (the stripped forms above). */
void sdy_print_mesh(StrBuf *b, const SdyMesh *m);
void sdy_print_sharding(StrBuf *b, const SdySharding *s);
void sdy_print_axis_ref(StrBuf *b, const SdyAxisRef *r);
/* The canonical form of a mesh: iota device ids dropped. */
void sdy_mesh_canonicalize(SdyMesh *m);

/* ---- attributes ---- */
Attr *attr_sdy_sharding(Module *m, const SdySharding *s);
Attr *attr_sdy_per_value(Module *m, int n, const SdySharding *s);
Attr *attr_sdy_mesh(Module *m, const SdyMesh *mesh);
bool attr_is_sdy(const Attr *a, const char *kind); /* kind: SDY_ATTR_* */
/* The sharding an attribute holds (SDY_ATTR_SHARDING): false when it is
   not one (or does not read). */
bool sdy_sharding_of(Module *m, const Attr *a, SdySharding *out);
/* The shardings of an SDY_ATTR_PER_VALUE attribute: their count, or -1. */
int sdy_per_value_of(Module *m, const Attr *a, SdySharding **out);

/* ---- the module's meshes ---- */
MeshDecl *module_find_mesh(const Module *m, const char *name);
/* Appends a declaration (the name is copied; mesh and attrs are kept). */
MeshDecl *module_add_mesh(Module *m, const char *name, SdyMesh *mesh, int nattrs, NamedAttr *attrs, SrcLoc loc);
/* The mesh a sharding is over (its inline mesh, or the declared one it
   names); NULL when it names no declared mesh. */
const SdyMesh *sdy_sharding_mesh(const Module *m, const SdySharding *s);

/* ---- shardings of values ----
 * Each fills *out and returns true when the value has a sharding.  An op's
 * result has the sharding of sdy.sharding_constraint's `sharding`, or entry
 * i of the op's `sdy.sharding` (per value). */
bool func_arg_sharding(Module *m, const Func *f, int i, SdySharding *out);
bool func_result_sharding(Module *m, const Func *f, int i, SdySharding *out);
bool op_result_sharding(Module *m, const Op *op, int i, SdySharding *out);
/* Set (replace) the sharding of a function argument or result; NULL
   removes it. */
void func_set_arg_sharding(Module *m, Func *f, int i, const SdySharding *s);
void func_set_result_sharding(Module *m, Func *f, int i, const SdySharding *s);

/* ---- queries on meshes and axes ---- */
int sdy_mesh_axis(const SdyMesh *m, const char *name); /* index, -1 when absent */
int64_t sdy_mesh_size(const SdyMesh *m);               /* devices (product of sizes; 1 for maximal) */
bool sdy_mesh_is_maximal(const SdyMesh *m);            /* no axes, one device id */
/* Devices an axis ref spans (the sub-axis size, or the whole axis's);
   0 when the axis is not in the mesh. */
int64_t sdy_axis_ref_size(const SdyMesh *m, const SdyAxisRef *r);
/* How many ways dimension d is split (product of its axes' sizes). */
int64_t sdy_dim_ways(const SdyMesh *m, const SdyDim *d);

/* ---- verification ----
 * NULL, or a heap message saying what is wrong.  A mesh: sizes of at least
 * 1, distinct names, device ids a permutation of 0..N-1 (or one id for a
 * maximal mesh).  A sharding of a value of type t (NULL: no type check):
 * a known mesh, one dimension sharding per dimension, known axes each used
 * once (a sub-axis and its whole axis, or overlapping sub-axes, count as
 * used twice), valid sub-axes, no priority on an empty closed dimension,
 * replicated and unreduced axes in mesh order. */
char *sdy_mesh_check(const SdyMesh *m);
char *sdy_sharding_check(const Module *m, const SdySharding *s, const Type *t);

#endif
