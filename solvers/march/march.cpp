#include "solvers/march/march.hpp"

#include <type_traits>

namespace elsbench {
namespace {

// v moved the fraction phi of the way to target, in fp64 (an fp32 value rounded once after).
template <class T>
inline void blend(T& v, double phi, double target) {
  if constexpr (std::is_same_v<T, double>) {
    v += phi * (target - v);
  } else {
    v = static_cast<T>(v + phi * (target - v));
  }
}

}  // namespace

template <class T>
void apply_events(const Problem& pb, std::size_t node, std::size_t& next, T* values) {
  const std::size_t P = pb.points;
  for (; next < pb.events.size() && pb.events[next].at_node == node; ++next) {
    const EventAction& e = pb.events[next];
    const double* phi = pb.event_weights[e.weights].data();
    if (e.kind == EventAction::Kind::Autocall) {
      for (int l = 0; l < pb.layers; ++l) {
        T* v = values + static_cast<std::size_t>(l) * P;
        for (std::size_t i = 0; i < P; ++i) blend(v[i], phi[i], e.value);
      }
    } else {
      const T* knocked = values + P;
      for (std::size_t i = 0; i < P; ++i) blend(values[i], phi[i], knocked[i]);
    }
  }
}

template <class T>
void project_knock_in(const Problem& pb, T* values) {
  const std::size_t P = pb.points;
  const double* phi = pb.event_weights[pb.knock_in_weights].data();
  for (std::size_t i = 0; i < P; ++i) blend(values[i], phi[i], values[P + i]);
}

template <class T>
std::vector<T> march(const Problem& pb, const StepFnT<T>& step) {
  std::vector<T> values(pb.initial.begin(), pb.initial.end());
  std::size_t next = 0;
  for (std::size_t j = 0; j < pb.time.steps(); ++j) {
    step(j, values);
    apply_events(pb, j + 1, next, values.data());
    if (pb.continuous_knock_in) project_knock_in(pb, values.data());
  }
  return values;
}

template void apply_events(const Problem&, std::size_t, std::size_t&, double*);
template void apply_events(const Problem&, std::size_t, std::size_t&, float*);
template void project_knock_in(const Problem&, double*);
template void project_knock_in(const Problem&, float*);
template std::vector<double> march(const Problem&, const StepFnT<double>&);
template std::vector<float> march(const Problem&, const StepFnT<float>&);

}  // namespace elsbench
