#include "solvers/gpu/plan/march_image.hpp"

#include <algorithm>
#include <stdexcept>

#include "solvers/problem/problem_builder.hpp"
#include "solvers/tridiagonal/chunk_tables.hpp"
#include "solvers/tridiagonal/chunked_solve.hpp"

namespace elsbench::gpu {
namespace {

template <class T>
T* put(T* out, const std::vector<double>& in) {
  for (double x : in) *out++ = static_cast<T>(x);
  return out;
}

// op lower, diag, upper, d1 lower, diag, upper (MarchImage::coefs).
template <class T>
void put_axis_coefs(T* out, const Axis& ax) {
  for (const Tridiagonal* t : {&ax.op, &ax.d1}) {
    out = put(out, t->lower);
    out = put(out, t->diag);
    out = put(out, t->upper);
  }
}

}  // namespace

template <class T>
void put_payoff(const Problem& pb, const GpuPlan& plan, T* at) {
  for (int l = 0; l < plan.layers; ++l) {
    T* layer = at + l * plan.layer_stride;
    const double* from = pb.initial.data() + l * plan.points;
    for (long long i = 0; i < plan.points; ++i) layer[i] = static_cast<T>(from[i]);
    std::fill(layer + plan.points, layer + plan.layer_stride, T(0));
  }
}

MarchImageSizes march_image_sizes(const Problem& pb, const GpuPlan& plan, bool factor_tables, EventWeights weights) {
  MarchImageSizes n;
  for (int d = 0; d < plan.dim; ++d) {
    const int nodes = static_cast<int>(pb.axes[static_cast<std::size_t>(d)].size());
    n.coefs[d] = 6 * static_cast<std::size_t>(nodes);
    if (factor_tables) n.tables[d] = plan.theta_dts.size() * static_cast<std::size_t>(table_elements(nodes));
  }
  n.initial = static_cast<std::size_t>(plan.buffer_values());
  if (weights == EventWeights::PerNode) n.event_weights = pb.event_fractions.size() * pb.points;
  for (const CellFractions& f : pb.event_fractions) n.fractions += f.per_axis.size() + f.lift.size();
  return n;
}

template <class T>
MarchImage<T> write_march_image(const Problem& pb, const GpuPlan& plan, bool factor_tables, EventWeights weights,
                                const MarchImageRoom<T>& at) {
  for (const MixedTerm& m : pb.mixed)
    if (m.a < 0 || m.b <= m.a || m.b >= pb.dim) throw std::invalid_argument("GPU march: unexpected mixed terms");
  MarchImage<T> im;
  for (int d = 0; d < plan.dim; ++d) {
    const Axis& ax = pb.axes[static_cast<std::size_t>(d)];
    put_axis_coefs(at.coefs[d], ax);
    im.table_stride[d] = table_elements(static_cast<int>(ax.size()));
    if (!factor_tables) continue;
    T* table = at.tables[d];
    for (double theta_dt : plan.theta_dts) table = put(table, chunk_table_values(ax.op, theta_dt));
  }
  if (at.initial) put_payoff(pb, plan, at.initial);
  if (weights == EventWeights::PerNode) {
    std::vector<std::vector<double>> formed;
    T* w = at.event_weights;
    for (const std::vector<double>& side : node_weights(pb, formed)) w = put(w, side);
  }
  double* f = at.fractions;
  for (const CellFractions& side : pb.event_fractions) {
    f = std::copy(side.per_axis.begin(), side.per_axis.end(), f);
    f = std::copy(side.lift.begin(), side.lift.end(), f);
  }
  for (const MixedTerm& m : pb.mixed) {
    im.mixed[m.a + m.b - 1] = static_cast<T>(m.coeff);  // (0, 1) -> 0, (0, 2) -> 1, (1, 2) -> 2
    im.has_mixed = 1;
  }
  return im;
}

template <class T>
MarchImage<T> make_march_image(const Problem& pb, const GpuPlan& plan, bool factor_tables, EventWeights weights) {
  const MarchImageSizes n = march_image_sizes(pb, plan, factor_tables, weights);
  std::vector<T> coefs[3], tables[3];
  MarchImageRoom<T> at;
  for (int d = 0; d < 3; ++d) {
    coefs[d].resize(n.coefs[d]);
    tables[d].resize(n.tables[d]);
    at.coefs[d] = coefs[d].data();
    at.tables[d] = tables[d].data();
  }
  std::vector<T> initial(n.initial), event_weights(n.event_weights);
  std::vector<double> fractions(n.fractions);
  at.initial = initial.data();
  at.event_weights = event_weights.data();
  at.fractions = fractions.data();
  MarchImage<T> im = write_march_image(pb, plan, factor_tables, weights, at);
  for (int d = 0; d < 3; ++d) {
    im.coefs[d] = std::move(coefs[d]);
    im.tables[d] = std::move(tables[d]);
  }
  im.initial = std::move(initial);
  im.event_weights = std::move(event_weights);
  im.fractions = std::move(fractions);
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
template MarchImage<double> write_march_image<double>(const Problem&, const GpuPlan&, bool, EventWeights,
                                                      const MarchImageRoom<double>&);
template MarchImage<float> write_march_image<float>(const Problem&, const GpuPlan&, bool, EventWeights,
                                                    const MarchImageRoom<float>&);
template void put_payoff<double>(const Problem&, const GpuPlan&, double*);
template void put_payoff<float>(const Problem&, const GpuPlan&, float*);
template GridView<double> make_grid_view<double>(const GpuPlan&, const double* const (&)[3], const double (&)[3], int);
template std::vector<double> unpadded_layers<double>(const GpuPlan&, const std::vector<double>&, int);
template std::vector<double> unpadded_layers<float>(const GpuPlan&, const std::vector<float>&, int);
template GridView<float> make_grid_view<float>(const GpuPlan&, const float* const (&)[3], const float (&)[3], int);

}  // namespace elsbench::gpu
