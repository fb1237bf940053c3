#pragma once
// The cuSPARSE batched tridiagonal solvers, overloaded on the precision, every call checked with
// a message that names it; and an owned cuSPARSE handle bound to a stream.
#include <cuda_runtime_api.h>
#include <cusparse.h>

#include <cstddef>
#include <string>

#include "platform/cuda/cusparse_library.hpp"

namespace elsbench::gpu {

class CusparseHandle {
 public:
  explicit CusparseHandle(cudaStream_t stream);
  ~CusparseHandle();
  CusparseHandle(const CusparseHandle&) = delete;
  CusparseHandle& operator=(const CusparseHandle&) = delete;
  cusparseHandle_t get() const { return handle_; }

 private:
  cusparseHandle_t handle_ = nullptr;
};

// gtsv2StridedBatch: `batch` systems of size m, system j at x + j * stride (dl, d, du alike).
// Overloaded for float and double.
std::size_t strided_buffer_bytes(cusparseHandle_t h, int m, const double* dl, const double* d, const double* du,
                                 const double* x, int batch, int stride);
std::size_t strided_buffer_bytes(cusparseHandle_t h, int m, const float* dl, const float* d, const float* du,
                                 const float* x, int batch, int stride);
void strided_solve(cusparseHandle_t h, int m, const double* dl, const double* d, const double* du, double* x,
                   int batch, int stride, void* buffer);
void strided_solve(cusparseHandle_t h, int m, const float* dl, const float* d, const float* du, float* x,
                   int batch, int stride, void* buffer);

// gtsvInterleavedBatch: value i of system j at i * batch + j. It may overwrite dl, d, du.
constexpr int kInterleavedAlgo = 0;  // cuThomas: no pivoting, fine for our diagonally dominant rows
std::size_t interleaved_buffer_bytes(cusparseHandle_t h, int m, const double* dl, const double* d,
                                     const double* du, const double* x, int batch);
std::size_t interleaved_buffer_bytes(cusparseHandle_t h, int m, const float* dl, const float* d,
                                     const float* du, const float* x, int batch);
void interleaved_solve(cusparseHandle_t h, int m, double* dl, double* d, double* du, double* x, int batch,
                       void* buffer);
void interleaved_solve(cusparseHandle_t h, int m, float* dl, float* d, float* du, float* x, int batch,
                       void* buffer);

}  // namespace elsbench::gpu
