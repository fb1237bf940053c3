// The on-chip book march on the device: kernels/note_march.hpp's body run by DeviceCta, the CTA
// policy of a real CTA (one thread of it per call; phases end at __syncthreads()), or by
// ClusterCta, that of a cluster of two CTAs acting as one of twice the threads.
#include "solvers/adi_cuda/note_kernel.hpp"

#include <cooperative_groups.h>

#include <cstdlib>
#include <cstring>

#include "solvers/adi_cuda/stage_kernel_support.cuh"

namespace elsbench::gpu {
namespace {

// The workspace's two parts as the body reads them: the values in V, the scratch in T.
template <class V, class T>
struct Workspace {
  V* values;
  T* work;
  int* queue;
  int* slot;  // a __shared__ int: the queue position every thread reads

  __device__ V value(long long i) const { return values[i]; }
  __device__ void set_value(long long i, V v) const { values[i] = v; }
  __device__ T get(long long i) const { return work[i]; }
  __device__ void set(long long i, T v) const { work[i] = v; }
  __device__ T* span(long long i, int, int) const { return work + i; }
  __device__ void item(long long) const {}
};

template <class V, class T>
struct DeviceCta : Workspace<V, T> {
  using Workspace<V, T>::queue;
  using Workspace<V, T>::slot;
  __device__ int threads() const { return static_cast<int>(blockDim.x); }
  __device__ int warp_count() const { return static_cast<int>(blockDim.x) / kWarp; }
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
  DeviceCta<V, T> cta{{reinterpret_cast<V*>(work), reinterpret_cast<T*>(work + room.values * sizeof(V)), queue, &slot}};
  march_book_on_chip(book, cta);
}

#if defined(_CG_HAS_CLUSTER_GROUP)
// Two CTAs on two SMs as one: the values in rank 0's shared memory, the scratch in rank 1's, each
// reached by both through distributed shared memory; a phase ends at the cluster's barrier,
// which also makes one CTA's writes visible to the other's threads.
template <class V, class T>
struct ClusterCta : Workspace<V, T> {  // slot: rank 0's
  using Workspace<V, T>::queue;
  using Workspace<V, T>::slot;
  int rank;

  __device__ int tid() const { return rank * static_cast<int>(blockDim.x) + static_cast<int>(threadIdx.x); }
  __device__ int threads() const { return kClusterCtas * static_cast<int>(blockDim.x); }
  __device__ int warp_count() const { return threads() / kWarp; }
  template <class F>
  __device__ void phase(F f) const {
    f(tid());
    cooperative_groups::this_cluster().sync();
  }
  template <class F>
  __device__ void warps(F f) const {
    f(tid() / kWarp, ShuffleWarp{static_cast<int>(threadIdx.x) % kWarp});
    cooperative_groups::this_cluster().sync();
  }
  __device__ int next_note() const {
    if (tid() == 0) *slot = atomicAdd(queue, 1);
    cooperative_groups::this_cluster().sync();
    const int q = *slot;
    cooperative_groups::this_cluster().sync();
    return q;
  }
};
#endif

// A cluster's two CTAs share one note (ClusterCta); launched with a cluster dimension of 2.
template <class V, class T>
__global__ void __launch_bounds__(kNoteThreads<V, T>, 1)
    march_book_in_cluster_kernel(OnChipBook<V, T> book, int* queue) {
#if defined(_CG_HAS_CLUSTER_GROUP)
  __shared__ int slot;
  const cooperative_groups::cluster_group cluster = cooperative_groups::this_cluster();
  unsigned char* mine = shared_values<unsigned char>();
  V* values = reinterpret_cast<V*>(cluster.map_shared_rank(mine, 0));
  T* scratch = reinterpret_cast<T*>(cluster.map_shared_rank(mine, 1));
  ClusterCta<V, T> cta{{values, scratch, queue, cluster.map_shared_rank(&slot, 0)},
                       static_cast<int>(cluster.block_rank())};
  march_book_on_chip(book, cta);
  cluster.sync();  // neither CTA leaves while the other may still read its shared memory
#else
  __trap();  // launched only where the device has clusters (sm_90 and later)
#endif
}

// Clusters unless ELSBENCH_ON_CHIP_CLUSTERS=off, on a device that launches them.
bool clusters_allowed(int device) {
  const char* choice = std::getenv("ELSBENCH_ON_CHIP_CLUSTERS");
  if (choice && std::strcmp(choice, "off") == 0) return false;
  if (choice && *choice && std::strcmp(choice, "on") != 0)
    throw SolverError(SolverError::Kind::Unsupported,
                      std::string("ELSBENCH_ON_CHIP_CLUSTERS is '") + choice + "': it takes on or off");
  int cluster_launch = 0;
  cuda_check(cudaDeviceGetAttribute(&cluster_launch, cudaDevAttrClusterLaunch, device),
             "cudaDeviceGetAttribute(ClusterLaunch)");
  return cluster_launch != 0;
}

template <class V, class T>
cudaLaunchConfig_t cluster_config(int ctas, std::size_t smem, cudaStream_t stream, cudaLaunchAttribute& attribute) {
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(static_cast<unsigned>(ctas));
  config.blockDim = dim3(static_cast<unsigned>(kNoteThreads<V, T>));
  config.dynamicSmemBytes = smem;
  config.stream = stream;
  attribute.id = cudaLaunchAttributeClusterDimension;
  attribute.val.clusterDim.x = kClusterCtas;
  attribute.val.clusterDim.y = 1;
  attribute.val.clusterDim.z = 1;
  config.attrs = &attribute;
  config.numAttrs = 1;
  return config;
}

// Resident clusters x 2 CTAs.
template <class V, class T>
int cluster_ctas(std::size_t smem) {
  const auto kernel = march_book_in_cluster_kernel<V, T>;
  allow_shared(kernel, stage_smem_limit(), "march_book_in_cluster_kernel");
  cudaLaunchAttribute attribute;
  const cudaLaunchConfig_t config = cluster_config<V, T>(kClusterCtas, smem, nullptr, attribute);
  int clusters = 0;
  cuda_check(cudaOccupancyMaxActiveClusters(&clusters, kernel, &config),
             "cudaOccupancyMaxActiveClusters(march_book_in_cluster_kernel)");
  if (clusters < 1)
    throw SolverError(SolverError::Kind::Unsupported,
                      "march_book_in_cluster_kernel: no cluster of two CTAs of " + std::to_string(kNoteThreads<V, T>) +
                          " threads and " + std::to_string(smem) + " bytes of shared memory fits this GPU");
  return clusters * kClusterCtas;
}

}  // namespace

template <class V, class T>
OnChipLaunch on_chip_launch(const OnChipWorkspace& room) {
  int device = 0, sms = 0, per_sm = 0;
  cuda_check(cudaGetDevice(&device), "cudaGetDevice");
  OnChipLaunch l;
  l.home = state_home(room, sizeof(V), sizeof(T), stage_smem_limit(), clusters_allowed(device));
  const std::size_t smem = shared_bytes(l.home, room, sizeof(V), sizeof(T));
  l.workspace_bytes = l.home == StateHome::Global ? room.bytes(sizeof(V), sizeof(T)) : smem;
  if (l.home == StateHome::Cluster) {
    l.ctas = cluster_ctas<V, T>(smem);
    return l;
  }
  const auto kernel = march_book_on_chip_kernel<V, T>;
  // The kernel's limit is the device's, not this launch's: a batch prepared on another thread (or
  // a launch group prepared after this one) sets the same value, never a smaller one under it.
  if (l.home == StateHome::Shared) allow_shared(kernel, stage_smem_limit(), "march_book_on_chip_kernel");
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
  if (launch.home == StateHome::Cluster) {
    cudaLaunchAttribute attribute;
    const cudaLaunchConfig_t config = cluster_config<V, T>(launch.ctas, launch.workspace_bytes, stream, attribute);
    cuda_check(cudaLaunchKernelEx(&config, march_book_in_cluster_kernel<V, T>, book, queue),
               "cudaLaunchKernelEx(march_book_in_cluster_kernel)");
    check_launch("march_book_in_cluster_kernel");
    return;
  }
  const bool in_shared = launch.home == StateHome::Shared;
  march_book_on_chip_kernel<V, T><<<static_cast<unsigned>(launch.ctas), kNoteThreads<V, T>,
                                    in_shared ? launch.workspace_bytes : 0, stream>>>(
      book, queue, static_cast<unsigned char*>(global_work), room, static_cast<long long>(launch.workspace_bytes),
      in_shared ? 1 : 0);
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
