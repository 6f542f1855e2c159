/*
 * recycle.c - reusing the storage of large buffers.
 *
 * A program run in a loop (a training step, a benchmark) makes new result
 * buffers every time and destroys the old ones.  Fresh memory from the
 * system costs a page fault per 4 KiB on first touch, which for a 64 MiB
 * result is more than the computation itself; so the storage of a large
 * destroyed buffer is kept by its client and handed to the next result of
 * exactly that size, which the CPU backend then writes in place.  A few
 * blocks at most, and never more than a bound in bytes: this is a cache
 * for the steady state of a loop, not an allocator.
 */
#include <stdlib.h>
#include <string.h>

#include "api/api.h"

enum {
  RECYCLE_MIN_BYTES = 64 << 10, /* smaller blocks come back fast from malloc */
  RECYCLE_MAX_BLOCKS = 16,
};
#define RECYCLE_MAX_BYTES ((size_t)1 << 30)

typedef struct Stored {
  void *p;
  size_t bytes;
} Stored;

struct ApiRecycler {
  pthread_mutex_t mu;
  Stored blocks[RECYCLE_MAX_BLOCKS]; /* oldest first */
  int n;
  size_t bytes;
};

ApiRecycler *api_recycler_new(void) {
  ApiRecycler *r = calloc(1, sizeof *r);
  if (r) pthread_mutex_init(&r->mu, NULL);
  return r;
}

void api_recycler_free(ApiRecycler *r) {
  if (!r) return;
  for (int i = 0; i < r->n; i++) xfree(r->blocks[i].p);
  pthread_mutex_destroy(&r->mu);
  xfree(r);
}

void *api_recycler_take(ApiRecycler *r, size_t bytes) {
  if (!r || bytes < RECYCLE_MIN_BYTES) return NULL;
  void *p = NULL;
  pthread_mutex_lock(&r->mu);
  for (int i = r->n - 1; i >= 0; i--) /* the most recent first: warm in cache */
    if (r->blocks[i].bytes == bytes) {
      p = r->blocks[i].p;
      memmove(&r->blocks[i], &r->blocks[i + 1], sizeof(Stored) * (size_t)(r->n - i - 1));
      r->n--;
      r->bytes -= bytes;
      break;
    }
  pthread_mutex_unlock(&r->mu);
  return p;
}

bool api_recycler_give(ApiRecycler *r, void *p, size_t bytes) {
  if (!r || bytes < RECYCLE_MIN_BYTES || bytes > RECYCLE_MAX_BYTES / 2) return false;
  void *evicted[RECYCLE_MAX_BLOCKS];
  int ne = 0;
  pthread_mutex_lock(&r->mu);
  /* make room, oldest first */
  while (r->n && (r->n == RECYCLE_MAX_BLOCKS || r->bytes + bytes > RECYCLE_MAX_BYTES)) {
    evicted[ne++] = r->blocks[0].p;
    r->bytes -= r->blocks[0].bytes;
    memmove(&r->blocks[0], &r->blocks[1], sizeof(Stored) * (size_t)(r->n - 1));
    r->n--;
  }
  r->blocks[r->n++] = (Stored){p, bytes};
  r->bytes += bytes;
  pthread_mutex_unlock(&r->mu);
  for (int i = 0; i < ne; i++) xfree(evicted[i]);
  return true;
}

/* ---- buffers ---- */

void api_recycle_value(xlac_client *c, IVal *v) {
  /* the storage of a tensor nobody else holds, that the literal owns */
  if (v && v->kind == IV_TENSOR && __atomic_load_n(&v->refs, __ATOMIC_ACQUIRE) == 1 && !v->lit->borrowed) {
    Literal *l = v->lit;
    size_t bytes = (size_t)l->n * (size_t)et_bytes(l->type->elem);
    if (l->n > 0 && api_recycler_give(c->recycler, l->data, bytes)) {
      l->data = NULL;
      l->borrowed = true; /* nothing left to free */
    }
  }
  ival_release(v);
}

IVal *api_recycled_tensor(xlac_client *c, const Type *t) {
  if (t->kind != TY_TENSOR || t->quant) return NULL;
  size_t bytes = (size_t)type_num_elements(t) * (size_t)et_bytes(t->elem);
  void *p = api_recycler_take(c->recycler, bytes);
  if (!p) return NULL;
  oom_track_adopt(p); /* the running call owns it now */
  Literal *l = lit_new_borrowed(t, p);
  l->borrowed = false;
  return ival_tensor(l);
}
