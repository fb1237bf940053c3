// cuSPARSE is opened on first use (platform/cuda/cusparse_library.hpp), not at start-up: a CPU
// run never maps it. Loading and resolving the library needs no GPU, so this runs wherever the
// CUDA toolkit's libraries are installed (built in CUDA builds only: tests/CMakeLists.txt).
#include <boost/test/unit_test.hpp>
#include <dlfcn.h>

#include <stdexcept>
#include <string>

#ifdef ELSBENCH_HAVE_CUDA
#include "platform/cuda/cusparse_library.hpp"

using namespace elsbench::gpu;

namespace {

bool cusparse_mapped() {
  void* lib = dlopen(cusparse_library_name().c_str(), RTLD_NOW | RTLD_NOLOAD);
  if (lib) dlclose(lib);  // NOLOAD took a reference: give it back
  return lib != nullptr;
}

}  // namespace

// Test cases run in the order written: this one first, before anything asks for the library.
BOOST_AUTO_TEST_CASE(not_loaded_until_asked_for) {
  BOOST_TEST(cusparse_library_name().rfind("libcusparse.so.", 0) == 0);
  BOOST_TEST(!cusparse_mapped());
  const CusparseLibrary& c = cusparse();
  BOOST_TEST(cusparse_mapped());
  BOOST_TEST(&cusparse() == &c);  // loaded once
}

BOOST_AUTO_TEST_CASE(every_entry_point_resolved) {
  const CusparseLibrary& c = cusparse();
#define ELSBENCH_CUSPARSE_RESOLVED(field, symbol) BOOST_TEST((c.field != nullptr), #symbol " resolved");
  ELSBENCH_CUSPARSE_ENTRY_POINTS(ELSBENCH_CUSPARSE_RESOLVED)
#undef ELSBENCH_CUSPARSE_RESOLVED
  // The resolved functions are the library's: its own names for its status codes.
  BOOST_TEST(std::string(c.error_name(CUSPARSE_STATUS_SUCCESS)) == "CUSPARSE_STATUS_SUCCESS");
  BOOST_TEST(std::string(c.error_name(CUSPARSE_STATUS_INVALID_VALUE)) == "CUSPARSE_STATUS_INVALID_VALUE");
}

BOOST_AUTO_TEST_CASE(a_failed_call_names_itself_and_the_status) {
  BOOST_CHECK_NO_THROW(cusparse_check(CUSPARSE_STATUS_SUCCESS, "cusparseCreate"));
  try {
    cusparse_check(CUSPARSE_STATUS_INVALID_VALUE, "cusparseDgtsv2StridedBatch");
    BOOST_FAIL("no exception");
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    BOOST_TEST(what.find("cusparseDgtsv2StridedBatch failed: CUSPARSE_STATUS_INVALID_VALUE") != std::string::npos);
  }
}

#endif  // ELSBENCH_HAVE_CUDA
