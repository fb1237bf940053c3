#include "solvers/adi_cusparse/cusparse_calls.hpp"

#include <stdexcept>

namespace elsbench::gpu {

void cusparse_check(cusparseStatus_t status, const std::string& what) {
  if (status == CUSPARSE_STATUS_SUCCESS) return;
  throw std::runtime_error(what + " failed: " + cusparseGetErrorName(status) + ": " + cusparseGetErrorString(status));
}

CusparseHandle::CusparseHandle(cudaStream_t stream) {
  cusparse_check(cusparseCreate(&handle_), "cusparseCreate");
  const cusparseStatus_t s = cusparseSetStream(handle_, stream);
  if (s != CUSPARSE_STATUS_SUCCESS) cusparseDestroy(handle_);
  cusparse_check(s, "cusparseSetStream");
}

CusparseHandle::~CusparseHandle() {
  if (handle_) cusparseDestroy(handle_);
}

std::size_t strided_buffer_bytes(cusparseHandle_t h, int m, const double* dl, const double* d,
                                         const double* du, const double* x, int batch, int stride) {
  std::size_t bytes = 0;
  cusparse_check(cusparseDgtsv2StridedBatch_bufferSizeExt(h, m, dl, d, du, x, batch, stride, &bytes),
                 "cusparseDgtsv2StridedBatch_bufferSizeExt");
  return bytes;
}

std::size_t strided_buffer_bytes(cusparseHandle_t h, int m, const float* dl, const float* d,
                                        const float* du, const float* x, int batch, int stride) {
  std::size_t bytes = 0;
  cusparse_check(cusparseSgtsv2StridedBatch_bufferSizeExt(h, m, dl, d, du, x, batch, stride, &bytes),
                 "cusparseSgtsv2StridedBatch_bufferSizeExt");
  return bytes;
}

void strided_solve(cusparseHandle_t h, int m, const double* dl, const double* d, const double* du,
                           double* x, int batch, int stride, void* buffer) {
  cusparse_check(cusparseDgtsv2StridedBatch(h, m, dl, d, du, x, batch, stride, buffer), "cusparseDgtsv2StridedBatch");
}

void strided_solve(cusparseHandle_t h, int m, const float* dl, const float* d, const float* du, float* x,
                          int batch, int stride, void* buffer) {
  cusparse_check(cusparseSgtsv2StridedBatch(h, m, dl, d, du, x, batch, stride, buffer), "cusparseSgtsv2StridedBatch");
}

std::size_t interleaved_buffer_bytes(cusparseHandle_t h, int m, const double* dl, const double* d,
                                             const double* du, const double* x, int batch) {
  std::size_t bytes = 0;
  cusparse_check(cusparseDgtsvInterleavedBatch_bufferSizeExt(h, kInterleavedAlgo, m, dl, d, du, x, batch, &bytes),
                 "cusparseDgtsvInterleavedBatch_bufferSizeExt");
  return bytes;
}

std::size_t interleaved_buffer_bytes(cusparseHandle_t h, int m, const float* dl, const float* d,
                                            const float* du, const float* x, int batch) {
  std::size_t bytes = 0;
  cusparse_check(cusparseSgtsvInterleavedBatch_bufferSizeExt(h, kInterleavedAlgo, m, dl, d, du, x, batch, &bytes),
                 "cusparseSgtsvInterleavedBatch_bufferSizeExt");
  return bytes;
}

void interleaved_solve(cusparseHandle_t h, int m, double* dl, double* d, double* du, double* x, int batch,
                               void* buffer) {
  cusparse_check(cusparseDgtsvInterleavedBatch(h, kInterleavedAlgo, m, dl, d, du, x, batch, buffer),
                 "cusparseDgtsvInterleavedBatch");
}

void interleaved_solve(cusparseHandle_t h, int m, float* dl, float* d, float* du, float* x, int batch,
                              void* buffer) {
  cusparse_check(cusparseSgtsvInterleavedBatch(h, kInterleavedAlgo, m, dl, d, du, x, batch, buffer),
                 "cusparseSgtsvInterleavedBatch");
}

}  // namespace elsbench::gpu
