/* The device memory pool (src/gpu/pool.c) on the SIMT harness's driver
 * (with deferred streams): blocks come back for requests of their size
 * class (multiples of 256 bytes up to 4 KiB, eighths of a power of two
 * beyond), hold what was written to them, and are given back when the
 * device closes (the leak checks of `make asan` see any that are not); a
 * block freed after an event comes back only once the event has passed;
 * `xlac run`'s executions (gpu_execute) take their memory from the pool,
 * so a second execution asks the driver for none. */
#include <stdlib.h>
#include <string.h>

#include "gpu/gpu.h"
#include "support/support.h"
#include "test_module.h"
#include "test_util.h"

static CUresult (*driver_alloc)(CUdeviceptr *p, size_t bytes);
static int driver_allocs;
static CUresult counted_alloc(CUdeviceptr *p, size_t bytes) {
  driver_allocs++;
  return driver_alloc(p, bytes);
}

/* A block freed after an event on a stream whose work has not run yet
   (deferred streams) stays pending; it comes back once the event passed. */
static void test_pending(GpuDevice *d) {
  char *err = NULL;
  CHECK(d->async);
  if (!d->async) return;
  CUdeviceptr a = 0, b = 0, c = 0;
  CHECK(gpu_mem_alloc(d, 3000, &a, &err));
  CUstream s = NULL;
  CHECK(gpu_stream_new(d, &s, &err));
  static float in[750], out[750];
  for (int i = 0; i < 750; i++) in[i] = (float)i;
  void *pinned = gpu_host_alloc(d, sizeof in);
  CHECK(pinned != NULL);
  if (!s || !pinned) return;
  memcpy(pinned, in, sizeof in);
  CHECK(d->drv->cuMemcpyHtoDAsync(a, pinned, sizeof in, s) == CUDA_SUCCESS);
  GpuEvent *ev = gpu_event_record(d, s, &err);
  CHECK(ev && !gpu_event_done(ev));
  gpu_host_free_after(d, pinned, ev); /* pending too: the copy reads it when it runs */
  gpu_mem_free_after(d, a, &ev, 1);
  CHECK(gpu_mem_alloc(d, 3000, &b, &err) && b != a); /* not while the copy may write it */
  CHECK(gpu_event_wait(ev, &err) && gpu_event_done(ev));
  CHECK(gpu_mem_alloc(d, 3000, &c, &err) && c == a); /* now */
  CHECK(gpu_mem_download(d, out, c, sizeof out, &err) && memcmp(in, out, sizeof in) == 0);
  gpu_event_release(ev);
  gpu_stream_free(d, s);
  gpu_mem_free(d, b);
  gpu_mem_free(d, c);
  xfree(err);
}

/* Two executions of `xlac run`'s path: the second takes every buffer from
   the pool (the first also loads the module and its constants). */
static void test_execute(GpuDevice *d) {
  static const char text[] =
      "func.func @main(%x: tensor<500xf32>) -> (tensor<500xf32>, tensor<f32>) {\n"
      "  %two = stablehlo.constant dense<2.0> : tensor<500xf32>\n"
      "  %y = stablehlo.multiply %x, %two : tensor<500xf32>\n"
      "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
      "  %s = stablehlo.reduce(%y init: %z) applies stablehlo.add across dimensions = [0] : (tensor<500xf32>, tensor<f32>) -> tensor<f32>\n"
      "  return %y, %s : tensor<500xf32>, tensor<f32>\n"
      "}\n";
  Module *m = parse(text);
  CHECK(m != NULL);
  if (!m) return;
  GpuOptions o = {0};
  o.device = d;
  GpuExecutable *e = gpu_compile(m, module_entry(m), &o);
  CHECK(e != NULL);
  if (e) {
    CudaDriver counting = *d->drv;
    const CudaDriver *saved = d->drv;
    driver_alloc = counting.cuMemAlloc;
    counting.cuMemAlloc = counted_alloc;
    d->drv = &counting;
    Type t = {.kind = TY_TENSOR, .elem = ET_F32, .rank = 1, .dims = (int64_t[]){500}};
    Literal *l = lit_new(&t);
    for (int i = 0; i < 500; i++) ((float *)l->data)[i] = (float)(i % 7) - 3.0f;
    IVal *args[1] = {ival_tensor(l)};
    int first = -1;
    for (int run = 0; run < 2; run++) {
      IVal *res[2] = {0};
      char *err = NULL;
      driver_allocs = 0;
      bool ran = gpu_execute(e, d, 1, args, res, &err);
      CHECK(ran);
      if (!ran) fprintf(stderr, "test_gpu_pool: %s\n", err ? err : "?");
      xfree(err);
      if (run == 0) first = driver_allocs;
      else CHECK_EQ_I(driver_allocs, 0);
      double sum = 0;
      int bad = 0;
      for (int i = 0; ran && i < 500; i++) {
        float x = (float)(i % 7) - 3.0f;
        bad += ((float *)res[0]->lit->data)[i] != 2 * x;
        sum += 2 * x;
      }
      CHECK(ran && bad == 0 && *(float *)res[1]->lit->data == (float)sum);
      ival_release(res[0]);
      ival_release(res[1]);
    }
    CHECK(first > 0);
    ival_release(args[0]);
    d->drv = saved;
    gpu_executable_free(e);
  }
  module_free(m);
}

int main(void) {
  setenv("XLAC_CUDA_DRIVER", "simt:deferred", 1);
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
  test_pending(d);
  test_execute(d);
  gpu_device_close(d); /* gives the kept blocks back */
  TEST_SUMMARY();
}
