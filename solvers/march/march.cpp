#include "solvers/march/march.hpp"

#include <type_traits>
#include <utility>

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

// The stretches [first, last) of points where an event's weight is not zero. Elsewhere a blend
// leaves the value as it is (v + 0 (target - v) = v), and an autocall's or a knock-in's region is
// a part of the grid, so events visit their stretches only.
using Stretches = std::vector<std::pair<std::size_t, std::size_t>>;

Stretches nonzero_stretches(const std::vector<double>& phi) {
  Stretches s;
  for (std::size_t i = 0; i < phi.size();) {
    if (phi[i] == 0.0) {
      ++i;
      continue;
    }
    const std::size_t first = i;
    while (i < phi.size() && phi[i] != 0.0) ++i;
    s.emplace_back(first, i);
  }
  return s;
}

template <class T>
void apply(const Problem& pb, const Stretches& where, const EventAction& e, T* values) {
  const std::size_t P = pb.points;
  const double* phi = pb.event_weights[e.weights].data();
  for (const auto& [first, last] : where) {
    if (e.kind == EventAction::Kind::Autocall) {
      for (int l = 0; l < pb.layers; ++l) {
        T* v = values + static_cast<std::size_t>(l) * P;
        for (std::size_t i = first; i < last; ++i) blend(v[i], phi[i], e.value);
      }
    } else {
      const T* knocked = values + P;
      for (std::size_t i = first; i < last; ++i) blend(values[i], phi[i], knocked[i]);
    }
  }
}

}  // namespace

template <class T>
std::vector<T> march(const Problem& pb, const StepFnT<T>& step) {
  std::vector<Stretches> where;
  for (const std::vector<double>& phi : pb.event_weights) where.push_back(nonzero_stretches(phi));
  // Continuous knock-in: the alive layer takes the knocked-in value on and below the barrier.
  EventAction knock_in;
  knock_in.kind = EventAction::Kind::KnockIn;
  knock_in.weights = pb.knock_in_weights;
  std::vector<T> values(pb.initial.begin(), pb.initial.end());
  std::size_t next = 0;
  for (std::size_t j = 0; j < pb.time.steps(); ++j) {
    step(j, values);
    for (; next < pb.events.size() && pb.events[next].at_node == j + 1; ++next)
      apply(pb, where[pb.events[next].weights], pb.events[next], values.data());
    if (pb.continuous_knock_in) apply(pb, where[knock_in.weights], knock_in, values.data());
  }
  return values;
}

template std::vector<double> march(const Problem&, const StepFnT<double>&);
template std::vector<float> march(const Problem&, const StepFnT<float>&);

}  // namespace elsbench
