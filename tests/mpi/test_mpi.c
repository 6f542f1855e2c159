/*
 * test_mpi.c - collectives across processes over MPI (include/xlac/xlac_mpi.h).
 *
 * Started on its own (as the test suite starts it) it runs itself as 4 MPI
 * ranks through scripts/mpirun.sh (oversubscribed on a small machine).
 * Each rank then compiles every program for 4 replicas on an MPI client
 * -- native code, and the interpreter -- runs it as its own replica, and
 * compares each result, bit for bit, with that replica's result from a
 * 4-replica grid of the interpreter in its own process: all_reduce (f32
 * sums whose order matters, i32 sums, maxima, groups, a variadic one, one
 * large enough to take many chunks), all_gather, reduce_scatter,
 * all_to_all, collective_permute, collective_broadcast, collective_reduce,
 * send/recv between ranks, replica_id, collectives in a loop, and the
 * programs of tests/lit/run/collectives_grid.mlir on 4 x 1 and 2 x 2
 * (partitions) sets.  Then failures: operands that differ between ranks
 * (every rank fails, the communicator stays usable), and one rank failing
 * while the others wait for it in an all_reduce (they fail instead of
 * hanging).  Without MPI in the build it only says it was skipped.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef XLAC_TEST_MPI
int main(void) {
  printf("test_mpi: skipped: xlac was built without MPI (apt-get install libopenmpi-dev openmpi-bin)\n");
  return 0;
}
#else

#include <sys/wait.h>
#include <unistd.h>

#include "xlac/xlac.h"
#include "xlac/xlac_mpi.h"

enum { NR = 4 };

static int rank = -1, failures, checked;

#define FAIL(...)                                  \
  do {                                             \
    fprintf(stderr, "rank %d: FAIL: ", rank);      \
    fprintf(stderr, __VA_ARGS__);                  \
    fprintf(stderr, "\n");                         \
    failures++;                                    \
  } while (0)

/* Takes a status: true when NULL, else reports it. */
static int ok(xlac_status *s, const char *what) {
  if (!s) return 1;
  FAIL("%s: %s", what, xlac_status_message(s));
  xlac_status_destroy(s);
  return 0;
}

/* ---- deterministic inputs ---- */

static uint64_t hash3(uint64_t a, uint64_t b, uint64_t c) {
  uint64_t h = a * 0x9e3779b97f4a7c15ull ^ (b + 0x632be59bd9b4e019ull) * 0xbf58476d1ce4e5b9ull ^ c;
  h ^= h >> 31;
  h *= 0x94d049bb133111ebull;
  return h ^ (h >> 29);
}

/* Element i of argument `arg` of replica r: floats spread over magnitudes
   (so that the order of a sum shows in its bits), small integers. */
static void fill(xlac_type t, size_t bytes, int r, int arg, unsigned char *out) {
  size_t eb = xlac_type_host_bytes(t), n = eb ? bytes / eb : 0;
  for (size_t i = 0; i < n; i++) {
    uint64_t h = hash3((uint64_t)r, (uint64_t)arg, i);
    switch (t) {
    case XLAC_F32: {
      float v = (float)((double)(h % 20001) / 1000.0 - 10.0) * (float)(1 << (h >> 40) % 16) / 64.0f;
      memcpy(out + i * 4, &v, 4);
      break;
    }
    case XLAC_F64: {
      double v = ((double)(h % 200001) / 1000.0 - 100.0) * (double)(1 << (h >> 40) % 24);
      memcpy(out + i * 8, &v, 8);
      break;
    }
    case XLAC_S32: {
      int32_t v = (int32_t)(h % 2001) - 1000;
      memcpy(out + i * 4, &v, 4);
      break;
    }
    default:
      for (size_t k = 0; k < eb; k++) out[i * eb + k] = (unsigned char)(h >> (8 * k));
    }
  }
}

/* ---- running ---- */

typedef struct Run {
  int nres;
  unsigned char **data; /* per result */
  size_t *bytes;
} Run;

static void run_free(Run *r) {
  for (int i = 0; r->data && i < r->nres; i++) free(r->data[i]);
  free(r->data);
  free(r->bytes);
  memset(r, 0, sizeof *r);
}

/* Runs e on ndev devices: device d is replica first_replica + d and gets
   that replica's inputs.  out[d] receives device d's results.  Returns the
   status of the execution (NULL: ok). */
static xlac_status *run_exe(xlac_client *c, xlac_executable *e, int ndev, int first_replica, Run *out) {
  int na = xlac_executable_num_args(e), nr = xlac_executable_num_results(e);
  xlac_buffer **args = calloc((size_t)(ndev * na + 1), sizeof *args);
  xlac_buffer **res = calloc((size_t)(ndev * nr + 1), sizeof *res);
  xlac_buffer **argv[16], **resv[16];
  xlac_status *s = NULL;
  for (int d = 0; d < ndev && !s; d++) {
    argv[d] = args + d * na;
    resv[d] = res + d * nr;
    for (int i = 0; i < na && !s; i++) {
      xlac_shape sh;
      s = xlac_executable_arg_shape(e, i, &sh);
      if (s) break;
      size_t n = 1;
      for (int k = 0; k < sh.rank; k++) n *= (size_t)sh.dims[k];
      size_t bytes = n * xlac_type_host_bytes(sh.type);
      unsigned char *host = malloc(bytes + 1);
      fill(sh.type, bytes, first_replica + d, i, host);
      s = xlac_buffer_from_host(c, d, sh.type, sh.dims, sh.rank, host, bytes, 0, &argv[d][i]);
      free(host);
    }
  }
  if (!s) s = xlac_executable_execute(e, ndev, (xlac_buffer *const *const *)argv, NULL, resv);
  for (int d = 0; d < ndev && !s; d++) {
    out[d].nres = nr;
    out[d].data = calloc((size_t)nr + 1, sizeof(unsigned char *));
    out[d].bytes = calloc((size_t)nr + 1, sizeof(size_t));
    for (int r = 0; r < nr && !s; r++) {
      size_t n = xlac_buffer_host_size(res[d * nr + r], 0);
      out[d].bytes[r] = n;
      out[d].data[r] = malloc(n + 1);
      s = xlac_buffer_to_host(res[d * nr + r], out[d].data[r], n, 0);
    }
  }
  for (int i = 0; i < ndev * na; i++) xlac_buffer_destroy(args[i]);
  for (int i = 0; i < ndev * nr; i++) xlac_buffer_destroy(res[i]);
  free(args);
  free(res);
  return s;
}

static xlac_executable *compile(xlac_client *c, const char *text, const char *entry, const char *what) {
  xlac_executable *e = NULL;
  xlac_compile_options o = {.struct_size = sizeof o, .entry = entry};
  char label[200];
  snprintf(label, sizeof label, "compiling %s", what);
  ok(xlac_compile_text(c, text, strlen(text), &o, &e), label);
  return e;
}

static void compare(const Run *got, const Run *want, const char *name, const char *backend) {
  if (got->nres != want->nres) {
    FAIL("%s (%s): %d results, the in-process grid has %d", name, backend, got->nres, want->nres);
    return;
  }
  for (int r = 0; r < got->nres; r++) {
    if (got->bytes[r] != want->bytes[r] || memcmp(got->data[r], want->data[r], got->bytes[r]) != 0) {
      size_t at = 0;
      while (at < got->bytes[r] && at < want->bytes[r] && got->data[r][at] == want->data[r][at]) at++;
      FAIL("%s (%s): result %d differs from the in-process interpreter's (byte %zu of %zu)", name, backend, r, at,
           want->bytes[r]);
      return;
    }
  }
  checked++;
}

/* The clients every check uses. */
typedef struct Clients {
  xlac_client *ref;       /* in-process interpreter, all replicas */
  xlac_client *mpi[2];    /* this rank: compiled, interpreted */
  int replica, ndev_ref;  /* this rank's replica (device) */
} Clients;

/* Compiles `text` on every client, runs it, and compares this rank's
   replica's results over MPI with the in-process grid's. */
static void check(const Clients *cl, const char *name, const char *text, const char *entry) {
  xlac_executable *ref = compile(cl->ref, text, entry, name);
  Run want[16] = {{0}};
  if (!ref || !ok(run_exe(cl->ref, ref, cl->ndev_ref, 0, want), name)) {
    xlac_executable_destroy(ref);
    /* the other ranks still run it: keep the collectives in step */
    ref = NULL;
  }
  static const char *const backend[2] = {"cpu", "interpreter"};
  for (int b = 0; b < 2; b++) {
    xlac_executable *e = compile(cl->mpi[b], text, entry, name);
    Run got = {0};
    if (e && ok(run_exe(cl->mpi[b], e, 1, cl->replica, &got), name) && ref) compare(&got, &want[cl->replica], name, backend[b]);
    run_free(&got);
    xlac_executable_destroy(e);
  }
  for (int d = 0; d < cl->ndev_ref; d++) run_free(&want[d]);
  xlac_executable_destroy(ref);
  if (getenv("XLAC_TEST_VERBOSE")) fprintf(stderr, "rank %d: done: %s\n", rank, name);
}

/* ---- the programs ---- */

static const char *const sum_f32 =
    "func.func @main(%x: tensor<5x3xf32>) -> tensor<5x3xf32> {\n"
    "  %r = \"stablehlo.all_reduce\"(%x) ({\n"
    "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
    "      %s = stablehlo.add %a, %b : tensor<f32>\n"
    "      stablehlo.return %s : tensor<f32>\n"
    "  }) {replica_groups = dense<[[3, 1, 0, 2]]> : tensor<1x4xi64>} : (tensor<5x3xf32>) -> tensor<5x3xf32>\n"
    "  return %r : tensor<5x3xf32>\n"
    "}\n";

static const char *const sum_i32_max_f32 =
    "func.func @main(%x: tensor<7xi32>, %y: tensor<2x2xf32>) -> (tensor<7xi32>, tensor<2x2xf32>) {\n"
    "  %r = \"stablehlo.all_reduce\"(%x) ({\n"
    "    ^bb0(%a: tensor<i32>, %b: tensor<i32>):\n"
    "      %s = stablehlo.add %a, %b : tensor<i32>\n"
    "      stablehlo.return %s : tensor<i32>\n"
    "  }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<7xi32>) -> tensor<7xi32>\n"
    "  %m = \"stablehlo.all_reduce\"(%y) ({\n"
    "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
    "      %s = stablehlo.maximum %a, %b : tensor<f32>\n"
    "      stablehlo.return %s : tensor<f32>\n"
    "  }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<2x2xf32>) -> tensor<2x2xf32>\n"
    "  return %r, %m : tensor<7xi32>, tensor<2x2xf32>\n"
    "}\n";

/* groups, a variadic reduction, f64 products */
static const char *const groups_variadic =
    "func.func @main(%x: tensor<6xf64>, %y: tensor<3xf64>) -> (tensor<6xf64>, tensor<3xf64>) {\n"
    "  %r:2 = \"stablehlo.all_reduce\"(%x, %y) ({\n"
    "    ^bb0(%a: tensor<f64>, %b: tensor<f64>):\n"
    "      %s = stablehlo.multiply %a, %b : tensor<f64>\n"
    "      stablehlo.return %s : tensor<f64>\n"
    "  }) {replica_groups = dense<[[2, 0], [1, 3]]> : tensor<2x2xi64>} : (tensor<6xf64>, tensor<3xf64>) -> "
    "(tensor<6xf64>, tensor<3xf64>)\n"
    "  return %r#0, %r#1 : tensor<6xf64>, tensor<3xf64>\n"
    "}\n";

/* large enough for many chunks of the runtime's reductions (1M floats) */
static const char *const sum_large =
    "func.func @main(%x: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {\n"
    "  %r = \"stablehlo.all_reduce\"(%x) ({\n"
    "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
    "      %s = stablehlo.add %a, %b : tensor<f32>\n"
    "      stablehlo.return %s : tensor<f32>\n"
    "  }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<1024x1024xf32>) -> "
    "tensor<1024x1024xf32>\n"
    "  return %r : tensor<1024x1024xf32>\n"
    "}\n";

/* large enough to be split among the ranks (mpi_comm.c's SPLIT_MIN):
   parts of uneven sizes, two values, and a reduce_scatter whose parts are
   rows apart */
static const char *const split_uneven =
    "func.func @main(%x: tensor<50001xf32>, %y: tensor<30011xf32>) -> (tensor<50001xf32>, tensor<30011xf32>) {\n"
    "  %r:2 = \"stablehlo.all_reduce\"(%x, %y) ({\n"
    "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
    "      %s = stablehlo.add %a, %b : tensor<f32>\n"
    "      stablehlo.return %s : tensor<f32>\n"
    "  }) {replica_groups = dense<[[2, 3, 1, 0]]> : tensor<1x4xi64>} : (tensor<50001xf32>, tensor<30011xf32>) -> "
    "(tensor<50001xf32>, tensor<30011xf32>)\n"
    "  return %r#0, %r#1 : tensor<50001xf32>, tensor<30011xf32>\n"
    "}\n";
static const char *const split_scatter =
    "func.func @main(%x: tensor<3x8192x4xf32>, %y: tensor<16384x2xi32>) -> (tensor<3x2048x4xf32>, tensor<8192x2xi32>) {\n"
    "  %s = \"stablehlo.reduce_scatter\"(%x) ({\n"
    "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
    "      %m = stablehlo.add %a, %b : tensor<f32>\n"
    "      stablehlo.return %m : tensor<f32>\n"
    "  }) {scatter_dimension = 1 : i64, replica_groups = dense<[[3, 0, 2, 1]]> : tensor<1x4xi64>}\n"
    "     : (tensor<3x8192x4xf32>) -> tensor<3x2048x4xf32>\n"
    "  %t = \"stablehlo.reduce_scatter\"(%y) ({\n"
    "    ^bb0(%a: tensor<i32>, %b: tensor<i32>):\n"
    "      %m = stablehlo.maximum %a, %b : tensor<i32>\n"
    "      stablehlo.return %m : tensor<i32>\n"
    "  }) {scatter_dimension = 0 : i64, replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>}\n"
    "     : (tensor<16384x2xi32>) -> tensor<8192x2xi32>\n"
    "  return %s, %t : tensor<3x2048x4xf32>, tensor<8192x2xi32>\n"
    "}\n";

static const char *const gather_scatter =
    "func.func @main(%x: tensor<2x3xf32>, %y: tensor<8x3xi32>) -> (tensor<2x12xf32>, tensor<2x3xi32>) {\n"
    "  %g = \"stablehlo.all_gather\"(%x) {all_gather_dim = 1 : i64,\n"
    "        replica_groups = dense<[[1, 3, 0, 2]]> : tensor<1x4xi64>} : (tensor<2x3xf32>) -> tensor<2x12xf32>\n"
    "  %s = \"stablehlo.reduce_scatter\"(%y) ({\n"
    "    ^bb0(%a: tensor<i32>, %b: tensor<i32>):\n"
    "      %m = stablehlo.add %a, %b : tensor<i32>\n"
    "      stablehlo.return %m : tensor<i32>\n"
    "  }) {scatter_dimension = 0 : i64, replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>}\n"
    "     : (tensor<8x3xi32>) -> tensor<2x3xi32>\n"
    "  return %g, %s : tensor<2x12xf32>, tensor<2x3xi32>\n"
    "}\n";

static const char *const to_all =
    "func.func @main(%x: tensor<4x2xi32>, %y: tensor<2x8xf32>) -> (tensor<1x8xi32>, tensor<8x2xf32>) {\n"
    "  %a = \"stablehlo.all_to_all\"(%x) {split_dimension = 0 : i64, concat_dimension = 1 : i64, split_count = 4 : "
    "i64,\n"
    "        replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<4x2xi32>) -> tensor<1x8xi32>\n"
    "  %b = \"stablehlo.all_to_all\"(%y) {split_dimension = 1 : i64, concat_dimension = 0 : i64, split_count = 4 : "
    "i64,\n"
    "        replica_groups = dense<[[3, 2, 1, 0]]> : tensor<1x4xi64>} : (tensor<2x8xf32>) -> tensor<8x2xf32>\n"
    "  return %a, %b : tensor<1x8xi32>, tensor<8x2xf32>\n"
    "}\n";

static const char *const permute_broadcast =
    "func.func @main(%x: tensor<3xf32>, %y: tensor<2x2xi32>) -> (tensor<3xf32>, tensor<2x2xi32>, tensor<2x2xi32>, "
    "tensor<3xf32>) {\n"
    "  %p = \"stablehlo.collective_permute\"(%x) {source_target_pairs = dense<[[0, 1], [1, 2], [2, 3]]> : "
    "tensor<3x2xi64>}\n"
    "       : (tensor<3xf32>) -> tensor<3xf32>\n"
    "  %b = \"stablehlo.collective_broadcast\"(%y) {replica_groups = dense<[[2, 0, 1, 3]]> : tensor<1x4xi64>}\n"
    "       : (tensor<2x2xi32>) -> tensor<2x2xi32>\n"
    "  %c = \"stablehlo.collective_broadcast\"(%y) {replica_groups = dense<[[1, 3]]> : tensor<1x2xi64>}\n"
    "       : (tensor<2x2xi32>) -> tensor<2x2xi32>\n"
    "  %r = \"stablehlo.collective_reduce\"(%x) ({\n"
    "    ^bb0(%a: tensor<f32>, %e: tensor<f32>):\n"
    "      %m = stablehlo.add %a, %e : tensor<f32>\n"
    "      stablehlo.return %m : tensor<f32>\n"
    "  }) {replica_groups = dense<[[3, 0, 2]]> : tensor<1x3xi64>} : (tensor<3xf32>) -> tensor<3xf32>\n"
    "  return %p, %b, %c, %r : tensor<3xf32>, tensor<2x2xi32>, tensor<2x2xi32>, tensor<3xf32>\n"
    "}\n";

/* replica 0 sends two messages on channel 7, replica 3 receives them;
   replica 1 sends one on channel 2, replica 2 receives it */
static const char *const send_recv =
    "func.func @main(%x: tensor<4xf32>, %n: tensor<i32>) -> (tensor<4xf32>, tensor<i32>, tensor<ui32>) {\n"
    "  %id = stablehlo.replica_id : tensor<ui32>\n"
    "  %k = stablehlo.convert %id : (tensor<ui32>) -> tensor<i32>\n"
    "  %r:2 = \"stablehlo.case\"(%k) ({\n"
    "    %t = stablehlo.create_token : !stablehlo.token\n"
    "    %t1 = \"stablehlo.send\"(%x, %t) {channel_handle = #stablehlo.channel_handle<handle = 7, type = 1>}\n"
    "          : (tensor<4xf32>, !stablehlo.token) -> !stablehlo.token\n"
    "    %y = stablehlo.negate %x : tensor<4xf32>\n"
    "    %t2 = \"stablehlo.send\"(%y, %n, %t1) {channel_handle = #stablehlo.channel_handle<handle = 7, type = 1>}\n"
    "          : (tensor<4xf32>, tensor<i32>, !stablehlo.token) -> !stablehlo.token\n"
    "    stablehlo.return %x, %n : tensor<4xf32>, tensor<i32>\n"
    "  }, {\n"
    "    %t = stablehlo.create_token : !stablehlo.token\n"
    "    %t1 = \"stablehlo.send\"(%x, %t) {channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>}\n"
    "          : (tensor<4xf32>, !stablehlo.token) -> !stablehlo.token\n"
    "    stablehlo.return %x, %n : tensor<4xf32>, tensor<i32>\n"
    "  }, {\n"
    "    %t = stablehlo.create_token : !stablehlo.token\n"
    "    %a, %t1 = \"stablehlo.recv\"(%t) {channel_handle = #stablehlo.channel_handle<handle = 2, type = 1>}\n"
    "              : (!stablehlo.token) -> (tensor<4xf32>, !stablehlo.token)\n"
    "    stablehlo.return %a, %n : tensor<4xf32>, tensor<i32>\n"
    "  }, {\n"
    "    %t = stablehlo.create_token : !stablehlo.token\n"
    "    %a, %t1 = \"stablehlo.recv\"(%t) {channel_handle = #stablehlo.channel_handle<handle = 7, type = 1>}\n"
    "              : (!stablehlo.token) -> (tensor<4xf32>, !stablehlo.token)\n"
    "    %b, %m, %t2 = \"stablehlo.recv\"(%t1) {channel_handle = #stablehlo.channel_handle<handle = 7, type = 1>}\n"
    "              : (!stablehlo.token) -> (tensor<4xf32>, tensor<i32>, !stablehlo.token)\n"
    "    %s = stablehlo.add %a, %b : tensor<4xf32>\n"
    "    %s2 = stablehlo.add %s, %a : tensor<4xf32>\n"
    "    stablehlo.return %s2, %m : tensor<4xf32>, tensor<i32>\n"
    "  }) : (tensor<i32>) -> (tensor<4xf32>, tensor<i32>)\n"
    "  return %r#0, %r#1, %id : tensor<4xf32>, tensor<i32>, tensor<ui32>\n"
    "}\n";

/* an all_reduce in a loop: the n-th meeting matches the n-th */
static const char *const loop =
    "func.func @main(%x: tensor<16xf32>) -> tensor<16xf32> {\n"
    "  %zero = stablehlo.constant dense<0> : tensor<i32>\n"
    "  %one = stablehlo.constant dense<1> : tensor<i32>\n"
    "  %n = stablehlo.constant dense<5> : tensor<i32>\n"
    "  %q = stablehlo.constant dense<0.25> : tensor<16xf32>\n"
    "  %r:2 = stablehlo.while(%i = %zero, %v = %x) : tensor<i32>, tensor<16xf32>\n"
    "  cond {\n"
    "    %c = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
    "    stablehlo.return %c : tensor<i1>\n"
    "  } do {\n"
    "    %s = \"stablehlo.all_reduce\"(%v) ({\n"
    "      ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
    "        %t = stablehlo.add %a, %b : tensor<f32>\n"
    "        stablehlo.return %t : tensor<f32>\n"
    "    }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<16xf32>) -> tensor<16xf32>\n"
    "    %w = stablehlo.multiply %s, %q : tensor<16xf32>\n"
    "    %j = stablehlo.add %i, %one : tensor<i32>\n"
    "    stablehlo.return %j, %w : tensor<i32>, tensor<16xf32>\n"
    "  }\n"
    "  return %r#1 : tensor<16xf32>\n"
    "}\n";

/* rank 0 passes 4 floats to an all_reduce, the others 5 */
static const char *const mismatch_4 =
    "func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
    "  %r = \"stablehlo.all_reduce\"(%x) ({\n"
    "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
    "      %s = stablehlo.add %a, %b : tensor<f32>\n"
    "      stablehlo.return %s : tensor<f32>\n"
    "  }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<4xf32>) -> tensor<4xf32>\n"
    "  return %r : tensor<4xf32>\n"
    "}\n";
static const char *const mismatch_5 =
    "func.func @main(%x: tensor<5xf32>) -> tensor<5xf32> {\n"
    "  %r = \"stablehlo.all_reduce\"(%x) ({\n"
    "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
    "      %s = stablehlo.add %a, %b : tensor<f32>\n"
    "      stablehlo.return %s : tensor<f32>\n"
    "  }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<5xf32>) -> tensor<5xf32>\n"
    "  return %r : tensor<5xf32>\n"
    "}\n";

/* replica 1's host function fails before the all_reduce the others wait
   in (interpreted: the run stops at the failing op) */
static const char *const one_fails =
    "func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
    "  %y = stablehlo.custom_call @test.fail_on_replica_1(%x) {api_version = 2 : i32} : (tensor<4xf32>) -> "
    "tensor<4xf32>\n"
    "  %r = \"stablehlo.all_reduce\"(%y) ({\n"
    "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
    "      %s = stablehlo.add %a, %b : tensor<f32>\n"
    "      stablehlo.return %s : tensor<f32>\n"
    "  }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<4xf32>) -> tensor<4xf32>\n"
    "  return %r : tensor<4xf32>\n"
    "}\n";

/* compiled: replica 1 receives what replica 0 sends as the wrong type,
   which ends its execution before the all_reduce */
static const char *const recv_fails =
    "func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
    "  %id = stablehlo.replica_id : tensor<ui32>\n"
    "  %k = stablehlo.convert %id : (tensor<ui32>) -> tensor<i32>\n"
    "  %y = \"stablehlo.case\"(%k) ({\n"
    "    %t = stablehlo.create_token : !stablehlo.token\n"
    "    %t1 = \"stablehlo.send\"(%x, %t) {channel_handle = #stablehlo.channel_handle<handle = 9, type = 1>}\n"
    "          : (tensor<4xf32>, !stablehlo.token) -> !stablehlo.token\n"
    "    stablehlo.return %x : tensor<4xf32>\n"
    "  }, {\n"
    "    %t = stablehlo.create_token : !stablehlo.token\n"
    "    %a, %t1 = \"stablehlo.recv\"(%t) {channel_handle = #stablehlo.channel_handle<handle = 9, type = 1>}\n"
    "              : (!stablehlo.token) -> (tensor<4xi32>, !stablehlo.token)\n"
    "    %f = stablehlo.convert %a : (tensor<4xi32>) -> tensor<4xf32>\n"
    "    stablehlo.return %f : tensor<4xf32>\n"
    "  }, {\n"
    "    stablehlo.return %x : tensor<4xf32>\n"
    "  }) : (tensor<i32>) -> tensor<4xf32>\n"
    "  %r = \"stablehlo.all_reduce\"(%y) ({\n"
    "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
    "      %s = stablehlo.add %a, %b : tensor<f32>\n"
    "      stablehlo.return %s : tensor<f32>\n"
    "  }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<4xf32>) -> tensor<4xf32>\n"
    "  return %r : tensor<4xf32>\n"
    "}\n";

static xlac_status *fail_on_replica_1(void *user, const xlac_ffi_call *call) {
  if (call->replica_id == 1) return xlac_status_create(XLAC_INTERNAL, "replica 1 fails on purpose");
  size_t n = 1;
  for (int k = 0; k < call->args[0].rank; k++) n *= (size_t)call->args[0].dims[k];
  memcpy(call->results[0].data, call->args[0].data, n * 4);
  return NULL;
}

static char *read_text(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *t = malloc((size_t)n + 1);
  if (t && fread(t, 1, (size_t)n, f) != (size_t)n) {
    free(t);
    t = NULL;
  }
  if (t) t[n] = 0;
  fclose(f);
  return t;
}

static int make_clients(Clients *cl, int num_partitions) {
  xlac_client_options ro = {.struct_size = sizeof ro, .num_replicas = NR / num_partitions,
                            .num_partitions = num_partitions, .num_threads = 1,
                            .backend = XLAC_BACKEND_INTERPRETER};
  memset(cl, 0, sizeof *cl);
  cl->ndev_ref = NR;
  int good = ok(xlac_client_create(&ro, &cl->ref), "creating the in-process client");
  for (int b = 0; b < 2; b++) {
    xlac_client_options o = {.struct_size = sizeof o, .num_partitions = num_partitions, .num_threads = 1,
                             .backend = b ? XLAC_BACKEND_INTERPRETER : XLAC_BACKEND_CPU};
    good &= ok(xlac_mpi_client_create(&o, &cl->mpi[b]), "creating an MPI client");
  }
  if (!good) return 0;
  xlac_device *d;
  xlac_device_info info = {.struct_size = sizeof info};
  if (!ok(xlac_client_device(cl->mpi[0], 0, &d), "device") || !ok(xlac_device_info_get(d, &info), "device info"))
    return 0;
  cl->replica = info.replica * num_partitions + info.partition; /* the device of the in-process grid */
  if (xlac_client_device_count(cl->mpi[0]) != 1) FAIL("an MPI client has %d devices", xlac_client_device_count(cl->mpi[0]));
  if (rank >= 0 && cl->replica != rank) FAIL("rank %d runs as process %d (%s)", rank, cl->replica, info.description);
  return 1;
}

static void free_clients(Clients *cl) {
  xlac_client_destroy(cl->ref);
  xlac_client_destroy(cl->mpi[0]);
  xlac_client_destroy(cl->mpi[1]);
}

/* Runs a program expected to fail on every rank; its message must contain
   want (on this rank). */
static void expect_failure(xlac_client *c, const char *text, const char *name, const char *want) {
  xlac_executable *e = compile(c, text, NULL, name);
  if (!e) return;
  Run got = {0};
  xlac_status *s = run_exe(c, e, 1, rank, &got);
  if (!s) {
    FAIL("%s: the execution succeeded", name);
  } else {
    if (!strstr(xlac_status_message(s), want))
      FAIL("%s: the error is \"%s\", expected one with \"%s\"", name, xlac_status_message(s), want);
    else
      checked++;
    xlac_status_destroy(s);
  }
  run_free(&got);
  xlac_executable_destroy(e);
}

static int ranks_main(void) {
  Clients cl;
  if (!make_clients(&cl, 1)) return 1;
  rank = cl.replica;
  check(&cl, "all_reduce sum f32", sum_f32, NULL);
  check(&cl, "all_reduce sum i32, max f32", sum_i32_max_f32, NULL);
  check(&cl, "all_reduce groups, variadic", groups_variadic, NULL);
  check(&cl, "all_reduce 1M f32", sum_large, NULL);
  check(&cl, "all_reduce split, uneven parts", split_uneven, NULL);
  check(&cl, "reduce_scatter split, rows", split_scatter, NULL);
  check(&cl, "all_gather, reduce_scatter", gather_scatter, NULL);
  check(&cl, "all_to_all", to_all, NULL);
  check(&cl, "collective_permute, collective_broadcast, collective_reduce", permute_broadcast, NULL);
  check(&cl, "send/recv, replica_id", send_recv, NULL);
  check(&cl, "all_reduce in a loop", loop, NULL);
  char *grid = read_text(XLAC_SOURCE_DIR "/tests/lit/run/collectives_grid.mlir");
  if (!grid) FAIL("cannot read tests/lit/run/collectives_grid.mlir");
  if (grid) {
    check(&cl, "collectives_grid.mlir @reduce_groups", grid, "reduce_groups");
    check(&cl, "collectives_grid.mlir @loop", grid, "loop");
  }

  /* errors of the API */
  xlac_executable *e = compile(cl.mpi[0], sum_f32, NULL, "sum_f32");
  xlac_buffer *none[1] = {NULL};
  xlac_buffer *const *argv[4] = {none, none, none, none};
  xlac_buffer **resv[4] = {none, none, none, none};
  xlac_status *s = xlac_executable_execute(e, 4, argv, NULL, resv);
  if (!s || !strstr(xlac_status_message(s), "runs on 1")) FAIL("4 devices on an MPI client: %s", xlac_status_message(s));
  xlac_status_destroy(s);
  xlac_executable_destroy(e);
  xlac_compile_options two = {.struct_size = sizeof two, .num_replicas = 2};
  s = xlac_compile_text(cl.mpi[0], sum_f32, strlen(sum_f32), &two, &e);
  if (!s || !strstr(xlac_status_message(s), "the client has 4")) FAIL("compiling for 2 replicas: %s", xlac_status_message(s));
  xlac_status_destroy(s);

  /* operands that differ between ranks: everybody fails, and goes on */
  for (int b = 0; b < 2; b++) {
    expect_failure(cl.mpi[b], rank == 0 ? mismatch_4 : mismatch_5, "mismatched operands", "different");
    check(&cl, "all_reduce after a mismatch", sum_f32, NULL);
  }
  free_clients(&cl);

  /* a 2 x 2 set: replicas and partitions */
  if (make_clients(&cl, 2) && grid) {
    check(&cl, "collectives_grid.mlir @scatter_both (2x2)", grid, "scatter_both");
    check(&cl, "collectives_grid.mlir @gather_flat (2x2)", grid, "gather_flat");
    check(&cl, "collectives_grid.mlir @permute_partitions (2x2)", grid, "permute_partitions");
  }
  free_clients(&cl);
  free(grid);

  /* one rank fails while the others wait for it */
  ok(xlac_custom_call_register("test.fail_on_replica_1", fail_on_replica_1, NULL), "registering");
  for (int b = 0; b < 2; b++) {
    xlac_client *c;
    xlac_client_options o = {.struct_size = sizeof o, .num_threads = 1,
                             .backend = b ? XLAC_BACKEND_INTERPRETER : XLAC_BACKEND_CPU};
    if (!ok(xlac_mpi_client_create(&o, &c), "creating an MPI client")) continue;
    const char *mine = b ? "replica 1 fails on purpose" : "value 0 received has a different type";
    expect_failure(c, b ? one_fails : recv_fails, "replica 1 fails", rank == 1 ? mine : "replica 1 (MPI rank 1) failed");
    /* the others gave up waiting: the communicator is done, on every rank */
    expect_failure(c, sum_f32, "after a failure", "cannot be used any more");
    xlac_client_destroy(c);
  }

  ok(xlac_mpi_finalize(), "finalizing MPI");
  if (failures) {
    fprintf(stderr, "rank %d: %d failures\n", rank, failures);
    return 1;
  }
  printf("rank %d: %d checks passed\n", rank, checked);
  return 0;
}

int main(int argc, char **argv) {
  if (xlac_mpi_launched()) return ranks_main();
  /* started on its own: run as 4 ranks */
  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) {
    fprintf(stderr, "test_mpi: cannot find its own executable\n");
    return 1;
  }
  self[n] = 0;
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    char *args[] = {XLAC_SOURCE_DIR "/scripts/mpirun.sh", "-np", "4", self, NULL};
    execv(args[0], args);
    perror("test_mpi: scripts/mpirun.sh");
    _exit(127);
  }
  int st = 0;
  if (pid < 0 || waitpid(pid, &st, 0) < 0) {
    perror("test_mpi");
    return 1;
  }
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    fprintf(stderr, "test_mpi: 4 ranks under mpirun failed\n");
    return 1;
  }
  printf("test_mpi: 4 ranks passed\n");
  return 0;
}
#endif
