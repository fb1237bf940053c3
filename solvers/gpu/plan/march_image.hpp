#pragma once
// The arrays a GPU march uploads, prepared on the host in the precision of the march: 1-D
// operators, factor tables of every theta dt, the payoff. fp32 converts the problem's fp64
// coefficients here (the factors are computed in fp64, then rounded). The CUDA variants copy these
// to the device; the CPU emulation uses them in place.
#include <vector>

#include "solvers/gpu/kernels/stage_math.hpp"
#include "solvers/gpu/plan/gpu_plan.hpp"
#include "solvers/problem/problem.hpp"

namespace elsbench::gpu {

template <class T>
struct MarchImage {
  std::vector<T> coefs[3];         // per axis: op lower, diag, upper, d1 lower, diag, upper (n each)
  std::vector<T> tables[3];        // per axis: one chunk table per theta dt, table_stride apart
  long long table_stride[3] = {0, 0, 0};
  std::vector<T> initial;          // payoff, all layers, laid out as the buffers (layer_stride apart)
  std::vector<T> event_weights;    // Problem::event_weights one after another (points each)
  std::vector<double> fractions;   // Problem::event_fractions one after another, each its per-axis
                                   // fractions then its lifts (n0 + n1 + n2 each: side_axes), in
                                   // fp64: phi is formed from them as the CPU forms it, then rounded
  T mixed[3] = {0, 0, 0};          // GridView::mixed
  int has_mixed = 0;
};

// Which event weights a march reads: per node (the stage kernels' event launch: n^2 values a side)
// or per axis only (the on-chip march forms phi from the fractions: n0 + n1 values a side).
enum class EventWeights { PerNode, PerAxis };

// factor_tables: false leaves `tables` empty (the cuSPARSE variants factor by themselves);
// EventWeights::PerAxis leaves `event_weights` empty.
template <class T>
MarchImage<T> make_march_image(const Problem& pb, const GpuPlan& plan, bool factor_tables = true,
                               EventWeights weights = EventWeights::PerNode);

// How many values each array of make_march_image's image holds, known before any is formed: a
// batch lays its notes' arrays out from these and writes each note's in place (write_march_image).
struct MarchImageSizes {
  std::size_t coefs[3] = {0, 0, 0}, tables[3] = {0, 0, 0};
  std::size_t initial = 0, event_weights = 0, fractions = 0;
};
MarchImageSizes march_image_sizes(const Problem& pb, const GpuPlan& plan, bool factor_tables, EventWeights weights);

// Where one note's arrays go, each with room for its MarchImageSizes.
template <class T>
struct MarchImageRoom {
  T* coefs[3] = {nullptr, nullptr, nullptr};
  T* tables[3] = {nullptr, nullptr, nullptr};
  T* initial = nullptr;
  T* event_weights = nullptr;
  double* fractions = nullptr;
};

// Writes the arrays of make_march_image's image into `at` (the payoff where at.initial is set);
// returns the image with its scalars (table strides, mixed terms) set and its arrays empty.
template <class T>
MarchImage<T> write_march_image(const Problem& pb, const GpuPlan& plan, bool factor_tables, EventWeights weights,
                                const MarchImageRoom<T>& at);

// The payoff, all layers, laid out as the value buffers (layer_stride apart, zeros in the
// padding), in T, at `at` (plan.buffer_values() values): MarchImage::initial.
template <class T>
void put_payoff(const Problem& pb, const GpuPlan& plan, T* at);

// The first `layers` layers of a buffer laid out layer_stride apart, without the padding, in
// double: the values as the CPU solvers hold them.
template <class T>
std::vector<double> unpadded_layers(const GpuPlan& plan, const std::vector<T>& padded, int layers);

// The view of the mesh whose coefficient arrays (6 n values per axis, as in MarchImage::coefs)
// live at coefs[d] (host or device memory; the axes of the plan's dim); mixed as GridView's.
template <class T>
GridView<T> make_grid_view(const GpuPlan& plan, const T* const (&coefs)[3], const T (&mixed)[3], int has_mixed);

}  // namespace elsbench::gpu
