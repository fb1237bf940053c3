#include "solvers/contract/memory_model.hpp"

#include <cmath>
#include <set>

namespace elsbench {

const char* to_string(MemorySpace s) { return s == MemorySpace::Host ? "host" : "device"; }

GridLoad grid_load(const Product& product) {
  GridLoad g;
  g.dim = product.dimension();
  if (!product.is_els()) return g;
  g.performance = true;
  g.layers = product.can_knock_in() ? 2 : 1;
  std::set<double> barriers;  // autocall dates with the same barrier share their weights
  for (std::size_t k = 0; k + 1 < product.els.autocall.size(); ++k) barriers.insert(product.els.autocall[k].barrier);
  g.event_weights = static_cast<int>(barriers.size()) + (g.layers == 2 ? 1 : 0);
  return g;
}

// One row per solver; bytes_per_point adds the product's per-node arrays. "checked" rows were counted in the solver's code and compared with the peak that the
// allocation tracker measures (tests/unit/sweep_memory_model.cpp). The GPU rows were counted in
// the code (solvers/gpu/cuda/device_march_data.cpp, solvers/adi_cusparse/cusparse_march.cpp) but not yet
// compared with a measured peak_device_bytes: check them on a GPU.
const std::vector<MemoryModel>& memory_models() {
  static const std::vector<MemoryModel> models = {
      {"explicit", MemorySpace::Host, 3, 0, 0, true,
       "per layer: payoff (Problem::initial), marched values, next values"},
      {"adi", MemorySpace::Host, 5, 2, 0, true,
       "per layer: payoff, values, Y0, Y, F_0(X); per direction d: F_d(X) and F_d(Y)"},
      {"cn-direct", MemorySpace::Host, 4, 0, 60, false,
       "per layer: payoff, values, right-hand side, product A x; shared: the sparse 2-D operator "
       "(9 entries a row), I - theta dt A, and the LU factors of the implicit and the damped step "
       "(fill grows like log N; fitted to measured peaks at n = 30..120 in 2-D, where Eigen's own "
       "mallocs are not tracked)"},
      {"adi-cuda", MemorySpace::Device, 3, 0, 0, false,
       "device, per layer: three value buffers (stages rotate through them); factor tables and "
       "1-D operators are O(n)"},
      {"adi-cusparse", MemorySpace::Device, 6, 1, 0, false,
       "device, per layer: three value buffers, the full-length diagonals dl, d, du that "
       "gtsv2StridedBatch takes, its work buffer (counted as one array: its size is queried at run "
       "time), and in 2-D the transposed systems"},
      {"adi-cusparse-interleaved", MemorySpace::Device, 8, 0, 0, false,
       "device, per layer: as adi-cusparse with the transposed systems in 1-D too "
       "(gtsvInterleavedBatch)"},
  };
  return models;
}

const MemoryModel* find_memory_model(const std::string& solver) {
  for (const auto& m : memory_models())
    if (m.solver == solver) return &m;
  return nullptr;
}

double bytes_per_point(const MemoryModel& m, Precision p, const GridLoad& g) {
  const double element = p == Precision::FP64 ? 8.0 : 4.0;
  const double arrays = g.layers * (m.per_layer + m.per_layer_per_dim * g.dim) + m.shared;
  // The host keeps the Problem's per-node arrays in fp64; the GPU variants upload the event
  // weights only, converted to their precision (solvers/gpu/cuda/device_march_data.cpp).
  const double node_arrays = m.space == MemorySpace::Host
                                 ? 8.0 * ((g.performance ? 1 : 0) + g.event_weights)
                                 : element * g.event_weights;
  return element * arrays + node_arrays;
}

double model_bytes(const MemoryModel& m, Precision p, const GridLoad& g, int n) {
  return bytes_per_point(m, p, g) * std::pow(static_cast<double>(n), g.dim);
}

int largest_grid(const MemoryModel& m, Precision p, const GridLoad& g, double memory_bytes) {
  if (model_bytes(m, p, g, 4) > memory_bytes) return 0;
  // The root gives n to within rounding; the loops settle the last node exactly.
  int n = static_cast<int>(std::pow(memory_bytes / bytes_per_point(m, p, g), 1.0 / g.dim));
  while (n > 4 && model_bytes(m, p, g, n) > memory_bytes) --n;
  while (model_bytes(m, p, g, n + 1) <= memory_bytes) ++n;
  return n;
}

std::size_t largest_batch(const MemoryModel& m, Precision p, const GridLoad& g, int n, double memory_bytes) {
  return static_cast<std::size_t>(std::floor(memory_bytes / model_bytes(m, p, g, n)));
}

}  // namespace elsbench
