/*
 * threadpool.c - the runtime's thread pool: a fixed set of pthreads that run
 * the chunks of xlacrt_parallel_for.
 *
 * A job is "run fn(i) for every i in [0, n)"; every participant (the workers
 * and the calling thread) claims chunk indices from one atomic counter until
 * none are left.  The split into chunks is the caller's, so which thread runs
 * a chunk never changes what the chunk computes: results are the same for any
 * pool size.  Jobs from different threads are serialized by a submit lock; a
 * parallel_for issued from inside a chunk runs serially on the spot, which
 * keeps nested use free of deadlock.
 *
 * Between jobs a worker first spins for a short while (SPIN_NS) watching the
 * published generation, and only then sleeps on a condition variable; the
 * submitter likewise spins before it sleeps waiting for the chunks.  A
 * program whose loop runs many small parallel kernels (a recurrent step, a
 * small GEMM per iteration) then pays about a microsecond per job instead of
 * a futex wake-up and a reschedule each way, which can cost more than the
 * kernel itself.
 *
 * The submitter waits for the chunks to be done, not for the workers: on a
 * busy machine a worker that was woken but not yet scheduled would
 * otherwise hold up every job by a time slice although it has no chunk.
 * Chunk claims carry the job's generation (high 32 bits of the counter), so
 * a worker that wakes late, still holding an earlier job's function, can
 * never claim a chunk of a later job.
 *
 * Chunks run in the submitter's floating-point mode: a worker takes the
 * caller's x86 MXCSR (rounding, and flushing denormals to zero) before it
 * runs a job's chunks, so a caller that flushes denormals gets the same
 * bits from every thread.
 */
#include "xlacrt.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define cpu_relax() _mm_pause()
#elif defined(__aarch64__)
#define cpu_relax() __asm__ __volatile__("yield")
#else
#define cpu_relax() ((void)0)
#endif

/* How long an idle worker or a waiting submitter spins before sleeping. */
enum { SPIN_NS = 100 * 1000 };

/* The x86 floating-point control word (rounding, FTZ, DAZ) of this
   thread, which a job's chunks run under; 0 elsewhere. */
static unsigned fp_mode(void)
{
#if defined(__x86_64__)
    return _mm_getcsr();
#else
    return 0;
#endif
}

static void fp_mode_set(unsigned m)
{
#if defined(__x86_64__)
    /* the exception flags are the thread's own */
    unsigned now = _mm_getcsr();
    if ((now & ~0x3fu) != (m & ~0x3fu))
        _mm_setcsr((m & ~0x3fu) | (now & 0x3fu));
#else
    (void)m;
#endif
}

struct xlacrt_pool {
    int nthreads; /* workers + the calling thread */
    int nworkers;
    pthread_t *workers;

    pthread_mutex_t submit; /* one job at a time */
    pthread_mutex_t mu;     /* guards the fields below */
    pthread_cond_t wake;    /* workers wait here for a new generation */
    pthread_cond_t idle;    /* the submitter waits here for done == n */
    uint32_t generation;
    _Atomic uint32_t published; /* generation, readable without mu, for spinning */
    int sleepers;               /* workers waiting on wake */
    int waiting;                /* the submitter waits on idle */
    int stop;

    /* the current job; written under mu before generation is bumped */
    xlacrt_task_fn fn;
    void *ctx;
    int64_t n;
    xlacrt_status *status; /* the submitter's, for failures in chunks */
    unsigned fp;           /* the submitter's floating-point mode */
    _Atomic uint64_t claim;  /* generation << 32 | next chunk */
    _Atomic int64_t done;    /* chunks finished */

    /* An external pool (xlacrt_pool_create_external): the caller's
       scheduler runs the helpers; no workers of our own. */
    xlacrt_schedule_fn schedule;
    void *schedule_user;
    int external_threads;
};

/* Set while a thread runs chunks of some pool, so that a nested
   parallel_for runs serially instead of waiting on the pool it occupies. */
static _Thread_local int in_pool_task;

/* Claims and runs chunks of job `gen` until none are left (or the pool has
   moved on to another job); the one that finishes the last chunk wakes a
   sleeping submitter. */
static void run_chunks(xlacrt_pool *p, uint32_t gen, xlacrt_task_fn fn, void *ctx, int64_t n)
{
    uint64_t v = atomic_load_explicit(&p->claim, memory_order_acquire);
    for (;;) {
        if ((uint32_t)(v >> 32) != gen || (int64_t)(uint32_t)v >= n)
            return;
        if (!atomic_compare_exchange_weak_explicit(&p->claim, &v, v + 1, memory_order_acq_rel,
                                                   memory_order_acquire))
            continue;
        fn((int64_t)(uint32_t)v, ctx);
        if (atomic_fetch_add_explicit(&p->done, 1, memory_order_acq_rel) + 1 == n) {
            pthread_mutex_lock(&p->mu);
            if (p->waiting)
                pthread_cond_signal(&p->idle);
            pthread_mutex_unlock(&p->mu);
        }
        v = atomic_load_explicit(&p->claim, memory_order_acquire);
    }
}

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* A bounded spin: the waiting loop calls spin_step until its condition
   holds or the step says SPIN_NS have passed (then the caller checks again
   under the lock and sleeps).  Reading the clock only every 64 rounds keeps
   it off the fast path. */
typedef struct {
    unsigned rounds;
    int64_t end;
} Spin;

static bool spin_step(Spin *s)
{
    cpu_relax();
    if (++s->rounds % 64)
        return true;
    int64_t t = now_ns();
    if (!s->end)
        s->end = t + SPIN_NS;
    return t < s->end;
}

static void *worker_main(void *arg)
{
    xlacrt_pool *p = arg;
    uint32_t seen = 0;
    in_pool_task = 1;
    for (;;) {
        for (Spin s = {0}; atomic_load_explicit(&p->published, memory_order_acquire) == seen && spin_step(&s);)
            ;
        pthread_mutex_lock(&p->mu);
        while (p->generation == seen && !p->stop) {
            p->sleepers++;
            pthread_cond_wait(&p->wake, &p->mu);
            p->sleepers--;
        }
        if (p->stop)
            break;
        seen = p->generation;
        xlacrt_task_fn fn = p->fn;
        void *ctx = p->ctx;
        int64_t n = p->n;
        xlacrt_status *status = p->status;
        unsigned fp = p->fp;
        pthread_mutex_unlock(&p->mu);
        fp_mode_set(fp);
        xlacrt_status_swap(status);
        run_chunks(p, seen, fn, ctx, n);
        xlacrt_status_swap(NULL);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

xlacrt_pool *xlacrt_pool_create(int nthreads)
{
    if (nthreads <= 0) {
        long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
        nthreads = ncpu > 0 ? (ncpu > 1024 ? 1024 : (int)ncpu) : 1;
    }
    xlacrt_pool *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->nthreads = 1;
    atomic_init(&p->claim, 0);
    atomic_init(&p->done, 0);
    atomic_init(&p->published, 0);
    pthread_mutex_init(&p->submit, NULL);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->idle, NULL);
    if (nthreads > 1) {
        p->workers = calloc((size_t)nthreads - 1, sizeof *p->workers);
        if (p->workers) {
            /* A worker that cannot be created only makes the pool smaller. */
            for (int i = 0; i < nthreads - 1; i++) {
                if (pthread_create(&p->workers[p->nworkers], NULL, worker_main, p) != 0)
                    break;
                p->nworkers++;
            }
        }
        p->nthreads = p->nworkers + 1;
    }
    return p;
}

void xlacrt_pool_destroy(xlacrt_pool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->stop = 1;
    atomic_store_explicit(&p->published, p->generation + 1, memory_order_release);
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
    for (int i = 0; i < p->nworkers; i++)
        pthread_join(p->workers[i], NULL);
    free(p->workers);
    pthread_cond_destroy(&p->idle);
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->mu);
    pthread_mutex_destroy(&p->submit);
    free(p);
}

int xlacrt_pool_size(const xlacrt_pool *p) { return p ? p->nthreads : 1; }

xlacrt_pool *xlacrt_pool_create_external(int nthreads, xlacrt_schedule_fn schedule, void *user)
{
    xlacrt_pool *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->nthreads = nthreads > 1 ? nthreads : 1;
    p->schedule = schedule;
    p->schedule_user = user;
    p->external_threads = p->nthreads - 1;
    atomic_init(&p->claim, 0);
    atomic_init(&p->done, 0);
    pthread_mutex_init(&p->submit, NULL);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->idle, NULL);
    return p;
}

/* A job handed to an external scheduler.  Helpers may start after the job
   is over (the scheduler is not ours to wait for), so the job lives on the
   heap until its last holder lets go, and the submitter waits for the
   chunks to be done, not for the helpers to have run. */
typedef struct ext_job {
    xlacrt_task_fn fn;
    void *ctx;
    int64_t n;
    xlacrt_status *status;
    unsigned fp;
    _Atomic int64_t next, done;
    _Atomic int refs;
    pthread_mutex_t mu;
    pthread_cond_t cv;
} ext_job;

static void ext_release(ext_job *j)
{
    if (atomic_fetch_sub(&j->refs, 1) == 1) {
        pthread_cond_destroy(&j->cv);
        pthread_mutex_destroy(&j->mu);
        free(j);
    }
}

static void ext_run(ext_job *j)
{
    for (;;) {
        int64_t i = atomic_fetch_add(&j->next, 1);
        if (i >= j->n)
            break;
        j->fn(i, j->ctx);
        if (atomic_fetch_add(&j->done, 1) + 1 == j->n) {
            pthread_mutex_lock(&j->mu);
            pthread_cond_broadcast(&j->cv);
            pthread_mutex_unlock(&j->mu);
        }
    }
}

static void ext_helper(void *arg)
{
    ext_job *j = arg;
    int was = in_pool_task;
    in_pool_task = 1;
    unsigned fp = fp_mode();
    fp_mode_set(j->fp);
    xlacrt_status *prev = xlacrt_status_swap(j->status);
    ext_run(j);
    xlacrt_status_swap(prev);
    fp_mode_set(fp); /* the scheduler's thread is the caller's */
    in_pool_task = was;
    ext_release(j);
}

static void parallel_for_external(xlacrt_pool *p, int64_t n, xlacrt_task_fn fn, void *ctx)
{
    ext_job *j = malloc(sizeof *j);
    if (!j) {
        for (int64_t i = 0; i < n; i++)
            fn(i, ctx);
        return;
    }
    int helpers = p->external_threads < n - 1 ? p->external_threads : (int)(n - 1);
    j->fn = fn;
    j->ctx = ctx;
    j->n = n;
    j->status = xlacrt_status_current();
    j->fp = fp_mode();
    atomic_init(&j->next, 0);
    atomic_init(&j->done, 0);
    atomic_init(&j->refs, helpers + 1);
    pthread_mutex_init(&j->mu, NULL);
    pthread_cond_init(&j->cv, NULL);
    for (int h = 0; h < helpers; h++)
        p->schedule(p->schedule_user, ext_helper, j);
    in_pool_task = 1;
    ext_run(j);
    in_pool_task = 0;
    pthread_mutex_lock(&j->mu);
    while (atomic_load(&j->done) < n)
        pthread_cond_wait(&j->cv, &j->mu);
    pthread_mutex_unlock(&j->mu);
    ext_release(j);
}

void xlacrt_parallel_for(xlacrt_pool *p, int64_t n, xlacrt_task_fn fn, void *ctx)
{
    if (n <= 0)
        return;
    if (p && p->schedule && n > 1 && !in_pool_task && p->external_threads > 0) {
        parallel_for_external(p, n, fn, ctx);
        return;
    }
    /* (chunk indices are claimed as 32-bit numbers) */
    if (!p || p->nworkers == 0 || n == 1 || in_pool_task || n > INT32_MAX) {
        for (int64_t i = 0; i < n; i++)
            fn(i, ctx);
        return;
    }
    pthread_mutex_lock(&p->submit);
    pthread_mutex_lock(&p->mu);
    uint32_t gen = ++p->generation;
    p->fn = fn;
    p->ctx = ctx;
    p->n = n;
    p->status = xlacrt_status_current();
    p->fp = fp_mode();
    atomic_store_explicit(&p->done, 0, memory_order_relaxed);
    atomic_store_explicit(&p->claim, (uint64_t)gen << 32, memory_order_release);
    atomic_store_explicit(&p->published, gen, memory_order_release);
    if (p->sleepers)
        pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);

    in_pool_task = 1;
    run_chunks(p, gen, fn, ctx, n);
    in_pool_task = 0;

    for (Spin s = {0}; atomic_load_explicit(&p->done, memory_order_acquire) < n && spin_step(&s);)
        ;
    pthread_mutex_lock(&p->mu);
    while (atomic_load(&p->done) < n) {
        p->waiting = 1;
        pthread_cond_wait(&p->idle, &p->mu);
        p->waiting = 0;
    }
    pthread_mutex_unlock(&p->mu);
    pthread_mutex_unlock(&p->submit);
}
