#include "solvers/gpu/cuda/event_kernels.hpp"

#include "platform/cuda/cuda_check.hpp"

namespace elsbench::gpu {
namespace {

template <class T>
__global__ void step_events(MarchArgs<T> a, const int* step_base, int local, bool lifts) {
  const GpuStep* sp = current_step(a, step_base, local);
  if (!sp || sp->event_count == 0) return;
  const long long node = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (lifts) {
    lifts_at_node(a, *sp, node);
  } else {
    events_at_node(a, *sp, node);
  }
}

}  // namespace

template <class T>
void launch_step_events(const MarchArgs<T>& a, int blocks, const int* step_base, int local, cudaStream_t stream,
                        bool lifts) {
  step_events<T><<<blocks, kEventThreads, 0, stream>>>(a, step_base, local, lifts);
  check_launch("step_events");
}

template void launch_step_events<double>(const MarchArgs<double>&, int, const int*, int, cudaStream_t, bool);
template void launch_step_events<float>(const MarchArgs<float>&, int, const int*, int, cudaStream_t, bool);

}  // namespace elsbench::gpu
