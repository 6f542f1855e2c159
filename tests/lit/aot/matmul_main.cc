// tfcompile's MatMulComp example (its guide, step 3), against the header
// `xlac aot --cpp_class=foo::bar::MatMulComp` writes.
#include <algorithm>
#include <iostream>

#include "test_graph_tfmatmul.h"  // generated

int main() {
  xlacrt_pool *pool = xlacrt_pool_create(2);  // size the thread pool as appropriate

  foo::bar::MatMulComp matmul;
  matmul.set_thread_pool(pool);

  // Set up args and run the computation.
  const float args[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  std::copy(args + 0, args + 6, matmul.arg0_data());
  std::copy(args + 6, args + 12, matmul.arg1_data());
  if (!matmul.Run()) {
    std::cout << "Run failed: " << matmul.error_msg() << std::endl;
    return 1;
  }

  // Check result
  if (matmul.result0(0, 0) == 58) {
    std::cout << "Success" << std::endl;
  } else {
    std::cout << "Failed. Expected value 58 at 0,0. Got:" << matmul.result0(0, 0) << std::endl;
  }
  // the same buffers by feed and fetch name (tfcompile's arg_NAME / result_NAME), and the other entries
  std::cout << "x_y_prod = [[" << matmul.result_x_y_prod(0, 0) << ", " << matmul.result_x_y_prod(0, 1)
            << "], [" << matmul.result_x_y_prod(1, 0) << ", " << matmul.result_x_y_prod(1, 1) << "]]"
            << std::endl;
  std::cout << "sizes " << matmul.arg0_size() << " " << matmul.arg1_size() << " " << matmul.result0_size()
            << std::endl;
  std::cout << "y_hold is arg " << matmul.LookupArgIndex("y_hold") << ", x_y_prod is result "
            << matmul.LookupResultIndex("x_y_prod") << ", nothing is " << matmul.LookupArgIndex("nothing") << std::endl;
  std::cout << matmul.ProgramShape() << std::endl;

  // caller-provided arguments
  foo::bar::MatMulComp borrowed(foo::bar::MatMulComp::AllocMode::RESULTS_AND_TEMPS_ONLY);
  if (borrowed.Run()) return 1;
  std::cout << "unset: " << borrowed.error_msg() << std::endl;
  alignas(64) float x[6] = {1, 0, 0, 0, 1, 0}, y[6] = {1, 2, 3, 4, 5, 6};
  borrowed.set_arg_x_hold_data(x);
  borrowed.set_arg1_data(y);
  if (!borrowed.Run()) return 1;
  std::cout << "identity rows: " << borrowed.result0(0, 0) << " " << borrowed.result0(0, 1) << " "
            << borrowed.result0(1, 0) << " " << borrowed.result0(1, 1) << std::endl;
  xlacrt_pool_destroy(pool);
  return 0;
}
