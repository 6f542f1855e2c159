/*
 * xlacrt_tfcompile.h - the base of the C++ classes `xlac aot --cpp_class`
 * writes: tfcompile's tensorflow::XlaCompiledCpuFunction interface (the
 * names, the argument / result / variable model) over xlacrt.h's
 * instances, so that a program written against a tfcompile header
 * compiles against xlac's.  C++11, header only; needs libxlacrt.
 *
 * Differences from TensorFlow's class, where TensorFlow's types do not
 * exist here: set_thread_pool takes an xlacrt_pool (not an Eigen device);
 * ProgramShape() is the program's signature as text (not a
 * ProgramShapeProto); there is no HLO profiling.
 */
#ifndef XLACRT_TFCOMPILE_H
#define XLACRT_TFCOMPILE_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "xlacrt.h"

namespace tensorflow {

// The integer and string names tfcompile's headers bring
// (tensorflow/core/platform/types.h), which programs written for them use.
typedef std::int8_t int8;
typedef std::int16_t int16;
typedef std::int32_t int32;
typedef std::int64_t int64;
typedef std::uint8_t uint8;
typedef std::uint16_t uint16;
typedef std::uint32_t uint32;
typedef std::uint64_t uint64;
typedef std::string string;

class XlaCompiledCpuFunction {
 public:
  // What a generated class gives its base.  The variables are the last
  // num_variables arguments; variable_results[v] is the result that holds
  // variable v's new value (-1: readonly).  The names are nullptr-terminated
  // arrays, nullptr themselves unless the class was made with
  // --gen_name_to_index; program_shape is nullptr unless --gen_program_shape.
  struct StaticData {
    const xlacrt_aot_program *program;
    int num_variables;
    const int *variable_results;
    const char **arg_names;
    const char **result_names;
    const char **variable_names;
    const char *program_shape;
  };

  // Which buffers an instance allocates (results and temps always).  The
  // names of several tfcompile versions, and xlac's earlier ones.
  enum class AllocMode {
    ARGS_VARIABLES_RESULTS_PROFILES_AND_TEMPS = 0,  // arguments and variables too
    RESULTS_PROFILES_AND_TEMPS_ONLY = 1,            // the caller sets them (set_argN_data, set_var_X_data)
    ARGS_RESULTS_PROFILES_AND_TEMPS = 0,
    ARGS_RESULTS_AND_TEMPS = 0,
    RESULTS_AND_TEMPS_ONLY = 1,
  };

  XlaCompiledCpuFunction(const StaticData &static_data,
                         AllocMode alloc_mode = AllocMode::ARGS_VARIABLES_RESULTS_PROFILES_AND_TEMPS)
      : data_(static_data),
        inst_(xlacrt_aot_create(static_data.program, alloc_mode == AllocMode::RESULTS_PROFILES_AND_TEMPS_ONLY
                                                         ? XLACRT_AOT_RESULTS_AND_TEMPS_ONLY
                                                         : XLACRT_AOT_ARGS_RESULTS_AND_TEMPS)) {}
  virtual ~XlaCompiledCpuFunction() { xlacrt_aot_destroy(inst_); }
  XlaCompiledCpuFunction(const XlaCompiledCpuFunction &) = delete;
  XlaCompiledCpuFunction &operator=(const XlaCompiledCpuFunction &) = delete;

  // False when the instance could not be created (out of memory, or the
  // program needs a CPU feature this CPU lacks); nothing but error_msg()
  // may be called then.
  bool ok() const { return inst_ != nullptr; }

  // Parallel loops run on pool (xlacrt_pool_create(n) or
  // xlacrt_pool_create_external); without one, on the calling thread.
  // Results are the same either way.
  void set_thread_pool(xlacrt_pool *pool) { xlacrt_aot_set_pool(inst_, pool); }

  // Runs the program: arguments and variables are read from their buffers,
  // results written to the result buffers, and each variable the program
  // writes gets its new value in its own buffer (as tfcompile updates
  // variables in place), so a second Run continues from it.  True on
  // success; false with error_msg() saying why.
  bool Run() {
    if (!inst_ || xlacrt_aot_run(inst_) != 0) return false;
    int first = num_args() - num_variables();
    for (int v = 0; v < num_variables(); v++) {
      int r = data_.variable_results[v];
      if (r >= 0) std::memmove(arg_data(first + v), result_data(r), static_cast<size_t>(result_size(r)));
    }
    return true;
  }
  // Why the last Run failed; "" after a success.
  std::string error_msg() const {
    if (inst_) return xlacrt_aot_error(inst_);
    const char *why = xlacrt_aot_check(data_.program);
    return why ? why : "out of memory";
  }

  // Arguments (feeds, then variables), by position.
  void *arg_data(size_t index) { return xlacrt_aot_arg_data(inst_, static_cast<int>(index)); }
  const void *arg_data(size_t index) const { return xlacrt_aot_arg_data(inst_, static_cast<int>(index)); }
  void set_arg_data(size_t index, const void *data) {
    xlacrt_aot_set_arg_data(inst_, static_cast<int>(index), data);
  }
  void **args() { return xlacrt_aot_args(inst_); }
  int num_args() const { return data_.program->num_args; }
  int num_variables() const { return data_.num_variables; }
  int arg_size(int index) const { return static_cast<int>(data_.program->args[index].bytes); }

  // Results (fetches, then the variables' new values), by position.
  void *result_data(size_t index) { return xlacrt_aot_result_data(inst_, static_cast<int>(index)); }
  const void *result_data(size_t index) const { return xlacrt_aot_result_data(inst_, static_cast<int>(index)); }
  void **results() { return xlacrt_aot_results(inst_); }
  const void *const *results() const { return xlacrt_aot_results(inst_); }
  int num_results() const { return data_.program->num_results; }
  int result_size(int index) const { return static_cast<int>(data_.program->results[index].bytes); }

  // Names: true when the class was made with --gen_name_to_index.  The
  // lookups give the position of the feed, fetch or variable with that name
  // (a variable's is its argument's), or -1.
  bool HasNameIndices() const { return data_.arg_names != nullptr && data_.result_names != nullptr; }
  int LookupArgIndex(const std::string &name) const { return Find(data_.arg_names, name); }
  int LookupResultIndex(const std::string &name) const { return Find(data_.result_names, name); }
  int LookupVariableIndex(const std::string &name) const {
    int v = Find(data_.variable_names, name);
    return v < 0 ? -1 : num_args() - num_variables() + v;
  }
  // "(x: tensor<2x3xf32>, ...) -> (r: tensor<2x2xf32>)" with --gen_program_shape, else nullptr.
  const char *ProgramShape() const { return data_.program_shape; }
  bool hlo_profiling_enabled() const { return false; }
  const xlacrt_aot_program &program_descriptor() const { return *data_.program; }

 private:
  static int Find(const char **names, const std::string &name) {
    if (!names || name.empty()) return -1;
    for (int i = 0; names[i]; i++)
      if (name == names[i]) return i;
    return -1;
  }

  const StaticData &data_;
  xlacrt_aot_instance *inst_;
};

}  // namespace tensorflow

#endif  // XLACRT_TFCOMPILE_H
