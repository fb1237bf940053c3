#pragma once
// The per-step records that the GPU march reads from device memory. The time grid is not uniform
// (dt changes between event intervals) and damped steps run another scheme, so every kernel of a
// captured CUDA graph looks its step up here instead of having dt baked into its launch: the same
// graph then serves every step (solvers/gpu/cuda/march_graph.hpp).
#include "platform/hd.hpp"
#include "products/event_kind.hpp"
#include "solvers/schemes/step_weights.hpp"

namespace elsbench::gpu {

// The value buffers a step reads and writes: three full grids (all layers each) rotate. `x` holds
// the values at the start of the step, `y1` the result of the axis-0 stage, `yk` the result of
// the first round (two-round schemes), `out` the values at the end of the step, which is `x` of
// the next one. A stage never writes a buffer that it reads.
struct GpuStep {
  StepWeights w;          // the scheme's weights, as the CPU stepper reads them (a damped step: Douglas, theta = 1)
  int x = 0, y1 = 1, yk = 2, out = 2;
  int table = 0;          // factor tables of theta_dt (the same index on every axis)
  int first_event = 0;    // this step's actions in the event list, applied to `out`
  int event_count = 0;

  ELSBENCH_HD bool two_rounds() const { return w.two_rounds(); }
  // A buffer free once the stages are done (the next step writes it before it reads it): where
  // the events keep their lifts (GpuEvent::at_centroid). In 1-D `out` is y1.
  ELSBENCH_HD int spare() const { return out == y1 ? x : y1; }
};

// One action at the end of a step (the CPU march's events, then its continuous knock-in),
// weighted per node by phi, the fraction of the node's cell on the event's side of the barrier
// (Problem::event_weights[weights]; phi is 0 or 1 except in cells that straddle the barrier);
// what each kind does at a node is event_kind.hpp's.
// The on-chip book march forms phi from the side's per-axis fractions (cell_fractions.hpp) with
// `worst_of` and `below` instead of reading a per-node array.
// An autocall `at_centroid` (EventAction's) is the first of its step's list: a pass before the
// events writes its cut cells' lifts (centroid_lift) into the step's spare buffer for it to read.
struct GpuEvent {
  EventKind kind = EventKind::Autocall;
  int weights = 0;  // index of the per-node weight array and of the per-axis fractions and lifts
  double value = 0;
  int worst_of = 1, below = 0;
  int at_centroid = 0;
};

}  // namespace elsbench::gpu
