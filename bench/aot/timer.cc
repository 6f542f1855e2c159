// Times one function compiled ahead of time by `saved_model_cli
// aot_compile_cpu` (TensorFlow's tfcompile machinery).
//
// Built once per model by tfcompile.sh with
//     -DAOT_HEADER='"NAME.h"' -DAOT_CLASS=bench_aot::NAME
// usage: timer [options] RESULT.bin FEED=INPUT.bin ...
//   FEED        an argument name as the generated class knows it
//               (saved_model_cli calls a signature input `x` "feed_x")
//   --result R  the result's name (default: result 0)
//   --tol T     largest acceptable max abs error (default 1e-4)
//   --batches N timed batches (default 15)
//   --batch-ms M  aim for batches of about M milliseconds (default 20)
//
// The inputs and the expected result are raw little-endian float32.  The
// program copies the inputs into the function's own argument buffers,
// runs it once and compares the result with RESULT.bin (max abs error),
// then warms up and times Run() in batches of equal size: one batch's
// ns/call is its time divided by its size, and min/median/max over the
// batches are reported.  No thread pool is set, so everything runs on the
// calling thread.
//
// Output: human-readable lines, then
//   TIMER check_max_abs_err=E ok=0|1 min_ns=A median_ns=B max_ns=C
//         calls_per_batch=K batches=N

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include AOT_HEADER

namespace {

bool ReadFloats(const std::string& path, std::vector<float>* out) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) {
    std::fprintf(stderr, "timer: cannot open %s\n", path.c_str());
    return false;
  }
  std::fseek(f, 0, SEEK_END);
  long n = std::ftell(f);
  std::fseek(f, 0, SEEK_SET);
  out->resize(static_cast<size_t>(n) / sizeof(float));
  size_t got = std::fread(out->data(), sizeof(float), out->size(), f);
  std::fclose(f);
  if (n < 0 || n % sizeof(float) != 0 || got != out->size()) {
    std::fprintf(stderr, "timer: %s: cannot read float32 data\n",
                 path.c_str());
    return false;
  }
  return true;
}

double NowNs() {
  return std::chrono::duration<double, std::nano>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Calls fn.Run() n times; returns the elapsed nanoseconds, or -1 on failure.
double TimeCalls(AOT_CLASS& fn, long n) {
  double t0 = NowNs();
  for (long i = 0; i < n; ++i) {
    if (!fn.Run()) return -1;
  }
  return NowNs() - t0;
}

int Usage() {
  std::fprintf(stderr,
               "usage: timer [--result NAME] [--tol T] [--batches N] "
               "[--batch-ms M] RESULT.bin FEED=INPUT.bin ...\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string result_name, result_path;
  std::vector<std::pair<std::string, std::string>> feeds;
  double tol = 1e-4, batch_ms = 20;
  int batches = 15;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    bool has_value = i + 1 < argc;
    if (a == "--result" && has_value) {
      result_name = argv[++i];
    } else if (a == "--tol" && has_value) {
      tol = std::atof(argv[++i]);
    } else if (a == "--batches" && has_value) {
      batches = std::max(1, std::atoi(argv[++i]));
    } else if (a == "--batch-ms" && has_value) {
      batch_ms = std::atof(argv[++i]);
    } else if (a.rfind("--", 0) == 0) {
      return Usage();
    } else if (result_path.empty()) {
      result_path = a;
    } else {
      size_t eq = a.find('=');
      if (eq == std::string::npos) return Usage();
      feeds.emplace_back(a.substr(0, eq), a.substr(eq + 1));
    }
  }
  if (result_path.empty()) return Usage();

  AOT_CLASS fn;  // allocates its own argument, result and temp buffers
  if (static_cast<int>(feeds.size()) != fn.num_args()) {
    std::fprintf(stderr, "timer: the function takes %d arguments, got %zu\n",
                 fn.num_args(), feeds.size());
    return 2;
  }
  for (const auto& feed : feeds) {
    int idx = fn.LookupArgIndex(feed.first);
    if (idx < 0) {
      std::fprintf(stderr, "timer: no argument named %s; the names are:",
                   feed.first.c_str());
      for (int k = 0; k < fn.num_args(); ++k)
        std::fprintf(stderr, " %s", fn.GetArgName(k));
      std::fprintf(stderr, "\n");
      return 2;
    }
    std::vector<float> data;
    if (!ReadFloats(feed.second, &data)) return 2;
    if (data.size() * sizeof(float) != static_cast<size_t>(fn.arg_size(idx))) {
      std::fprintf(stderr, "timer: %s: %zu bytes, argument %s wants %d\n",
                   feed.second.c_str(), data.size() * sizeof(float),
                   feed.first.c_str(), fn.arg_size(idx));
      return 2;
    }
    std::memcpy(fn.arg_data(idx), data.data(), fn.arg_size(idx));
  }
  int ridx = result_name.empty() ? 0 : fn.LookupResultIndex(result_name);
  if (ridx < 0 || ridx >= fn.num_results()) {
    std::fprintf(stderr, "timer: no result named %s\n", result_name.c_str());
    return 2;
  }
  std::vector<float> expect;
  if (!ReadFloats(result_path, &expect)) return 2;
  if (expect.size() * sizeof(float) !=
      static_cast<size_t>(fn.result_size(ridx))) {
    std::fprintf(stderr, "timer: %s: %zu bytes, the result has %d\n",
                 result_path.c_str(), expect.size() * sizeof(float),
                 fn.result_size(ridx));
    return 2;
  }

  // One checked call.
  if (!fn.Run()) {
    std::fprintf(stderr, "timer: Run() failed: %s\n", fn.error_msg().c_str());
    return 1;
  }
  const float* got = static_cast<const float*>(fn.result_data(ridx));
  double err = 0;
  for (size_t i = 0; i < expect.size(); ++i) {
    double d = std::fabs(static_cast<double>(got[i]) - expect[i]);
    if (!(d <= err)) err = d;  // NaN propagates
  }
  bool ok = err <= tol;
  std::printf("check: %zu values, max abs error %.3g vs TensorFlow (%s)\n",
              expect.size(), err, ok ? "ok" : "TOO LARGE");

  // Warm up for about one batch's time while sizing the batches.
  long calls = 1;
  double ns = 0;
  while (ns < batch_ms * 1e6 / 4) {
    calls *= 2;
    ns = TimeCalls(fn, calls);
    if (ns < 0) {
      std::fprintf(stderr, "timer: Run() failed: %s\n",
                   fn.error_msg().c_str());
      return 1;
    }
  }
  calls = std::max(1L, static_cast<long>(calls * (batch_ms * 1e6) / ns));
  TimeCalls(fn, calls);

  std::vector<double> per_call;
  for (int b = 0; b < batches; ++b) {
    double t = TimeCalls(fn, calls);
    if (t < 0) {
      std::fprintf(stderr, "timer: Run() failed: %s\n",
                   fn.error_msg().c_str());
      return 1;
    }
    per_call.push_back(t / calls);
  }
  std::sort(per_call.begin(), per_call.end());
  double median = per_call.size() % 2
                      ? per_call[per_call.size() / 2]
                      : 0.5 * (per_call[per_call.size() / 2 - 1] +
                               per_call[per_call.size() / 2]);
  std::printf("time: %d batches of %ld calls: ns/call min %.1f median %.1f "
              "max %.1f\n",
              batches, calls, per_call.front(), median, per_call.back());
  std::printf("TIMER check_max_abs_err=%.3g ok=%d min_ns=%.1f median_ns=%.1f "
              "max_ns=%.1f calls_per_batch=%ld batches=%d\n",
              err, ok ? 1 : 0, per_call.front(), median, per_call.back(),
              calls, batches);
  return ok ? 0 : 1;
}
