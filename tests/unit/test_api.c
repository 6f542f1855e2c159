/* test_api.c - the public C API (include/xlac/xlac.h) as a user sees it:
   clients and devices, programs, compiling, buffers of every element type,
   executing on one device and on a grid, donation, cancellation, and the
   errors bad arguments get.  Uses nothing but the public header. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_util.h"
#include "xlac/xlac.h"

static const char axpy[] =
    "func.func @main(%alpha: tensor<f32>, %x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {\n"
    "  %0 = stablehlo.broadcast_in_dim %alpha, dims = [] : (tensor<f32>) -> tensor<4xf32>\n"
    "  %1 = stablehlo.multiply %0, %x : tensor<4xf32>\n"
    "  %2 = stablehlo.add %1, %y : tensor<4xf32>\n"
    "  func.return %2 : tensor<4xf32>\n"
    "}\n";

/* A status that must be an error: its code, and a message containing `part`. */
static void expect_error(xlac_status *s, xlac_code code, const char *part, int line) {
  if (!s) {
    test_failed++;
    fprintf(stderr, "test_api.c:%d: expected an error containing \"%s\", got success\n", line, part);
    return;
  }
  if (xlac_status_code(s) != code || !strstr(xlac_status_message(s), part)) {
    test_failed++;
    fprintf(stderr, "test_api.c:%d: expected code %d with \"%s\", got code %d: %s\n", line, code, part,
            xlac_status_code(s), xlac_status_message(s));
  } else {
    test_passed++;
  }
  xlac_status_destroy(s);
}
#define EXPECT_ERROR(s, code, part) expect_error((s), (code), (part), __LINE__)

static void expect_ok(xlac_status *s, int line) {
  if (s) {
    test_failed++;
    fprintf(stderr, "test_api.c:%d: unexpected error: %s\n", line, xlac_status_message(s));
    xlac_status_destroy(s);
  } else {
    test_passed++;
  }
}
#define EXPECT_OK(s) expect_ok((s), __LINE__)

static xlac_buffer *f32_buffer(xlac_client *c, int dev, const float *v, int64_t n, int rank) {
  xlac_buffer *b = NULL;
  int64_t dims[1] = {n};
  EXPECT_OK(xlac_buffer_from_host(c, dev, XLAC_F32, dims, rank, v, sizeof(float) * (size_t)n, 0, &b));
  return b;
}

static void test_axpy(xlac_backend backend) {
  xlac_client_options co = {.struct_size = sizeof co};
  co.backend = backend;
  co.num_threads = 2;
  xlac_client *c = NULL;
  EXPECT_OK(xlac_client_create(&co, &c));
  CHECK_EQ_I(xlac_client_device_count(c), 1);
  xlac_device *d = NULL;
  EXPECT_OK(xlac_client_device(c, 0, &d));
  xlac_device_info info = {.struct_size = sizeof info};
  EXPECT_OK(xlac_device_info_get(d, &info));
  CHECK_EQ_I(info.id, 0);
  CHECK_STR(info.kind, backend == XLAC_BACKEND_CPU ? "cpu" : "interpreter");

  xlac_executable *e = NULL;
  EXPECT_OK(xlac_compile_text(c, axpy, sizeof axpy - 1, NULL, &e));
  CHECK_EQ_I(xlac_executable_num_args(e), 3);
  CHECK_EQ_I(xlac_executable_num_results(e), 1);
  xlac_shape sh;
  EXPECT_OK(xlac_executable_arg_shape(e, 1, &sh));
  CHECK_EQ_I(sh.type, XLAC_F32);
  CHECK_EQ_I(sh.rank, 1);
  CHECK_EQ_I(sh.dims[0], 4);
  CHECK_STR(sh.name, "x");
  CHECK_EQ_I(xlac_executable_arg_index(e, "%y"), 2);
  CHECK_EQ_I(xlac_executable_arg_index(e, "nope"), -1);
  xlac_executable_stats st = {.struct_size = sizeof st};
  EXPECT_OK(xlac_executable_stats_get(e, &st));
  CHECK_EQ_I(st.arg_bytes, 36);
  CHECK_EQ_I(st.result_bytes, 16);
  if (backend == XLAC_BACKEND_CPU) {
    CHECK_EQ_I(st.interpreted_ops, 0);
    /* the phases of a compile (not a cache hit): each taken, none more than the whole */
    double phases = st.passes_ms + st.ir_ms + st.llvm_opt_ms + st.machine_ms;
    if (st.cache != XLAC_CACHE_HIT) CHECK(st.llvm_opt_ms > 0 && st.machine_ms > 0 && phases <= st.compile_ms + 1e-6);
  }

  float alpha = 2, x[4] = {1, 2, 3, 4}, y[4] = {10, 20, 30, 40}, out[4] = {0};
  xlac_buffer *args[3] = {f32_buffer(c, 0, &alpha, 1, 0), f32_buffer(c, 0, x, 4, 1), f32_buffer(c, 0, y, 4, 1)};
  xlac_buffer *res[1] = {NULL};
  EXPECT_OK(xlac_executable_run(e, args, 3, res));
  EXPECT_OK(xlac_buffer_to_host(res[0], out, sizeof out, 0));
  CHECK_EQ_F(out[0], 12);
  CHECK_EQ_F(out[3], 48);
  EXPECT_OK(xlac_buffer_shape(res[0], &sh));
  CHECK_EQ_I(sh.rank, 1);
  CHECK_EQ_I(xlac_buffer_host_size(res[0], 0), 16);

  /* wrong argument shapes, counts, handles */
  xlac_buffer *bad[3] = {args[0], args[0], args[2]};
  xlac_buffer *res2[1] = {NULL};
  EXPECT_ERROR(xlac_executable_run(e, bad, 3, res2), XLAC_INVALID_ARGUMENT,
               "argument 1 (%x) of device 0 is tensor<f32>, the program takes tensor<4xf32>");
  CHECK(res2[0] == NULL);
  EXPECT_ERROR(xlac_executable_run(e, args, 2, res2), XLAC_INVALID_ARGUMENT, "2 arguments given, the program takes 3");
  xlac_buffer *nul[3] = {args[0], NULL, args[2]};
  EXPECT_ERROR(xlac_executable_run(e, nul, 3, res2), XLAC_INVALID_ARGUMENT, "argument 1 of device 0 is NULL");
  EXPECT_ERROR(xlac_executable_run(NULL, args, 3, res2), XLAC_INVALID_ARGUMENT, "not an executable");
  EXPECT_ERROR(xlac_buffer_to_host(res[0], out, 3, 0), XLAC_INVALID_ARGUMENT, "3 bytes given, the buffer needs 16");

  /* the printed optimized program parses back */
  char *text = NULL;
  EXPECT_OK(xlac_executable_print(e, XLAC_FORMAT_HLO, &text, NULL));
  CHECK(text && strstr(text, "ENTRY"));
  xlac_program *p = NULL;
  EXPECT_OK(xlac_program_parse(text, strlen(text), "optimized", &p));
  xlac_free(text);
  xlac_program_destroy(p);

  for (int i = 0; i < 3; i++) xlac_buffer_destroy(args[i]);
  xlac_buffer_destroy(res[0]);
  xlac_executable_destroy(e);
  xlac_client_destroy(c);
}

/* xlac_compile_options.profile: a loop of 5 steps run 3 times; the ops
   in its body are counted once per step, the loop once per execution. */
static void test_profile(void) {
  static const char prog[] =
      "func.func @main(%x: tensor<64xf32>) -> tensor<64xf32> {\n"
      "  %c0 = stablehlo.constant dense<0> : tensor<i32>\n"
      "  %c1 = stablehlo.constant dense<1> : tensor<i32>\n"
      "  %c5 = stablehlo.constant dense<5> : tensor<i32>\n"
      "  %r:2 = stablehlo.while(%i = %c0, %v = %x) : tensor<i32>, tensor<64xf32>\n"
      "    cond {\n"
      "      %p = stablehlo.compare LT, %i, %c5 : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
      "      stablehlo.return %p : tensor<i1>\n"
      "    } do {\n"
      "      %n = stablehlo.add %i, %c1 : tensor<i32>\n"
      "      %e = stablehlo.exponential %v : tensor<64xf32>\n"
      "      %w = stablehlo.sine %e : tensor<64xf32>\n"
      "      stablehlo.return %n, %w : tensor<i32>, tensor<64xf32>\n"
      "    }\n"
      "  %s = stablehlo.multiply %r#1, %r#1 : tensor<64xf32>\n"
      "  return %s : tensor<64xf32>\n"
      "}\n";
  xlac_client_options co = {.struct_size = sizeof co};
  co.backend = XLAC_BACKEND_CPU;
  co.num_threads = 1;
  xlac_client *c = NULL;
  EXPECT_OK(xlac_client_create(&co, &c));
  xlac_executable *plain = NULL, *e = NULL;
  EXPECT_OK(xlac_compile_text(c, prog, sizeof prog - 1, NULL, &plain));
  char *text = NULL;
  EXPECT_ERROR(xlac_executable_profile(plain, 0, 0, &text, NULL), XLAC_FAILED_PRECONDITION,
               "not compiled by the cpu backend with xlac_compile_options.profile");
  CHECK(text == NULL);
  xlac_compile_options o = {.struct_size = sizeof o};
  o.profile = 1;
  EXPECT_OK(xlac_compile_text(c, prog, sizeof prog - 1, &o, &e));
  float x[64] = {0};
  xlac_buffer *arg = f32_buffer(c, 0, x, 64, 1);
  for (int k = 0; k < 3; k++) {
    xlac_buffer *res[1] = {NULL};
    EXPECT_OK(xlac_executable_run(e, &arg, 1, res));
    xlac_buffer_destroy(res[0]);
  }
  size_t len = 0;
  EXPECT_OK(xlac_executable_profile(e, 0, 1, &text, &len));
  CHECK(text && len == strlen(text));
  CHECK(text && strstr(text, "profile: 3 executions"));
  /* the loop: once per execution; its body's ops (one fused kernel or
     more) 5 times per execution, marked as inside */
  CHECK(text && strstr(text, "        1  ") && strstr(text, "while"));
  CHECK(text && strstr(text, "        5  ") && strstr(text, "> "));
  xlac_free(text);
  /* reset: the totals start again */
  EXPECT_OK(xlac_executable_profile(e, 2, 0, &text, NULL));
  CHECK(text && strstr(text, "profile: 0 executions"));
  xlac_free(text);
  xlac_buffer_destroy(arg);
  xlac_executable_destroy(e);
  xlac_executable_destroy(plain);
  xlac_client_destroy(c);
}

/* xlac_client_options.flush_denormals: denormal results and operands
   are zeros in compiled code; the caller's floating-point mode is put
   back after the execution. */
static void test_flush_denormals(void) {
  static const char prog[] =
      "func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {\n"
      "  %m = stablehlo.multiply %x, %y : tensor<4xf32>\n"
      "  return %m : tensor<4xf32>\n"
      "}\n";
  for (int flush = 0; flush < 2; flush++) {
    xlac_client_options co = {.struct_size = sizeof co};
    co.backend = XLAC_BACKEND_CPU;
    co.num_threads = 2;
    co.flush_denormals = flush;
    xlac_client *c = NULL;
    EXPECT_OK(xlac_client_create(&co, &c));
    xlac_executable *e = NULL;
    EXPECT_OK(xlac_compile_text(c, prog, sizeof prog - 1, NULL, &e));
    float x[4] = {1e-37f, 1e-40f, 2, 1e-37f}, y[4] = {0.01f, 1000, 3, 1}, out[4] = {0};
    xlac_buffer *args[2] = {f32_buffer(c, 0, x, 4, 1), f32_buffer(c, 0, y, 4, 1)};
    xlac_buffer *res[1] = {NULL};
#if defined(__x86_64__)
    unsigned before = __builtin_ia32_stmxcsr();
#endif
    EXPECT_OK(xlac_executable_run(e, args, 2, res));
#if defined(__x86_64__)
    CHECK_EQ_I(__builtin_ia32_stmxcsr() & 0x8040u, before & 0x8040u);
#endif
    EXPECT_OK(xlac_buffer_to_host(res[0], out, sizeof out, 0));
    CHECK_EQ_F(out[2], 6);
    CHECK_EQ_F(out[3], 1e-37f);
#if defined(__x86_64__)
    CHECK(flush ? out[0] == 0 && out[1] == 0 : out[0] > 0 && out[1] > 9e-38f);
#endif
    for (int i = 0; i < 2; i++) xlac_buffer_destroy(args[i]);
    xlac_buffer_destroy(res[0]);
    xlac_executable_destroy(e);
    xlac_client_destroy(c);
  }
}

static void test_errors(void) {
  xlac_client *c = NULL;
  EXPECT_ERROR(xlac_client_create(NULL, NULL), XLAC_INVALID_ARGUMENT, "out_client is NULL");
  xlac_client_options co = {.struct_size = sizeof co};
  co.backend = (xlac_backend)7;
  EXPECT_ERROR(xlac_client_create(&co, &c), XLAC_INVALID_ARGUMENT, "unknown backend 7");
  CHECK(c == NULL);
  co.backend = XLAC_BACKEND_CPU;
  co.num_threads = 100000;
  EXPECT_ERROR(xlac_client_create(&co, &c), XLAC_INVALID_ARGUMENT, "100000 threads (at most 1024)");
  CHECK(c == NULL);
  /* a device of a destroyed client is refused without being read (its
     memory is gone: AddressSanitizer would report a read) */
  {
    xlac_client *c2 = NULL;
    xlac_device *d2 = NULL;
    EXPECT_OK(xlac_client_create(NULL, &c2));
    EXPECT_OK(xlac_client_device(c2, 0, &d2));
    xlac_client_destroy(c2);
    xlac_device_info info = {.struct_size = sizeof info};
    EXPECT_ERROR(xlac_device_info_get(d2, &info), XLAC_FAILED_PRECONDITION, "not a device of a live client");
  }
  EXPECT_OK(xlac_client_create(NULL, &c));
  xlac_executable *e = NULL;
  /* bad program text: file:line:col, the source line and a caret */
  static const char broken[] = "func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
                               "  %0 = stablehlo.add %x, %x : tensor<5xf32>\n"
                               "  func.return %0 : tensor<4xf32>\n}\n";
  xlac_status *s = xlac_compile_text(c, broken, sizeof broken - 1, NULL, &e);
  CHECK(s && xlac_status_code(s) == XLAC_INVALID_ARGUMENT);
  CHECK(s && strstr(xlac_status_message(s), "<input>:2:"));
  CHECK(s && strstr(xlac_status_message(s), "^"));
  xlac_status_destroy(s);
  CHECK(e == NULL);
  EXPECT_ERROR(xlac_compile_text(c, "garbage(", 8, NULL, &e), XLAC_INVALID_ARGUMENT, "<input>:1:");
  EXPECT_ERROR(xlac_compile_file(c, "/nonexistent/model.mlir", NULL, &e), XLAC_NOT_FOUND, "/nonexistent/model.mlir");
  xlac_compile_options o = {.struct_size = sizeof o};
  o.entry = "nothere";
  EXPECT_ERROR(xlac_compile_text(c, axpy, sizeof axpy - 1, &o, &e), XLAC_NOT_FOUND, "no function @nothere (it has @main)");
  o.entry = NULL;
  o.xla_flags = "--xla_bogus=1";
  EXPECT_ERROR(xlac_compile_text(c, axpy, sizeof axpy - 1, &o, &e), XLAC_INVALID_ARGUMENT, "unknown flag '--xla_bogus=1'");
  /* a compile that succeeds with warnings returns them with the
     executable (the library prints nothing) */
  {
    char dir[] = "/tmp/xlac-test-api-dump.XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char flags[128];
    snprintf(flags, sizeof flags, "--xla_dump_to=%s --xla_dump_hlo_pass_re=(", dir);
    o.xla_flags = flags;
    EXPECT_OK(xlac_compile_text(c, axpy, sizeof axpy - 1, &o, &e));
    xlac_executable_stats st = {.struct_size = sizeof st};
    EXPECT_OK(xlac_executable_stats_get(e, &st));
    CHECK(st.warnings && strstr(st.warnings, "warning: --xla_dump_hlo_pass_re: bad regular expression '('"));
    xlac_executable_destroy(e);
    e = NULL;
    o.xla_flags = NULL;
    EXPECT_OK(xlac_compile_text(c, axpy, sizeof axpy - 1, &o, &e));
    EXPECT_OK(xlac_executable_stats_get(e, &st));
    CHECK(st.warnings && !*st.warnings);
    xlac_executable_destroy(e);
    e = NULL;
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
  }

  /* buffers */
  xlac_buffer *b = NULL;
  int64_t dims[2] = {2, 3};
  float v[6] = {0};
  EXPECT_ERROR(xlac_buffer_from_host(c, 0, XLAC_F32, dims, 2, v, 20, 0, &b), XLAC_INVALID_ARGUMENT,
               "20 bytes given, the f32 shape needs 24");
  EXPECT_ERROR(xlac_buffer_from_host(c, 1, XLAC_F32, dims, 2, v, 24, 0, &b), XLAC_INVALID_ARGUMENT,
               "device 1 does not exist");
  EXPECT_ERROR(xlac_buffer_from_host(c, 0, (xlac_type)99, dims, 2, v, 24, 0, &b), XLAC_INVALID_ARGUMENT,
               "unknown element type 99");
  int64_t neg[1] = {-2};
  EXPECT_ERROR(xlac_buffer_from_host(c, 0, XLAC_F32, neg, 1, v, 24, 0, &b), XLAC_INVALID_ARGUMENT, "negative");
  EXPECT_ERROR(xlac_buffer_from_host(c, 0, XLAC_F32, NULL, 2, v, 24, 0, &b), XLAC_INVALID_ARGUMENT, "dims is NULL");
  float *unaligned = (float *)((char *)aligned_alloc(64, 128) + 4);
  EXPECT_ERROR(xlac_buffer_from_host(c, 0, XLAC_F32, dims, 2, unaligned, 24, XLAC_HOST_ZERO_COPY, &b),
               XLAC_INVALID_ARGUMENT, "64-byte aligned");
  free((char *)unaligned - 4);
  CHECK(b == NULL);
  EXPECT_ERROR(xlac_buffer_to_host(NULL, v, 24, 0), XLAC_INVALID_ARGUMENT, "the buffer is NULL");

  /* a destroyed client: its handle is refused; its executables fail */
  EXPECT_OK(xlac_compile_text(c, axpy, sizeof axpy - 1, NULL, &e));
  float one = 1, x[4] = {1, 2, 3, 4};
  xlac_buffer *args[3] = {f32_buffer(c, 0, &one, 1, 0), f32_buffer(c, 0, x, 4, 1), f32_buffer(c, 0, x, 4, 1)};
  xlac_client_destroy(c);
  CHECK_EQ_I(xlac_client_device_count(c), 0);
  xlac_executable *e2 = NULL;
  EXPECT_ERROR(xlac_compile_text(c, axpy, sizeof axpy - 1, NULL, &e2), XLAC_FAILED_PRECONDITION, "not a live client");
  xlac_buffer *res[1] = {NULL};
  EXPECT_ERROR(xlac_executable_run(e, args, 3, res), XLAC_FAILED_PRECONDITION, "the client was destroyed");
  for (int i = 0; i < 3; i++) xlac_buffer_destroy(args[i]);
  xlac_executable_destroy(e);
  xlac_client_destroy(c); /* a second destroy is harmless */
}

/* Every element type round-trips through a buffer, and the packed layout
   of the 2- and 4-bit types unpacks to sign-/zero-extended bytes. */
static void test_types(void) {
  xlac_client *c = NULL;
  EXPECT_OK(xlac_client_create(NULL, &c));
  for (int t = 0; t < XLAC_TOKEN; t++) {
    size_t eb = xlac_type_host_bytes((xlac_type)t);
    CHECK(eb > 0 && xlac_type_name((xlac_type)t));
    unsigned char in[48], out[48];
    for (size_t i = 0; i < 3 * eb; i++) in[i] = (unsigned char)(i & (xlac_type_bits((xlac_type)t) < 8 ? 1 : 0x7f));
    int64_t dims[1] = {3};
    xlac_buffer *b = NULL;
    EXPECT_OK(xlac_buffer_from_host(c, 0, (xlac_type)t, dims, 1, in, 3 * eb, 0, &b));
    EXPECT_OK(xlac_buffer_to_host(b, out, sizeof out, 0));
    CHECK(memcmp(in, out, 3 * eb) == 0);
    xlac_buffer_destroy(b);
  }
  int64_t dims[1] = {5};
  unsigned char packed[3] = {0x9F, 0x27, 0x08}; /* s4: -1, -7, 7, 2, -8 */
  xlac_buffer *b = NULL;
  EXPECT_OK(xlac_buffer_from_host(c, 0, XLAC_S4, dims, 1, packed, 3, XLAC_HOST_PACKED, &b));
  signed char un[5];
  EXPECT_OK(xlac_buffer_to_host(b, un, sizeof un, 0));
  CHECK(un[0] == -1 && un[1] == -7 && un[2] == 7 && un[3] == 2 && un[4] == -8);
  unsigned char back[3];
  CHECK_EQ_I(xlac_buffer_host_size(b, XLAC_HOST_PACKED), 3);
  EXPECT_OK(xlac_buffer_to_host(b, back, 3, XLAC_HOST_PACKED));
  CHECK(memcmp(back, packed, 3) == 0);
  xlac_buffer_destroy(b);
  unsigned char u2 = 0xE4; /* u2: 0, 1, 2, 3 */
  int64_t d4[1] = {4};
  EXPECT_OK(xlac_buffer_from_host(c, 0, XLAC_U2, d4, 1, &u2, 1, XLAC_HOST_PACKED, &b));
  unsigned char u2un[4];
  EXPECT_OK(xlac_buffer_to_host(b, u2un, 4, 0));
  CHECK(u2un[0] == 0 && u2un[1] == 1 && u2un[2] == 2 && u2un[3] == 3);
  xlac_buffer_destroy(b);
  /* zero-copy data must already be canonical */
  unsigned char *pred = aligned_alloc(64, 64);
  pred[0] = 1;
  pred[1] = 2;
  int64_t d2[1] = {2};
  EXPECT_ERROR(xlac_buffer_from_host(c, 0, XLAC_PRED, d2, 1, pred, 2, XLAC_HOST_ZERO_COPY, &b), XLAC_INVALID_ARGUMENT,
               "element 1 is 0x02, not a valid i1");
  free(pred);
  xlac_client_destroy(c);
}

/* Zero-copy arguments are read in place; a donated zero-copy argument
   receives the result in the caller's memory. */
static void test_zero_copy_and_donation(xlac_backend backend) {
  static const char step[] = "func.func @main(%p: tensor<16xf32>, %g: tensor<16xf32>) -> tensor<16xf32> {\n"
                             "  %lr = stablehlo.constant dense<0.5> : tensor<16xf32>\n"
                             "  %0 = stablehlo.multiply %lr, %g : tensor<16xf32>\n"
                             "  %1 = stablehlo.subtract %p, %0 : tensor<16xf32>\n"
                             "  func.return %1 : tensor<16xf32>\n}\n";
  xlac_client_options co = {.struct_size = sizeof co};
  co.backend = backend;
  xlac_client *c = NULL;
  EXPECT_OK(xlac_client_create(&co, &c));
  xlac_compile_options o = {.struct_size = sizeof o};
  int donate[1] = {0};
  o.donate_args = donate;
  o.num_donate_args = 1;
  xlac_executable *e = NULL;
  EXPECT_OK(xlac_compile_text(c, step, sizeof step - 1, &o, &e));
  xlac_executable_stats st = {.struct_size = sizeof st};
  EXPECT_OK(xlac_executable_stats_get(e, &st));
  CHECK_EQ_I(st.aliased_results, 1);
  /* an elementwise update: computed straight into p's storage */
  CHECK_EQ_I(st.in_place_results, backend == XLAC_BACKEND_CPU ? 1 : 0);
  float *p = aligned_alloc(64, 64 * sizeof(float)), g[16];
  for (int i = 0; i < 16; i++) p[i] = (float)i, g[i] = 2;
  int64_t dims[1] = {16};
  xlac_buffer *pb = NULL, *gb = NULL;
  EXPECT_OK(xlac_buffer_from_host(c, 0, XLAC_F32, dims, 1, p, sizeof(float) * 16, XLAC_HOST_ZERO_COPY, &pb));
  EXPECT_OK(xlac_buffer_from_host(c, 0, XLAC_F32, dims, 1, g, sizeof g, 0, &gb));
  xlac_buffer *args[2] = {pb, gb}, *res[1] = {NULL};
  /* plain run: p untouched, the result is new memory */
  EXPECT_OK(xlac_executable_run(e, args, 2, res));
  float out[16];
  EXPECT_OK(xlac_buffer_to_host(res[0], out, sizeof out, 0));
  CHECK_EQ_F(out[5], 4);
  CHECK_EQ_F(p[5], 5);
  xlac_buffer_destroy(res[0]);
  /* donated: the result lives in p's memory, and pb is consumed */
  xlac_execute_options eo = {.struct_size = sizeof eo};
  eo.donate_args = donate;
  eo.num_donate_args = 1;
  xlac_buffer *const *argv[1] = {args};
  xlac_buffer **resv[1] = {res};
  EXPECT_OK(xlac_executable_execute(e, 1, argv, &eo, resv));
  CHECK_EQ_F(p[5], 4);
  CHECK(xlac_buffer_is_donated(pb));
  EXPECT_ERROR(xlac_buffer_to_host(pb, out, sizeof out, 0), XLAC_FAILED_PRECONDITION, "donated");
  xlac_buffer *res2[1] = {NULL};
  EXPECT_ERROR(xlac_executable_run(e, args, 2, res2), XLAC_FAILED_PRECONDITION, "was donated");
  /* the next step donates the result: a training loop in place */
  args[0] = res[0];
  EXPECT_OK(xlac_executable_execute(e, 1, argv, &eo, resv));
  CHECK_EQ_F(p[5], 3);
  xlac_buffer_destroy(args[0]);
  xlac_buffer_destroy(pb);
  xlac_buffer_destroy(res[0]);
  xlac_buffer_destroy(gb);
  xlac_executable_destroy(e);
  xlac_client_destroy(c);
  free(p);
}

/* Donations the compiled code cannot do in place (the parameter is read
   at other indices, or after the result is written) still give the
   program's values: the result is copied into the donated storage. */
static void test_donation_not_in_place(void) {
  static const char *progs[] = {
      /* a transpose reads p[j][i] while writing r[i][j] */
      "func.func @main(%p: tensor<8x8xf32>) -> tensor<8x8xf32> {\n"
      "  %0 = stablehlo.transpose %p, dims = [1, 0] : (tensor<8x8xf32>) -> tensor<8x8xf32>\n"
      "  %1 = stablehlo.add %0, %p : tensor<8x8xf32>\n"
      "  func.return %1 : tensor<8x8xf32>\n}\n",
      /* p is read again after the first result is made */
      "func.func @main(%p: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<f32>) {\n"
      "  %0 = stablehlo.negate %p : tensor<8x8xf32>\n"
      "  %z = stablehlo.constant dense<0.0> : tensor<f32>\n"
      "  %1 = stablehlo.reduce(%p init: %z) applies stablehlo.add across dimensions = [0, 1]\n"
      "      : (tensor<8x8xf32>, tensor<f32>) -> tensor<f32>\n"
      "  func.return %0, %1 : tensor<8x8xf32>, tensor<f32>\n}\n",
      /* a training-like step: p - 0.5 * (p . p), the product read in full first */
      "func.func @main(%p: tensor<8x8xf32>) -> tensor<8x8xf32> {\n"
      "  %d = stablehlo.dot_general %p, %p, contracting_dims = [1] x [0] : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>\n"
      "  %h = stablehlo.constant dense<0.5> : tensor<8x8xf32>\n"
      "  %s = stablehlo.multiply %h, %d : tensor<8x8xf32>\n"
      "  %r = stablehlo.subtract %p, %s : tensor<8x8xf32>\n"
      "  func.return %r : tensor<8x8xf32>\n}\n",
  };
  xlac_client *c = NULL;
  EXPECT_OK(xlac_client_create(NULL, &c));
  for (int k = 0; k < 3; k++) {
    xlac_compile_options o = {.struct_size = sizeof o};
    int donate[1] = {0};
    o.donate_args = donate;
    o.num_donate_args = 1;
    xlac_executable *e = NULL;
    EXPECT_OK(xlac_compile_text(c, progs[k], strlen(progs[k]), &o, &e));
    xlac_executable_stats st = {.struct_size = sizeof st};
    EXPECT_OK(xlac_executable_stats_get(e, &st));
    CHECK_EQ_I(st.aliased_results, 1);
    if (k == 0) CHECK_EQ_I(st.in_place_results, 0); /* the transpose reads other indices */
    float p[64], out[64], sum = 0;
    for (int i = 0; i < 64; i++) p[i] = (float)i, sum += (float)i;
    int64_t dims[2] = {8, 8};
    xlac_buffer *b = NULL, *res[2] = {NULL, NULL};
    EXPECT_OK(xlac_buffer_from_host(c, 0, XLAC_F32, dims, 2, p, sizeof p, 0, &b));
    xlac_execute_options eo = {.struct_size = sizeof eo};
    eo.donate_args = donate;
    eo.num_donate_args = 1;
    xlac_buffer *const *argv[1] = {&b};
    xlac_buffer **resv[1] = {res};
    EXPECT_OK(xlac_executable_execute(e, 1, argv, &eo, resv));
    EXPECT_OK(xlac_buffer_to_host(res[0], out, sizeof out, 0));
    int bad = 0;
    for (int i = 0; i < 64; i++) {
      float want = k == 0 ? p[(i % 8) * 8 + i / 8] + p[i] : -p[i];
      if (k == 2) {
        float d = 0;
        for (int t = 0; t < 8; t++) d += p[(i / 8) * 8 + t] * p[t * 8 + i % 8];
        want = p[i] - 0.5f * d;
      }
      bad += k == 2 ? fabsf(out[i] - want) > 1e-3f * fabsf(want) + 1e-3f : out[i] != want;
    }
    CHECK_EQ_I(bad, 0);
    if (k == 1) {
      float s = 0;
      EXPECT_OK(xlac_buffer_to_host(res[1], &s, sizeof s, 0));
      CHECK_EQ_F(s, sum);
    }
    xlac_buffer_destroy(b);
    xlac_buffer_destroy(res[0]);
    xlac_buffer_destroy(res[1]);
    xlac_executable_destroy(e);
  }
  xlac_client_destroy(c);
}

/* 4 replicas in one client: an all_reduce over all of them. */
static void test_replicas(xlac_backend backend) {
  static const char prog[] =
      "func.func @main(%x: tensor<3xi32>) -> tensor<3xi32> {\n"
      "  %0 = \"stablehlo.all_reduce\"(%x) ({\n"
      "  ^bb0(%a: tensor<i32>, %b: tensor<i32>):\n"
      "    %s = stablehlo.add %a, %b : tensor<i32>\n"
      "    stablehlo.return %s : tensor<i32>\n"
      "  }) {replica_groups = dense<[[0, 1, 2, 3]]> : tensor<1x4xi64>} : (tensor<3xi32>) -> tensor<3xi32>\n"
      "  func.return %0 : tensor<3xi32>\n}\n";
  xlac_client_options co = {.struct_size = sizeof co};
  co.backend = backend;
  co.num_replicas = 4;
  xlac_client *c = NULL;
  EXPECT_OK(xlac_client_create(&co, &c));
  CHECK_EQ_I(xlac_client_device_count(c), 4);
  xlac_executable *e = NULL;
  EXPECT_OK(xlac_compile_text(c, prog, sizeof prog - 1, NULL, &e));
  xlac_buffer *bufs[4], *outs[4] = {0};
  xlac_buffer *const *argv[4];
  xlac_buffer **resv[4];
  for (int d = 0; d < 4; d++) {
    int32_t v[3] = {d, 10 * d, 100};
    int64_t dims[1] = {3};
    EXPECT_OK(xlac_buffer_from_host(c, d, XLAC_S32, dims, 1, v, sizeof v, 0, &bufs[d]));
    argv[d] = &bufs[d];
    resv[d] = &outs[d];
  }
  EXPECT_ERROR(xlac_executable_execute(e, 2, argv, NULL, resv), XLAC_INVALID_ARGUMENT,
               "2 devices given, the executable runs on 4");
  xlac_buffer *const *swapped[4] = {argv[1], argv[0], argv[2], argv[3]};
  EXPECT_ERROR(xlac_executable_execute(e, 4, swapped, NULL, resv), XLAC_INVALID_ARGUMENT,
               "argument 0 of device 0 is on client device 1, not 0");
  EXPECT_OK(xlac_executable_execute(e, 4, argv, NULL, resv));
  for (int d = 0; d < 4; d++) {
    int32_t r[3] = {0};
    EXPECT_OK(xlac_buffer_to_host(outs[d], r, sizeof r, 0));
    CHECK(r[0] == 6 && r[1] == 60 && r[2] == 400);
    CHECK_EQ_I(xlac_buffer_device(outs[d]), d);
    xlac_buffer_destroy(outs[d]);
    xlac_buffer_destroy(bufs[d]);
  }
  xlac_executable_destroy(e);
  xlac_client_destroy(c);
}

/* Executables of fewer devices than the client has, run on the devices
   xlac_execute_options.devices names. */
static void test_device_subsets(xlac_backend backend) {
  static const char prog[] =
      "func.func @main(%x: tensor<2xi32>) -> tensor<2xi32> {\n"
      "  %0 = \"stablehlo.all_reduce\"(%x) ({\n"
      "  ^bb0(%a: tensor<i32>, %b: tensor<i32>):\n"
      "    %s = stablehlo.add %a, %b : tensor<i32>\n"
      "    stablehlo.return %s : tensor<i32>\n"
      "  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>} : (tensor<2xi32>) -> tensor<2xi32>\n"
      "  %r = \"stablehlo.replica_id\"() : () -> tensor<ui32>\n"
      "  %c = stablehlo.convert %r : (tensor<ui32>) -> tensor<i32>\n"
      "  %b = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2xi32>\n"
      "  %1 = stablehlo.add %0, %b : tensor<2xi32>\n"
      "  func.return %1 : tensor<2xi32>\n}\n";
  xlac_client_options co = {.struct_size = sizeof co, .num_replicas = 4, .backend = backend};
  xlac_client *c = NULL;
  EXPECT_OK(xlac_client_create(&co, &c));
  xlac_compile_options too_many = {.struct_size = sizeof too_many, .num_replicas = 8};
  xlac_executable *e = NULL;
  EXPECT_ERROR(xlac_compile_text(c, prog, sizeof prog - 1, &too_many, &e), XLAC_INVALID_ARGUMENT,
               "8 replicas x 1 partitions = 8 devices, the client has 4");
  xlac_compile_options two = {.struct_size = sizeof two, .num_replicas = 2};
  EXPECT_OK(xlac_compile_text(c, prog, sizeof prog - 1, &two, &e));
  int64_t dims[1] = {2};
  int32_t v3[2] = {1, 2}, v1[2] = {10, 20};
  xlac_buffer *b3 = NULL, *b1 = NULL, *o[2] = {0};
  EXPECT_OK(xlac_buffer_from_host(c, 3, XLAC_S32, dims, 1, v3, sizeof v3, 0, &b3));
  EXPECT_OK(xlac_buffer_from_host(c, 1, XLAC_S32, dims, 1, v1, sizeof v1, 0, &b1));
  xlac_buffer *const *argv[2] = {&b3, &b1};
  xlac_buffer **resv[2] = {&o[0], &o[1]};
  /* without devices: replica 0 runs on device 0, where b3 is not */
  EXPECT_ERROR(xlac_executable_execute(e, 2, argv, NULL, resv), XLAC_INVALID_ARGUMENT,
               "argument 0 of device 0 is on client device 3, not 0");
  int dup[2] = {3, 3}, bad[2] = {3, 4}, devs[2] = {3, 1};
  xlac_execute_options eo = {.struct_size = sizeof eo, .devices = dup};
  EXPECT_ERROR(xlac_executable_execute(e, 2, argv, &eo, resv), XLAC_INVALID_ARGUMENT, "devices[1] = 3 is named twice");
  eo.devices = bad;
  EXPECT_ERROR(xlac_executable_execute(e, 2, argv, &eo, resv), XLAC_INVALID_ARGUMENT, "devices[1] = 4 is not a device");
  eo.devices = devs;
  EXPECT_OK(xlac_executable_execute(e, 2, argv, &eo, resv));
  int32_t r0[2] = {0}, r1[2] = {0};
  EXPECT_OK(xlac_buffer_to_host(o[0], r0, sizeof r0, 0));
  EXPECT_OK(xlac_buffer_to_host(o[1], r1, sizeof r1, 0));
  CHECK(r0[0] == 11 && r0[1] == 22 && r1[0] == 12 && r1[1] == 23);
  CHECK_EQ_I(xlac_buffer_device(o[0]), 3);
  CHECK_EQ_I(xlac_buffer_device(o[1]), 1);
  for (int i = 0; i < 2; i++) xlac_buffer_destroy(o[i]);
  xlac_buffer_destroy(b3);
  xlac_buffer_destroy(b1);
  xlac_executable_destroy(e);
  xlac_client_destroy(c);
}

/* ---- concurrency: one executable, many threads ---- */

typedef struct Worker {
  xlac_executable *e;
  xlac_buffer **args;
  int iters;
  int mismatches, errors;
  const float *expect;
} Worker;

static void *worker(void *arg) {
  Worker *w = arg;
  for (int i = 0; i < w->iters; i++) {
    xlac_buffer *res[1] = {NULL};
    xlac_status *s = xlac_executable_run(w->e, w->args, 3, res);
    if (s) {
      w->errors++;
      xlac_status_destroy(s);
      continue;
    }
    float out[256];
    s = xlac_buffer_to_host(res[0], out, sizeof out, 0);
    if (s || memcmp(out, w->expect, sizeof out) != 0) w->mismatches++;
    xlac_status_destroy(s);
    xlac_buffer_destroy(res[0]);
  }
  return NULL;
}

static void test_concurrency(int nthreads, int iters) {
  static const char prog[] =
      "func.func @main(%a: tensor<f32>, %x: tensor<256xf32>, %y: tensor<256xf32>) -> tensor<256xf32> {\n"
      "  %0 = stablehlo.broadcast_in_dim %a, dims = [] : (tensor<f32>) -> tensor<256xf32>\n"
      "  %1 = stablehlo.multiply %0, %x : tensor<256xf32>\n"
      "  %2 = stablehlo.tanh %1 : tensor<256xf32>\n"
      "  %3 = stablehlo.add %2, %y : tensor<256xf32>\n"
      "  func.return %3 : tensor<256xf32>\n}\n";
  xlac_client *c = NULL;
  EXPECT_OK(xlac_client_create(NULL, &c));
  xlac_executable *e = NULL;
  EXPECT_OK(xlac_compile_text(c, prog, sizeof prog - 1, NULL, &e));
  float a = 0.37f, x[256], y[256], expect[256];
  for (int i = 0; i < 256; i++) x[i] = (float)i / 17 - 7, y[i] = (float)(i % 5);
  xlac_buffer *args[3] = {f32_buffer(c, 0, &a, 1, 0), f32_buffer(c, 0, x, 256, 1), f32_buffer(c, 0, y, 256, 1)};
  xlac_buffer *res[1] = {NULL};
  EXPECT_OK(xlac_executable_run(e, args, 3, res));
  EXPECT_OK(xlac_buffer_to_host(res[0], expect, sizeof expect, 0));
  xlac_buffer_destroy(res[0]);
  Worker *w = calloc((size_t)nthreads, sizeof(Worker));
  pthread_t *th = calloc((size_t)nthreads, sizeof(pthread_t));
  for (int t = 0; t < nthreads; t++) {
    w[t] = (Worker){e, args, iters, 0, 0, expect};
    pthread_create(&th[t], NULL, worker, &w[t]);
  }
  int mism = 0, errs = 0;
  for (int t = 0; t < nthreads; t++) {
    pthread_join(th[t], NULL);
    mism += w[t].mismatches;
    errs += w[t].errors;
  }
  CHECK_EQ_I(errs, 0);
  CHECK_EQ_I(mism, 0);
  printf("concurrency: %d threads x %d executions, %d errors, %d mismatches\n", nthreads, iters, errs, mism);
  free(w);
  free(th);
  for (int i = 0; i < 3; i++) xlac_buffer_destroy(args[i]);
  xlac_executable_destroy(e);
  xlac_client_destroy(c);
}

/* A caller-supplied thread pool: every parallel loop goes through it. */
typedef struct MyPool {
  pthread_mutex_t mu;
  int scheduled;
} MyPool;

typedef struct Task {
  void (*fn)(void *);
  void *arg;
} Task;

static void *task_main(void *p) {
  Task *t = p;
  t->fn(t->arg);
  free(t);
  return NULL;
}

static void my_schedule(void *user, void (*fn)(void *), void *arg) {
  MyPool *mp = user;
  pthread_mutex_lock(&mp->mu);
  mp->scheduled++;
  pthread_mutex_unlock(&mp->mu);
  Task *t = malloc(sizeof *t);
  t->fn = fn;
  t->arg = arg;
  pthread_t th;
  pthread_create(&th, NULL, task_main, t);
  pthread_detach(th);
}

static void test_user_pool(void) {
  static const char prog[] = "func.func @main(%x: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {\n"
                             "  %0 = stablehlo.exponential %x : tensor<1024x1024xf32>\n"
                             "  func.return %0 : tensor<1024x1024xf32>\n}\n";
  MyPool mp = {PTHREAD_MUTEX_INITIALIZER, 0};
  xlac_thread_pool tp = {&mp, 3, my_schedule};
  xlac_client_options co = {.struct_size = sizeof co};
  co.thread_pool = &tp;
  xlac_client *c = NULL;
  EXPECT_OK(xlac_client_create(&co, &c));
  xlac_executable *e = NULL;
  EXPECT_OK(xlac_compile_text(c, prog, sizeof prog - 1, NULL, &e));
  float *x = calloc(1024 * 1024, sizeof(float)), *out = malloc(1024 * 1024 * sizeof(float));
  int64_t dims[2] = {1024, 1024};
  xlac_buffer *b = NULL, *r[1] = {NULL};
  EXPECT_OK(xlac_buffer_from_host(c, 0, XLAC_F32, dims, 2, x, 1024 * 1024 * sizeof(float), 0, &b));
  EXPECT_OK(xlac_executable_run(e, &b, 1, r));
  EXPECT_OK(xlac_buffer_to_host(r[0], out, 1024 * 1024 * sizeof(float), 0));
  CHECK_EQ_F(out[12345], 1);
  pthread_mutex_lock(&mp.mu);
  CHECK(mp.scheduled > 0);
  pthread_mutex_unlock(&mp.mu);
  xlac_buffer_destroy(b);
  xlac_buffer_destroy(r[0]);
  xlac_executable_destroy(e);
  xlac_client_destroy(c);
  free(x);
  free(out);
}

/* Cancelling a run that would loop forever. */
typedef struct Canceller {
  xlac_cancel *c;
  xlac_executable *destroy; /* destroyed first, while it runs (a caller error, survived) */
} Canceller;

static void *cancel_later(void *p) {
  struct timespec ts = {0, 50 * 1000 * 1000};
  nanosleep(&ts, NULL);
  if (((Canceller *)p)->destroy) {
    xlac_executable_destroy(((Canceller *)p)->destroy);
    nanosleep(&ts, NULL);
  }
  xlac_cancel_trigger(((Canceller *)p)->c);
  return NULL;
}

static void test_cancel(xlac_backend backend) {
  static const char prog[] =
      "func.func @main(%x: tensor<i32>) -> tensor<i32> {\n"
      "  %0 = stablehlo.while(%i = %x) : tensor<i32>\n"
      "  cond {\n"
      "    %t = stablehlo.constant dense<true> : tensor<i1>\n"
      "    stablehlo.return %t : tensor<i1>\n"
      "  } do {\n"
      "    %one = stablehlo.constant dense<1> : tensor<i32>\n"
      "    %n = stablehlo.add %i, %one : tensor<i32>\n"
      "    stablehlo.return %n : tensor<i32>\n"
      "  }\n"
      "  func.return %0 : tensor<i32>\n}\n";
  xlac_client_options co = {.struct_size = sizeof co};
  co.backend = backend;
  xlac_client *c = NULL;
  EXPECT_OK(xlac_client_create(&co, &c));
  xlac_executable *e = NULL;
  /* a cancelled compilation stops at its next step */
  if (backend == XLAC_BACKEND_CPU) {
    xlac_cancel *pre = NULL;
    EXPECT_OK(xlac_cancel_create(&pre));
    xlac_cancel_trigger(pre);
    xlac_compile_options o = {.struct_size = sizeof o};
    o.cancel = pre;
    EXPECT_ERROR(xlac_compile_text(c, prog, sizeof prog - 1, &o, &e), XLAC_CANCELLED, "compilation stopped before pass");
    CHECK(e == NULL);
    xlac_cancel_destroy(pre);
  }
  EXPECT_OK(xlac_compile_text(c, prog, sizeof prog - 1, NULL, &e));
  int32_t zero = 0;
  xlac_buffer *b = NULL, *r[1] = {NULL};
  EXPECT_OK(xlac_buffer_from_host(c, 0, XLAC_S32, NULL, 0, &zero, 4, 0, &b));
  Canceller cc = {0};
  EXPECT_OK(xlac_cancel_create(&cc.c));
  pthread_t th;
  pthread_create(&th, NULL, cancel_later, &cc);
  xlac_execute_options eo = {.struct_size = sizeof eo};
  eo.cancel = cc.c;
  xlac_buffer *const *argv[1] = {&b};
  xlac_buffer **resv[1] = {r};
  EXPECT_ERROR(xlac_executable_execute(e, 1, argv, &eo, resv), XLAC_CANCELLED, "cancelled");
  CHECK(r[0] == NULL);
  pthread_join(th, NULL);
  xlac_cancel_destroy(cc.c);
  /* destroyed by another thread while it runs: the run keeps its code
     until it ends (here, cancelled) */
  Canceller cd = {0};
  cd.destroy = e;
  EXPECT_OK(xlac_cancel_create(&cd.c));
  eo.cancel = cd.c;
  pthread_create(&th, NULL, cancel_later, &cd);
  EXPECT_ERROR(xlac_executable_execute(e, 1, argv, &eo, resv), XLAC_CANCELLED, "cancelled");
  pthread_join(th, NULL);
  xlac_cancel_destroy(cd.c);
  xlac_buffer_destroy(b);
  xlac_client_destroy(c);
}

/* Large results reuse the storage of destroyed buffers: each run must
   still compute every element (no stale values from the last one). */
static void test_recycling(void) {
  static const char prog[] = "func.func @main(%x: tensor<65536xf32>) -> tensor<65536xf32> {\n"
                             "  %0 = stablehlo.add %x, %x : tensor<65536xf32>\n"
                             "  func.return %0 : tensor<65536xf32>\n}\n";
  xlac_client *c = NULL;
  EXPECT_OK(xlac_client_create(NULL, &c));
  xlac_executable *e = NULL;
  EXPECT_OK(xlac_compile_text(c, prog, sizeof prog - 1, NULL, &e));
  float *x = malloc(65536 * sizeof(float)), *out = malloc(65536 * sizeof(float));
  int64_t dims[1] = {65536};
  int bad = 0;
  for (int step = 0; step < 4; step++) {
    for (int i = 0; i < 65536; i++) x[i] = (float)(i % 1000) + (float)step * 1000;
    xlac_buffer *b = NULL, *r[1] = {NULL};
    EXPECT_OK(xlac_buffer_from_host(c, 0, XLAC_F32, dims, 1, x, 65536 * sizeof(float), 0, &b));
    EXPECT_OK(xlac_executable_run(e, &b, 1, r));
    EXPECT_OK(xlac_buffer_to_host(r[0], out, 65536 * sizeof(float), 0));
    for (int i = 0; i < 65536; i++) bad += out[i] != 2 * x[i];
    xlac_buffer_destroy(r[0]); /* its storage is the next run's result */
    xlac_buffer_destroy(b);
  }
  CHECK_EQ_I(bad, 0);
  free(x);
  free(out);
  xlac_executable_destroy(e);
  xlac_client_destroy(c);
}

/* A TensorFlow GraphDef through the API: by its name from memory (no
   Config: Placeholders in, the sink out), and from files with a tf2xla
   Config; errors come back as statuses with the frontend's message. */
static const char matmul_graph[] =
    "node { name: \"x_hold\" op: \"Placeholder\" attr { key: \"dtype\" value { type: DT_FLOAT } }\n"
    "  attr { key: \"shape\" value { shape { dim { size: 2 } dim { size: 3 } } } } }\n"
    "node { name: \"y_hold\" op: \"Placeholder\" attr { key: \"dtype\" value { type: DT_FLOAT } }\n"
    "  attr { key: \"shape\" value { shape { dim { size: 3 } dim { size: 2 } } } } }\n"
    "node { name: \"x_y_prod\" op: \"MatMul\" input: \"x_hold\" input: \"y_hold\"\n"
    "  attr { key: \"T\" value { type: DT_FLOAT } } }\n";

static void write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  if (!f) return;
  fputs(text, f);
  fclose(f);
}

static void run_matmul(xlac_backend backend, const xlac_program *p) {
  xlac_client_options co = {.struct_size = sizeof co};
  co.backend = backend;
  xlac_client *c = NULL;
  EXPECT_OK(xlac_client_create(&co, &c));
  xlac_executable *e = NULL;
  EXPECT_OK(xlac_compile(c, p, NULL, &e));
  CHECK_EQ_I(xlac_executable_num_args(e), 2);
  xlac_shape sh;
  EXPECT_OK(xlac_executable_arg_shape(e, 0, &sh));
  CHECK_STR(sh.name, "x_hold");
  float x[6] = {1, 2, 3, 4, 5, 6}, y[6] = {7, 8, 9, 10, 11, 12}, out[4] = {0};
  int64_t xd[2] = {2, 3}, yd[2] = {3, 2};
  xlac_buffer *args[2] = {NULL, NULL}, *res[1] = {NULL};
  EXPECT_OK(xlac_buffer_from_host(c, 0, XLAC_F32, xd, 2, x, sizeof x, 0, &args[0]));
  EXPECT_OK(xlac_buffer_from_host(c, 0, XLAC_F32, yd, 2, y, sizeof y, 0, &args[1]));
  EXPECT_OK(xlac_executable_run(e, args, 2, res));
  EXPECT_OK(xlac_buffer_to_host(res[0], out, sizeof out, 0));
  CHECK_EQ_F(out[0], 58);
  CHECK_EQ_F(out[1], 64);
  CHECK_EQ_F(out[2], 139);
  CHECK_EQ_F(out[3], 154);
  for (int i = 0; i < 2; i++) xlac_buffer_destroy(args[i]);
  xlac_buffer_destroy(res[0]);
  xlac_executable_destroy(e);
  xlac_client_destroy(c);
}

static void test_graphdef(void) {
  xlac_program *p = NULL;
  EXPECT_OK(xlac_program_parse(matmul_graph, sizeof matmul_graph - 1, "matmul.pbtxt", &p));
  run_matmul(XLAC_BACKEND_CPU, p);
  run_matmul(XLAC_BACKEND_INTERPRETER, p);
  xlac_program_destroy(p);

  char dir[] = "/tmp/xlac-test-api-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char graph[64], config[64], bad[64];
  snprintf(graph, sizeof graph, "%s/g.pbtxt", dir);
  snprintf(config, sizeof config, "%s/c.pbtxt", dir);
  snprintf(bad, sizeof bad, "%s/bad.pbtxt", dir);
  write_text(graph, matmul_graph);
  write_text(config, "feed { id { node_name: \"x_hold\" } shape { dim { size: 2 } dim { size: 3 } } }\n"
                     "feed { id { node_name: \"y_hold\" } shape { dim { size: 3 } dim { size: 2 } } }\n"
                     "fetch { id { node_name: \"x_y_prod\" } name: \"prod\" }\n");
  write_text(bad, "fetch { id { node_name: \"nothere\" } }\n");
  EXPECT_OK(xlac_program_load_graphdef(graph, config, &p));
  run_matmul(XLAC_BACKEND_CPU, p);
  xlac_program_destroy(p);
  EXPECT_ERROR(xlac_program_load_graphdef(graph, bad, &p), XLAC_INVALID_ARGUMENT, "names node 'nothere'");
  CHECK(p == NULL);
  static const char unsupported[] = "node { name: \"a\" op: \"NoSuchOp\" }";
  EXPECT_ERROR(xlac_program_parse(unsupported, sizeof unsupported - 1, "g.pbtxt", &p),
               XLAC_INVALID_ARGUMENT, "op type 'NoSuchOp' is not supported");
  EXPECT_ERROR(xlac_program_load_graphdef(NULL, NULL, &p), XLAC_INVALID_ARGUMENT, "graph_path is NULL");
  remove(graph);
  remove(config);
  remove(bad);
  rmdir(dir);
}

int main(int argc, char **argv) {
  int iters = argc > 1 ? atoi(argv[1]) : 1000;
  CHECK_STR(xlac_version(), "0.1.0");
  CHECK_EQ_I(xlac_type_bits(XLAC_S4), 4);
  CHECK_STR(xlac_type_name(XLAC_BF16), "bf16");
  CHECK(xlac_type_name((xlac_type)-1) == NULL);
  test_axpy(XLAC_BACKEND_CPU);
  test_axpy(XLAC_BACKEND_INTERPRETER);
  test_errors();
  test_profile();
  test_flush_denormals();
  test_types();
  test_zero_copy_and_donation(XLAC_BACKEND_CPU);
  test_zero_copy_and_donation(XLAC_BACKEND_INTERPRETER);
  test_donation_not_in_place();
  test_replicas(XLAC_BACKEND_CPU);
  test_replicas(XLAC_BACKEND_INTERPRETER);
  test_device_subsets(XLAC_BACKEND_CPU);
  test_device_subsets(XLAC_BACKEND_INTERPRETER);
  test_user_pool();
  test_recycling();
  test_cancel(XLAC_BACKEND_CPU);
  test_cancel(XLAC_BACKEND_INTERPRETER);
  test_graphdef();
  test_concurrency(8, iters);
  TEST_SUMMARY();
}
