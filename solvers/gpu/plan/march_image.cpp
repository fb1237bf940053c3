#include "solvers/gpu/plan/march_image.hpp"

#include <stdexcept>

#include "solvers/problem/problem_builder.hpp"
#include "solvers/tridiagonal/chunk_tables.hpp"
#include "solvers/tridiagonal/chunked_solve.hpp"

namespace elsbench::gpu {
namespace {

template <class T>
void append(std::vector<T>& out, const std::vector<double>& in) {
  for (double x : in) out.push_back(static_cast<T>(x));
}

template <class T>
std::vector<T> axis_coefs(const Axis& ax) {
  std::vector<T> c;
  c.reserve(6 * ax.size());
  for (const Tridiagonal* t : {&ax.op, &ax.d1}) {
    append(c, t->lower);
    append(c, t->diag);
    append(c, t->upper);
  }
  return c;
}

}  // namespace

template <class T>
MarchImage<T> make_march_image(const Problem& pb, const GpuPlan& plan, bool factor_tables, EventWeights weights) {
  for (const MixedTerm& m : pb.mixed)
    if (m.a < 0 || m.b <= m.a || m.b >= pb.dim) throw std::invalid_argument("GPU march: unexpected mixed terms");
  MarchImage<T> im;
  for (int d = 0; d < plan.dim; ++d) {
    const Axis& ax = pb.axes[static_cast<std::size_t>(d)];
    im.coefs[d] = axis_coefs<T>(ax);
    im.table_stride[d] = table_elements(static_cast<int>(ax.size()));
    if (factor_tables)
      for (double theta_dt : plan.theta_dts) append(im.tables[d], chunk_table_values(ax.op, theta_dt));
  }
  // Each layer's payoff at its aligned offset (GpuPlan::layer_stride), zeros in the padding.
  im.initial.assign(static_cast<std::size_t>(plan.buffer_values()), T(0));
  for (int l = 0; l < plan.layers; ++l)
    for (long long i = 0; i < plan.points; ++i)
      im.initial[static_cast<std::size_t>(l * plan.layer_stride + i)] =
          static_cast<T>(pb.initial[static_cast<std::size_t>(l * plan.points + i)]);
  if (weights == EventWeights::PerNode) {
    std::vector<std::vector<double>> formed;
    for (const std::vector<double>& w : node_weights(pb, formed)) append(im.event_weights, w);
  }
  for (const CellFractions& f : pb.event_fractions)
    im.fractions.insert(im.fractions.end(), f.per_axis.begin(), f.per_axis.end());
  for (const MixedTerm& m : pb.mixed) {
    im.mixed[m.a + m.b - 1] = static_cast<T>(m.coeff);  // (0, 1) -> 0, (0, 2) -> 1, (1, 2) -> 2
    im.has_mixed = 1;
  }
  return im;
}

template <class T>
GridView<T> make_grid_view(const GpuPlan& plan, const T* const (&coefs)[3], const T (&mixed)[3], int has_mixed) {
  GridView<T> g;
  g.dim = plan.dim;
  g.layers = plan.layers;
  g.n0 = plan.n0;
  g.n1 = plan.n1;
  g.n2 = plan.n2;
  g.points = plan.points;
  g.layer_stride = plan.layer_stride;
  const int n[3] = {plan.n0, plan.n1, plan.n2};
  for (int d = 0; d < plan.dim; ++d) {
    const T* c = coefs[d];
    g.op[d] = {c, c + n[d], c + 2 * n[d]};
    g.d1[d] = {c + 3 * n[d], c + 4 * n[d], c + 5 * n[d]};
  }
  for (int k = 0; k < 3; ++k) g.mixed[k] = mixed[k];
  g.has_mixed = has_mixed;
  return g;
}

template <class T>
std::vector<double> unpadded_layers(const GpuPlan& plan, const std::vector<T>& padded, int layers) {
  std::vector<double> out;
  out.reserve(static_cast<std::size_t>(plan.points * layers));
  for (int l = 0; l < layers; ++l) {
    const auto first = padded.begin() + static_cast<std::ptrdiff_t>(l * plan.layer_stride);
    out.insert(out.end(), first, first + static_cast<std::ptrdiff_t>(plan.points));
  }
  return out;
}

template MarchImage<double> make_march_image<double>(const Problem&, const GpuPlan&, bool, EventWeights);
template MarchImage<float> make_march_image<float>(const Problem&, const GpuPlan&, bool, EventWeights);
template GridView<double> make_grid_view<double>(const GpuPlan&, const double* const (&)[3], const double (&)[3], int);
template std::vector<double> unpadded_layers<double>(const GpuPlan&, const std::vector<double>&, int);
template std::vector<double> unpadded_layers<float>(const GpuPlan&, const std::vector<float>&, int);
template GridView<float> make_grid_view<float>(const GpuPlan&, const float* const (&)[3], const float (&)[3], int);

}  // namespace elsbench::gpu
