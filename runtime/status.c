/*
 * status.c - how runtime calls report failure.
 *
 * Generated code cannot unwind, and the runtime never aborts: a call that
 * cannot get its scratch memory leaves its outputs unspecified and records
 * the failure in the status the running thread installed.  The thread pool
 * hands the submitting thread's status to the workers that run a job's
 * chunks, so a failure anywhere in a parallel loop lands in the status of
 * the execution that started it.  Whoever runs generated code installs a
 * status around the run and checks it afterwards.
 */
#include "xlacrt.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

static _Thread_local xlacrt_status *current_status;

xlacrt_status *xlacrt_status_swap(xlacrt_status *s)
{
    xlacrt_status *old = current_status;
    current_status = s;
    return old;
}

xlacrt_status *xlacrt_status_current(void) { return current_status; }

void xlacrt_fail(const char *fmt, ...)
{
    xlacrt_status *s = current_status;
    if (!s)
        return;
    /* the first failure wins; later ones are consequences */
    int expected = 0;
    if (!__atomic_compare_exchange_n(&s->failed, &expected, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->msg, sizeof s->msg, fmt, ap);
    va_end(ap);
}

void *xlacrt_try_alloc(const char *what, size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        xlacrt_fail("out of memory: %s: cannot allocate %zu bytes of scratch", what, n);
    return p;
}

void *xlacrt_save_copy(const void *src, int64_t n)
{
    void *p = xlacrt_try_alloc("loop state", (size_t)(n > 0 ? n : 1));
    if (p && n > 0)
        memcpy(p, src, (size_t)n);
    return p;
}

void xlacrt_restore_free(void *dst, void *saved, int64_t n)
{
    if (!saved)
        return; /* the failure is recorded; the run's results are dropped */
    if (n > 0)
        memcpy(dst, saved, (size_t)n);
    free(saved);
}

/* ---- per-thread scratch ---- */

typedef struct Scratch {
    size_t cap;
    char data[] __attribute__((aligned(64)));
} Scratch;

static pthread_key_t scratch_key[XLACRT_SCRATCH_SLOTS];
static pthread_once_t scratch_once = PTHREAD_ONCE_INIT;

static void scratch_init(void)
{
    for (int i = 0; i < XLACRT_SCRATCH_SLOTS; i++)
        pthread_key_create(&scratch_key[i], free);
}

static Scratch *scratch_new(size_t bytes, const char *what)
{
    size_t total = (sizeof(Scratch) + bytes + 63) / 64 * 64;
    Scratch *b = aligned_alloc(64, total);
    if (!b) {
        xlacrt_fail("out of memory: %s: cannot allocate %zu bytes of scratch", what, bytes);
        return NULL;
    }
    b->cap = total - sizeof(Scratch);
    return b;
}

void *xlacrt_scratch_get(int slot, size_t bytes, const char *what)
{
    pthread_once(&scratch_once, scratch_init);
    Scratch *b = pthread_getspecific(scratch_key[slot]);
    if (b && b->cap >= bytes)
        return b->data;
    if (bytes > XLACRT_SCRATCH_KEEP) {
        Scratch *big = scratch_new(bytes, what);
        return big ? big->data : NULL;
    }
    pthread_setspecific(scratch_key[slot], NULL);
    free(b);
    b = scratch_new(bytes, what);
    if (b)
        pthread_setspecific(scratch_key[slot], b);
    return b ? b->data : NULL;
}

void xlacrt_scratch_put(int slot, void *p)
{
    if (!p)
        return;
    Scratch *b = (Scratch *)((char *)p - offsetof(Scratch, data));
    if (b != pthread_getspecific(scratch_key[slot]))
        free(b);
}
