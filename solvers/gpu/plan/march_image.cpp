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
  if (pb.mixed.size() > 1 || (pb.mixed.size() == 1 && (pb.mixed[0].a != 0 || pb.mixed[0].b != 1)))
    throw std::invalid_argument("GPU march: unexpected mixed terms");
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
  if (!pb.mixed.empty()) {
    im.mixed = static_cast<T>(pb.mixed[0].coeff);
    im.has_mixed = 1;
  }
  return im;
}

template <class T>
GridView<T> make_grid_view(const GpuPlan& plan, const T* coefs0, const T* coefs1, T mixed, int has_mixed) {
  GridView<T> g;
  g.dim = plan.dim;
  g.layers = plan.layers;
  g.n0 = plan.n0;
  g.n1 = plan.n1;
  g.points = plan.points;
  g.layer_stride = plan.layer_stride;
  const T* coefs[2] = {coefs0, coefs1};
  const int n[2] = {plan.n0, plan.n1};
  for (int d = 0; d < plan.dim; ++d) {
    const T* c = coefs[d];
    g.op[d] = {c, c + n[d], c + 2 * n[d]};
    g.d1[d] = {c + 3 * n[d], c + 4 * n[d], c + 5 * n[d]};
  }
  g.mixed = mixed;
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
template GridView<double> make_grid_view<double>(const GpuPlan&, const double*, const double*, double, int);
template std::vector<double> unpadded_layers<double>(const GpuPlan&, const std::vector<double>&, int);
template std::vector<double> unpadded_layers<float>(const GpuPlan&, const std::vector<float>&, int);
template GridView<float> make_grid_view<float>(const GpuPlan&, const float*, const float*, float, int);

}  // namespace elsbench::gpu
