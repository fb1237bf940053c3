#pragma once
// Monte Carlo reference pricer for every product of docs/products.md, on CPU threads. Paths of
// correlated geometric Brownian motion are stepped exactly in log space on the dates of path_plan.hpp,
// from Philox4x32-10 numbers keyed by the seed and counted by (antithetic pair, normal index), and
// summed in fixed blocks of pairs combined in order: a price is the same bit for bit for any thread
// count, on any CPU running the same build, and on a CUDA device (pair_path.hpp). The standard error
// is over pair averages. Knock-in is carried as the probability that the path has not knocked in
// (conditional Monte Carlo): 1 or 0 when daily, times pair_path.hpp's bridge_survival when continuous.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "products/product.hpp"

namespace elsbench {

// The largest seed: exact in a JSON number, so a results file names the run that made a value.
inline constexpr unsigned long long kMaxSeed = (1ULL << 53) - 1;

struct McOptions {
  std::int64_t paths = 1'000'000;  // rounded up to an even number (antithetic pairs)
  std::uint64_t seed = 1;
  int threads = 0;          // 0: every hardware thread
  bool antithetic = true;   // false: the second path of a pair gets its own normals
};

struct McResult {
  double price = 0;
  double std_error = 0;
  std::int64_t paths = 0;
  std::uint64_t seed = 0;
  int threads = 0;
  double seconds = 0;
  std::string generator;  // e.g. "philox4x32-10/box-muller antithetic"
  int generator_version = 0;
  std::string device;     // "cpu" or "cuda:N"
  std::size_t peak_device_bytes = 0;  // the CUDA engine's counted cudaMalloc peak; 0 on the CPU
};

// Bumped whenever the same seed would give different paths (counter layout, normal transform).
inline constexpr int kMcGeneratorVersion = 1;
std::string mc_generator_name(bool antithetic);

McResult monte_carlo_price(const Product& product, const McOptions& options);

// Which code simulates the paths: the CPU engine's vectorised blocks, or pair_path.hpp's
// pair_average(), the code the CUDA engine runs on the device.
enum class PathCode { Vectorised, Shared };

// The averages of antithetic pairs first_pair .. first_pair + count - 1 of a price with these
// options, one thread: what tests compare bit for bit across the two codes and with the GPU.
std::vector<double> monte_carlo_pair_averages(const Product& product, const McOptions& options,
                                              std::uint64_t first_pair, int count, PathCode code);

// Every Monte Carlo result passes here before it is reported: a non-finite price or standard
// error (levels beyond what fp64 carries) is a SolverError(NonFinite), never a result.
const McResult& require_finite(const McResult& r);

// Whether this build vectorises the path loops with AVX2 (four doubles an instruction); the CMake
// option ELSBENCH_CPU_ARCH decides.
bool monte_carlo_uses_avx2();

}  // namespace elsbench
