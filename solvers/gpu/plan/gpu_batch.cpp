#include "solvers/gpu/plan/gpu_batch.hpp"

#include <algorithm>
#include <stdexcept>

#include "platform/side_by_side.hpp"

namespace elsbench::gpu {

GpuBatchPlan make_gpu_batch_plan(const std::vector<const Problem*>& problems, const AdiScheme& scheme,
                                 std::size_t element_bytes) {
  if (problems.empty()) throw std::invalid_argument("make_gpu_batch_plan: no notes");
  GpuBatchPlan b;
  for (int d = 0; d < 2; ++d) b.first_block[d].push_back(0);
  b.first_event_block.push_back(0);
  std::vector<GpuPlan> plans(problems.size());
  // The notes' step records side by side.
  side_by_side(problems.size(), [&](std::size_t i) { plans[i] = make_gpu_plan(*problems[i], scheme); });
  for (GpuPlan& plan : plans) {
    // Three underlyings march on chip only: no stage-kernel layouts (the batched march refuses them).
    const bool staged = plan.dim <= 2;
    for (int d = 0; d < 2; ++d) {
      const StageLayout l = staged && d < plan.dim ? stage_layout(plan, d, element_bytes) : StageLayout{};
      b.layouts[d].push_back(l);
      b.first_block[d].push_back(b.first_block[d].back() + l.blocks);
      if (staged && d < plan.dim) {
        b.threads[d] = std::max(b.threads[d], l.threads);
        b.smem_bytes[d] = std::max(b.smem_bytes[d], l.smem_bytes);
      }
    }
    b.first_event_block.push_back(b.first_event_block.back() + (staged ? event_blocks(plan) : 0));
    b.max_steps = std::max(b.max_steps, static_cast<int>(plan.steps.size()));
    b.two_rounds = b.two_rounds || plan.two_rounds;
    b.has_events = b.has_events || plan.has_events;
    b.has_lifts = b.has_lifts || plan.has_lifts;
    b.notes.push_back(std::move(plan));
  }
  return b;
}

}  // namespace elsbench::gpu
