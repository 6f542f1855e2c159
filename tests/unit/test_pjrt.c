/* test_pjrt.c - the PJRT plugin (plugins/jax/pjrt/plugin.c) through its
   function table, as a framework calls it, without Python: devices,
   compile options, execution on assigned devices, donation, strided host
   data, events, serialization, errors, and the HLO sharding texts the
   shardings extension reads.  The plugin's source is included so that
   the sanitizer builds check it too. */
#include "../../plugins/jax/pjrt/plugin.c"

#include "hlo.pb-c.h"
#include "test_util.h"

static const PJRT_Api *A;

#define ARGS(type, ...) ((type){.struct_size = sizeof(type), __VA_ARGS__})

/* the error's code and message, and the error freed; 0 for success */
static int code_of_error(PJRT_Error *e, char *msg, size_t cap) {
  if (msg && cap) msg[0] = 0;
  if (!e) return 0;
  PJRT_Error_GetCode_Args g = ARGS(PJRT_Error_GetCode_Args, .error = e);
  A->PJRT_Error_GetCode(&g);
  PJRT_Error_Message_Args m = ARGS(PJRT_Error_Message_Args, .error = e);
  A->PJRT_Error_Message(&m);
  if (msg && cap) snprintf(msg, cap, "%.*s", (int)m.message_size, m.message);
  A->PJRT_Error_Destroy(&ARGS(PJRT_Error_Destroy_Args, .error = e));
  return (int)g.code;
}

#define OK(call)                                                                                                       \
  do {                                                                                                                 \
    char msg_[512];                                                                                                    \
    int c_ = code_of_error((call), msg_, sizeof msg_);                                                                 \
    if (c_) fprintf(stderr, "%s:%d: error %d: %s\n", __FILE__, __LINE__, c_, msg_);                                    \
    CHECK(c_ == 0);                                                                                                    \
  } while (0)

#define FAILS(call, code, part)                                                                                        \
  do {                                                                                                                 \
    char msg_[512];                                                                                                    \
    int c_ = code_of_error((call), msg_, sizeof msg_);                                                                 \
    if (c_ != (code) || !strstr(msg_, (part)))                                                                         \
      fprintf(stderr, "%s:%d: expected %d with \"%s\", got %d: %s\n", __FILE__, __LINE__, (code), (part), c_, msg_);  \
    CHECK(c_ == (code) && strstr(msg_, (part)) != NULL);                                                               \
  } while (0)

static void destroy_event(PJRT_Event *e) { A->PJRT_Event_Destroy(&ARGS(PJRT_Event_Destroy_Args, .event = e)); }
static void destroy_buffer(PJRT_Buffer *b) { A->PJRT_Buffer_Destroy(&ARGS(PJRT_Buffer_Destroy_Args, .buffer = b)); }

static PJRT_Buffer *from_host(PJRT_Client *c, PJRT_Device *d, const float *data, const int64_t *dims, int rank,
                              const int64_t *strides) {
  PJRT_Client_BufferFromHostBuffer_Args a = ARGS(
      PJRT_Client_BufferFromHostBuffer_Args, .client = c, .data = data, .type = PJRT_Buffer_Type_F32, .dims = dims,
      .num_dims = (size_t)rank, .byte_strides = strides, .num_byte_strides = strides ? (size_t)rank : 0,
      .host_buffer_semantics = PJRT_HostBufferSemantics_kImmutableOnlyDuringCall, .device = d);
  OK(A->PJRT_Client_BufferFromHostBuffer(&a));
  destroy_event(a.done_with_host_buffer);
  return a.buffer;
}

static void to_host(PJRT_Buffer *b, float *out, size_t bytes) {
  PJRT_Buffer_ToHostBuffer_Args a = ARGS(PJRT_Buffer_ToHostBuffer_Args, .src = b, .dst = out, .dst_size = bytes);
  OK(A->PJRT_Buffer_ToHostBuffer(&a));
  destroy_event(a.event);
}

static bool is_deleted(PJRT_Buffer *b) {
  PJRT_Buffer_IsDeleted_Args a = ARGS(PJRT_Buffer_IsDeleted_Args, .buffer = b);
  OK(A->PJRT_Buffer_IsDeleted(&a));
  return a.is_deleted;
}

/* A serialized CompileOptionsProto: replicas, and a device assignment
   (one partition) unless devices is NULL. */
static uint8_t *options(int replicas, const int64_t *devices, size_t *len) {
  Xla__CompileOptionsProto o = XLA__COMPILE_OPTIONS_PROTO__INIT;
  Xla__ExecutableBuildOptionsProto b = XLA__EXECUTABLE_BUILD_OPTIONS_PROTO__INIT;
  Xla__DeviceAssignmentProto da = XLA__DEVICE_ASSIGNMENT_PROTO__INIT;
  Xla__DeviceAssignmentProto__ComputationDevice cd = XLA__DEVICE_ASSIGNMENT_PROTO__COMPUTATION_DEVICE__INIT;
  Xla__DeviceAssignmentProto__ComputationDevice *cdp = &cd;
  b.num_replicas = replicas;
  b.num_partitions = 1;
  if (devices) {
    cd.n_replica_device_ids = (size_t)replicas;
    cd.replica_device_ids = (int64_t *)devices;
    da.replica_count = replicas;
    da.computation_count = 1;
    da.n_computation_devices = 1;
    da.computation_devices = &cdp;
    b.device_assignment = &da;
  }
  o.executable_build_options = &b;
  *len = xla__compile_options_proto__get_packed_size(&o);
  uint8_t *out = malloc(*len + 1);
  xla__compile_options_proto__pack(&o, out);
  return out;
}

static PJRT_Error *compile_text(PJRT_Client *c, const char *text, int replicas, const int64_t *devices,
                                PJRT_LoadedExecutable **out) {
  size_t len;
  uint8_t *opts = options(replicas, devices, &len);
  PJRT_Program p = ARGS(PJRT_Program, .code = (char *)text, .code_size = strlen(text), .format = "mlir",
                        .format_size = 4);
  PJRT_Client_Compile_Args a = ARGS(PJRT_Client_Compile_Args, .client = c, .program = &p,
                                    .compile_options = (const char *)opts, .compile_options_size = len);
  PJRT_Error *e = A->PJRT_Client_Compile(&a);
  free(opts);
  *out = a.executable;
  return e;
}

static PJRT_Error *execute(PJRT_LoadedExecutable *e, int ndev, int nargs, PJRT_Buffer **args, PJRT_Buffer **outs,
                           const int64_t *keep, size_t nkeep) {
  PJRT_Buffer *const *lists[8];
  PJRT_Buffer **olists[8];
  PJRT_Event *events[8] = {0};
  for (int d = 0; d < ndev; d++) {
    lists[d] = args + d * nargs;
    olists[d] = outs + d;
  }
  PJRT_ExecuteOptions o = ARGS(PJRT_ExecuteOptions, .non_donatable_input_indices = keep,
                               .num_non_donatable_input_indices = nkeep);
  PJRT_LoadedExecutable_Execute_Args a = ARGS(PJRT_LoadedExecutable_Execute_Args, .executable = e, .options = &o,
                                              .argument_lists = lists, .num_devices = (size_t)ndev,
                                              .num_args = (size_t)nargs, .output_lists = olists,
                                              .device_complete_events = events);
  PJRT_Error *err = A->PJRT_LoadedExecutable_Execute(&a);
  for (int d = 0; d < ndev; d++) {
    if (!events[d]) continue;
    PJRT_Event_IsReady_Args r = ARGS(PJRT_Event_IsReady_Args, .event = events[d]);
    OK(A->PJRT_Event_IsReady(&r));
    CHECK(r.is_ready);
    destroy_event(events[d]);
  }
  return err;
}

static void destroy_exe(PJRT_LoadedExecutable *e) {
  A->PJRT_LoadedExecutable_Destroy(&ARGS(PJRT_LoadedExecutable_Destroy_Args, .executable = e));
}

static const char add_prog[] =
    "func.func @main(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {\n"
    "  %0 = stablehlo.add %x, %y : tensor<2x3xf32>\n"
    "  func.return %0 : tensor<2x3xf32>\n}\n";

static const char donate_prog[] =
    "func.func @main(%p: tensor<4xf32> {tf.aliasing_output = 0 : i32}, %g: tensor<4xf32>) -> tensor<4xf32> {\n"
    "  %0 = stablehlo.subtract %p, %g : tensor<4xf32>\n"
    "  func.return %0 : tensor<4xf32>\n}\n";

static const char allreduce_prog[] =
    "func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {\n"
    "  %0 = \"stablehlo.all_reduce\"(%x) ({\n"
    "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
    "    %s = stablehlo.add %a, %b : tensor<f32>\n"
    "    stablehlo.return %s : tensor<f32>\n"
    "  }) {replica_groups = dense<[[0, 1, 2]]> : tensor<1x3xi64>} : (tensor<2xf32>) -> tensor<2xf32>\n"
    "  func.return %0 : tensor<2xf32>\n}\n";

static PJRT_Client *client_with(int64_t ndev) {
  PJRT_NamedValue opt = {.struct_size = sizeof opt, .name = "num_devices", .name_size = 11,
                         .type = PJRT_NamedValue_kInt64, .int64_value = ndev, .value_size = 1};
  PJRT_Client_Create_Args a = ARGS(PJRT_Client_Create_Args, .create_options = &opt, .num_options = 1);
  OK(A->PJRT_Client_Create(&a));
  return a.client;
}

static void test_plugin_and_devices(void) {
  CHECK_EQ_I(A->pjrt_api_version.major_version, 0);
  CHECK_EQ_I(A->pjrt_api_version.minor_version, XLAC_PJRT_API_MINOR);
  PJRT_Plugin_Attributes_Args at = ARGS(PJRT_Plugin_Attributes_Args);
  OK(A->PJRT_Plugin_Attributes(&at));
  bool have_version = false;
  for (size_t i = 0; i < at.num_attributes; i++)
    if (!strcmp(at.attributes[i].name, "stablehlo_current_version"))
      have_version = at.attributes[i].value_size == 3 && at.attributes[i].int64_array_value[0] == 1;
  CHECK(have_version);
  const PJRT_Extension_Base *ext = A->extension_start;
  CHECK(ext && ext->type == PJRT_Extension_Type_Shardings);

  PJRT_Client *c = client_with(3);
  PJRT_Client_Devices_Args dv = ARGS(PJRT_Client_Devices_Args, .client = c);
  OK(A->PJRT_Client_Devices(&dv));
  CHECK_EQ_I(dv.num_devices, 3);
  PJRT_Device_GetDescription_Args gd = ARGS(PJRT_Device_GetDescription_Args, .device = dv.devices[2]);
  OK(A->PJRT_Device_GetDescription(&gd));
  PJRT_DeviceDescription_Id_Args id = ARGS(PJRT_DeviceDescription_Id_Args, .device_description = gd.device_description);
  OK(A->PJRT_DeviceDescription_Id(&id));
  CHECK_EQ_I(id.id, 2);
  PJRT_Client_PlatformName_Args pn = ARGS(PJRT_Client_PlatformName_Args, .client = c);
  OK(A->PJRT_Client_PlatformName(&pn));
  CHECK(pn.platform_name_size == 4 && !memcmp(pn.platform_name, "xlac", 4));
  FAILS(A->PJRT_Client_LookupDevice(&ARGS(PJRT_Client_LookupDevice_Args, .client = c, .id = 3)),
        PJRT_Error_Code_INVALID_ARGUMENT, "no device 3");
  int assign[4];
  FAILS(A->PJRT_Client_DefaultDeviceAssignment(&ARGS(PJRT_Client_DefaultDeviceAssignment_Args, .client = c,
                                                     .num_replicas = 4, .num_partitions = 1,
                                                     .default_assignment_size = 4, .default_assignment = assign)),
        PJRT_Error_Code_INVALID_ARGUMENT, "more devices than the client's 3");
  PJRT_Device_MemoryStats_Args ms = ARGS(PJRT_Device_MemoryStats_Args, .device = dv.devices[1]);
  float host[6] = {1, 2, 3, 4, 5, 6};
  int64_t dims[2] = {2, 3};
  PJRT_Buffer *b = from_host(c, dv.devices[1], host, dims, 2, NULL);
  OK(A->PJRT_Device_MemoryStats(&ms));
  CHECK_EQ_I(ms.bytes_in_use, 24);
  destroy_buffer(b);
  OK(A->PJRT_Device_MemoryStats(&ms));
  CHECK_EQ_I(ms.bytes_in_use, 0);
  CHECK_EQ_I(ms.peak_bytes_in_use, 24);
  A->PJRT_Client_Destroy(&ARGS(PJRT_Client_Destroy_Args, .client = c));
}

static void test_execute_on_assigned_device(void) {
  PJRT_Client *c = client_with(3);
  PJRT_Client_Devices_Args dv = ARGS(PJRT_Client_Devices_Args, .client = c);
  OK(A->PJRT_Client_Devices(&dv));
  int64_t on2[1] = {2};
  PJRT_LoadedExecutable *e = NULL;
  OK(compile_text(c, add_prog, 1, on2, &e));
  PJRT_LoadedExecutable_AddressableDevices_Args ad = ARGS(PJRT_LoadedExecutable_AddressableDevices_Args, .executable = e);
  OK(A->PJRT_LoadedExecutable_AddressableDevices(&ad));
  CHECK(ad.num_addressable_devices == 1 && ad.addressable_devices[0] == dv.devices[2]);

  /* y is given transposed: column-major strides */
  float x[6] = {1, 2, 3, 4, 5, 6}, ycols[6] = {10, 40, 20, 50, 30, 60}, out[6] = {0};
  int64_t dims[2] = {2, 3}, colmajor[2] = {4, 8};
  PJRT_Buffer *args[2] = {from_host(c, dv.devices[2], x, dims, 2, NULL),
                          from_host(c, dv.devices[2], ycols, dims, 2, colmajor)};
  PJRT_Buffer *res[1] = {NULL};
  OK(execute(e, 1, 2, args, res, NULL, 0));
  PJRT_Buffer_Device_Args bd = ARGS(PJRT_Buffer_Device_Args, .buffer = res[0]);
  OK(A->PJRT_Buffer_Device(&bd));
  CHECK(bd.device == dv.devices[2]);
  PJRT_Buffer_ToHostBuffer_Args q = ARGS(PJRT_Buffer_ToHostBuffer_Args, .src = res[0]);
  OK(A->PJRT_Buffer_ToHostBuffer(&q));
  CHECK_EQ_I(q.dst_size, 24);
  to_host(res[0], out, sizeof out);
  CHECK(out[0] == 11 && out[1] == 22 && out[2] == 33 && out[3] == 44 && out[4] == 55 && out[5] == 66);

  /* the executable's description */
  PJRT_LoadedExecutable_GetExecutable_Args ge = ARGS(PJRT_LoadedExecutable_GetExecutable_Args, .loaded_executable = e);
  OK(A->PJRT_LoadedExecutable_GetExecutable(&ge));
  PJRT_Executable_OutputDimensions_Args od = ARGS(PJRT_Executable_OutputDimensions_Args, .executable = ge.executable);
  OK(A->PJRT_Executable_OutputDimensions(&od));
  CHECK(od.num_outputs == 1 && od.dim_sizes[0] == 2 && od.dims[0] == 2 && od.dims[1] == 3);
  PJRT_LoadedExecutable_GetDeviceAssignment_Args da =
      ARGS(PJRT_LoadedExecutable_GetDeviceAssignment_Args, .executable = e);
  OK(A->PJRT_LoadedExecutable_GetDeviceAssignment(&da));
  Xla__DeviceAssignmentProto *dap =
      xla__device_assignment_proto__unpack(NULL, da.serialized_bytes_size, (const uint8_t *)da.serialized_bytes);
  CHECK(dap && dap->replica_count == 1 && dap->n_computation_devices == 1 &&
        dap->computation_devices[0]->replica_device_ids[0] == 2);
  if (dap) xla__device_assignment_proto__free_unpacked(dap, NULL);
  da.serialized_device_assignment_deleter(da.serialized_device_assignment);
  PJRT_Program op = ARGS(PJRT_Program);
  PJRT_Executable_OptimizedProgram_Args opa = ARGS(PJRT_Executable_OptimizedProgram_Args, .executable = ge.executable,
                                                   .program = &op);
  OK(A->PJRT_Executable_OptimizedProgram(&opa));
  op.code = malloc(op.code_size + 1);
  OK(A->PJRT_Executable_OptimizedProgram(&opa));
  op.code[op.code_size] = 0;
  CHECK(strstr(op.code, "func.func @main") != NULL);
  free(op.code);

  /* serialized and loaded again, it computes the same */
  PJRT_Executable_Serialize_Args se = ARGS(PJRT_Executable_Serialize_Args, .executable = ge.executable);
  OK(A->PJRT_Executable_Serialize(&se));
  PJRT_Executable_DeserializeAndLoad_Args dl =
      ARGS(PJRT_Executable_DeserializeAndLoad_Args, .client = c, .serialized_executable = se.serialized_bytes,
           .serialized_executable_size = se.serialized_bytes_size);
  OK(A->PJRT_Executable_DeserializeAndLoad(&dl));
  dl.serialized_executable_size = se.serialized_bytes_size - 3;
  FAILS(A->PJRT_Executable_DeserializeAndLoad(&dl), PJRT_Error_Code_DATA_LOSS, "truncated");
  se.serialized_executable_deleter(se.serialized_executable);
  PJRT_Buffer *res2[1] = {NULL};
  OK(execute(dl.loaded_executable, 1, 2, args, res2, NULL, 0));
  float out2[6] = {0};
  to_host(res2[0], out2, sizeof out2);
  CHECK(!memcmp(out, out2, sizeof out));
  destroy_buffer(res2[0]);
  destroy_exe(dl.loaded_executable);
  A->PJRT_Executable_Destroy(&ARGS(PJRT_Executable_Destroy_Args, .executable = ge.executable));

  /* errors: arguments on another device, a wrong count, a deleted buffer */
  PJRT_Buffer *elsewhere[2] = {from_host(c, dv.devices[0], x, dims, 2, NULL), args[1]};
  FAILS(execute(e, 1, 2, elsewhere, res2, NULL, 0), PJRT_Error_Code_INVALID_ARGUMENT, "not 2");
  destroy_buffer(elsewhere[0]);
  FAILS(execute(e, 1, 1, args, res2, NULL, 0), PJRT_Error_Code_INVALID_ARGUMENT, "1 arguments, the program takes 2");
  OK(A->PJRT_Buffer_Delete(&ARGS(PJRT_Buffer_Delete_Args, .buffer = args[0])));
  CHECK(is_deleted(args[0]));
  FAILS(execute(e, 1, 2, args, res2, NULL, 0), PJRT_Error_Code_FAILED_PRECONDITION, "deleted");
  for (int i = 0; i < 2; i++) destroy_buffer(args[i]);
  destroy_buffer(res[0]);
  destroy_exe(e);
  A->PJRT_Client_Destroy(&ARGS(PJRT_Client_Destroy_Args, .client = c));
}

static void test_donation_and_replicas(void) {
  PJRT_Client *c = client_with(3);
  PJRT_Client_Devices_Args dv = ARGS(PJRT_Client_Devices_Args, .client = c);
  OK(A->PJRT_Client_Devices(&dv));
  PJRT_LoadedExecutable *e = NULL;
  OK(compile_text(c, donate_prog, 1, NULL, &e));
  float p[4] = {10, 20, 30, 40}, g[4] = {1, 2, 3, 4}, out[4];
  int64_t dims[1] = {4};
  PJRT_Buffer *args[2] = {from_host(c, dv.devices[0], p, dims, 1, NULL), from_host(c, dv.devices[0], g, dims, 1, NULL)};
  PJRT_Buffer *res[1] = {NULL};
  /* kept this time */
  int64_t keep[1] = {0};
  OK(execute(e, 1, 2, args, res, keep, 1));
  CHECK(!is_deleted(args[0]));
  destroy_buffer(res[0]);
  OK(execute(e, 1, 2, args, res, NULL, 0));
  CHECK(is_deleted(args[0]));
  CHECK(!is_deleted(args[1]));
  to_host(res[0], out, sizeof out);
  CHECK(out[0] == 9 && out[3] == 36);
  FAILS(A->PJRT_Buffer_ToHostBuffer(&ARGS(PJRT_Buffer_ToHostBuffer_Args, .src = args[0], .dst = out,
                                          .dst_size = sizeof out)),
        PJRT_Error_Code_FAILED_PRECONDITION, "deleted or donated");
  for (int i = 0; i < 2; i++) destroy_buffer(args[i]);
  destroy_buffer(res[0]);
  destroy_exe(e);

  /* three replicas meet in an all_reduce; five do not fit */
  FAILS(compile_text(c, allreduce_prog, 5, NULL, &e), PJRT_Error_Code_INVALID_ARGUMENT, "more devices than the client's 3");
  OK(compile_text(c, allreduce_prog, 3, NULL, &e));
  PJRT_Buffer *rargs[3], *rres[3] = {0};
  int64_t d2[1] = {2};
  for (int d = 0; d < 3; d++) {
    float v[2] = {(float)d, 1};
    rargs[d] = from_host(c, dv.devices[d], v, d2, 1, NULL);
  }
  OK(execute(e, 3, 1, rargs, rres, NULL, 0));
  for (int d = 0; d < 3; d++) {
    float r[2] = {0};
    to_host(rres[d], r, sizeof r);
    CHECK(r[0] == 3 && r[1] == 3);
    destroy_buffer(rres[d]);
    destroy_buffer(rargs[d]);
  }
  destroy_exe(e);
  A->PJRT_Client_Destroy(&ARGS(PJRT_Client_Destroy_Args, .client = c));
}

static void test_bad_programs(void) {
  PJRT_Client *c = client_with(1);
  PJRT_LoadedExecutable *e = NULL;
  FAILS(compile_text(c, "func.func @main(%x: tensor<2xf32>) -> tensor<3xf32> {\n  func.return %x : tensor<2xf32>\n}\n",
                     1, NULL, &e),
        PJRT_Error_Code_INVALID_ARGUMENT, "<jax program>:");
  PJRT_Program p = ARGS(PJRT_Program, .code = "HloModule m", .code_size = 11, .format = "hlo", .format_size = 3);
  PJRT_Client_Compile_Args a = ARGS(PJRT_Client_Compile_Args, .client = c, .program = &p);
  FAILS(A->PJRT_Client_Compile(&a), PJRT_Error_Code_INVALID_ARGUMENT, "<hlo program>.hlo.pb:");
  PJRT_Program p2 = ARGS(PJRT_Program, .code = "x", .code_size = 1, .format = "hlo_with_config", .format_size = 15);
  PJRT_Client_Compile_Args a2 = ARGS(PJRT_Client_Compile_Args, .client = c, .program = &p2);
  FAILS(A->PJRT_Client_Compile(&a2), PJRT_Error_Code_UNIMPLEMENTED, "program format \"hlo_with_config\"");
  const char junk[] = "\x08\xff\xff\xff";
  PJRT_Program q = ARGS(PJRT_Program, .code = (char *)add_prog, .code_size = strlen(add_prog), .format = "mlir",
                        .format_size = 4);
  PJRT_Client_Compile_Args b = ARGS(PJRT_Client_Compile_Args, .client = c, .program = &q, .compile_options = junk,
                                    .compile_options_size = 4);
  FAILS(A->PJRT_Client_Compile(&b), PJRT_Error_Code_INVALID_ARGUMENT, "unreadable CompileOptionsProto");
  /* truncated bytecode */
  PJRT_Program r = ARGS(PJRT_Program, .code = "ML\xefR\x06", .code_size = 5, .format = "mlir", .format_size = 4);
  PJRT_Client_Compile_Args d = ARGS(PJRT_Client_Compile_Args, .client = c, .program = &r);
  FAILS(A->PJRT_Client_Compile(&d), PJRT_Error_Code_INVALID_ARGUMENT, "<jax program>:5: truncated");
  A->PJRT_Client_Destroy(&ARGS(PJRT_Client_Destroy_Args, .client = c));
}

/* Format "hlo": a serialized HloModuleProto (what TensorFlow hands over),
   here built with the reader's own message declarations:
   main(p0: f32[2,3], p1: f32[2,3]) = p0 * p1 + p0. */
static void test_hlo_module_proto(void) {
  Hloproto__ShapeProto sh = HLOPROTO__SHAPE_PROTO__INIT;
  int64_t dims[2] = {2, 3};
  sh.element_type = HLOPROTO__PRIMITIVE_TYPE__F32;
  sh.n_dimensions = 2;
  sh.dimensions = dims;
  Hloproto__HloInstructionProto in[4];
  const char *names[4] = {"p0", "p1", "product", "sum"}, *opcodes[4] = {"parameter", "parameter", "multiply", "add"};
  int64_t ops[4][2] = {{0, 0}, {0, 0}, {1, 2}, {3, 1}};
  Hloproto__HloInstructionProto *inp[4];
  for (int i = 0; i < 4; i++) {
    hloproto__hlo_instruction_proto__init(&in[i]);
    in[i].name = (char *)names[i];
    in[i].opcode = (char *)opcodes[i];
    in[i].shape = &sh;
    in[i].id = i + 1;
    in[i].parameter_number = i;
    in[i].n_operand_ids = i >= 2 ? 2 : 0;
    in[i].operand_ids = ops[i];
    inp[i] = &in[i];
  }
  Hloproto__HloComputationProto comp = HLOPROTO__HLO_COMPUTATION_PROTO__INIT;
  comp.name = "main.4";
  comp.id = 7;
  comp.root_id = 4;
  comp.n_instructions = 4;
  comp.instructions = inp;
  Hloproto__HloComputationProto *comps[1] = {&comp};
  Hloproto__HloModuleProto mod = HLOPROTO__HLO_MODULE_PROTO__INIT;
  mod.name = "mul_add";
  mod.entry_computation_id = 7;
  mod.n_computations = 1;
  mod.computations = comps;
  size_t len = hloproto__hlo_module_proto__get_packed_size(&mod);
  uint8_t *code = malloc(len);
  hloproto__hlo_module_proto__pack(&mod, code);

  PJRT_Client *c = client_with(1);
  PJRT_Client_Devices_Args dv = ARGS(PJRT_Client_Devices_Args, .client = c);
  OK(A->PJRT_Client_Devices(&dv));
  size_t olen;
  uint8_t *opts = options(1, NULL, &olen);
  PJRT_Program p = ARGS(PJRT_Program, .code = (char *)code, .code_size = len, .format = "hlo", .format_size = 3);
  PJRT_Client_Compile_Args a = ARGS(PJRT_Client_Compile_Args, .client = c, .program = &p,
                                    .compile_options = (const char *)opts, .compile_options_size = olen);
  OK(A->PJRT_Client_Compile(&a));
  float x[6] = {1, 2, 3, 4, 5, 6}, y[6] = {2, 2, 2, 3, 3, 3}, out[6] = {0};
  PJRT_Buffer *args[2] = {from_host(c, dv.devices[0], x, dims, 2, NULL), from_host(c, dv.devices[0], y, dims, 2, NULL)};
  PJRT_Buffer *res[1] = {NULL};
  OK(execute(a.executable, 1, 2, args, res, NULL, 0));
  to_host(res[0], out, sizeof out);
  CHECK(out[0] == 3 && out[1] == 6 && out[2] == 9 && out[3] == 16 && out[4] == 20 && out[5] == 24);
  destroy_buffer(res[0]);
  destroy_buffer(args[0]);
  destroy_buffer(args[1]);
  destroy_exe(a.executable);

  /* truncated: an error at the offset where the bytes run out */
  p.code_size = len - 3;
  PJRT_Client_Compile_Args b = ARGS(PJRT_Client_Compile_Args, .client = c, .program = &p);
  FAILS(A->PJRT_Client_Compile(&b), PJRT_Error_Code_INVALID_ARGUMENT, "<hlo program>.hlo.pb:");
  free(opts);
  free(code);
  A->PJRT_Client_Destroy(&ARGS(PJRT_Client_Destroy_Args, .client = c));
}

static int callback_calls;
static int callback_code;
static void on_ready(PJRT_Error *e, void *arg) {
  callback_calls += arg == (void *)&callback_calls;
  callback_code = code_of_error(e, NULL, 0);
}

static void test_events(void) {
  PJRT_Event_Create_Args ca = ARGS(PJRT_Event_Create_Args);
  OK(A->PJRT_Event_Create(&ca));
  PJRT_Event_IsReady_Args r = ARGS(PJRT_Event_IsReady_Args, .event = ca.event);
  OK(A->PJRT_Event_IsReady(&r));
  CHECK(!r.is_ready);
  OK(A->PJRT_Event_OnReady(&ARGS(PJRT_Event_OnReady_Args, .event = ca.event, .callback = on_ready,
                                 .user_arg = &callback_calls)));
  CHECK_EQ_I(callback_calls, 0);
  OK(A->PJRT_Event_Set(&ARGS(PJRT_Event_Set_Args, .event = ca.event, .error_code = PJRT_Error_Code_ABORTED,
                             .error_message = "stopped", .error_message_size = 7)));
  CHECK_EQ_I(callback_calls, 1);
  CHECK_EQ_I(callback_code, PJRT_Error_Code_ABORTED);
  FAILS(A->PJRT_Event_Await(&ARGS(PJRT_Event_Await_Args, .event = ca.event)), PJRT_Error_Code_ABORTED, "stopped");
  FAILS(A->PJRT_Event_Set(&ARGS(PJRT_Event_Set_Args, .event = ca.event)), PJRT_Error_Code_FAILED_PRECONDITION,
        "already set");
  OK(A->PJRT_Event_OnReady(&ARGS(PJRT_Event_OnReady_Args, .event = ca.event, .callback = on_ready,
                                 .user_arg = &callback_calls)));
  CHECK_EQ_I(callback_calls, 2);
  destroy_event(ca.event);
}

/* the text forms of HLO shardings, as OpSharding protos */
static void check_sharding(const char *text, int type, int ndims, const int64_t *dims, int ndevs,
                           const int64_t *devs, bool replicate_last) {
  size_t len = 0;
  char *p = sharding_proto(text, &len);
  CHECK(p != NULL);
  if (!p) return;
  Xla__OpSharding *o = xla__op_sharding__unpack(NULL, len, (const uint8_t *)p);
  CHECK(o && (int)o->type == type && (int)o->n_tile_assignment_dimensions == ndims &&
        (int)o->n_tile_assignment_devices == ndevs && o->replicate_on_last_tile_dim == replicate_last);
  for (int i = 0; o && i < ndims && i < (int)o->n_tile_assignment_dimensions; i++)
    CHECK_EQ_I(o->tile_assignment_dimensions[i], dims[i]);
  for (int i = 0; o && i < ndevs && i < (int)o->n_tile_assignment_devices; i++)
    CHECK_EQ_I(o->tile_assignment_devices[i], devs[i]);
  if (o) xla__op_sharding__free_unpacked(o, NULL);
  free(p);
}

static void test_shardings(void) {
  check_sharding("{replicated}", XLA__OP_SHARDING__TYPE__REPLICATED, 0, NULL, 0, NULL, false);
  check_sharding("{devices=[4,1]<=[4]}", XLA__OP_SHARDING__TYPE__OTHER, 2, (int64_t[]){4, 1}, 4,
                 (int64_t[]){0, 1, 2, 3}, false);
  check_sharding("{devices=[2,2]<=[2,2]T(1,0)}", XLA__OP_SHARDING__TYPE__OTHER, 2, (int64_t[]){2, 2}, 4,
                 (int64_t[]){0, 2, 1, 3}, false);
  check_sharding("{devices=[2,1,2]<=[4] last_tile_dim_replicate}", XLA__OP_SHARDING__TYPE__OTHER, 3,
                 (int64_t[]){2, 1, 2}, 4, (int64_t[]){0, 1, 2, 3}, true);
  check_sharding("{devices=[2,1]1,0}", XLA__OP_SHARDING__TYPE__OTHER, 2, (int64_t[]){2, 1}, 2, (int64_t[]){1, 0},
                 false);
  check_sharding("{maximal device=3}", XLA__OP_SHARDING__TYPE__MAXIMAL, 1, (int64_t[]){1}, 1, (int64_t[]){3}, false);
  size_t len;
  const char *bad[] = {"{devices=[2,2]<=[3]}", "{devices=[2]0}", "{devices=[2]<=[2]T(0,0)}", "{tuple}", "",
                       "{devices=[2,2]<=[2,2]T(1,0", "{devices=[-1]<=[1]}"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    char *p = sharding_proto(bad[i], &len);
    if (p) fprintf(stderr, "read \"%s\"\n", bad[i]);
    CHECK(p == NULL);
    free(p);
  }
}

/* Thread and device counts from the environment are validated: an error
   status, never an exhausted or aborted process. */
static void test_client_options(void) {
  static const char *const bad_threads[] = {"100000", "-3", "12abc", "1e9", " "};
  for (size_t i = 0; i < sizeof bad_threads / sizeof *bad_threads; i++) {
    setenv("XLAC_NUM_THREADS", bad_threads[i], 1);
    PJRT_Client_Create_Args a = ARGS(PJRT_Client_Create_Args);
    FAILS(A->PJRT_Client_Create(&a), PJRT_Error_Code_INVALID_ARGUMENT, "threads");
  }
  setenv("XLAC_NUM_THREADS", "2", 1);
  PJRT_Client_Create_Args ok = ARGS(PJRT_Client_Create_Args);
  OK(A->PJRT_Client_Create(&ok));
  A->PJRT_Client_Destroy(&ARGS(PJRT_Client_Destroy_Args, .client = ok.client));
  unsetenv("XLAC_NUM_THREADS");
  static const char *const bad_devices[] = {"0", "100000", "4x", "-1"};
  for (size_t i = 0; i < sizeof bad_devices / sizeof *bad_devices; i++) {
    setenv("XLAC_DEVICES", bad_devices[i], 1);
    PJRT_Client_Create_Args a = ARGS(PJRT_Client_Create_Args);
    FAILS(A->PJRT_Client_Create(&a), PJRT_Error_Code_INVALID_ARGUMENT, "devices");
  }
  unsetenv("XLAC_DEVICES");
}

/* A protobuf field of msg[0..len): the next one at *pos (tag, and for a
   length-delimited field its bytes); false at the end or on bad data. */
static bool pb_next(const uint8_t *msg, size_t len, size_t *pos, int *field, const uint8_t **sub, size_t *sublen,
                    uint64_t *val) {
  uint64_t v[2] = {0, 0};
  for (int k = 0; k < 2; k++) {
    if (k == 1 && (v[0] & 7) != 0 && (v[0] & 7) != 2) break;
    for (int sh = 0; *pos < len; sh += 7) {
      uint8_t b = msg[(*pos)++];
      v[k] |= (uint64_t)(b & 0x7f) << sh;
      if (!(b & 0x80)) break;
    }
  }
  *field = (int)(v[0] >> 3);
  *val = v[1];
  if ((v[0] & 7) == 1) *pos += 8;
  if ((v[0] & 7) == 2) {
    if (v[1] > len - *pos) return false;
    *sub = msg + *pos;
    *sublen = (size_t)v[1];
    *pos += (size_t)v[1];
  }
  return *pos <= len && *field > 0;
}

/* Events per device plane of a serialized XSpace: events[device] (planes
   named /device:CUSTOM:<device>, devices < 8), each named `name` */
static void count_events(const uint8_t *space, size_t len, const char *name, int events[8]) {
  size_t pos = 0, pl, pp, lp;
  int f, g, h;
  const uint8_t *plane, *line, *x;
  uint64_t v;
  for (int i = 0; i < 8; i++) events[i] = 0;
  while (pos < len && pb_next(space, len, &pos, &f, &plane, &pl, &v)) {
    if (f != 1) continue;
    int dev = -1, n = 0;
    bool named = false;
    for (pp = 0; pp < pl && pb_next(plane, pl, &pp, &g, &line, &lp, &v);) {
      if (g == 2 && lp > 15 && !memcmp(line, "/device:CUSTOM:", 15)) dev = atoi((const char *)line + 15);
      size_t ep = 0, el;
      if (g == 3)
        while (ep < lp && pb_next(line, lp, &ep, &h, &x, &el, &v)) n += h == 4;
      if (g == 4) /* event metadata: its name appears */
        named |= memmem(line, lp, name, strlen(name)) != NULL;
    }
    if (dev >= 0 && dev < 8 && named) events[dev] = n;
  }
}

/* GetCostAnalysis, and the profiler extension as a framework drives it:
   each execution during a session is an event on each device it ran on */
static void test_cost_and_profiler(void) {
  PJRT_Client *c = client_with(3);
  PJRT_Client_Devices_Args dv = ARGS(PJRT_Client_Devices_Args, .client = c);
  OK(A->PJRT_Client_Devices(&dv));
  PJRT_LoadedExecutable *e = NULL;
  OK(compile_text(c, allreduce_prog, 3, NULL, &e));
  PJRT_LoadedExecutable_GetExecutable_Args ge = ARGS(PJRT_LoadedExecutable_GetExecutable_Args, .loaded_executable = e);
  OK(A->PJRT_LoadedExecutable_GetExecutable(&ge));
  PJRT_Executable_GetCostAnalysis_Args ca = ARGS(PJRT_Executable_GetCostAnalysis_Args, .executable = ge.executable);
  OK(A->PJRT_Executable_GetCostAnalysis(&ca));
  /* an all_reduce of 2 elements: an addition each; 8 bytes in, 8 out */
  const char *names[3] = {"flops", "transcendentals", "bytes accessed"};
  const float want[3] = {2, 0, 16};
  CHECK_EQ_I(ca.num_properties, 3);
  for (size_t i = 0; i < ca.num_properties && i < 3; i++) {
    CHECK(ca.properties[i].name_size == strlen(names[i]) && !memcmp(ca.properties[i].name, names[i], strlen(names[i])));
    CHECK(ca.properties[i].type == PJRT_NamedValue_kFloat);
    CHECK_EQ_F(ca.properties[i].float_value, want[i]);
  }
  A->PJRT_Executable_Destroy(&ARGS(PJRT_Executable_Destroy_Args, .executable = ge.executable));

  const PJRT_Extension_Base *x = A->extension_start;
  while (x && x->type != PJRT_Extension_Type_Profiler) x = x->next;
  CHECK(x != NULL);
  if (!x) return;
  const PLUGIN_Profiler_Api *pa = ((const PJRT_Profiler_Extension *)x)->profiler_api;
  CHECK_EQ_I(pa->struct_size, sizeof(PLUGIN_Profiler_Api));
  PLUGIN_Profiler_Create_Args cr = {.struct_size = sizeof cr};
  CHECK(pa->create(&cr) == NULL && cr.profiler);
  PJRT_Buffer *rargs[3], *rres[3] = {0};
  int64_t d2[1] = {2};
  float v[2] = {1, 2};
  for (int d = 0; d < 3; d++) rargs[d] = from_host(c, dv.devices[d], v, d2, 1, NULL);
  /* runs before the start and after the stop are not recorded */
  for (int k = 0; k < 4; k++) {
    if (k == 1) CHECK(pa->start(&(PLUGIN_Profiler_Start_Args){.struct_size = sizeof(PLUGIN_Profiler_Start_Args),
                                                               .profiler = cr.profiler}) == NULL);
    if (k == 3) CHECK(pa->stop(&(PLUGIN_Profiler_Stop_Args){.struct_size = sizeof(PLUGIN_Profiler_Stop_Args),
                                                             .profiler = cr.profiler}) == NULL);
    OK(execute(e, 3, 1, rargs, rres, NULL, 0));
    for (int d = 0; d < 3; d++) destroy_buffer(rres[d]);
  }
  PLUGIN_Profiler_CollectData_Args cd = {.struct_size = sizeof cd, .profiler = cr.profiler};
  CHECK(pa->collect_data(&cd) == NULL && cd.buffer && cd.buffer_size_in_bytes > 0);
  int events[8];
  count_events(cd.buffer, cd.buffer_size_in_bytes, "main", events);
  CHECK(events[0] == 2 && events[1] == 2 && events[2] == 2 && events[3] == 0);
  /* the second call fills the caller's buffer with the same */
  uint8_t *mine = malloc(cd.buffer_size_in_bytes + 1);
  const uint8_t *theirs = cd.buffer;
  cd.buffer = mine;
  CHECK(pa->collect_data(&cd) == NULL && !memcmp(mine, theirs, cd.buffer_size_in_bytes));
  free(mine);
  CHECK(pa->destroy(&(PLUGIN_Profiler_Destroy_Args){.struct_size = sizeof(PLUGIN_Profiler_Destroy_Args),
                                                     .profiler = cr.profiler}) == NULL);
  /* errors come back through the extension's own error functions */
  PLUGIN_Profiler_Error *err = pa->start(&(PLUGIN_Profiler_Start_Args){.struct_size = sizeof(PLUGIN_Profiler_Start_Args)});
  CHECK(err != NULL);
  PLUGIN_Profiler_Error_GetCode_Args gc = {.struct_size = sizeof gc, .error = err};
  PLUGIN_Profiler_Error_Message_Args em = {.struct_size = sizeof em, .error = err};
  CHECK(pa->error_get_code(&gc) == NULL && gc.code == PJRT_Error_Code_INVALID_ARGUMENT);
  pa->error_message(&em);
  CHECK(em.message && memmem(em.message, em.message_size, "NULL", 4));
  pa->error_destroy(&(PLUGIN_Profiler_Error_Destroy_Args){.struct_size = sizeof(PLUGIN_Profiler_Error_Destroy_Args),
                                                          .error = err});
  for (int d = 0; d < 3; d++) destroy_buffer(rargs[d]);
  destroy_exe(e);
  A->PJRT_Client_Destroy(&ARGS(PJRT_Client_Destroy_Args, .client = c));
}

/* buffers filled piece by piece (CreateBuffersForAsyncHostToDevice): a
   reader on another thread waits for the last piece; a buffer given an
   error passes it on; one never completed fails its readers when the
   manager goes */
typedef struct Reader {
  PJRT_Buffer *b;
  float got[6];
} Reader;

static void *read_buffer(void *arg) {
  Reader *r = arg;
  to_host(r->b, r->got, sizeof r->got);
  return NULL;
}

static void test_transfer_manager(void) {
  PJRT_Client *c = client_with(2);
  PJRT_Client_AddressableDevices_Args ad = ARGS(PJRT_Client_AddressableDevices_Args, .client = c);
  OK(A->PJRT_Client_AddressableDevices(&ad));
  PJRT_Device_DefaultMemory_Args dm = ARGS(PJRT_Device_DefaultMemory_Args, .device = ad.addressable_devices[1]);
  OK(A->PJRT_Device_DefaultMemory(&dm));
  int64_t dims[2] = {2, 3};
  PJRT_ShapeSpec specs[3];
  for (int i = 0; i < 3; i++)
    specs[i] = ARGS(PJRT_ShapeSpec, .dims = dims, .num_dims = 2, .element_type = PJRT_Buffer_Type_F32);
  PJRT_Client_CreateBuffersForAsyncHostToDevice_Args ca = ARGS(
      PJRT_Client_CreateBuffersForAsyncHostToDevice_Args, .client = c, .shape_specs = specs, .num_shape_specs = 3,
      .memory = dm.memory);
  OK(A->PJRT_Client_CreateBuffersForAsyncHostToDevice(&ca));
  PJRT_AsyncHostToDeviceTransferManager *m = ca.transfer_manager;
  PJRT_AsyncHostToDeviceTransferManager_BufferSize_Args bs =
      ARGS(PJRT_AsyncHostToDeviceTransferManager_BufferSize_Args, .transfer_manager = m, .buffer_index = 0);
  OK(A->PJRT_AsyncHostToDeviceTransferManager_BufferSize(&bs));
  CHECK_EQ_I(bs.buffer_size, 24);
  PJRT_Buffer *b[3];
  for (int i = 0; i < 3; i++) {
    PJRT_AsyncHostToDeviceTransferManager_RetrieveBuffer_Args rb =
        ARGS(PJRT_AsyncHostToDeviceTransferManager_RetrieveBuffer_Args, .transfer_manager = m, .buffer_index = i);
    OK(A->PJRT_AsyncHostToDeviceTransferManager_RetrieveBuffer(&rb));
    b[i] = rb.buffer_out;
  }
  PJRT_Buffer_Device_Args bd = ARGS(PJRT_Buffer_Device_Args, .buffer = b[0]);
  OK(A->PJRT_Buffer_Device(&bd));
  CHECK(bd.device == ad.addressable_devices[1]);
  /* a reader waits while the data comes in two pieces */
  Reader r = {.b = b[0]};
  pthread_t th;
  pthread_create(&th, NULL, read_buffer, &r);
  const float data[6] = {1, 2, 3, 4, 5, 6};
  PJRT_AsyncHostToDeviceTransferManager_TransferData_Args td =
      ARGS(PJRT_AsyncHostToDeviceTransferManager_TransferData_Args, .transfer_manager = m, .buffer_index = 0,
           .data = data + 2, .offset = 8, .transfer_size = 16, .is_last_transfer = false);
  OK(A->PJRT_AsyncHostToDeviceTransferManager_TransferData(&td));
  destroy_event(td.done_with_h2d_transfer);
  td = ARGS(PJRT_AsyncHostToDeviceTransferManager_TransferData_Args, .transfer_manager = m, .buffer_index = 0,
            .data = data, .offset = 0, .transfer_size = 8, .is_last_transfer = true);
  OK(A->PJRT_AsyncHostToDeviceTransferManager_TransferData(&td));
  destroy_event(td.done_with_h2d_transfer);
  pthread_join(th, NULL);
  for (int i = 0; i < 6; i++) CHECK(r.got[i] == data[i]);
  /* out of range, and after the last piece */
  FAILS(A->PJRT_AsyncHostToDeviceTransferManager_TransferData(
            &ARGS(PJRT_AsyncHostToDeviceTransferManager_TransferData_Args, .transfer_manager = m, .buffer_index = 1,
                  .data = data, .offset = 20, .transfer_size = 8)),
        PJRT_Error_Code_INVALID_ARGUMENT, "of a buffer of 24");
  FAILS(A->PJRT_AsyncHostToDeviceTransferManager_TransferData(
            &ARGS(PJRT_AsyncHostToDeviceTransferManager_TransferData_Args, .transfer_manager = m, .buffer_index = 0,
                  .data = data, .offset = 0, .transfer_size = 4)),
        PJRT_Error_Code_FAILED_PRECONDITION, "complete already");
  FAILS(A->PJRT_AsyncHostToDeviceTransferManager_RetrieveBuffer(
            &ARGS(PJRT_AsyncHostToDeviceTransferManager_RetrieveBuffer_Args, .transfer_manager = m,
                  .buffer_index = 0)),
        PJRT_Error_Code_FAILED_PRECONDITION, "retrieved already");
  /* buffer 1 fails: its readers get the error */
  OK(A->PJRT_AsyncHostToDeviceTransferManager_SetBufferError(
      &ARGS(PJRT_AsyncHostToDeviceTransferManager_SetBufferError_Args, .transfer_manager = m, .buffer_index = 1,
            .error_code = PJRT_Error_Code_DATA_LOSS, .error_message = "peer went away", .error_message_size = 14)));
  float out[6];
  FAILS(A->PJRT_Buffer_ToHostBuffer(&ARGS(PJRT_Buffer_ToHostBuffer_Args, .src = b[1], .dst = out,
                                          .dst_size = sizeof out)),
        PJRT_Error_Code_DATA_LOSS, "peer went away");
  /* buffer 2 never completes: destroying the manager fails its readers */
  OK(A->PJRT_AsyncHostToDeviceTransferManager_Destroy(
      &ARGS(PJRT_AsyncHostToDeviceTransferManager_Destroy_Args, .transfer_manager = m)));
  FAILS(A->PJRT_Buffer_ToHostBuffer(&ARGS(PJRT_Buffer_ToHostBuffer_Args, .src = b[2], .dst = out,
                                          .dst_size = sizeof out)),
        PJRT_Error_Code_CANCELLED, "destroyed before");
  for (int i = 0; i < 3; i++) destroy_buffer(b[i]);

  /* the caller destroys the buffers it retrieved (one complete, one not)
     before the manager, and one buffer it never retrieved goes with the
     manager: nothing the caller freed is touched (the sanitizer build
     reports it if it is) */
  ca = ARGS(PJRT_Client_CreateBuffersForAsyncHostToDevice_Args, .client = c, .shape_specs = specs,
            .num_shape_specs = 3, .memory = dm.memory);
  OK(A->PJRT_Client_CreateBuffersForAsyncHostToDevice(&ca));
  m = ca.transfer_manager;
  for (int i = 0; i < 2; i++) {
    PJRT_AsyncHostToDeviceTransferManager_RetrieveBuffer_Args rb =
        ARGS(PJRT_AsyncHostToDeviceTransferManager_RetrieveBuffer_Args, .transfer_manager = m, .buffer_index = i);
    OK(A->PJRT_AsyncHostToDeviceTransferManager_RetrieveBuffer(&rb));
    b[i] = rb.buffer_out;
  }
  PJRT_AsyncHostToDeviceTransferManager_TransferLiteral_Args tl =
      ARGS(PJRT_AsyncHostToDeviceTransferManager_TransferLiteral_Args, .transfer_manager = m, .buffer_index = 0,
           .data = data, .shape_dims = dims, .shape_num_dims = 2, .shape_element_type = PJRT_Buffer_Type_F32);
  OK(A->PJRT_AsyncHostToDeviceTransferManager_TransferLiteral(&tl));
  destroy_event(tl.done_with_h2d_transfer);
  to_host(b[0], out, sizeof out);
  for (int i = 0; i < 6; i++) CHECK(out[i] == data[i]);
  destroy_buffer(b[0]);
  destroy_buffer(b[1]);
  OK(A->PJRT_AsyncHostToDeviceTransferManager_Destroy(
      &ARGS(PJRT_AsyncHostToDeviceTransferManager_Destroy_Args, .transfer_manager = m)));
  A->PJRT_Client_Destroy(&ARGS(PJRT_Client_Destroy_Args, .client = c));
}

int main(void) {
  A = GetPjrtApi();
  test_client_options();
  test_plugin_and_devices();
  test_execute_on_assigned_device();
  test_donation_and_replicas();
  test_bad_programs();
  test_hlo_module_proto();
  test_events();
  test_shardings();
  test_cost_and_profiler();
  test_transfer_manager();
  TEST_SUMMARY();
}
