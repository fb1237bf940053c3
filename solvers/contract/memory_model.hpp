#pragma once
// An analytic model of a variant's memory, declared at its registration: how many full-grid arrays
// it keeps, so that a pre-flight check and a report can say which grid (and how many notes at once)
// fits a machine or a GPU that was never measured (the count: bytes_per_point below). Arrays of
// size n (1-D operators, factors, meshes) are left out: they vanish next to n^dim.
#include <string>
#include <vector>

#include "products/product.hpp"
#include "solvers/contract/options.hpp"

namespace elsbench {

enum class MemorySpace { Host, Device };
const char* to_string(MemorySpace s);

// The arrays of a scheme that keeps more than the variant's default scheme, in `precisions` (empty:
// every precision).
struct SchemeArrays {
  std::string scheme;
  double per_layer = 0, per_layer_per_dim = 0;
  std::vector<Precision> precisions;
};

struct MemoryModel {
  MemorySpace space = MemorySpace::Host;  // where the arrays live (the memory that limits the grid)
  double per_layer = 0;                    // full-grid arrays per value layer
  double per_layer_per_dim = 0;            // ... and per asset (one per ADI direction)
  double shared = 0;                       // full-grid arrays held once for all layers (matrices)
  bool checked = false;                    // counted in the solver's code and matched to a measured peak
  std::string counts;                      // which arrays
  double fill_per_log = 0;                 // bytes a point per ln(points) of sparse factors' fill
};

// What a product puts on the grid: dimension, value layers (2 with a pending knock-in), and the
// per-node arrays of a step-down ELS (solvers/problem/problem.hpp): one event-weight array per
// distinct autocall barrier before maturity and one for the knock-in side.
struct GridLoad {
  int dim = 2;
  int layers = 1;
  int event_weights = 0;
};
GridLoad grid_load(const Product& product);

// Bytes a point on a grid of `points` nodes (n^dim square, else the product of the axes' nodes):
//   element size x (layers x (per_layer + per_layer_per_dim x dim) + shared)
//   + GridLoad's per-node arrays (host: event weights in fp64; device: event weights in
//     the solver's precision)
//   + on the host below fp64, what stays fp64 per layer: the payoff (one of per_layer), and the
//     values (mixed) or the fp64 copy an fp32 march returns while its arrays live
//   + sparse factors' fill (cn-direct): fill_per_log x (ln points - 4), as a 2-D LU fills like log N
double bytes_per_point(const MemoryModel& m, Precision p, const GridLoad& g, double points);
double model_bytes(const MemoryModel& m, Precision p, const GridLoad& g, double points);

}  // namespace elsbench
