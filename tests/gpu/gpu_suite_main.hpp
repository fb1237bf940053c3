#pragma once
// The main() of a gpu suite: without a CUDA device the suite says why and exits 77, which CTest
// reports as skipped (SKIP_RETURN_CODE in tests/CMakeLists.txt). Include after
// <boost/test/unit_test.hpp> with BOOST_TEST_NO_MAIN defined.
#include <iostream>
#include <string>

#include "platform/cuda_devices.hpp"

namespace elsbench::test {

inline int gpu_suite_main(const char* suite, int argc, char* argv[]) {
  std::string why;
  if (cuda_devices(&why).empty()) {
    std::cout << suite << ": no CUDA device (" << why << "): GPU tests skipped\n";
    return 77;
  }
  return boost::unit_test::unit_test_main(&init_unit_test, argc, argv);
}

}  // namespace elsbench::test
