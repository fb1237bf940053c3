#include "solvers/gpu/plan/on_chip_plan.hpp"

#include <algorithm>
#include <numeric>

namespace elsbench::gpu {
namespace {

// Line solves of a note's march: a rough measure of its time on one CTA.
double march_work(const GpuPlan& p) {
  double stages = 0;
  for (const GpuStep& s : p.steps) stages += (s.two_rounds() ? 2.0 : 1.0) * p.dim + (s.event_count > 0 ? 0.5 : 0.0);
  return stages * static_cast<double>(p.points) * p.layers;
}

}  // namespace

std::vector<int> longest_first(const GpuBatchPlan& plan) {
  std::vector<double> work;
  for (const GpuPlan& p : plan.notes) work.push_back(march_work(p));
  std::vector<int> order(work.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return work[static_cast<std::size_t>(a)] > work[static_cast<std::size_t>(b)];
  });
  return order;
}

OnChipWorkspace on_chip_workspace(const GpuBatchPlan& plan) {
  OnChipWorkspace w;
  for (const GpuPlan& p : plan.notes) {
    const NoteLayout L = note_layout(p.dim, p.layers, p.n0, p.n1, p.n2);
    w.values = std::max(w.values, L.x_values());
    w.scratch = std::max(w.scratch, L.scratch_values());
  }
  return w;
}

namespace {
// A cluster's larger part: the values in one CTA's shared memory, the scratch in the other's.
std::size_t cluster_part_bytes(const OnChipWorkspace& room, std::size_t value_bytes, std::size_t scratch_bytes) {
  const auto rounded = [](long long count, std::size_t bytes) {
    return (static_cast<std::size_t>(count) * bytes + 15) / 16 * 16;
  };
  return std::max(rounded(room.values, value_bytes), rounded(room.scratch, scratch_bytes));
}
}  // namespace

StateHome state_home(const OnChipWorkspace& room, std::size_t value_bytes, std::size_t scratch_bytes,
                     std::size_t smem_limit, bool clusters) {
  if (room.bytes(value_bytes, scratch_bytes) <= smem_limit) return StateHome::Shared;
  if (clusters && cluster_part_bytes(room, value_bytes, scratch_bytes) <= smem_limit)
    return StateHome::Cluster;
  return StateHome::Global;
}

const char* to_string(StateHome home) {
  switch (home) {
    case StateHome::Shared: return "shared memory";
    case StateHome::Cluster: return "the shared memory of a cluster of 2 CTAs";
    case StateHome::Global: return "global memory";
  }
  return "?";
}

std::size_t shared_bytes(StateHome home, const OnChipWorkspace& room, std::size_t value_bytes,
                         std::size_t scratch_bytes) {
  switch (home) {
    case StateHome::Shared: return room.bytes(value_bytes, scratch_bytes);
    case StateHome::Cluster: return cluster_part_bytes(room, value_bytes, scratch_bytes);
    case StateHome::Global: return 0;
  }
  return 0;
}

MixedNotes mixed_notes(const GpuBatchPlan& plan, const BatchImage<double>& image, const BatchBases<double>& at,
                       const float* narrow) {
  BatchBases<float> stages;
  stages.constants = narrow;
  stages.steps = at.steps;
  stages.events = at.events;
  stages.fractions = at.fractions;
  MixedNotes m;
  m.stages = batch_march_args<float>(plan, image, stages);
  for (const MarchArgs<double>& a : batch_march_args<double>(plan, image, at)) m.wide.push_back({a.buffers[0], a.grid});
  return m;
}

}  // namespace elsbench::gpu
