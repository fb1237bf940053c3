#pragma once
// Marks functions that both the host compiler and nvcc compile: the arithmetic of the GPU
// variants is written once, run by the CUDA kernels on the device and by the CPU emulation of
// those kernels (solvers/gpu/emulator/gpu_emulator.hpp) in the unit tests of a machine without a GPU.
#if defined(__CUDACC__)
#define ELSBENCH_HD __host__ __device__ __forceinline__
#else
#define ELSBENCH_HD inline
#endif
// Loop unrolling matters in device code only (the host pass of nvcc would warn about the pragma).
#if defined(__CUDA_ARCH__)
#define ELSBENCH_UNROLL _Pragma("unroll")
#else
#define ELSBENCH_UNROLL
#endif

namespace elsbench::gpu {

ELSBENCH_HD int min_int(int a, int b) { return a < b ? a : b; }
ELSBENCH_HD int ceil_div(int a, int b) { return (a + b - 1) / b; }

}  // namespace elsbench::gpu
