#pragma once
// cuSPARSE, opened on first use rather than linked: the library and nvJitLink, which it pulls in,
// take about 9 ms to map and initialise, most of the start-up of a run that never uses them
// (docs/performance.md).
#include <cusparse.h>

#include <string>

namespace elsbench::gpu {

// The cuSPARSE entry points we call, X(field, symbol) each: the one list that declares the fields
// and resolves them, so that a field's type and the symbol it is resolved from cannot differ.
#define ELSBENCH_CUSPARSE_ENTRY_POINTS(X)                                  \
  X(error_name, cusparseGetErrorName)                                      \
  X(error_string, cusparseGetErrorString)                                  \
  X(create, cusparseCreate)                                                \
  X(destroy, cusparseDestroy)                                              \
  X(set_stream, cusparseSetStream)                                         \
  X(d_strided_bytes, cusparseDgtsv2StridedBatch_bufferSizeExt)             \
  X(s_strided_bytes, cusparseSgtsv2StridedBatch_bufferSizeExt)             \
  X(d_strided, cusparseDgtsv2StridedBatch)                                 \
  X(s_strided, cusparseSgtsv2StridedBatch)                                 \
  X(d_interleaved_bytes, cusparseDgtsvInterleavedBatch_bufferSizeExt)      \
  X(s_interleaved_bytes, cusparseSgtsvInterleavedBatch_bufferSizeExt)      \
  X(d_interleaved, cusparseDgtsvInterleavedBatch)                          \
  X(s_interleaved, cusparseSgtsvInterleavedBatch)

// The entry points, resolved from the library the first time one is needed (cusparse()), so that
// a run that never touches cuSPARSE never loads it.
struct CusparseLibrary {
#define ELSBENCH_CUSPARSE_FIELD(field, symbol) decltype(&symbol) field = nullptr;
  ELSBENCH_CUSPARSE_ENTRY_POINTS(ELSBENCH_CUSPARSE_FIELD)
#undef ELSBENCH_CUSPARSE_FIELD
};

// The library's name as the headers we compiled against know it (libcusparse.so.<major>).
std::string cusparse_library_name();

// Loaded and resolved on the first call; throws, naming the library and the reason, if it cannot be.
const CusparseLibrary& cusparse();

// Throws std::runtime_error("<what> failed: <status name>: <message>") unless status is success.
void cusparse_check(cusparseStatus_t status, const std::string& what);

}  // namespace elsbench::gpu
