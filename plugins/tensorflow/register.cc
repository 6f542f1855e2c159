// The two things a NextPluggableDevice plugin must do that TensorFlow
// offers only as C++ functions: create the PJRT client of the device and
// hand it to TensorFlow, and register the device's XLA compilation device
// so that auto-clustering forms clusters for it.
//
// This file is compiled against the installed TensorFlow wheel's own
// headers, so the types are that version's.  The functions themselves are
// looked up by their mangled names at run time: a TensorFlow whose
// functions differ (another absl or signature) gives an error naming the
// missing function, not a crash.  Everything else of the plugin is C
// (npd.c).

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <string_view>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tensorflow/compiler/tf2xla/xla_op_registry.h"
#include "tensorflow/core/framework/types.h"
#include "xla/pjrt/pjrt_common.h"

#include "glue.h"

// The build names the TensorFlow version it compiles against.
#ifndef XLAC_TF_VERSION
#error "XLAC_TF_VERSION (the TensorFlow version built against) is not defined"
#endif

// The client and key-value store stay opaque here (their headers need
// MLIR's, which the wheel does not ship).  The client is only ever handed
// on, never deleted here, so its deleter is never run.
namespace xla {
class PjRtClient;
class KeyValueStoreInterface;
}  // namespace xla
template <>
struct std::default_delete<xla::PjRtClient> {
  void operator()(xla::PjRtClient *) const { abort(); }
};

namespace {

// The signatures, as the headers of the TensorFlow built against declare
// them (xla::GetCApiClient's header is not in the wheel: its declaration,
// from pjrt_c_api_client.h, is written out here).
using GetCApiClientFn = absl::StatusOr<std::unique_ptr<xla::PjRtClient>> (*)(
    std::string_view device_type, const absl::flat_hash_map<std::string, xla::PjRtValueType>& create_options,
    std::shared_ptr<xla::KeyValueStoreInterface> kv_store);
using SetClientFn = absl::Status (*)(const tensorflow::DeviceType& device_type,
                                     std::unique_ptr<xla::PjRtClient> client);
using RegisterDeviceFn = void (*)(const std::string& device_name,
                                  const tensorflow::XlaOpRegistry::DeviceRegistration& registration);

// Their mangled names (symbols.txt, passed in by build.sh).
#if !defined(XLAC_SYM_GET_CAPI_CLIENT) || !defined(XLAC_SYM_SET_CLIENT) || !defined(XLAC_SYM_REGISTER_DEVICE)
#error "build with build.sh: the symbols of symbols.txt are not defined"
#endif
const char kGetCApiClient[] = XLAC_SYM_GET_CAPI_CLIENT;
const char kSetClient[] = XLAC_SYM_SET_CLIENT;
const char kRegisterDevice[] = XLAC_SYM_REGISTER_DEVICE;

char *message(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = nullptr;
  if (vasprintf(&s, fmt, ap) < 0) s = nullptr;
  va_end(ap);
  return s ? s : strdup("xlac: out of memory");
}

// The function `what` of TensorFlow, or NULL with *err set.
void *lookup(const char *mangled, const char *what, char **err) {
  void *f = dlsym(RTLD_DEFAULT, mangled);
  if (!f)
    *err = message("xlac: this TensorFlow has no %s with the signature of TensorFlow %s, which libxlac_tf.so was "
                   "built against; reinstall the plugin against this TensorFlow (pip install ./plugins/tensorflow)",
                   what, XLAC_TF_VERSION);
  return f;
}

}  // namespace

extern "C" const char *xlac_tf_built_for(void) { return XLAC_TF_VERSION; }

extern "C" void *xlac_tf_new_array(size_t bytes) {
  void *p = ::operator new[](bytes ? bytes : 1, std::nothrow);
  if (p) std::memset(p, 0, bytes);
  return p;
}

extern "C" char *xlac_tf_register_client(const char *device_type) {
  char *err = nullptr;
  auto get = reinterpret_cast<GetCApiClientFn>(lookup(kGetCApiClient, "xla::GetCApiClient", &err));
  auto set = reinterpret_cast<SetClientFn>(
      err ? nullptr : lookup(kSetClient, "tensorflow::SetPjRtClientInTFGlobalResourceManager", &err));
  if (err) return err;
  absl::flat_hash_map<std::string, xla::PjRtValueType> options;
  absl::StatusOr<std::unique_ptr<xla::PjRtClient>> client = get(device_type, options, nullptr);
  if (!client.ok())
    return message("xlac: creating the PJRT client of %s: %s", device_type, client.status().ToString().c_str());
  absl::Status st = set(tensorflow::DeviceType(device_type), std::move(*client));
  if (!st.ok())
    return message("xlac: registering the PJRT client of %s: %s", device_type, st.ToString().c_str());
  return nullptr;
}

extern "C" char *xlac_tf_register_compilation_device(const char *device_type, const char *jit_device) {
  char *err = nullptr;
  auto reg = reinterpret_cast<RegisterDeviceFn>(
      lookup(kRegisterDevice, "tensorflow::XlaOpRegistry::RegisterCompilationDevice", &err));
  if (err) return err;
  tensorflow::XlaOpRegistry::DeviceRegistration r;
  r.compilation_device_name = jit_device;
  r.autoclustering_policy = tensorflow::XlaOpRegistry::AutoclusteringPolicy::kAlways;
  r.cluster_resource_variable_ops_unsafely = true;
  r.cluster_stack_ops = false;
  r.cluster_tensor_array_ops = true;
  r.cluster_stateful_rng_ops = true;
  r.cluster_control_trigger = true;
  r.elide_assert_and_checknumerics = true;
  r.cluster_variant_ops = true;
  r.cluster_slow_ops = true;
  r.cluster_inaccurate_ops = true;
  reg(device_type, r);
  return nullptr;
}
