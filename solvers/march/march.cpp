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

}  // namespace elsbench
