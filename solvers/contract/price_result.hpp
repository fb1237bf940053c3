#pragma once
// What every solver returns: the fields of DESIGN.md.
#include <cstddef>
#include <string>
#include <vector>

namespace elsbench {

struct PriceResult {
  std::string product;
  std::string solver;
  std::string scheme;
  std::string mesh;                 // e.g. "sinh 200x200, S_max 400/400"
  std::vector<int> shape;           // nodes per axis
  std::size_t time_steps = 0;
  std::string device = "cpu";
  std::string precision = "fp64";
  int threads = 1;
  double price = 0;
  std::vector<double> delta, gamma;  // per asset, at the spot
  double seconds = 0;                // wall time of the whole pricing (setup + march)
  std::size_t peak_host_bytes = 0;   // heap bytes the pricing allocated, at its peak
  std::size_t peak_device_bytes = 0; // device bytes the pricing allocated, at its peak
  std::vector<std::string> notes;    // e.g. "fell back to the CPU: no CUDA device"

  std::size_t grid_points() const {
    std::size_t p = 1;
    for (int n : shape) p *= static_cast<std::size_t>(n);
    return p;
  }
};

}  // namespace elsbench
