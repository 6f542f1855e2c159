/*
 * aot.c - instances of ahead-of-time compiled programs.
 *
 * An object written by `xlac aot` holds the program's entry function and a
 * descriptor (xlacrt_aot_program) of its arguments, results and temp
 * arena.  An instance is one block of memory: the instance itself, the
 * pointer arrays, then every buffer it owns, each starting on a 64-byte
 * boundary; creating it is the only allocation, so a run allocates nothing
 * for buffers.  The run installs the instance's status on the calling
 * thread (the thread pool carries it to its workers), calls the entry, and
 * reports the first failure recorded.
 */
#include "xlacrt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct xlacrt_aot_instance {
    const xlacrt_aot_program *p;
    void **args;
    void **results;
    char *temp;
    xlacrt_pool *pool;
    int32_t cancel;       /* polled by compiled loops (atomically) */
    xlacrt_status status;
};

static size_t round64(int64_t n)
{
    return ((size_t)(n > 0 ? n : 0) + 63) / 64 * 64;
}

const char *xlacrt_aot_check(const xlacrt_aot_program *p)
{
    static _Thread_local char msg[320];
    if (!p)
        return "no program";
    if (p->abi_version != XLACRT_ABI_VERSION)
        return "the program was compiled for another version of the xlac runtime (ABI mismatch): "
               "compile it again with the xlac that matches this libxlacrt";
    char lack[32];
    if (xlacrt_cpu_missing(p->cpu_features, lack, sizeof lack)) {
        snprintf(msg, sizeof msg,
                 "the program was compiled for the CPU '%s' with %s, which this CPU lacks: compile it "
                 "again with --target_cpu (and --target_features) naming the CPUs it must run on",
                 p->target_cpu ? p->target_cpu : "?", lack);
        return msg;
    }
    return NULL;
}

xlacrt_aot_instance *xlacrt_aot_create(const xlacrt_aot_program *p, xlacrt_aot_alloc_mode mode)
{
    if (xlacrt_aot_check(p))
        return NULL;
    size_t head = round64((int64_t)sizeof(xlacrt_aot_instance)) +
                  round64((int64_t)sizeof(void *) * (p->num_args + p->num_results + 1));
    size_t total = head;
    if (mode == XLACRT_AOT_ARGS_RESULTS_AND_TEMPS)
        for (int i = 0; i < p->num_args; i++)
            total += round64(p->args[i].bytes ? p->args[i].bytes : 1);
    for (int i = 0; i < p->num_results; i++)
        total += round64(p->results[i].bytes ? p->results[i].bytes : 1);
    total += round64(p->temp_bytes);
    char *mem = aligned_alloc(64, total);
    if (!mem)
        return NULL;
    memset(mem, 0, total);
    xlacrt_aot_instance *in = (xlacrt_aot_instance *)mem;
    in->p = p;
    in->args = (void **)(mem + round64((int64_t)sizeof *in));
    in->results = in->args + p->num_args;
    char *at = mem + head;
    if (mode == XLACRT_AOT_ARGS_RESULTS_AND_TEMPS)
        for (int i = 0; i < p->num_args; i++) {
            in->args[i] = at;
            at += round64(p->args[i].bytes ? p->args[i].bytes : 1);
        }
    for (int i = 0; i < p->num_results; i++) {
        in->results[i] = at;
        at += round64(p->results[i].bytes ? p->results[i].bytes : 1);
    }
    in->temp = p->temp_bytes > 0 ? at : NULL;
    return in;
}

void xlacrt_aot_destroy(xlacrt_aot_instance *in) { free(in); }

void xlacrt_aot_set_pool(xlacrt_aot_instance *in, xlacrt_pool *pool) { in->pool = pool; }

int xlacrt_aot_run(xlacrt_aot_instance *in)
{
    in->status.failed = 0;
    in->status.msg[0] = 0;
    const xlacrt_aot_program *p = in->p;
    for (int i = 0; i < p->num_args; i++)
        if (!in->args[i] && p->args[i].bytes > 0) {
            xlacrt_status *prev = xlacrt_status_swap(&in->status);
            xlacrt_fail("argument %d (%s) has no data: set it before running (RESULTS_AND_TEMPS_ONLY mode)", i,
                        p->args[i].name);
            xlacrt_status_swap(prev);
            return -1;
        }
    __atomic_store_n(&in->cancel, 0, __ATOMIC_RELAXED);
    xlacrt_status *prev = xlacrt_status_swap(&in->status);
    p->entry(in->args, in->results, in->temp, in->pool, in);
    xlacrt_status_swap(prev);
    return in->status.failed ? -1 : 0;
}

const char *xlacrt_aot_error(const xlacrt_aot_instance *in) { return in->status.msg; }

void xlacrt_aot_cancel(xlacrt_aot_instance *in) { __atomic_store_n(&in->cancel, 1, __ATOMIC_RELAXED); }

const xlacrt_aot_program *xlacrt_aot_program_of(const xlacrt_aot_instance *in) { return in->p; }

void *xlacrt_aot_arg_data(const xlacrt_aot_instance *in, int i)
{
    return i >= 0 && i < in->p->num_args ? in->args[i] : NULL;
}

void xlacrt_aot_set_arg_data(xlacrt_aot_instance *in, int i, const void *data)
{
    if (i >= 0 && i < in->p->num_args)
        in->args[i] = (void *)data; /* compiled code only reads arguments */
}

void *xlacrt_aot_result_data(const xlacrt_aot_instance *in, int i)
{
    return i >= 0 && i < in->p->num_results ? in->results[i] : NULL;
}

void **xlacrt_aot_args(xlacrt_aot_instance *in) { return in->args; }
void **xlacrt_aot_results(xlacrt_aot_instance *in) { return in->results; }

static int find(const xlacrt_aot_buffer *b, int n, const char *name)
{
    for (int i = 0; name && i < n; i++)
        if (b[i].name && strcmp(b[i].name, name) == 0)
            return i;
    return -1;
}

int xlacrt_aot_arg_index(const xlacrt_aot_program *p, const char *name)
{
    return find(p->args, p->num_args, name);
}

int xlacrt_aot_result_index(const xlacrt_aot_program *p, const char *name)
{
    return find(p->results, p->num_results, name);
}

const int32_t *xlacrt_aot_cancel_flag(void *run) { return &((xlacrt_aot_instance *)run)->cancel; }

void xlacrt_aot_loop_stopped(void *run, int64_t loop)
{
    (void)run;
    xlacrt_fail("cancelled (while loop %lld stopped)", (long long)loop);
}

void xlacrt_status_set_failure(xlacrt_status *s, const char *msg, size_t len)
{
    if (!s)
        return;
    int expected = 0;
    if (!__atomic_compare_exchange_n(&s->failed, &expected, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        return;
    size_t n = len < sizeof s->msg - 1 ? len : sizeof s->msg - 1;
    memcpy(s->msg, msg, n);
    s->msg[n] = 0;
}
