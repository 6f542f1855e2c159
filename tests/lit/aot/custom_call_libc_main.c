/* Inputs/custom_call_libc.mlir's targets (system, malloc,
   xlacrt_status_current, opaque, sys_entry) defined as xlac_cc_<target>:
   each adds its own amount, so the result tells that each was called, in
   turn; and system, malloc and the runtime still are what they were. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys.h"

static void add(void *out, const void **in, float k) {
  for (int i = 0; i < 4; i++) ((float *)out)[i] = ((const float *)in[0])[i] + k;
}

void xlac_cc_system(void *out, const void **in, const char *opaque, size_t opaque_len, xlacrt_status *status) {
  (void)opaque, (void)opaque_len, (void)status;
  add(out, in, 1);
}

void xlac_cc_malloc(void *out, const void **in, const char *opaque, size_t opaque_len, xlacrt_status *status) {
  (void)opaque, (void)opaque_len, (void)status;
  add(out, in, 10);
}

void xlac_cc_xlacrt_status_current(void *out, const void **in, const char *opaque, size_t opaque_len,
                                   xlacrt_status *status) {
  (void)opaque, (void)opaque_len, (void)status;
  add(out, in, 100);
}

void xlac_cc_opaque(void *out, const void **in, const char *opaque, size_t opaque_len, xlacrt_status *status) {
  (void)opaque, (void)opaque_len, (void)status;
  add(out, in, 1000);
}

void xlac_cc_sys_entry(void *out, const void **in, const char *opaque, size_t opaque_len, xlacrt_status *status) {
  (void)status;
  char buf[8] = {0};
  memcpy(buf, opaque, opaque_len < 7 ? opaque_len : 7);
  add(out, in, strtof(buf, NULL)); /* backend_config "1234" */
}

int main(void) {
  sys_t *m = sys_create(XLACRT_AOT_ARGS_RESULTS_AND_TEMPS);
  if (!m) return 1;
  const float x[4] = {0, 1, 2, 3};
  memcpy(sys_arg0_data(m), x, sizeof x);
  if (sys_run(m) != 0) return 1;
  const float *y = sys_result0_data(m);
  char *p = malloc(16);
  printf("%g %g %g %g, malloc %s, system %s\n", y[0], y[1], y[2], y[3], p ? "ok" : "failed",
         system(NULL) >= 0 ? "ok" : "failed");
  free(p);
  sys_destroy(m);
  return 0;
}
