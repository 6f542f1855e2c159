/* Custom calls ahead of time: the object calls the targets scale_by and
   split_sign as the plain C functions xlac_cc_scale_by and
   xlac_cc_split_sign, declared in the generated header. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc.h"

void xlac_cc_scale_by(void *out, const void **in, const char *opaque, size_t opaque_len, xlacrt_status *status) {
  char buf[32];
  size_t n = opaque_len < sizeof buf - 1 ? opaque_len : sizeof buf - 1;
  memcpy(buf, opaque, n);
  buf[n] = 0;
  float k = strtof(buf, NULL), *y = out;
  const float *x = in[0];
  if (x[0] == 666) {
    static const char msg[] = "scale_by: refusing 666";
    xlacrt_status_set_failure(status, msg, sizeof msg - 1);
    return;
  }
  for (int i = 0; i < 4; i++) y[i] = k * x[i];
}

void xlac_cc_split_sign(void *out, const void **in, const char *opaque, size_t opaque_len, xlacrt_status *status) {
  (void)opaque;
  (void)opaque_len;
  (void)status;
  float **outs = out, *pos = outs[0], *neg = outs[1];
  const float *x = in[0];
  for (int i = 0; i < 4; i++) {
    pos[i] = x[i] > 0 ? x[i] : 0;
    neg[i] = x[i] < 0 ? x[i] : 0;
  }
}

int main(void) {
  cc_t *m = cc_create(XLACRT_AOT_ARGS_RESULTS_AND_TEMPS);
  const float x[4] = {-2, 0, 1, 4};
  memcpy(cc_arg0_data(m), x, sizeof x);
  if (cc_run(m) != 0) return 1;
  for (int r = 0; r < 3; r++) {
    const float *v = cc_result_data(m, r);
    printf("result %d: %g %g %g %g\n", r, v[0], v[1], v[2], v[3]);
  }
  cc_arg0_data(m)[0] = 666;
  int rc = cc_run(m);
  printf("run with 666: %d (%s)\n", rc, cc_error(m));
  cc_destroy(m);
  return 0;
}
