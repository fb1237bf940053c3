#include "solvers/contract/memory_model.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>
#include <vector>

#include "products/note_events.hpp"

namespace elsbench {

const char* to_string(MemorySpace s) { return s == MemorySpace::Host ? "host" : "device"; }

GridLoad grid_load(const Product& product) {
  GridLoad g;
  g.dim = product.dimension();
  if (!product.is_els()) return g;
  const std::vector<NoteEvent> events = note_events(product);
  g.layers = value_layers(product, events);
  // Events on the same side of the same barrier share their weights (problem_builder.cpp's
  // weights_of_side); the knock-in's side is the problem's own, daily or continuous.
  std::set<std::pair<double, bool>> sides;
  if (product.can_knock_in()) sides.insert({product.els().knock_in.barrier, true});
  for (const NoteEvent& e : events)
    if (!e.in_payoff) sides.insert({e.barrier, e.below});
  g.event_weights = static_cast<int>(sides.size());
  return g;
}

double bytes_per_point(const MemoryModel& m, Precision p, const GridLoad& g, double points) {
  const double element = p == Precision::FP64 ? 8.0 : 4.0;
  const double arrays = g.layers * (m.per_layer + m.per_layer_per_dim * g.dim) + m.shared;
  // The problem's payoff and the march's result are fp64 on the host whatever the march's precision.
  const double payoff = 8.0 - element, values = p == Precision::FP32 ? 8.0 : p == Precision::Mixed ? 4.0 : 0.0;
  const double host_fp64 = m.space == MemorySpace::Host ? (payoff + values) * g.layers : 0.0;
  // The host keeps the Problem's per-node arrays in fp64; the GPU variants upload the event
  // weights only, converted to their precision (solvers/gpu/cuda/device_march_data.cpp).
  const double node_arrays = m.space == MemorySpace::Host
                                 ? 8.0 * g.event_weights
                                 : element * g.event_weights;
  const double fill = m.fill_per_log * std::max(0.0, std::log(std::max(points, 1.0)) - 4.0);
  return element * arrays + host_fp64 + node_arrays + fill;
}

double model_bytes(const MemoryModel& m, Precision p, const GridLoad& g, double points) {
  return bytes_per_point(m, p, g, points) * points;
}

}  // namespace elsbench
