#include "solvers/march/march.hpp"

namespace elsbench {

void apply_events(const Problem& pb, std::size_t node, std::size_t& next, double* values) {
  const std::size_t P = pb.points;
  for (; next < pb.events.size() && pb.events[next].at_node == node; ++next) {
    const EventAction& e = pb.events[next];
    const double* phi = pb.event_weights[e.weights].data();
    if (e.kind == EventAction::Kind::Autocall) {
      for (int l = 0; l < pb.layers; ++l) {
        double* v = values + static_cast<std::size_t>(l) * P;
        for (std::size_t i = 0; i < P; ++i) v[i] += phi[i] * (e.value - v[i]);
      }
    } else {
      const double* knocked = values + P;
      for (std::size_t i = 0; i < P; ++i) values[i] += phi[i] * (knocked[i] - values[i]);
    }
  }
}

void project_knock_in(const Problem& pb, double* values) {
  const std::size_t P = pb.points;
  const double* phi = pb.event_weights[pb.knock_in_weights].data();
  for (std::size_t i = 0; i < P; ++i) values[i] += phi[i] * (values[P + i] - values[i]);
}

std::vector<double> march(const Problem& pb, const StepFn& step) {
  std::vector<double> values = pb.initial;
  std::size_t next = 0;
  for (std::size_t j = 0; j < pb.time.steps(); ++j) {
    step(j, values);
    apply_events(pb, j + 1, next, values.data());
    if (pb.continuous_knock_in) project_knock_in(pb, values.data());
  }
  return values;
}

SpotValues spot_values(const Problem& pb, const std::vector<double>& values) {
  const std::size_t dim = static_cast<std::size_t>(pb.dim);
  SpotValues out;
  out.delta.assign(dim, 0.0);
  out.gamma.assign(dim, 0.0);
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
  }
  return out;
}

PriceResult result_at_spot(const Problem& pb, const std::vector<double>& values, std::string scheme) {
  const SpotValues at = spot_values(pb, values);
  PriceResult r;
  r.scheme = std::move(scheme);
  r.mesh = pb.mesh;
  r.shape = pb.shape();
  r.time_steps = pb.time.steps();
  r.price = at.price;
  r.delta = at.delta;
  r.gamma = at.gamma;
  return r;
}

}  // namespace elsbench
