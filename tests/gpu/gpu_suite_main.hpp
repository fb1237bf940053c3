#pragma once
// The main() of a gpu suite: it runs when a CUDA device is usable, exits 77 (reported by CTest as
// skipped: SKIP_RETURN_CODE in tests/CMakeLists.txt) only when the machine has no GPU, and fails
// with CUDA's reason otherwise or under ELSBENCH_REQUIRE_GPU=1 (platform/gpu_gate.hpp). Include
// after <boost/test/unit_test.hpp> with BOOST_TEST_NO_MAIN defined.
#include "platform/gpu_gate.hpp"

namespace elsbench::test {

inline int gpu_suite_main(const char* suite, int argc, char* argv[]) {
  const int code = gpu_gate_exit_code(suite, 77);
  if (code >= 0) return code;
  return boost::unit_test::unit_test_main(&init_unit_test, argc, argv);
}

}  // namespace elsbench::test
