// The on-chip book march on the device: kernels/note_march.hpp's body run by DeviceCta, the CTA
// policy of a real CTA (one thread of it per call; phases end at __syncthreads()).
#include "solvers/adi_cuda/note_kernel.hpp"

#include "solvers/adi_cuda/stage_kernel_support.cuh"

namespace elsbench::gpu {
namespace {

template <class V, class T>
struct DeviceCta {
  V* values;
  T* work;
  int* queue;
  int* slot;  // a __shared__ int: the queue position every thread reads

  __device__ int threads() const { return static_cast<int>(blockDim.x); }
  __device__ int warp_count() const { return static_cast<int>(blockDim.x) / kWarp; }
  __device__ V value(long long i) const { return values[i]; }
  __device__ void set_value(long long i, V v) const { values[i] = v; }
  __device__ T get(long long i) const { return work[i]; }
  __device__ void set(long long i, T v) const { work[i] = v; }
  __device__ T* span(long long i, int, int) const { return work + i; }
  __device__ void item(long long) const {}
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

// The workspace: `room.values` values in V, then the scratch in T (OnChipWorkspace).
template <class V, class T>
__global__ void __launch_bounds__(kNoteThreads<V, T>, 1)
    march_book_on_chip_kernel(OnChipBook<V, T> book, int* queue, unsigned char* global_work, OnChipWorkspace room,
                              long long workspace_bytes, int in_shared) {
  __shared__ int slot;
  unsigned char* work = in_shared ? shared_values<unsigned char>() : global_work + blockIdx.x * workspace_bytes;
  DeviceCta<V, T> cta{reinterpret_cast<V*>(work), reinterpret_cast<T*>(work + room.values * sizeof(V)), queue, &slot};
  march_book_on_chip(book, cta);
}

}  // namespace

template <class V, class T>
OnChipLaunch on_chip_launch(const OnChipWorkspace& room) {
  OnChipLaunch l;
  l.workspace_bytes = room.bytes(sizeof(V), sizeof(T));
  l.in_shared = l.workspace_bytes <= stage_smem_limit();
  const std::size_t smem = l.in_shared ? l.workspace_bytes : 0;
  const auto kernel = march_book_on_chip_kernel<V, T>;
  // The kernel's limit is the device's, not this launch's: a batch prepared on another thread (or
  // a launch group prepared after this one) sets the same value, never a smaller one under it.
  if (l.in_shared) allow_shared(kernel, stage_smem_limit(), "march_book_on_chip_kernel");
  int device = 0, sms = 0, per_sm = 0;
  cuda_check(cudaGetDevice(&device), "cudaGetDevice");
  cuda_check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "cudaDeviceGetAttribute(SMs)");
  cuda_check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kNoteThreads<V, T>, smem),
             "cudaOccupancyMaxActiveBlocksPerMultiprocessor(march_book_on_chip_kernel)");
  if (per_sm < 1)
    throw SolverError(SolverError::Kind::Unsupported,
                      "march_book_on_chip_kernel: no CTA of " + std::to_string(kNoteThreads<V, T>) +
                          " threads fits an SM of this GPU (registers or shared memory)");
  l.ctas = sms * per_sm;
  return l;
}

template <class V, class T>
void launch_book_on_chip(const OnChipBook<V, T>& book, int* queue, void* global_work, const OnChipWorkspace& room,
                         const OnChipLaunch& launch, cudaStream_t stream) {
  march_book_on_chip_kernel<V, T><<<static_cast<unsigned>(launch.ctas), kNoteThreads<V, T>,
                                    launch.in_shared ? launch.workspace_bytes : 0, stream>>>(
      book, queue, static_cast<unsigned char*>(global_work), room, static_cast<long long>(launch.workspace_bytes),
      launch.in_shared ? 1 : 0);
  check_launch("march_book_on_chip_kernel");
}

#define ELSBENCH_ON_CHIP(V, T)                                                                                     \
  template OnChipLaunch on_chip_launch<V, T>(const OnChipWorkspace&);                                              \
  template void launch_book_on_chip<V, T>(const OnChipBook<V, T>&, int*, void*, const OnChipWorkspace&,            \
                                          const OnChipLaunch&, cudaStream_t);
ELSBENCH_ON_CHIP(double, double)
ELSBENCH_ON_CHIP(float, float)
ELSBENCH_ON_CHIP(double, float)
#undef ELSBENCH_ON_CHIP

}  // namespace elsbench::gpu
