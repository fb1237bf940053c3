#include "platform/cuda/cusparse_library.hpp"

#include <dlfcn.h>

#include <stdexcept>

namespace elsbench::gpu {
namespace {

template <class F>
void resolve(void* lib, const char* name, F& f) {
  f = reinterpret_cast<F>(dlsym(lib, name));
  if (!f) throw std::runtime_error("cuSPARSE: " + cusparse_library_name() + " has no " + name);
}

CusparseLibrary open_cusparse() {
  void* lib = dlopen(cusparse_library_name().c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char* why = dlerror();
    throw std::runtime_error("cuSPARSE: cannot load " + cusparse_library_name() + " (" + (why ? why : "?") +
                             "); install the CUDA toolkit's libraries or add their folder to LD_LIBRARY_PATH");
  }
  // Never closed: the handles it creates live until the process ends.
  CusparseLibrary c;
#define ELSBENCH_CUSPARSE_RESOLVE(field, symbol) resolve(lib, #symbol, c.field);
  ELSBENCH_CUSPARSE_ENTRY_POINTS(ELSBENCH_CUSPARSE_RESOLVE)
#undef ELSBENCH_CUSPARSE_RESOLVE
  return c;
}

}  // namespace

std::string cusparse_library_name() { return "libcusparse.so." + std::to_string(CUSPARSE_VER_MAJOR); }

const CusparseLibrary& cusparse() {
  static const CusparseLibrary library = open_cusparse();
  return library;
}

void cusparse_check(cusparseStatus_t status, const std::string& what) {
  if (status == CUSPARSE_STATUS_SUCCESS) return;
  throw std::runtime_error(what + " failed: " + cusparse().error_name(status) + ": " + cusparse().error_string(status));
}

}  // namespace elsbench::gpu
