#include "solvers/adi_cusparse/cusparse_calls.hpp"

namespace elsbench::gpu {

CusparseHandle::CusparseHandle(cudaStream_t stream) {
  cusparse_check(cusparse().create(&handle_), "cusparseCreate");
  const cusparseStatus_t s = cusparse().set_stream(handle_, stream);
  if (s != CUSPARSE_STATUS_SUCCESS) cusparse().destroy(handle_);
  cusparse_check(s, "cusparseSetStream");
}

CusparseHandle::~CusparseHandle() {
  if (handle_) cusparse().destroy(handle_);
}

std::size_t strided_buffer_bytes(cusparseHandle_t h, int m, const double* dl, const double* d,
                                         const double* du, const double* x, int batch, int stride) {
  std::size_t bytes = 0;
  cusparse_check(cusparse().d_strided_bytes(h, m, dl, d, du, x, batch, stride, &bytes),
                 "cusparseDgtsv2StridedBatch_bufferSizeExt");
  return bytes;
}

std::size_t strided_buffer_bytes(cusparseHandle_t h, int m, const float* dl, const float* d,
                                        const float* du, const float* x, int batch, int stride) {
  std::size_t bytes = 0;
  cusparse_check(cusparse().s_strided_bytes(h, m, dl, d, du, x, batch, stride, &bytes),
                 "cusparseSgtsv2StridedBatch_bufferSizeExt");
  return bytes;
}

void strided_solve(cusparseHandle_t h, int m, const double* dl, const double* d, const double* du,
                           double* x, int batch, int stride, void* buffer) {
  cusparse_check(cusparse().d_strided(h, m, dl, d, du, x, batch, stride, buffer), "cusparseDgtsv2StridedBatch");
}

void strided_solve(cusparseHandle_t h, int m, const float* dl, const float* d, const float* du, float* x,
                          int batch, int stride, void* buffer) {
  cusparse_check(cusparse().s_strided(h, m, dl, d, du, x, batch, stride, buffer), "cusparseSgtsv2StridedBatch");
}

std::size_t interleaved_buffer_bytes(cusparseHandle_t h, int m, const double* dl, const double* d,
                                             const double* du, const double* x, int batch) {
  std::size_t bytes = 0;
  cusparse_check(cusparse().d_interleaved_bytes(h, kInterleavedAlgo, m, dl, d, du, x, batch, &bytes),
                 "cusparseDgtsvInterleavedBatch_bufferSizeExt");
  return bytes;
}

std::size_t interleaved_buffer_bytes(cusparseHandle_t h, int m, const float* dl, const float* d,
                                            const float* du, const float* x, int batch) {
  std::size_t bytes = 0;
  cusparse_check(cusparse().s_interleaved_bytes(h, kInterleavedAlgo, m, dl, d, du, x, batch, &bytes),
                 "cusparseSgtsvInterleavedBatch_bufferSizeExt");
  return bytes;
}

void interleaved_solve(cusparseHandle_t h, int m, double* dl, double* d, double* du, double* x, int batch,
                               void* buffer) {
  cusparse_check(cusparse().d_interleaved(h, kInterleavedAlgo, m, dl, d, du, x, batch, buffer),
                 "cusparseDgtsvInterleavedBatch");
}

void interleaved_solve(cusparseHandle_t h, int m, float* dl, float* d, float* du, float* x, int batch,
                              void* buffer) {
  cusparse_check(cusparse().s_interleaved(h, kInterleavedAlgo, m, dl, d, du, x, batch, buffer),
                 "cusparseSgtsvInterleavedBatch");
}

}  // namespace elsbench::gpu
