#include "solvers/contract/memory_model.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

namespace elsbench {

const char* to_string(MemorySpace s) { return s == MemorySpace::Host ? "host" : "device"; }

GridLoad grid_load(const Product& product) {
  GridLoad g;
  g.dim = product.dimension();
  if (!product.is_els()) return g;
  const ElsTerms& t = product.els;
  g.layers = product.has_lizard() ? 3 : product.can_knock_in() ? 2 : 1;
  // Events on the same side of the same barrier share their weights (problem_builder.cpp).
  std::set<std::pair<double, bool>> sides;
  for (std::size_t k = 0; k + 1 < t.autocall.size(); ++k) sides.insert({t.autocall[k].barrier, false});
  if (product.pays_coupons()) sides.insert({t.coupons.barrier, false});
  if (g.layers > 1) sides.insert({t.knock_in.barrier, true});
  if (product.has_lizard()) {
    sides.insert({0.0, false});  // the lizard's redemption covers every node
    sides.insert({t.lizard.barrier, true});
  }
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
