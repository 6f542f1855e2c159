/*
 * status.c - the public error object (xlac_status) and xlac_free.  It lives
 * at the bottom of the library because host functions (custom calls) return
 * it to the interpreter and to compiled code as well as to API callers.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xlac/xlac.h"

struct xlac_status {
  xlac_code code;
  char *msg;
};

/* Returned when the status itself cannot be allocated: callers still see
   an error, and xlac_status_destroy knows not to free it. */
static struct xlac_status oom_status = {XLAC_OUT_OF_MEMORY, (char *)"out of memory (creating an error status)"};

xlac_code xlac_status_code(const xlac_status *s) { return s ? s->code : XLAC_OK; }
const char *xlac_status_message(const xlac_status *s) { return s && s->msg ? s->msg : ""; }

void xlac_status_destroy(xlac_status *s) {
  if (!s || s == &oom_status) return;
  free(s->msg);
  free(s);
}

/* Plain malloc, not xmalloc: a status reports failures, including running
   out of memory, so creating one must not unwind. */
static xlac_status *status_vnew(xlac_code code, const char *fmt, va_list ap) {
  xlac_status *s = malloc(sizeof *s);
  if (!s) return &oom_status;
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  s->code = code == XLAC_OK ? XLAC_INTERNAL : code;
  s->msg = malloc(n > 0 ? (size_t)n + 1 : 1);
  if (!s->msg) {
    free(s);
    return &oom_status;
  }
  if (n > 0)
    vsnprintf(s->msg, (size_t)n + 1, fmt, ap);
  else
    s->msg[0] = 0;
  return s;
}

xlac_status *xlac_status_create(xlac_code code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  xlac_status *s = status_vnew(code, fmt ? fmt : "", ap);
  va_end(ap);
  return s;
}

void xlac_free(void *p) { free(p); }
