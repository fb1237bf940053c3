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
  resolve(lib, "cusparseGetErrorName", c.error_name);
  resolve(lib, "cusparseGetErrorString", c.error_string);
  resolve(lib, "cusparseCreate", c.create);
  resolve(lib, "cusparseDestroy", c.destroy);
  resolve(lib, "cusparseSetStream", c.set_stream);
  resolve(lib, "cusparseDgtsv2StridedBatch_bufferSizeExt", c.d_strided_bytes);
  resolve(lib, "cusparseSgtsv2StridedBatch_bufferSizeExt", c.s_strided_bytes);
  resolve(lib, "cusparseDgtsv2StridedBatch", c.d_strided);
  resolve(lib, "cusparseSgtsv2StridedBatch", c.s_strided);
  resolve(lib, "cusparseDgtsvInterleavedBatch_bufferSizeExt", c.d_interleaved_bytes);
  resolve(lib, "cusparseSgtsvInterleavedBatch_bufferSizeExt", c.s_interleaved_bytes);
  resolve(lib, "cusparseDgtsvInterleavedBatch", c.d_interleaved);
  resolve(lib, "cusparseSgtsvInterleavedBatch", c.s_interleaved);
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
