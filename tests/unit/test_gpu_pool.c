/* The device memory pool (src/gpu/pool.c) on the SIMT harness's driver:
 * blocks come back for requests of their size class (multiples of 256
 * bytes up to 4 KiB, eighths of a power of two beyond), hold what was
 * written to them, and are given back when the device closes (the leak
 * checks of `make asan` see any that are not). */
#include <stdlib.h>
#include <string.h>

#include "gpu/gpu.h"
#include "support/support.h"
#include "test_util.h"

int main(void) {
  setenv("XLAC_CUDA_DRIVER", "simt", 1);
  char *err = NULL;
  GpuDevice *d = gpu_device_open(0, &err);
  CHECK(d != NULL);
  if (!d) {
    fprintf(stderr, "test_gpu_pool: %s\n", err ? err : "no device");
    xfree(err);
    TEST_SUMMARY();
  }
  CUdeviceptr a = 0, b = 0, c = 0, z = 1;
  CHECK(gpu_mem_alloc(d, 0, &z, &err) && z == 0);
  CHECK(gpu_mem_alloc(d, 1000, &a, &err) && a != 0);
  CHECK(gpu_mem_alloc(d, 1000, &b, &err) && b != 0 && b != a);
  gpu_mem_free(d, a);
  /* 900 bytes is 1000's class (1024): the block just freed */
  CHECK(gpu_mem_alloc(d, 900, &c, &err) && c == a);
  /* 1100 bytes is another class (1280) */
  CUdeviceptr e = 0;
  gpu_mem_free(d, b);
  CHECK(gpu_mem_alloc(d, 1100, &e, &err) && e != 0 && e != b);
  /* beyond 4 KiB: 5000 and 5100 bytes share the class 5120, 5200 does not */
  CUdeviceptr f = 0, g = 0, h = 0;
  CHECK(gpu_mem_alloc(d, 5000, &f, &err));
  gpu_mem_free(d, f);
  CHECK(gpu_mem_alloc(d, 5200, &g, &err) && g != f);
  CHECK(gpu_mem_alloc(d, 5100, &h, &err) && h == f);
  /* a reused block holds what is written to it */
  unsigned char in[5100], out[5100];
  for (int i = 0; i < (int)sizeof in; i++) in[i] = (unsigned char)(i * 7 + 3);
  CHECK(gpu_mem_upload(d, h, in, sizeof in, &err) && gpu_mem_download(d, out, h, sizeof out, &err));
  CHECK(memcmp(in, out, sizeof in) == 0);
  /* freeing an address the pool did not hand out, or 0, is harmless */
  gpu_mem_free(d, 0);
  gpu_mem_free(d, c);
  gpu_mem_free(d, e);
  gpu_mem_free(d, g);
  gpu_mem_free(d, h);
  xfree(err);
  gpu_device_close(d); /* gives the kept blocks back */
  TEST_SUMMARY();
}
