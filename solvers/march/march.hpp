#pragma once
// The backward march shared by the CPU variants: payoff at tau = 0, one step at a time, events
// (autocall resets, knock-in projections) at the time nodes where they fall.
#include <functional>
#include <string>
#include <vector>

#include "solvers/problem/problem.hpp"

namespace elsbench {

// Applies the actions due at time node `node`; `next` indexes pb.events and is advanced.
void apply_events(const Problem& pb, std::size_t node, std::size_t& next, double* values);
// Continuous knock-in: the alive layer takes the knocked-in value on and below the barrier.
void project_knock_in(const Problem& pb, double* values);

// step(j, values) advances values from tau[j] to tau[j+1].
using StepFn = std::function<void(std::size_t step, std::vector<double>& values)>;
std::vector<double> march(const Problem& pb, const StepFn& step);

}  // namespace elsbench
