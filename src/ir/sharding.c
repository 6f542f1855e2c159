/*
 * sharding.c - Shardy's meshes and shardings: their text (read and
 * printed canonically), the attributes that hold them, the module's mesh
 * table, queries, and the checks the verifier makes (see sharding.h).
 *
 * The reader is a small recursive descent over the characters, shared by
 * the StableHLO text frontend (which reports its errors at the file
 * offset) and the queries on attributes (whose text is canonical, written
 * by the printer below).
 */
#include "ir/sharding.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ text */

typedef struct SP {
  Arena *a;
  const char *s;
  size_t n, i;
  size_t err_off;
  char *err;
} SP;

static bool sp_fail(SP *p, size_t at, const char *fmt, ...) XLAC_PRINTF(3, 4);
static bool sp_fail(SP *p, size_t at, const char *fmt, ...) {
  if (p->err) return false;
  StrBuf b = {0};
  va_list ap;
  va_start(ap, fmt);
  sb_vprintf(&b, fmt, ap);
  va_end(ap);
  p->err = sb_take(&b);
  p->err_off = at;
  return false;
}

static void sp_skip(SP *p) {
  while (p->i < p->n) {
    char c = p->s[p->i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
      p->i++;
    } else if (c == '/' && p->i + 1 < p->n && p->s[p->i + 1] == '/') {
      while (p->i < p->n && p->s[p->i] != '\n') p->i++;
    } else {
      break;
    }
  }
}

static bool sp_peek(SP *p, char c) {
  sp_skip(p);
  return p->i < p->n && p->s[p->i] == c;
}

static bool sp_accept(SP *p, char c) {
  if (!sp_peek(p, c)) return false;
  p->i++;
  return true;
}

/* What is at the cursor, for "expected X, found Y". */
static const char *sp_found(SP *p, char *buf, size_t n) {
  sp_skip(p);
  if (p->i >= p->n) return "the end of the attribute";
  char c = p->s[p->i];
  if (isgraph((unsigned char)c))
    snprintf(buf, n, "'%c'", c);
  else
    snprintf(buf, n, "byte 0x%02X", (unsigned char)c);
  return buf;
}

static bool sp_expect(SP *p, char c, const char *what) {
  if (sp_accept(p, c)) return true;
  char buf[24];
  return sp_fail(p, p->i, "expected '%c'%s%s, found %s", c, what ? " " : "", what ? what : "",
                 sp_found(p, buf, sizeof buf));
}

static bool id_char(char c) { return isalnum((unsigned char)c) || c == '_' || c == '$' || c == '.' || c == '-'; }

/* A keyword at the cursor (not followed by an identifier character). */
static bool sp_word(SP *p, const char *w) {
  sp_skip(p);
  size_t k = strlen(w);
  if (p->n - p->i < k || memcmp(p->s + p->i, w, k) != 0) return false;
  if (p->i + k < p->n && id_char(p->s[p->i + k])) return false;
  p->i += k;
  return true;
}

static int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* "..." with MLIR's escapes (\\, \", \n, \t, \XX); names hold no NUL. */
static bool sp_quoted(SP *p, const char **out, const char *what) {
  sp_skip(p);
  size_t at = p->i;
  if (p->i >= p->n || p->s[p->i] != '"') {
    char buf[24];
    return sp_fail(p, at, "expected %s (a quoted string), found %s", what, sp_found(p, buf, sizeof buf));
  }
  StrBuf b = {0};
  size_t i = at + 1;
  for (;;) {
    if (i >= p->n) {
      sb_free(&b);
      return sp_fail(p, at, "unterminated string");
    }
    char c = p->s[i];
    if (c == '"') break;
    if (c == '\\') {
      if (i + 1 >= p->n) continue; /* reported as unterminated */
      char e = p->s[i + 1];
      int h1, h2;
      if (e == '\\' || e == '"') {
        c = e;
        i += 2;
      } else if (e == 'n') {
        c = '\n';
        i += 2;
      } else if (e == 't') {
        c = '\t';
        i += 2;
      } else if (i + 2 < p->n && (h1 = hexval(e)) >= 0 && (h2 = hexval(p->s[i + 2])) >= 0) {
        c = (char)(h1 * 16 + h2);
        i += 3;
      } else {
        sb_free(&b);
        return sp_fail(p, i, "unknown escape in a string");
      }
      if (c == 0) {
        sb_free(&b);
        return sp_fail(p, i, "a NUL byte in %s", what);
      }
      sb_putc(&b, c);
      continue;
    }
    if (c == 0) {
      sb_free(&b);
      return sp_fail(p, i, "a NUL byte in %s", what);
    }
    sb_putc(&b, c);
    i++;
  }
  p->i = i + 1;
  *out = arena_strndup(p->a, b.data ? b.data : "", b.len);
  sb_free(&b);
  return true;
}

static bool sp_int(SP *p, int64_t *out, const char *what) {
  sp_skip(p);
  size_t at = p->i, i = p->i;
  bool neg = i < p->n && p->s[i] == '-';
  if (neg) i++;
  if (i >= p->n || !isdigit((unsigned char)p->s[i])) {
    char buf[24];
    return sp_fail(p, at, "expected %s (an integer), found %s", what, sp_found(p, buf, sizeof buf));
  }
  /* the whole int64 range: the printer writes whatever a reader stored */
  uint64_t v = 0, lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
  for (; i < p->n && isdigit((unsigned char)p->s[i]); i++) {
    uint64_t d = (uint64_t)(p->s[i] - '0');
    if (v > (lim - d) / 10) return sp_fail(p, at, "%s is too large", what);
    v = v * 10 + d;
  }
  if (i < p->n && id_char(p->s[i]) && p->s[i] != '-') return sp_fail(p, i, "unexpected character after %s", what);
  p->i = i;
  *out = neg ? (int64_t)(0 - v) : (int64_t)v;
  return true;
}

/* @name or @"name" */
static bool sp_symbol(SP *p, const char **out) {
  sp_skip(p);
  size_t at = p->i;
  if (p->i >= p->n || p->s[p->i] != '@') return sp_fail(p, at, "expected a symbol (@name)");
  p->i++;
  if (p->i < p->n && p->s[p->i] == '"') return sp_quoted(p, out, "a mesh name");
  size_t b = p->i;
  while (p->i < p->n && id_char(p->s[p->i])) p->i++;
  if (p->i == b) return sp_fail(p, at, "expected a name after '@'");
  *out = arena_strndup(p->a, p->s + b, p->i - b);
  return true;
}

/* Growing arrays in the arena (old blocks stay until the arena goes). */
typedef struct Grow {
  void *data;
  int len, cap;
} Grow;

static void *grow_push(Arena *a, Grow *g, size_t elem) {
  if (g->len == g->cap) {
    int cap = g->cap ? 2 * g->cap : 4;
    void *d = arena_alloc(a, elem * (size_t)cap);
    if (g->len) memcpy(d, g->data, elem * (size_t)g->len);
    g->data = d;
    g->cap = cap;
  }
  return (char *)g->data + elem * (size_t)g->len++;
}

static bool p_mesh(SP *p, SdyMesh *m) {
  Grow axes = {0}, ids = {0};
  memset(m, 0, sizeof *m);
  if (!sp_expect(p, '<', "to begin a mesh") || !sp_expect(p, '[', "to begin the mesh's axes")) return false;
  if (!sp_accept(p, ']')) {
    do {
      size_t at = p->i;
      SdyMeshAxis ax;
      if (!sp_quoted(p, &ax.name, "an axis name") || !sp_expect(p, '=', "after the axis name") ||
          !sp_int(p, &ax.size, "the axis size"))
        return false;
      if (axes.len == SDY_MAX_AXES) return sp_fail(p, at, "a mesh of more than %d axes", SDY_MAX_AXES);
      *(SdyMeshAxis *)grow_push(p->a, &axes, sizeof ax) = ax;
    } while (sp_accept(p, ','));
    if (!sp_expect(p, ']', "to end the mesh's axes")) return false;
  }
  if (sp_accept(p, ',')) {
    size_t at = p->i;
    if (!sp_word(p, "device_ids")) return sp_fail(p, at, "expected 'device_ids'");
    if (!sp_expect(p, '=', "after 'device_ids'") || !sp_expect(p, '[', "to begin the device ids")) return false;
    if (!sp_accept(p, ']')) {
      do {
        int64_t id;
        at = p->i;
        if (!sp_int(p, &id, "a device id")) return false;
        if (ids.len == SDY_MAX_DEVICES) return sp_fail(p, at, "more than %d device ids", SDY_MAX_DEVICES);
        *(int64_t *)grow_push(p->a, &ids, sizeof id) = id;
      } while (sp_accept(p, ','));
      if (!sp_expect(p, ']', "to end the device ids")) return false;
    }
  }
  if (!sp_expect(p, '>', "to end the mesh")) return false;
  m->naxes = axes.len;
  m->axes = axes.data;
  m->ndevices = ids.len;
  m->device_ids = ids.data;
  sdy_mesh_canonicalize(m);
  return true;
}

static bool p_axis_ref(SP *p, SdyAxisRef *r) {
  memset(r, 0, sizeof *r);
  if (!sp_quoted(p, &r->name, "an axis name")) return false;
  if (!sp_accept(p, ':')) return true;
  if (!sp_expect(p, '(', "to begin a sub-axis' pre-size") || !sp_int(p, &r->pre_size, "the sub-axis pre-size") ||
      !sp_expect(p, ')', "after the sub-axis pre-size") || !sp_int(p, &r->size, "the sub-axis size"))
    return false;
  /* size 0 means the whole axis: a sub-axis of size 0 is kept invalid */
  if (r->size == 0) r->size = -1;
  return true;
}

static bool p_axis_list(SP *p, SdyAxisRef **out, int *n) {
  Grow g = {0};
  if (!sp_expect(p, '{', "to begin a list of axes")) return false;
  if (!sp_accept(p, '}')) {
    do {
      size_t at = p->i;
      SdyAxisRef r;
      if (!p_axis_ref(p, &r)) return false;
      if (g.len == SDY_MAX_AXES) return sp_fail(p, at, "a list of more than %d axes", SDY_MAX_AXES);
      *(SdyAxisRef *)grow_push(p->a, &g, sizeof r) = r;
    } while (sp_accept(p, ','));
    if (!sp_expect(p, '}', "to end a list of axes")) return false;
  }
  *out = g.data;
  *n = g.len;
  return true;
}

static bool p_dim(SP *p, SdyDim *d) {
  Grow g = {0};
  memset(d, 0, sizeof *d);
  d->closed = true;
  d->priority = -1;
  if (!sp_expect(p, '{', "to begin a dimension sharding")) return false;
  if (sp_accept(p, '?')) {
    d->closed = false;
  } else if (!sp_peek(p, '}')) {
    do {
      if (sp_accept(p, '?')) {
        d->closed = false;
        break;
      }
      size_t at = p->i;
      SdyAxisRef r;
      if (!p_axis_ref(p, &r)) return false;
      if (g.len == SDY_MAX_AXES) return sp_fail(p, at, "a dimension sharding of more than %d axes", SDY_MAX_AXES);
      *(SdyAxisRef *)grow_push(p->a, &g, sizeof r) = r;
    } while (sp_accept(p, ','));
  }
  if (!sp_expect(p, '}', d->closed ? "or ', ?' to end a dimension sharding" : "to end a dimension sharding"))
    return false;
  d->naxes = g.len;
  d->axes = g.data;
  sp_skip(p);
  if (p->i + 1 < p->n && p->s[p->i] == 'p' && isdigit((unsigned char)p->s[p->i + 1])) {
    p->i++;
    if (!sp_int(p, &d->priority, "the priority")) return false;
  }
  return true;
}

static bool p_sharding(SP *p, SdySharding *s) {
  Grow dims = {0};
  memset(s, 0, sizeof *s);
  if (!sp_expect(p, '<', "to begin a sharding")) return false;
  sp_skip(p);
  size_t at = p->i;
  if (sp_peek(p, '@')) {
    if (!sp_symbol(p, &s->mesh_name)) return false;
  } else if (sp_word(p, "mesh") || sp_word(p, "#sdy.mesh")) {
    s->mesh = ARENA_NEW(p->a, SdyMesh);
    if (!p_mesh(p, s->mesh)) return false;
  } else {
    char buf[24];
    return sp_fail(p, at, "expected a mesh name (@mesh) or an inline mesh (mesh<[...]>), found %s",
                   sp_found(p, buf, sizeof buf));
  }
  if (!sp_expect(p, ',', "after the mesh") || !sp_expect(p, '[', "to begin the dimension shardings")) return false;
  if (!sp_accept(p, ']')) {
    do {
      at = p->i;
      SdyDim d;
      if (!p_dim(p, &d)) return false;
      if (dims.len == SDY_MAX_AXES) return sp_fail(p, at, "more than %d dimension shardings", SDY_MAX_AXES);
      *(SdyDim *)grow_push(p->a, &dims, sizeof d) = d;
    } while (sp_accept(p, ','));
    if (!sp_expect(p, ']', "to end the dimension shardings")) return false;
  }
  s->ndims = dims.len;
  s->dims = dims.data;
  bool rep = false, unred = false;
  while (sp_accept(p, ',')) {
    at = p->i;
    if (!rep && sp_word(p, "replicated")) {
      rep = true;
      if (!sp_expect(p, '=', "after 'replicated'") || !p_axis_list(p, &s->replicated, &s->nreplicated)) return false;
    } else if (!unred && sp_word(p, "unreduced")) {
      unred = true;
      if (!sp_expect(p, '=', "after 'unreduced'")) return false;
      if (sp_word(p, "max")) s->reduction = SDY_MAX;
      else if (sp_word(p, "min")) s->reduction = SDY_MIN;
      else if (sp_word(p, "sum")) s->reduction = SDY_SUM;
      if (!p_axis_list(p, &s->unreduced, &s->nunreduced)) return false;
    } else {
      return sp_fail(p, at, "expected 'replicated={...}' or 'unreduced={...}' (each at most once)");
    }
  }
  return sp_expect(p, '>', "to end the sharding");
}

static void sp_init(SP *p, Arena *a, const char *s, size_t n) {
  memset(p, 0, sizeof *p);
  p->a = a;
  p->s = s;
  p->n = n;
}

static size_t sp_done(SP *p, bool ok, size_t *err_off, char **err) {
  if (ok) return p->i;
  *err = p->err ? p->err : xstrdup("malformed attribute");
  *err_off = p->err_off;
  return 0;
}

size_t sdy_parse_mesh(Arena *a, const char *s, size_t n, SdyMesh *out, size_t *err_off, char **err) {
  SP p;
  sp_init(&p, a, s, n);
  return sp_done(&p, p_mesh(&p, out), err_off, err);
}

size_t sdy_parse_sharding(Arena *a, const char *s, size_t n, SdySharding *out, size_t *err_off, char **err) {
  SP p;
  sp_init(&p, a, s, n);
  return sp_done(&p, p_sharding(&p, out), err_off, err);
}

size_t sdy_parse_per_value(Arena *a, const char *s, size_t n, SdySharding **out, int *count, size_t *err_off,
                           char **err) {
  SP p;
  Grow g = {0};
  sp_init(&p, a, s, n);
  bool ok = sp_expect(&p, '<', "to begin the shardings") && sp_expect(&p, '[', "to begin the list of shardings");
  if (ok && !sp_accept(&p, ']')) {
    do {
      SdySharding one;
      ok = p_sharding(&p, &one);
      if (ok) *(SdySharding *)grow_push(a, &g, sizeof one) = one;
    } while (ok && sp_accept(&p, ','));
    ok = ok && sp_expect(&p, ']', "to end the list of shardings");
  }
  ok = ok && sp_expect(&p, '>', "to end the shardings");
  *out = g.data;
  *count = g.len;
  return sp_done(&p, ok, err_off, err);
}

/* ---------------------------------------------------------------- printing */

static void put_string(StrBuf *b, const char *s) {
  sb_putc(b, '"');
  for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
    if (*c == '\\')
      sb_puts(b, "\\\\");
    else if (*c >= 0x20 && *c < 0x7f && *c != '"')
      sb_putc(b, (char)*c);
    else
      sb_printf(b, "\\%02X", *c);
  }
  sb_putc(b, '"');
}

static bool bare_symbol(const char *s) {
  if (!s[0] || !(isalpha((unsigned char)s[0]) || s[0] == '_' || s[0] == '$' || s[0] == '.')) return false;
  for (const char *c = s; *c; c++)
    if (!(isalnum((unsigned char)*c) || *c == '_' || *c == '$' || *c == '.')) return false;
  return true;
}

void sdy_print_mesh(StrBuf *b, const SdyMesh *m) {
  sb_puts(b, "<[");
  for (int i = 0; i < m->naxes; i++) {
    if (i) sb_puts(b, ", ");
    put_string(b, m->axes[i].name);
    sb_printf(b, "=%lld", (long long)m->axes[i].size);
  }
  sb_putc(b, ']');
  if (m->ndevices) {
    sb_puts(b, ", device_ids=[");
    for (int i = 0; i < m->ndevices; i++) sb_printf(b, "%s%lld", i ? ", " : "", (long long)m->device_ids[i]);
    sb_putc(b, ']');
  }
  sb_putc(b, '>');
}

void sdy_print_axis_ref(StrBuf *b, const SdyAxisRef *r) {
  put_string(b, r->name);
  if (r->size) sb_printf(b, ":(%lld)%lld", (long long)r->pre_size, (long long)r->size);
}

static void put_axes(StrBuf *b, const SdyAxisRef *r, int n) {
  for (int i = 0; i < n; i++) {
    if (i) sb_puts(b, ", ");
    sdy_print_axis_ref(b, &r[i]);
  }
}

void sdy_print_sharding(StrBuf *b, const SdySharding *s) {
  sb_putc(b, '<');
  if (s->mesh_name) {
    sb_putc(b, '@');
    if (bare_symbol(s->mesh_name))
      sb_puts(b, s->mesh_name);
    else
      put_string(b, s->mesh_name);
  } else if (s->mesh) {
    sb_puts(b, "mesh");
    sdy_print_mesh(b, s->mesh);
  }
  sb_puts(b, ", [");
  for (int i = 0; i < s->ndims; i++) {
    const SdyDim *d = &s->dims[i];
    if (i) sb_puts(b, ", ");
    sb_putc(b, '{');
    put_axes(b, d->axes, d->naxes);
    if (!d->closed) sb_puts(b, d->naxes ? ", ?" : "?");
    sb_putc(b, '}');
    if (d->priority >= 0) sb_printf(b, "p%lld", (long long)d->priority);
  }
  sb_putc(b, ']');
  if (s->nreplicated) {
    sb_puts(b, ", replicated={");
    put_axes(b, s->replicated, s->nreplicated);
    sb_putc(b, '}');
  }
  if (s->nunreduced) {
    sb_puts(b, ", unreduced=");
    if (s->reduction == SDY_MAX) sb_puts(b, "max");
    if (s->reduction == SDY_MIN) sb_puts(b, "min");
    sb_putc(b, '{');
    put_axes(b, s->unreduced, s->nunreduced);
    sb_putc(b, '}');
  }
  sb_putc(b, '>');
}

void sdy_mesh_canonicalize(SdyMesh *m) {
  if (m->naxes == 0 || m->ndevices == 0 || (int64_t)m->ndevices != sdy_mesh_size(m)) return;
  for (int i = 0; i < m->ndevices; i++)
    if (m->device_ids[i] != i) return;
  m->ndevices = 0;
  m->device_ids = NULL;
}

/* -------------------------------------------------------------- attributes */

static Attr *opaque(Module *m, const char *kind, const char *prefix, StrBuf *body) {
  Attr *a = ARENA_NEW(&m->arena, Attr);
  size_t k = strlen(prefix);
  char *s = arena_alloc(&m->arena, k + body->len + 1);
  memcpy(s, prefix, k);
  if (body->len) memcpy(s + k, body->data, body->len);
  a->kind = ATTR_OPAQUE;
  a->name = kind;
  a->s = s;
  a->slen = k + body->len;
  sb_free(body);
  return a;
}

Attr *attr_sdy_sharding(Module *m, const SdySharding *s) {
  StrBuf b = {0};
  sdy_print_sharding(&b, s);
  return opaque(m, SDY_ATTR_SHARDING, "#sdy.sharding", &b);
}

Attr *attr_sdy_per_value(Module *m, int n, const SdySharding *s) {
  StrBuf b = {0};
  sb_puts(&b, "<[");
  for (int i = 0; i < n; i++) {
    if (i) sb_puts(&b, ", ");
    sdy_print_sharding(&b, &s[i]);
  }
  sb_puts(&b, "]>");
  return opaque(m, SDY_ATTR_PER_VALUE, "#sdy.sharding_per_value", &b);
}

Attr *attr_sdy_mesh(Module *m, const SdyMesh *mesh) {
  StrBuf b = {0};
  sdy_print_mesh(&b, mesh);
  return opaque(m, SDY_ATTR_MESH, "#sdy.mesh", &b);
}

bool attr_is_sdy(const Attr *a, const char *kind) {
  return a && a->kind == ATTR_OPAQUE && a->name && a->s && strcmp(a->name, kind) == 0;
}

bool sdy_sharding_of(Module *m, const Attr *a, SdySharding *out) {
  static const char prefix[] = "#sdy.sharding";
  if (!attr_is_sdy(a, SDY_ATTR_SHARDING) || a->slen < sizeof prefix - 1) return false;
  size_t off, k = sizeof prefix - 1;
  char *err = NULL;
  size_t used = sdy_parse_sharding(&m->arena, a->s + k, a->slen - k, out, &off, &err);
  xfree(err);
  return used != 0;
}

int sdy_per_value_of(Module *m, const Attr *a, SdySharding **out) {
  static const char prefix[] = "#sdy.sharding_per_value";
  if (!attr_is_sdy(a, SDY_ATTR_PER_VALUE) || a->slen < sizeof prefix - 1) return -1;
  size_t off, k = sizeof prefix - 1;
  char *err = NULL;
  int n = 0;
  size_t used = sdy_parse_per_value(&m->arena, a->s + k, a->slen - k, out, &n, &off, &err);
  xfree(err);
  return used ? n : -1;
}

/* ------------------------------------------------------------------ meshes */

MeshDecl *module_find_mesh(const Module *m, const char *name) {
  for (int i = 0; name && i < m->nmeshes; i++)
    if (strcmp(m->meshes[i].name, name) == 0) return &m->meshes[i];
  return NULL;
}

MeshDecl *module_add_mesh(Module *m, const char *name, SdyMesh *mesh, int nattrs, NamedAttr *attrs, SrcLoc loc) {
  MeshDecl *d = ARENA_ARRAY(&m->arena, MeshDecl, m->nmeshes + 1);
  if (m->nmeshes) memcpy(d, m->meshes, sizeof(MeshDecl) * (size_t)m->nmeshes);
  m->meshes = d;
  MeshDecl *x = &d[m->nmeshes++];
  x->name = arena_strdup(&m->arena, name);
  x->mesh = mesh;
  x->nattrs = nattrs;
  x->attrs = attrs;
  x->loc = loc;
  return x;
}

const SdyMesh *sdy_sharding_mesh(const Module *m, const SdySharding *s) {
  if (s->mesh) return s->mesh;
  MeshDecl *d = module_find_mesh(m, s->mesh_name);
  return d ? d->mesh : NULL;
}

int sdy_mesh_axis(const SdyMesh *m, const char *name) {
  for (int i = 0; i < m->naxes; i++)
    if (strcmp(m->axes[i].name, name) == 0) return i;
  return -1;
}

int64_t sdy_mesh_size(const SdyMesh *m) {
  int64_t n = 1;
  for (int i = 0; i < m->naxes; i++) {
    int64_t k = m->axes[i].size;
    if (k < 1) return 0;
    if (n > SDY_MAX_DEVICES / k + 1) return INT64_MAX; /* beyond any real mesh */
    n *= k;
  }
  return n;
}

bool sdy_mesh_is_maximal(const SdyMesh *m) { return m->naxes == 0 && m->ndevices == 1; }

int64_t sdy_axis_ref_size(const SdyMesh *m, const SdyAxisRef *r) {
  int k = sdy_mesh_axis(m, r->name);
  if (k < 0) return 0;
  return r->size ? r->size : m->axes[k].size;
}

int64_t sdy_dim_ways(const SdyMesh *m, const SdyDim *d) {
  int64_t n = 1;
  for (int i = 0; i < d->naxes; i++) {
    int64_t k = sdy_axis_ref_size(m, &d->axes[i]);
    if (k < 1) return 0;
    if (n > INT64_MAX / k) return INT64_MAX;
    n *= k;
  }
  return n;
}

/* ------------------------------------------------------- values' shardings */

static const Attr *dict_key(const Attr *d, const char *key) {
  return d && d->kind == ATTR_DICT ? attr_dict_get(d, key) : NULL;
}

bool func_arg_sharding(Module *m, const Func *f, int i, SdySharding *out) {
  if (!f->arg_attrs || i < 0 || i >= f->body->nargs) return false;
  return sdy_sharding_of(m, dict_key(f->arg_attrs[i], SDY_KEY), out);
}

bool func_result_sharding(Module *m, const Func *f, int i, SdySharding *out) {
  if (!f->res_attrs || i < 0 || i >= f->nresults) return false;
  return sdy_sharding_of(m, dict_key(f->res_attrs[i], SDY_KEY), out);
}

bool op_result_sharding(Module *m, const Op *op, int i, SdySharding *out) {
  if (i < 0 || i >= op->nres) return false;
  if (op->kind == OP_SDY_SHARDING_CONSTRAINT) return sdy_sharding_of(m, op_attr(op, "sharding"), out);
  SdySharding *all;
  int n = sdy_per_value_of(m, op_attr(op, SDY_KEY), &all);
  if (n <= i) return false;
  *out = all[i];
  return true;
}

/* d with key set to v (v NULL: removed); NULL when nothing is left. */
static Attr *dict_with(Module *m, const Attr *d, const char *key, Attr *v) {
  int n = d && d->kind == ATTR_DICT ? d->n : 0, k = 0;
  const char **keys = ARENA_ARRAY(&m->arena, const char *, n + 1);
  Attr **vals = ARENA_ARRAY(&m->arena, Attr *, n + 1);
  bool done = false;
  for (int i = 0; i < n; i++) {
    if (strcmp(d->keys[i], key) == 0) {
      if (v) keys[k] = d->keys[i], vals[k++] = v;
      done = true;
    } else {
      keys[k] = d->keys[i], vals[k++] = d->elems[i];
    }
  }
  if (!done && v) keys[k] = key, vals[k++] = v;
  return k ? attr_dict(m, NULL, k, keys, vals) : NULL;
}

static void set_sharding(Module *m, Attr ***dicts, int n, int i, const SdySharding *s) {
  if (i < 0 || i >= n) return;
  if (!*dicts) {
    if (!s) return;
    *dicts = ARENA_ARRAY(&m->arena, Attr *, n + 1);
  }
  (*dicts)[i] = dict_with(m, (*dicts)[i], SDY_KEY, s ? attr_sdy_sharding(m, s) : NULL);
}

void func_set_arg_sharding(Module *m, Func *f, int i, const SdySharding *s) {
  set_sharding(m, &f->arg_attrs, f->body->nargs, i, s);
}

void func_set_result_sharding(Module *m, Func *f, int i, const SdySharding *s) {
  set_sharding(m, &f->res_attrs, f->nresults, i, s);
}

/* ------------------------------------------------------------ verification */

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return x < y ? -1 : x > y;
}

char *sdy_mesh_check(const SdyMesh *m) {
  StrBuf b = {0};
  for (int i = 0; i < m->naxes; i++) {
    if (m->axes[i].size < 1) {
      put_string(&b, m->axes[i].name);
      char *s = sb_take(&b);
      char *e = xasprintf("axis %s has size %lld: an axis has at least 1 device", s, (long long)m->axes[i].size);
      xfree(s);
      return e;
    }
    for (int j = 0; j < i; j++)
      if (strcmp(m->axes[i].name, m->axes[j].name) == 0) {
        put_string(&b, m->axes[i].name);
        char *s = sb_take(&b), *e = xasprintf("the mesh has two axes named %s", s);
        xfree(s);
        return e;
      }
  }
  int64_t size = sdy_mesh_size(m);
  if (size > SDY_MAX_DEVICES) return xasprintf("a mesh of more than %d devices", SDY_MAX_DEVICES);
  for (int i = 0; i < m->ndevices; i++)
    if (m->device_ids[i] < 0) return xasprintf("device id %lld is negative", (long long)m->device_ids[i]);
  if (m->naxes == 0) {
    if (m->ndevices > 1) return xasprintf("a mesh without axes has at most one device id, not %d", m->ndevices);
    return NULL;
  }
  if (m->ndevices == 0) return NULL;
  if ((int64_t)m->ndevices != size)
    return xasprintf("the mesh has %lld devices (the product of its axis sizes) but %d device ids", (long long)size,
               m->ndevices);
  int64_t *ids = xmalloc(sizeof(int64_t) * (size_t)m->ndevices);
  memcpy(ids, m->device_ids, sizeof(int64_t) * (size_t)m->ndevices);
  qsort(ids, (size_t)m->ndevices, sizeof(int64_t), cmp_i64);
  char *e = NULL;
  for (int i = 0; i < m->ndevices && !e; i++)
    if (ids[i] != i) e = xasprintf("the device ids are not a permutation of 0..%d", m->ndevices - 1);
  xfree(ids);
  return e;
}

static char *ref_str(const SdyAxisRef *r) {
  StrBuf b = {0};
  sdy_print_axis_ref(&b, r);
  return sb_take(&b);
}

static char *ref_msg(const char *fmt, const SdyAxisRef *r) {
  char *s = ref_str(r), *e = xasprintf(fmt, s);
  xfree(s);
  return e;
}

static char *ref_msg2(const char *fmt, const SdyAxisRef *r, const SdyAxisRef *q) {
  char *s = ref_str(r), *t = ref_str(q), *e = xasprintf(fmt, s, t);
  xfree(s);
  xfree(t);
  return e;
}

/* One axis ref: its axis exists and a sub-axis is a proper part of it. */
static char *check_ref(const SdyMesh *m, const SdyAxisRef *r) {
  int k = sdy_mesh_axis(m, r->name);
  if (k < 0) return ref_msg("unknown axis %s (not an axis of the mesh)", r);
  if (!r->size) return NULL;
  int64_t full = m->axes[k].size, pre = r->pre_size, size = r->size;
  if (pre < 1) return ref_msg("sub-axis %s: the pre-size must be at least 1", r);
  if (size <= 1) return ref_msg("sub-axis %s: the size must be greater than 1", r);
  if (pre > full || size > full / pre || full % (pre * size) != 0)
    return ref_msg("sub-axis %s does not divide its axis evenly (pre-size times size must divide the axis size)", r);
  if (size == full) return ref_msg("sub-axis %s is the whole axis", r);
  return NULL;
}

/* Two refs to the same axis that cannot both be used. */
static char *check_pair(const SdyAxisRef *a, const SdyAxisRef *b) {
  if (strcmp(a->name, b->name) != 0) return NULL;
  if (a->size == b->size && (!a->size || a->pre_size == b->pre_size)) return ref_msg("axis %s is used twice", a);
  if (!a->size || !b->size) {
    StrBuf m = {0};
    sb_puts(&m, "both a sub-axis and the whole of axis ");
    put_string(&m, a->name);
    sb_puts(&m, " are used");
    return sb_take(&m);
  }
  if (a->pre_size < b->pre_size * b->size && b->pre_size < a->pre_size * a->size)
    return ref_msg2("overlapping sub-axes %s and %s", a, b);
  return NULL;
}

/* Replicated or unreduced axes come in the mesh's order (sub-axes of one
   axis by pre-size). */
static char *check_order(const SdyMesh *m, const SdyAxisRef *r, int n, const char *what) {
  for (int i = 1; i < n; i++) {
    int a = sdy_mesh_axis(m, r[i - 1].name), b = sdy_mesh_axis(m, r[i].name);
    int64_t pa = r[i - 1].size ? r[i - 1].pre_size : 0, pb = r[i].size ? r[i].pre_size : 0;
    if (a > b || (a == b && pa >= pb))
      return ref_msg2(what[0] == 'r' ? "replicated axes are not in mesh order (%s before %s)"
                                     : "unreduced axes are not in mesh order (%s before %s)",
                      &r[i - 1], &r[i]);
  }
  return NULL;
}

char *sdy_sharding_check(const Module *mod, const SdySharding *s, const Type *t) {
  const SdyMesh *m = sdy_sharding_mesh(mod, s);
  if (!m) {
    StrBuf b = {0};
    sb_puts(&b, "unknown mesh: @");
    sb_puts(&b, s->mesh_name ? s->mesh_name : "?");
    return sb_take(&b);
  }
  if (s->mesh) {
    char *e = sdy_mesh_check(s->mesh);
    if (e) {
      char *r = xasprintf("inline mesh: %s", e);
      xfree(e);
      return r;
    }
  }
  bool extra = s->ndims || s->nreplicated || s->nunreduced;
  if (sdy_mesh_is_maximal(m)) {
    if (extra) return xasprintf("a sharding over a maximal mesh (one device) has no dimension shardings and no replicated or "
                          "unreduced axes");
    return NULL;
  }
  if (t && t->kind == TY_TUPLE && t->ntuple == 1) t = t->tuple[0];
  if (t && t->kind != TY_TENSOR) {
    if (extra) return xasprintf("a sharding of a value that is not a tensor has no dimension shardings and no replicated or "
                          "unreduced axes");
  } else if (t && s->ndims != t->rank) {
    return xasprintf("the sharding has %d dimension shardings but the tensor has rank %d", s->ndims, t->rank);
  }
  /* every ref, then pairs */
  int total = s->nreplicated + s->nunreduced;
  for (int i = 0; i < s->ndims; i++) {
    const SdyDim *d = &s->dims[i];
    if (d->naxes == 0 && d->closed && d->priority >= 0)
      return xasprintf("dimension %d is empty and closed but has a priority", i);
    total += d->naxes;
  }
  const SdyAxisRef **all = xmalloc(sizeof(SdyAxisRef *) * (size_t)(total + 1));
  int n = 0;
  for (int i = 0; i < s->ndims; i++)
    for (int k = 0; k < s->dims[i].naxes; k++) all[n++] = &s->dims[i].axes[k];
  for (int k = 0; k < s->nreplicated; k++) all[n++] = &s->replicated[k];
  for (int k = 0; k < s->nunreduced; k++) all[n++] = &s->unreduced[k];
  char *e = NULL;
  for (int i = 0; i < n && !e; i++) e = check_ref(m, all[i]);
  for (int i = 0; i < n && !e; i++)
    for (int j = 0; j < i && !e; j++) e = check_pair(all[j], all[i]);
  xfree(all);
  for (int i = 0; i < s->ndims && !e; i++) {
    const SdyDim *d = &s->dims[i];
    for (int k = 1; k < d->naxes && !e; k++) {
      const SdyAxisRef *a = &d->axes[k - 1], *b = &d->axes[k];
      if (a->size && b->size && strcmp(a->name, b->name) == 0 && a->pre_size * a->size == b->pre_size)
        e = ref_msg2("consecutive sub-axes %s, %s make one sub-axis: write them as one", a, b);
    }
  }
  if (!e) e = check_order(m, s->replicated, s->nreplicated, "replicated");
  if (!e) e = check_order(m, s->unreduced, s->nunreduced, "unreduced");
  return e;
}
