/*
 * capture.c - diagnostics into statuses.  Library calls run the same code
 * as the command line, which reports through diag(); a call installs a
 * capturing hook on its thread (replica threads inherit it), keeps the
 * formatted errors and notes, and returns them as one status message.
 */
#include <stdlib.h>
#include <string.h>

#include "api/api.h"

static void put_into(char **text, size_t *len, size_t *capp, const char *s, size_t n) {
  if (*len + n + 1 > *capp) {
    size_t cap = *capp ? *capp : 256;
    while (cap < *len + n + 1) cap *= 2;
    char *t = realloc(*text, cap);
    if (!t) return; /* keep what fits: the status still says it failed */
    *text = t;
    *capp = cap;
  }
  memcpy(*text + *len, s, n);
  *len += n;
  (*text)[*len] = 0;
}

static void put(ApiCapture *c, const char *s, size_t n) { put_into(&c->text, &c->len, &c->cap, s, n); }

/* A warning, formatted, into the capture's warnings. */
static void put_warning(ApiCapture *c, SrcLoc loc, const char *msg) {
  if (!src_get(loc.file)) {
    put_into(&c->warnings, &c->wlen, &c->wcap, "warning: ", 9);
    put_into(&c->warnings, &c->wlen, &c->wcap, msg, strlen(msg));
    put_into(&c->warnings, &c->wlen, &c->wcap, "\n", 1);
    return;
  }
  size_t cap = diag_format_size(loc, msg);
  char *buf = malloc(cap);
  if (buf) {
    size_t n = diag_format(DIAG_WARNING, loc, msg, buf, cap);
    put_into(&c->warnings, &c->wlen, &c->wcap, buf, n);
    xfree(buf);
  }
}

static void capture_hook(DiagLevel lvl, SrcLoc loc, const char *msg, void *ud) {
  ApiCapture *c = ud;
  pthread_mutex_lock(&c->mu);
  if (lvl == DIAG_WARNING) { /* kept apart: a call that succeeds returns them */
    put_warning(c, loc, msg);
    pthread_mutex_unlock(&c->mu);
    return;
  }
  if (lvl == DIAG_ERROR) {
    c->errors++;
    if (strncmp(msg, "out of memory", 13) == 0) c->oom = true;
  }
  if (!src_get(loc.file)) {
    if (lvl == DIAG_NOTE) put(c, "note: ", 6);
    put(c, msg, strlen(msg));
    put(c, "\n", 1);
  } else {
    size_t cap = diag_format_size(loc, msg);
    char *buf = malloc(cap);
    if (buf) {
      size_t n = diag_format(lvl, loc, msg, buf, cap);
      put(c, buf, n);
      xfree(buf);
    }
  }
  pthread_mutex_unlock(&c->mu);
}

static _Thread_local bool passthrough;

void api_set_passthrough(bool on) { passthrough = on; }

void api_capture_begin(ApiCapture *c) {
  memset(c, 0, sizeof *c);
  pthread_mutex_init(&c->mu, NULL);
  c->outer = diag_context_get();
  c->passthrough = passthrough;
  if (!c->passthrough) diag_set_hook(capture_hook, c);
}

xlac_status *api_capture_end(ApiCapture *c, bool ok, xlac_code code, const char *what) {
  diag_context_set(c->outer);
  xlac_status *s = NULL;
  if (!ok || c->errors) {
    while (c->len && c->text[c->len - 1] == '\n') c->text[--c->len] = 0;
    const char *msg = c->passthrough ? "" : c->len ? c->text : what;
    s = xlac_status_create(c->oom ? XLAC_OUT_OF_MEMORY : code, "%s", msg ? msg : "failed");
  }
  xfree(c->text);
  if (!c->keep_warnings) {
    xfree(c->warnings);
    c->warnings = NULL;
  }
  pthread_mutex_destroy(&c->mu);
  return s;
}

char *api_capture_take_warnings(ApiCapture *c) {
  char *w = c->warnings ? c->warnings : strdup("");
  c->warnings = NULL;
  c->wlen = c->wcap = 0;
  return w;
}

bool api_guarded(bool (*fn)(void *ctx), void *ctx, bool track, bool *unwound) {
  OomGuard g;
  oom_push(&g);
  if (track) oom_track_begin(&g);
  volatile bool ok = false, uw = false;
  if (setjmp(g.jb) == 0) {
    ok = fn(ctx);
  } else {
    oom_report(&g);
    interp_thread_reset(); /* an abandoned interpreter run, if one was going */
    uw = true;
  }
  if (track) oom_track_end(&g, uw);
  oom_pop(&g);
  if (unwound) *unwound = uw;
  return ok && !uw;
}
