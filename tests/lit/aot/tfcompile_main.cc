// The checks of TensorFlow's tfcompile test (tensorflow/compiler/aot/tests,
// tfcompile_test.cc) on the classes `xlac aot --graph --config --cpp_class`
// makes of the same graphs (tests/fixtures/tfcompile), written against
// tfcompile's class interface: the same class names, accessors, AllocMode
// enumerators, name lookups and variable semantics.  Where TensorFlow's
// own types appear (an Eigen thread pool device, xla::ProgramShapeProto),
// xlac's take their place.  Prints one line per check group and "PASS N"
// or the failures.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "test_graph_tfadd.h"
#include "test_graph_tfadd_with_ckpt.h"
#include "test_graph_tfadd_with_ckpt_saver.h"
#include "test_graph_tfassert_eq.h"
#include "test_graph_tfcond.h"
#include "test_graph_tffunction.h"
#include "test_graph_tfgather.h"
#include "test_graph_tfmatmul.h"
#include "test_graph_tfmatmulandadd.h"
#include "test_graph_tfsplits.h"
#include "test_graph_tftop_k.h"
#include "test_graph_tfvariable.h"
#include "test_graph_tfvariable_readonly.h"
#include "test_graph_tfvariable_sequential_updates.h"

// Inside tensorflow::tfcompile, as TensorFlow's test is: int32 and
// XlaCompiledCpuFunction are found as there.
namespace tensorflow {
namespace tfcompile {

static int checks, failures;

static void fail_at(int line, const std::string &what) {
  failures++;
  std::printf("FAIL line %d: %s\n", line, what.c_str());
}

// The value printed as text, for messages.
template <typename T> static std::string show(const T &v) { return std::to_string(v); }
static std::string show(const std::string &v) { return "\"" + v + "\""; }
static std::string show(const void *v) {
  char b[32];
  std::snprintf(b, sizeof b, "%p", v);
  return b;
}

#define EXPECT_EQ(a, b)                                                                                 \
  do {                                                                                                  \
    checks++;                                                                                           \
    auto va = (a);                                                                                      \
    auto vb = (b);                                                                                      \
    if (!(va == vb)) fail_at(__LINE__, std::string(#a " == " #b ": ") + show(va) + " vs " + show(vb)); \
  } while (0)
#define EXPECT_TRUE(a) EXPECT_EQ(static_cast<bool>(a), true)
#define EXPECT_FALSE(a) EXPECT_EQ(static_cast<bool>(a), false)
#define EXPECT_NEAR(a, b, tol)                                                                 \
  do {                                                                                         \
    checks++;                                                                                  \
    double va = (a), vb = (b);                                                                 \
    if (!(std::fabs(va - vb) <= (tol)))                                                        \
      fail_at(__LINE__, std::string(#a " near " #b ": ") + std::to_string(va) + " vs " + std::to_string(vb)); \
  } while (0)
#define SAME(p, q) EXPECT_EQ(static_cast<const void *>(p), static_cast<const void *>(q))

static void Add() {
  AddComp add;
  SAME(add.arg0_data(), add.arg_data(0));
  SAME(add.arg1_data(), add.arg_data(1));
  add.arg0() = 1;
  add.arg1() = 2;
  EXPECT_TRUE(add.Run());
  EXPECT_EQ(add.error_msg(), std::string());
  EXPECT_EQ(add.result0(), 3);
  EXPECT_EQ(add.result0_data()[0], 3);
  SAME(add.result0_data(), add.results()[0]);
  add.arg0_data()[0] = 123;
  add.arg1_data()[0] = 456;
  EXPECT_TRUE(add.Run());
  EXPECT_EQ(add.result0(), 579);
  EXPECT_EQ(add.result0_data()[0], 579);
  const AddComp &c = add;
  EXPECT_EQ(c.error_msg(), std::string());
  EXPECT_EQ(c.arg0(), 123);
  EXPECT_EQ(c.arg0_data()[0], 123);
  SAME(c.arg0_data(), c.arg_data(0));
  EXPECT_EQ(c.arg1(), 456);
  EXPECT_EQ(c.arg1_data()[0], 456);
  SAME(c.arg1_data(), c.arg_data(1));
  EXPECT_EQ(c.result0(), 579);
  EXPECT_EQ(c.result0_data()[0], 579);
  SAME(c.result0_data(), c.results()[0]);
  EXPECT_EQ(c.arg_size(0), 4);
  EXPECT_EQ(c.result_size(0), 4);
  EXPECT_EQ(AddComp::ArgSize(1), 4);
  EXPECT_EQ(c.num_args(), 2);
  EXPECT_EQ(c.num_results(), 1);
}

static void AddSetArg() {
  AddComp add(XlaCompiledCpuFunction::AllocMode::RESULTS_PROFILES_AND_TEMPS_ONLY);
  int32 x = 10, y = 32;
  add.set_arg0_data(&x);
  add.set_arg1_data(&y);
  SAME(add.arg0_data(), &x);
  SAME(add.arg0_data(), add.arg_data(0));
  SAME(add.arg1_data(), add.arg_data(1));
  EXPECT_TRUE(add.Run());
  EXPECT_EQ(add.error_msg(), std::string());
  EXPECT_EQ(add.result0(), 42);
  EXPECT_EQ(add.result0_data()[0], 42);
  SAME(add.result0_data(), add.results()[0]);
}

// y_saved is 42 in the checkpoint, frozen into the graph: x + 42.
template <typename Comp> static void AddWithCkpt() {
  Comp add;
  SAME(add.arg0_data(), add.arg_data(0));
  add.arg0() = 1;
  EXPECT_TRUE(add.Run());
  EXPECT_EQ(add.error_msg(), std::string());
  EXPECT_EQ(add.result0(), 43);
  EXPECT_EQ(add.result0_data()[0], 43);
  SAME(add.result0_data(), add.result_data(0));
  add.arg0_data()[0] = 111;
  EXPECT_TRUE(add.Run());
  EXPECT_EQ(add.error_msg(), std::string());
  EXPECT_EQ(add.result0(), 153);
  EXPECT_EQ(add.result0_data()[0], 153);
  SAME(add.result0_data(), add.result_data(0));
  const Comp &c = add;
  EXPECT_EQ(c.error_msg(), std::string());
  EXPECT_EQ(c.arg0(), 111);
  EXPECT_EQ(c.arg0_data()[0], 111);
  SAME(c.arg0_data(), c.arg_data(0));
  EXPECT_EQ(c.result0(), 153);
  EXPECT_EQ(c.result0_data()[0], 153);
  SAME(c.result0_data(), c.result_data(0));
  EXPECT_EQ(c.num_args(), 1);  // the frozen variable is no argument
  EXPECT_EQ(c.num_results(), 1);
}

static void Cond() {
  CondComp cond;
  SAME(cond.arg0_data(), cond.arg_data(0));
  SAME(cond.arg1_data(), cond.arg_data(1));
  SAME(cond.arg2_data(), cond.arg_data(2));
  cond.arg1() = 10;
  cond.arg2() = 20;
  for (int p = 1; p >= 0; p--) {
    cond.arg0() = p;
    const int32 want = p ? cond.arg1() : cond.arg2();
    EXPECT_TRUE(cond.Run());
    EXPECT_EQ(cond.result0(), want);
    EXPECT_EQ(cond.result0_data()[0], want);
    SAME(cond.result0_data(), cond.results()[0]);
  }
}

static void Gather() {
  GatherComp gather;
  SAME(gather.arg0_data(), gather.arg_data(0));
  SAME(gather.arg1_data(), gather.arg_data(1));
  const float params[4] = {1, 2, 3, 4};
  const int32 indices[2] = {1, 3};
  const float want[2] = {2, 4};
  std::copy(params, params + 4, gather.arg0_data());
  std::copy(indices, indices + 2, gather.arg1_data());
  EXPECT_TRUE(gather.Run());
  EXPECT_EQ(gather.error_msg(), std::string());
  for (int i = 0; i < 2; i++) {
    EXPECT_EQ(gather.result0(i), want[i]);
    EXPECT_EQ(gather.result0_data()[i], want[i]);
  }
  SAME(gather.result0_data(), gather.results()[0]);
  const GatherComp &c = gather;
  for (int i = 0; i < 4; i++) {
    EXPECT_EQ(c.arg0(i), params[i]);
    EXPECT_EQ(c.arg0_data()[i], params[i]);
  }
  SAME(c.arg0_data(), c.arg_data(0));
  for (int i = 0; i < 2; i++) {
    EXPECT_EQ(c.arg1(i), indices[i]);
    EXPECT_EQ(c.arg1_data()[i], indices[i]);
    EXPECT_EQ(c.result0(i), want[i]);
  }
  SAME(c.arg1_data(), c.arg_data(1));
  SAME(c.result0_data(), c.results()[0]);
}

static void MatMul2(xlacrt_pool *pool2) {
  foo::bar::MatMulComp matmul;
  matmul.set_thread_pool(pool2);
  SAME(matmul.arg0_data(), matmul.arg_data(0));
  SAME(matmul.arg1_data(), matmul.arg_data(1));
  // through argN(i, j)
  for (int i = 0; i < 6; i++) matmul.arg0(i / 3, i % 3) = static_cast<float>(i + 1);
  for (int i = 0; i < 6; i++) matmul.arg1(i / 2, i % 2) = static_cast<float>(i + 7);
  EXPECT_TRUE(matmul.Run());
  EXPECT_EQ(matmul.error_msg(), std::string());
  const float want1[4] = {58, 64, 139, 154};
  for (int i = 0; i < 4; i++) {
    EXPECT_EQ(matmul.result0(i / 2, i % 2), want1[i]);
    EXPECT_EQ(matmul.result0_data()[i], want1[i]);
  }
  SAME(matmul.result0_data(), matmul.results()[0]);
  // through argN_data()
  const float args[12] = {10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120};
  std::copy(args, args + 6, matmul.arg0_data());
  std::copy(args + 6, args + 12, matmul.arg1_data());
  EXPECT_TRUE(matmul.Run());
  const float want2[4] = {5800, 6400, 13900, 15400};
  const foo::bar::MatMulComp &c = matmul;
  EXPECT_EQ(c.error_msg(), std::string());
  for (int i = 0; i < 4; i++) {
    EXPECT_EQ(c.result0(i / 2, i % 2), want2[i]);
    EXPECT_EQ(c.result0_data()[i], want2[i]);
  }
  for (int i = 0; i < 6; i++) {
    EXPECT_EQ(c.arg0(i / 3, i % 3), args[i]);
    EXPECT_EQ(c.arg0_data()[i], args[i]);
    EXPECT_EQ(c.arg1(i / 2, i % 2), args[i + 6]);
    EXPECT_EQ(c.arg1_data()[i], args[i + 6]);
  }
  SAME(c.arg0_data(), matmul.arg_data(0));
  SAME(c.arg1_data(), matmul.arg_data(1));
  SAME(c.result0_data(), matmul.results()[0]);
}

static void MatMul2SetArg(xlacrt_pool *pool2) {
  foo::bar::MatMulComp matmul(foo::bar::MatMulComp::AllocMode::RESULTS_PROFILES_AND_TEMPS_ONLY);
  matmul.set_thread_pool(pool2);
  float arg0[2][3] = {{1, 2, 3}, {4, 5, 6}};
  float arg1[3][2] = {{7, 8}, {9, 10}, {11, 12}};
  matmul.set_arg0_data(&arg0);
  matmul.set_arg1_data(&arg1);
  SAME(matmul.arg0_data(), matmul.arg_data(0));
  SAME(matmul.arg1_data(), matmul.arg_data(1));
  EXPECT_TRUE(matmul.Run());
  EXPECT_EQ(matmul.error_msg(), std::string());
  const float want[4] = {58, 64, 139, 154};
  for (int i = 0; i < 4; i++) {
    EXPECT_EQ(matmul.result0(i / 2, i % 2), want[i]);
    EXPECT_EQ(matmul.result0_data()[i], want[i]);
  }
}

static void MatMulAndAdd1(xlacrt_pool *pool1) {
  ::foo::bar::MatMulAndAddComp muladd;
  muladd.set_thread_pool(pool1);
  SAME(muladd.arg0_data(), muladd.arg_data(0));
  SAME(muladd.arg1_data(), muladd.arg_data(1));
  // by position
  const float args[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  std::copy(args, args + 4, muladd.arg0_data());
  std::copy(args + 4, args + 8, muladd.arg1_data());
  EXPECT_TRUE(muladd.Run());
  EXPECT_EQ(muladd.error_msg(), std::string());
  const float prod[4] = {19, 22, 43, 50}, sum[4] = {6, 8, 10, 12};
  const ::foo::bar::MatMulAndAddComp &c = muladd;
  for (int i = 0; i < 4; i++) {
    EXPECT_EQ(muladd.result0(i / 2, i % 2), prod[i]);
    EXPECT_EQ(muladd.result0_data()[i], prod[i]);
    EXPECT_EQ(muladd.result1(i / 2, i % 2), sum[i]);
    EXPECT_EQ(muladd.result1_data()[i], sum[i]);
    EXPECT_EQ(c.arg0(i / 2, i % 2), args[i]);
    EXPECT_EQ(c.arg1(i / 2, i % 2), args[i + 4]);
    EXPECT_EQ(c.result0(i / 2, i % 2), prod[i]);
    EXPECT_EQ(c.result1_data()[i], sum[i]);
  }
  SAME(muladd.result0_data(), muladd.results()[0]);
  SAME(muladd.result1_data(), muladd.results()[1]);
  SAME(c.arg0_data(), muladd.arg_data(0));
  SAME(c.arg1_data(), muladd.arg_data(1));
  // by the Config's names
  const float args2[8] = {10, 20, 30, 40, 50, 60, 70, 80};
  std::copy(args2, args2 + 4, muladd.arg_x_data());
  std::copy(args2 + 4, args2 + 8, muladd.arg_y_data());
  EXPECT_TRUE(muladd.Run());
  EXPECT_EQ(muladd.error_msg(), std::string());
  const float prod2[4] = {1900, 2200, 4300, 5000}, sum2[4] = {60, 80, 100, 120};
  for (int i = 0; i < 4; i++) {
    EXPECT_EQ(muladd.result_x_y_prod(i / 2, i % 2), prod2[i]);
    EXPECT_EQ(muladd.result_x_y_prod_data()[i], prod2[i]);
    EXPECT_EQ(muladd.result_x_y_sum(i / 2, i % 2), sum2[i]);
    EXPECT_EQ(muladd.result_x_y_sum_data()[i], sum2[i]);
    EXPECT_EQ(c.arg_x(i / 2, i % 2), args2[i]);
    EXPECT_EQ(c.arg_x_data()[i], args2[i]);
    EXPECT_EQ(c.arg_y(i / 2, i % 2), args2[i + 4]);
    EXPECT_EQ(c.arg_y_data()[i], args2[i + 4]);
    EXPECT_EQ(c.result_x_y_prod(i / 2, i % 2), prod2[i]);
    EXPECT_EQ(c.result_x_y_sum_data()[i], sum2[i]);
  }
  SAME(muladd.result_x_y_prod_data(), muladd.results()[0]);
  SAME(muladd.result_x_y_sum_data(), muladd.results()[1]);
  SAME(c.arg_x_data(), muladd.arg_data(0));
  SAME(c.arg_y_data(), muladd.arg_data(1));
}

static void Function() {
  FunctionComp add_fn;
  SAME(add_fn.arg0_data(), add_fn.arg_data(0));
  SAME(add_fn.arg1_data(), add_fn.arg_data(1));
  add_fn.arg0() = 1;
  add_fn.arg1() = 2;
  EXPECT_TRUE(add_fn.Run());
  EXPECT_EQ(add_fn.error_msg(), std::string());
  EXPECT_EQ(add_fn.result0(), 3);
  EXPECT_EQ(add_fn.result0_data()[0], 3);
  SAME(add_fn.result0_data(), add_fn.results()[0]);
}

static void Splits(xlacrt_pool *pool1) {
  SplitsComp fn;
  fn.set_thread_pool(pool1);
  const float x[4] = {1, 2, 3, 4}, y[4] = {10, 20, 30, 40};
  for (int i = 0; i < 4; i++) {
    fn.arg0(i / 2, i % 2) = x[i];
    fn.arg1(i / 2, i % 2) = y[i];
  }
  EXPECT_TRUE(fn.Run());
  EXPECT_EQ(fn.error_msg(), std::string());
  const float want[4] = {7.86375557e+10f, 1.34274679e+11f, 1.92741717e+12f, 3.29964742e+12f};
  for (int i = 0; i < 4; i++) EXPECT_NEAR(want[i], fn.result0(i / 2, i % 2), 1e4);
}

static void TopK(xlacrt_pool *pool1) {
  TopKComp fn;
  fn.set_thread_pool(pool1);
  const int32 x[5] = {4, 1, 4, 4, 3};
  for (int i = 0; i < 5; i++) fn.arg0(i) = x[i];
  EXPECT_TRUE(fn.Run());
  EXPECT_EQ(fn.error_msg(), std::string());
  EXPECT_EQ(fn.result0(0), 4);
  EXPECT_EQ(fn.result0(1), 4);
  EXPECT_EQ(fn.result1(0), 0);
  EXPECT_EQ(fn.result1(1), 2);
}

static void VariableReadonly(xlacrt_pool *pool1) {
  VariableReadonlyComp fn;
  float x = 23;
  fn.set_var_x_data(&x);
  fn.set_thread_pool(pool1);
  EXPECT_TRUE(fn.Run());
  EXPECT_EQ(fn.result0(), 65);
  EXPECT_EQ(fn.var_x(), 23);
  EXPECT_EQ(VariableReadonlyComp::kNumVariables, 1u);
  EXPECT_EQ(fn.num_results(), 1);  // a readonly variable is no result
}

static void Variable(xlacrt_pool *pool1) {
  VariableComp fn;
  float x = 23;
  fn.set_var_x_data(&x);
  fn.set_thread_pool(pool1);
  EXPECT_TRUE(fn.Run());
  EXPECT_EQ(fn.result0(0, 0), 23);
  EXPECT_EQ(fn.result0(1, 0), 65);
  EXPECT_EQ(fn.var_x(), 65);
  SAME(fn.var_x_data(), &x);
  EXPECT_EQ(x, 65);
  EXPECT_TRUE(fn.Run());
  EXPECT_EQ(fn.result0(0, 0), 65);
  EXPECT_EQ(fn.result0(1, 0), 107);
  EXPECT_EQ(fn.var_x(), 107);
}

static void VariableSequentialUpdates(xlacrt_pool *pool1) {
  // x[n+1] = x[n] - 0.1 * (x[n] + y), three times a run, from x = 2, y = 1
  VariableSequentialUpdatesComp fn;
  fn.var_x() = 2;
  *const_cast<float *>(fn.var_y_data()) = 1;
  fn.set_thread_pool(pool1);
  EXPECT_TRUE(fn.Run());
  EXPECT_NEAR(fn.var_x(), 1.187f, 1e-6);
  const float y = 1;
  fn.set_var_y_data(&y);
  EXPECT_TRUE(fn.Run());
  EXPECT_NEAR(fn.var_x(), 0.594322f, 1e-6);
}

static void VariableSequentialUpdatesNoAlloc(xlacrt_pool *pool1) {
  VariableSequentialUpdatesComp fn(XlaCompiledCpuFunction::AllocMode::RESULTS_PROFILES_AND_TEMPS_ONLY);
  float x = 2, y = 1;
  fn.set_var_x_data(&x);
  fn.set_var_y_data(&y);
  fn.set_thread_pool(pool1);
  EXPECT_TRUE(fn.Run());
  EXPECT_NEAR(x, 1.187f, 1e-6);
  EXPECT_TRUE(fn.Run());
  EXPECT_NEAR(x, 0.594322f, 1e-6);
  EXPECT_EQ(y, 1);
}

static void AssertEqAndReturnDiff() {
  // Assert compiles to nothing, as in XLA: no failure although x != y
  AssertComp assert_comp;
  SAME(assert_comp.arg0_data(), assert_comp.arg_data(0));
  SAME(assert_comp.arg1_data(), assert_comp.arg_data(1));
  assert_comp.arg0() = 2;
  assert_comp.arg1() = 1;
  EXPECT_TRUE(assert_comp.Run());
  EXPECT_EQ(assert_comp.error_msg(), std::string());
  EXPECT_EQ(assert_comp.result0(), 1);
  EXPECT_EQ(assert_comp.result0_data()[0], 1);
  SAME(assert_comp.result0_data(), assert_comp.results()[0]);
}

static void LookupNameIndex() {
  AddComp add;  // made without --gen_name_to_index
  EXPECT_FALSE(add.HasNameIndices());
  EXPECT_EQ(add.LookupArgIndex("x_const"), -1);
  ::foo::bar::MatMulAndAddComp muladd;
  EXPECT_TRUE(muladd.HasNameIndices());
  EXPECT_EQ(muladd.LookupArgIndex("x"), 0);
  EXPECT_EQ(muladd.LookupArgIndex("y"), 1);
  const char *not_args[] = {"", "x_hold", "y_hold", "x_y_prod", "x_y_sum"};
  for (const char *n : not_args) EXPECT_EQ(muladd.LookupArgIndex(n), -1);
  EXPECT_EQ(muladd.LookupResultIndex("x_y_prod"), 0);
  EXPECT_EQ(muladd.LookupResultIndex("x_y_sum"), 1);
  const char *not_results[] = {"", "x", "y", "x_hold", "y_hold"};
  for (const char *n : not_results) EXPECT_EQ(muladd.LookupResultIndex(n), -1);
}

static void ProgramShape() {
  AddComp add;  // made without --gen_program_shape
  EXPECT_TRUE(add.ProgramShape() == nullptr);
  ::foo::bar::MatMulAndAddComp muladd;
  EXPECT_TRUE(muladd.ProgramShape() != nullptr);
  if (muladd.ProgramShape())
    EXPECT_EQ(std::string(muladd.ProgramShape()),
              std::string("(x: tensor<2x2xf32>, y: tensor<2x2xf32>) -> (x_y_prod: tensor<2x2xf32>, x_y_sum: "
                          "tensor<2x2xf32>)"));
}

}  // namespace tfcompile
}  // namespace tensorflow

using namespace tensorflow::tfcompile;

int main() {
  xlacrt_pool *pool1 = xlacrt_pool_create(1), *pool2 = xlacrt_pool_create(2);
  struct {
    const char *name;
    void (*run)(xlacrt_pool *, xlacrt_pool *);
  } tests[] = {
      {"Add", [](xlacrt_pool *, xlacrt_pool *) { Add(); }},
      {"Add_SetArg", [](xlacrt_pool *, xlacrt_pool *) { AddSetArg(); }},
      {"AddWithCkpt", [](xlacrt_pool *, xlacrt_pool *) { AddWithCkpt<AddWithCkptComp>(); }},
      {"AddWithCkptSaver", [](xlacrt_pool *, xlacrt_pool *) { AddWithCkpt<AddWithCkptSaverComp>(); }},
      {"Cond", [](xlacrt_pool *, xlacrt_pool *) { Cond(); }},
      {"Gather", [](xlacrt_pool *, xlacrt_pool *) { Gather(); }},
      {"MatMul2", [](xlacrt_pool *, xlacrt_pool *p2) { MatMul2(p2); }},
      {"MatMul2_SetArg", [](xlacrt_pool *, xlacrt_pool *p2) { MatMul2SetArg(p2); }},
      {"MatMulAndAdd1", [](xlacrt_pool *p1, xlacrt_pool *) { MatMulAndAdd1(p1); }},
      {"Function", [](xlacrt_pool *, xlacrt_pool *) { Function(); }},
      {"Splits", [](xlacrt_pool *p1, xlacrt_pool *) { Splits(p1); }},
      {"TopK", [](xlacrt_pool *p1, xlacrt_pool *) { TopK(p1); }},
      {"VariableReadonly", [](xlacrt_pool *p1, xlacrt_pool *) { VariableReadonly(p1); }},
      {"Variable", [](xlacrt_pool *p1, xlacrt_pool *) { Variable(p1); }},
      {"VariableSequentialUpdates", [](xlacrt_pool *p1, xlacrt_pool *) { VariableSequentialUpdates(p1); }},
      {"VariableSequentialUpdatesNoAlloc",
       [](xlacrt_pool *p1, xlacrt_pool *) { VariableSequentialUpdatesNoAlloc(p1); }},
      {"AssertEqAndReturnDiff", [](xlacrt_pool *, xlacrt_pool *) { AssertEqAndReturnDiff(); }},
      {"LookupNameIndex", [](xlacrt_pool *, xlacrt_pool *) { LookupNameIndex(); }},
      {"ProgramShape", [](xlacrt_pool *, xlacrt_pool *) { ProgramShape(); }},
  };
  for (auto &t : tests) {
    int before = failures;
    t.run(pool1, pool2);
    std::printf("%s %s\n", failures == before ? "ok" : "FAILED", t.name);
  }
  xlacrt_pool_destroy(pool1);
  xlacrt_pool_destroy(pool2);
  if (failures) {
    std::printf("%d of %d checks failed\n", failures, checks);
    return 1;
  }
  std::printf("PASS %d checks\n", checks);
  return 0;
}
