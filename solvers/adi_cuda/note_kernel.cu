// The on-chip book march on the device: kernels/note_march.hpp's body run by DeviceCta, the CTA
// policy of a real CTA (one thread of it per call; phases end at __syncthreads()).
#include "solvers/adi_cuda/note_kernel.hpp"

#include "solvers/adi_cuda/stage_kernel_support.cuh"

namespace elsbench::gpu {
namespace {

template <class T>
struct DeviceCta {
  T* work;
  int* queue;
  int* slot;  // a __shared__ int: the queue position every thread reads

  __device__ int threads() const { return static_cast<int>(blockDim.x); }
  __device__ int warp_count() const { return static_cast<int>(blockDim.x) / kWarp; }
  __device__ T get(long long i) const { return work[i]; }
  __device__ void set(long long i, T v) const { work[i] = v; }
  __device__ T* span(long long i, int, int) const { return work + i; }
  template <class F>
  __device__ void phase(F f) const {
    f(static_cast<int>(threadIdx.x));
    __syncthreads();
  }
  template <class F>
  __device__ void warps(F f) const {
    f(static_cast<int>(threadIdx.x) / kWarp, ShuffleWarp{static_cast<int>(threadIdx.x) % kWarp});
    __syncthreads();
  }
  __device__ int next_note() const {
    if (threadIdx.x == 0) *slot = atomicAdd(queue, 1);
    __syncthreads();
    const int q = *slot;
    __syncthreads();  // no thread overwrites the slot before every thread has read it
    return q;
  }
};

template <class T>
__global__ void __launch_bounds__(kNoteThreads<T>, 1)
    march_book_on_chip_kernel(OnChipBook<T> book, int* queue, T* global_work, long long workspace_values,
                              int in_shared) {
  __shared__ int slot;
  T* work = in_shared ? shared_values<T>() : global_work + static_cast<long long>(blockIdx.x) * workspace_values;
  DeviceCta<T> cta{work, queue, &slot};
  march_book_on_chip(book, cta);
}

}  // namespace

template <class T>
OnChipLaunch on_chip_launch(long long workspace_values) {
  OnChipLaunch l;
  l.workspace_bytes = static_cast<std::size_t>(workspace_values) * sizeof(T);
  l.in_shared = l.workspace_bytes <= stage_smem_limit();
  const std::size_t smem = l.in_shared ? l.workspace_bytes : 0;
  if (l.in_shared) allow_shared(march_book_on_chip_kernel<T>, smem, "march_book_on_chip_kernel");
  int device = 0, sms = 0, per_sm = 0;
  cuda_check(cudaGetDevice(&device), "cudaGetDevice");
  cuda_check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "cudaDeviceGetAttribute(SMs)");
  cuda_check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, march_book_on_chip_kernel<T>, kNoteThreads<T>, smem),
             "cudaOccupancyMaxActiveBlocksPerMultiprocessor(march_book_on_chip_kernel)");
  if (per_sm < 1)
    throw SolverError(SolverError::Kind::Unsupported,
                      "march_book_on_chip_kernel: no CTA of " + std::to_string(kNoteThreads<T>) +
                          " threads fits an SM of this GPU (registers or shared memory)");
  l.ctas = sms * per_sm;
  return l;
}

template <class T>
void launch_book_on_chip(const OnChipBook<T>& book, int* queue, T* global_work, const OnChipLaunch& launch,
                         cudaStream_t stream) {
  const long long values = static_cast<long long>(launch.workspace_bytes / sizeof(T));
  march_book_on_chip_kernel<T><<<static_cast<unsigned>(launch.ctas), kNoteThreads<T>,
                                 launch.in_shared ? launch.workspace_bytes : 0, stream>>>(
      book, queue, global_work, values, launch.in_shared ? 1 : 0);
  check_launch("march_book_on_chip_kernel");
}

template OnChipLaunch on_chip_launch<double>(long long);
template OnChipLaunch on_chip_launch<float>(long long);
template void launch_book_on_chip<double>(const OnChipBook<double>&, int*, double*, const OnChipLaunch&, cudaStream_t);
template void launch_book_on_chip<float>(const OnChipBook<float>&, int*, float*, const OnChipLaunch&, cudaStream_t);

}  // namespace elsbench::gpu
