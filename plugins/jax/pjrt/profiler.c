/*
 * profiler.c - the PJRT profiler extension: xlac's device events in the
 * framework's profiler traces (jax.profiler.trace, start_trace).
 *
 * The framework finds the extension in the PJRT_Api's chain and, for each
 * profiling session, creates one of our profilers, starts it, stops it and
 * collects what it recorded (PLUGIN_Profiler_Api).  While at least one is
 * started, every execution is recorded (profiler_record_run, called by
 * the plugin around the library's execute): its executable's name, start
 * and end on the realtime clock (the clock of the framework's host
 * events, so both line up), the devices it ran on, and the executable's
 * cost (flops, transcendentals, bytes accessed: xlac_executable_stats).
 *
 * What is collected is a serialized tensorflow.profiler.XSpace (the
 * protobuf of XLA's profiler, xplane.proto; written here by hand: a few
 * varints and length-delimited fields): one plane per device, named
 * "/device:CUSTOM:<device id>" (the prefix the trace viewers read as the
 * device planes of a plugin), with one line, "XLA Modules", holding an
 * event per run, named after the executable, with the cost as its stats.
 * Events inside a run (per fused kernel) are not recorded: the library
 * does not report them.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "profiler.h"

enum { MAX_EVENTS = 1 << 20 }; /* per session; later runs are counted, not kept */

typedef struct Event {
  int dev;
  char *name;
  int64_t t0, t1; /* ns */
  double flops, transcendentals, bytes;
  bool failed;
} Event;

struct PLUGIN_Profiler {
  bool started;
  int64_t start_ns;
  Event *ev;
  size_t nev, cap, dropped;
  uint8_t *data; /* the serialized XSpace, made when first collected */
  size_t data_len;
  bool collected;
  PLUGIN_Profiler *next_active;
};

struct PLUGIN_Profiler_Error {
  int code;
  char *msg;
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static PLUGIN_Profiler *active; /* started and not stopped, under mu */
static atomic_int nactive;

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t profiler_start_time(void) { return atomic_load_explicit(&nactive, memory_order_relaxed) > 0 ? now_ns() : 0; }

void profiler_record_run(const char *name, const xlac_executable *xe, const int *devs, int ndev, int64_t t0,
                         bool failed) {
  int64_t t1 = now_ns();
  xlac_executable_stats st = {.struct_size = sizeof st};
  xlac_status *s = xe ? xlac_executable_stats_get(xe, &st) : NULL;
  if (s) {
    xlac_status_destroy(s);
    st.flops = st.transcendentals = st.bytes_accessed = 0;
  }
  pthread_mutex_lock(&mu);
  for (PLUGIN_Profiler *p = active; p; p = p->next_active)
    for (int d = 0; d < ndev; d++) {
      if (p->nev == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 64;
        Event *ev = cap <= MAX_EVENTS ? realloc(p->ev, cap * sizeof *ev) : NULL;
        if (ev) {
          p->ev = ev;
          p->cap = cap;
        }
      }
      char *nm = p->nev < p->cap ? strdup(name ? name : "") : NULL;
      if (!nm) {
        p->dropped++;
        continue;
      }
      p->ev[p->nev++] = (Event){.dev = devs ? devs[d] : d, .name = nm, .t0 = t0 < p->start_ns ? p->start_ns : t0,
                                .t1 = t1, .flops = st.flops, .transcendentals = st.transcendentals,
                                .bytes = st.bytes_accessed, .failed = failed};
    }
  pthread_mutex_unlock(&mu);
}

/* ---- protobuf, written by hand ---- */

typedef struct Pb {
  uint8_t *p;
  size_t len, cap;
  bool oom;
} Pb;

static void pb_put(Pb *b, const void *src, size_t n) {
  if (b->oom) return;
  if (b->len + n > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + n) cap *= 2;
    uint8_t *p = realloc(b->p, cap);
    if (!p) {
      b->oom = true;
      return;
    }
    b->p = p;
    b->cap = cap;
  }
  memcpy(b->p + b->len, src, n);
  b->len += n;
}

static void pb_varint(Pb *b, uint64_t v) {
  uint8_t buf[10];
  int n = 0;
  do {
    buf[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
    v >>= 7;
  } while (v);
  pb_put(b, buf, (size_t)n);
}

static void pb_tag(Pb *b, int field, int wire) { pb_varint(b, (uint64_t)field << 3 | (uint64_t)wire); }
static void pb_int(Pb *b, int field, int64_t v) {
  pb_tag(b, field, 0);
  pb_varint(b, (uint64_t)v);
}
static void pb_bytes(Pb *b, int field, const void *s, size_t n) {
  pb_tag(b, field, 2);
  pb_varint(b, n);
  pb_put(b, s, n);
}
static void pb_str(Pb *b, int field, const char *s) { pb_bytes(b, field, s, strlen(s)); }
/* sub as a length-delimited field of b; sub is emptied */
static void pb_msg(Pb *b, int field, Pb *sub) {
  if (sub->oom) b->oom = true;
  pb_bytes(b, field, sub->p, sub->len);
  sub->len = 0;
  sub->oom = false;
}

/* stat metadata ids of an event's stats */
enum { STAT_FLOPS = 1, STAT_TRANSCENDENTALS, STAT_BYTES, STAT_ERROR, NSTATS };
static const char *const stat_names[NSTATS] = {NULL, "flops", "transcendentals", "bytes_accessed", "error"};

static int cmp_event(const void *a, const void *b) {
  const Event *x = a, *y = b;
  if (x->dev != y->dev) return x->dev < y->dev ? -1 : 1;
  return x->t0 < y->t0 ? -1 : x->t0 > y->t0;
}

static void put_stat_u64(Pb *ev, Pb *tmp, int id, double v) {
  pb_int(tmp, 1, id);
  pb_int(tmp, 3, (int64_t)(v > 0 ? v : 0));
  pb_msg(ev, 4, tmp);
}

/* XPlane of events ev[0..n-1] (one device) */
static void put_plane(Pb *space, const PLUGIN_Profiler *p, const Event *ev, size_t n) {
  Pb plane = {0}, line = {0}, e = {0}, t = {0}, u = {0};
  char name[64];
  snprintf(name, sizeof name, "/device:CUSTOM:%d", ev[0].dev);
  pb_int(&plane, 1, ev[0].dev);
  pb_str(&plane, 2, name);
  /* the names of the executables, in order of first run: metadata ids 1.. */
  const char **names = calloc(n + 1, sizeof *names);
  size_t nnames = 0;
  pb_int(&line, 1, 1);
  pb_str(&line, 2, "XLA Modules");
  pb_int(&line, 3, p->start_ns);
  for (size_t i = 0; names && i < n; i++) {
    size_t id = 0;
    while (id < nnames && strcmp(names[id], ev[i].name)) id++;
    if (id == nnames) names[nnames++] = ev[i].name;
    pb_int(&e, 1, (int64_t)id + 1);
    pb_int(&e, 2, (ev[i].t0 - p->start_ns) * 1000);
    pb_int(&e, 3, ev[i].t1 > ev[i].t0 ? (ev[i].t1 - ev[i].t0) * 1000 : 0);
    put_stat_u64(&e, &t, STAT_FLOPS, ev[i].flops);
    put_stat_u64(&e, &t, STAT_TRANSCENDENTALS, ev[i].transcendentals);
    put_stat_u64(&e, &t, STAT_BYTES, ev[i].bytes);
    if (ev[i].failed) {
      pb_int(&t, 1, STAT_ERROR);
      pb_str(&t, 5, "the execution failed");
      pb_msg(&e, 4, &t);
    }
    pb_msg(&line, 4, &e);
  }
  pb_msg(&plane, 3, &line);
  for (size_t id = 0; id < nnames; id++) { /* map<int64, XEventMetadata> */
    pb_int(&u, 1, (int64_t)id + 1);
    pb_str(&u, 2, names[id]);
    pb_int(&t, 1, (int64_t)id + 1);
    pb_msg(&t, 2, &u);
    pb_msg(&plane, 4, &t);
  }
  for (int id = 1; id < NSTATS; id++) { /* map<int64, XStatMetadata> */
    pb_int(&u, 1, id);
    pb_str(&u, 2, stat_names[id]);
    pb_int(&t, 1, id);
    pb_msg(&t, 2, &u);
    pb_msg(&plane, 5, &t);
  }
  if (!names) plane.oom = true;
  pb_msg(space, 1, &plane);
  free(names);
  free(plane.p);
  free(line.p);
  free(e.p);
  free(t.p);
  free(u.p);
}

/* The XSpace of p's events (under mu). */
static bool serialize(PLUGIN_Profiler *p) {
  Pb space = {0};
  qsort(p->ev, p->nev, sizeof *p->ev, cmp_event);
  for (size_t i = 0, j; i < p->nev; i = j) {
    for (j = i + 1; j < p->nev && p->ev[j].dev == p->ev[i].dev;) j++;
    put_plane(&space, p, p->ev + i, j - i);
  }
  if (p->dropped) {
    char w[160];
    snprintf(w, sizeof w, "xlac: %zu device events were not recorded (a session keeps at most %d)", p->dropped,
             MAX_EVENTS);
    pb_str(&space, 3, w);
  }
  if (space.oom) {
    free(space.p);
    return false;
  }
  p->data = space.p;
  p->data_len = space.len;
  p->collected = true;
  return true;
}

/* ---- the table ---- */

static PLUGIN_Profiler_Error *perr(int code, const char *msg) {
  PLUGIN_Profiler_Error *e = malloc(sizeof *e);
  if (!e) return NULL;
  e->code = code;
  e->msg = strdup(msg);
  return e;
}

static void error_destroy(PLUGIN_Profiler_Error_Destroy_Args *a) {
  if (!a->error) return;
  free(a->error->msg);
  free(a->error);
}

static void error_message(PLUGIN_Profiler_Error_Message_Args *a) {
  const char *m = a->error && a->error->msg ? a->error->msg : "xlac profiler: out of memory";
  a->message = m;
  a->message_size = strlen(m);
}

static PLUGIN_Profiler_Error *error_get_code(PLUGIN_Profiler_Error_GetCode_Args *a) {
  a->code = a->error ? a->error->code : PJRT_Error_Code_UNKNOWN;
  return NULL;
}

static PLUGIN_Profiler_Error *create(PLUGIN_Profiler_Create_Args *a) {
  /* the options (which tracers, how detailed) change nothing here */
  a->profiler = calloc(1, sizeof *a->profiler);
  return a->profiler ? NULL : perr(PJRT_Error_Code_RESOURCE_EXHAUSTED, "xlac profiler: out of memory");
}

static void unlink_active(PLUGIN_Profiler *p) {
  for (PLUGIN_Profiler **q = &active; *q; q = &(*q)->next_active)
    if (*q == p) {
      *q = p->next_active;
      p->next_active = NULL;
      atomic_fetch_sub(&nactive, 1);
      return;
    }
}

static PLUGIN_Profiler_Error *destroy(PLUGIN_Profiler_Destroy_Args *a) {
  PLUGIN_Profiler *p = a->profiler;
  if (!p) return NULL;
  pthread_mutex_lock(&mu);
  unlink_active(p);
  pthread_mutex_unlock(&mu);
  for (size_t i = 0; i < p->nev; i++) free(p->ev[i].name);
  free(p->ev);
  free(p->data);
  free(p);
  return NULL;
}

static PLUGIN_Profiler_Error *start(PLUGIN_Profiler_Start_Args *a) {
  PLUGIN_Profiler *p = a->profiler;
  if (!p) return perr(PJRT_Error_Code_INVALID_ARGUMENT, "xlac profiler: Start: profiler is NULL");
  pthread_mutex_lock(&mu);
  if (!p->started) {
    p->started = true;
    p->start_ns = now_ns();
    p->next_active = active;
    active = p;
    atomic_fetch_add(&nactive, 1);
  }
  pthread_mutex_unlock(&mu);
  return NULL;
}

static PLUGIN_Profiler_Error *stop(PLUGIN_Profiler_Stop_Args *a) {
  if (!a->profiler) return perr(PJRT_Error_Code_INVALID_ARGUMENT, "xlac profiler: Stop: profiler is NULL");
  pthread_mutex_lock(&mu);
  unlink_active(a->profiler);
  pthread_mutex_unlock(&mu);
  return NULL;
}

static PLUGIN_Profiler_Error *collect_data(PLUGIN_Profiler_CollectData_Args *a) {
  PLUGIN_Profiler *p = a->profiler;
  if (!p) return perr(PJRT_Error_Code_INVALID_ARGUMENT, "xlac profiler: CollectData: profiler is NULL");
  pthread_mutex_lock(&mu);
  unlink_active(p); /* collecting ends the recording */
  bool ok = p->collected || serialize(p);
  pthread_mutex_unlock(&mu);
  if (!ok) return perr(PJRT_Error_Code_RESOURCE_EXHAUSTED, "xlac profiler: CollectData: out of memory");
  if (a->buffer) {
    if (p->data_len) memcpy(a->buffer, p->data, p->data_len);
  } else {
    a->buffer = p->data; /* ours until the profiler is destroyed */
  }
  a->buffer_size_in_bytes = p->data_len;
  return NULL;
}

static PLUGIN_Profiler_Api profiler_api = {
    .struct_size = sizeof(PLUGIN_Profiler_Api),
    .error_destroy = error_destroy,
    .error_message = error_message,
    .error_get_code = error_get_code,
    .create = create,
    .destroy = destroy,
    .start = start,
    .stop = stop,
    .collect_data = collect_data,
};

const PJRT_Profiler_Extension xlac_profiler_extension = {
    .base = {.struct_size = sizeof(PJRT_Profiler_Extension), .type = PJRT_Extension_Type_Profiler, .next = NULL},
    .profiler_api = &profiler_api,
    .traceme_context_id = -1,
};
