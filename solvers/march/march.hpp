#pragma once
// The backward march shared by the CPU variants: payoff at tau = 0, one step at a time, events
// (autocall resets, knock-in projections) at the time nodes where they fall, in the order of
// pb.events, then the continuous knock-in projection. Values in T = double or float (an fp32
// march; the event weights stay fp64).
#include <functional>
#include <string>
#include <vector>

#include "solvers/problem/problem.hpp"

namespace elsbench {

// step(j, values) advances values from tau[j] to tau[j+1].
template <class T>
using StepFnT = std::function<void(std::size_t step, std::vector<T>& values)>;
using StepFn = StepFnT<double>;
template <class T>
std::vector<T> march(const Problem& pb, const StepFnT<T>& step);
inline std::vector<double> march(const Problem& pb, const StepFn& step) { return march<double>(pb, step); }

}  // namespace elsbench
