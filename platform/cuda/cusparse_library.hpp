#pragma once
// cuSPARSE, opened on first use rather than linked: the library and nvJitLink, which it pulls in,
// take about 9 ms to map and initialise, most of the start-up of a run that never uses them
// (README, Performance).
#include <cusparse.h>

#include <string>

namespace elsbench::gpu {

// The cuSPARSE entry points we call, resolved from the library the first time one is needed
// (cusparse()), so that a run that never touches cuSPARSE never loads it.
struct CusparseLibrary {
  decltype(&cusparseGetErrorName) error_name;
  decltype(&cusparseGetErrorString) error_string;
  decltype(&cusparseCreate) create;
  decltype(&cusparseDestroy) destroy;
  decltype(&cusparseSetStream) set_stream;
  decltype(&cusparseDgtsv2StridedBatch_bufferSizeExt) d_strided_bytes;
  decltype(&cusparseSgtsv2StridedBatch_bufferSizeExt) s_strided_bytes;
  decltype(&cusparseDgtsv2StridedBatch) d_strided;
  decltype(&cusparseSgtsv2StridedBatch) s_strided;
  decltype(&cusparseDgtsvInterleavedBatch_bufferSizeExt) d_interleaved_bytes;
  decltype(&cusparseSgtsvInterleavedBatch_bufferSizeExt) s_interleaved_bytes;
  decltype(&cusparseDgtsvInterleavedBatch) d_interleaved;
  decltype(&cusparseSgtsvInterleavedBatch) s_interleaved;
};

// The library's name as the headers we compiled against know it (libcusparse.so.<major>).
std::string cusparse_library_name();

// Loaded and resolved on the first call; throws, naming the library and the reason, if it cannot be.
const CusparseLibrary& cusparse();

// Throws std::runtime_error("<what> failed: <status name>: <message>") unless status is success.
void cusparse_check(cusparseStatus_t status, const std::string& what);

}  // namespace elsbench::gpu
