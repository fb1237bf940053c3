#include "solvers/problem/spot_values.hpp"

namespace elsbench {

SpotValues spot_values(const Problem& pb, const std::vector<double>& values) {
  const std::size_t dim = static_cast<std::size_t>(pb.dim);
  SpotValues out;
  out.delta.assign(dim, 0.0);
  out.gamma.assign(dim, 0.0);
  out.cross_gamma.assign(dim * (dim - 1) / 2, 0.0);
  // Tensor product of 4-point stencils: value weights on every axis but the differentiated one.
  std::vector<std::size_t> k(dim, 0);
  std::size_t corners = 1;
  for (std::size_t d = 0; d < dim; ++d) corners *= 4;
  for (std::size_t c = 0; c < corners; ++c) {
    std::size_t flat = 0, rest = c;
    for (std::size_t d = 0; d < dim; ++d) {
      k[d] = rest % 4;
      rest /= 4;
      flat += (pb.axes[d].at_spot.first + k[d]) * pb.axes[d].stride;
    }
    const double v = values[flat];
    double w = 1.0;
    for (std::size_t d = 0; d < dim; ++d) w *= pb.axes[d].at_spot.value[k[d]];
    out.price += w * v;
    for (std::size_t g = 0; g < dim; ++g) {
      double wd = 1.0, wg = 1.0;
      for (std::size_t d = 0; d < dim; ++d) {
        const SpotStencil& st = pb.axes[d].at_spot;
        wd *= d == g ? st.slope[k[d]] : st.value[k[d]];
        wg *= d == g ? st.curvature[k[d]] : st.value[k[d]];
      }
      out.delta[g] += wd * v;
      out.gamma[g] += wg * v;
    }
    // A pair's cross derivative: both axes' slopes, the value weights elsewhere.
    for (std::size_t g = 0, pair = 0; g < dim; ++g)
      for (std::size_t h = g + 1; h < dim; ++h, ++pair) {
        double wc = 1.0;
        for (std::size_t d = 0; d < dim; ++d) {
          const SpotStencil& st = pb.axes[d].at_spot;
          wc *= d == g || d == h ? st.slope[k[d]] : st.value[k[d]];
        }
        out.cross_gamma[pair] += wc * v;
      }
  }
  return out;
}

}  // namespace elsbench
