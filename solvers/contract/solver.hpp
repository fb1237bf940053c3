#pragma once
// The public header of the solver contract: what a variant declares, how it registers, how it is
// run. Everything above the solvers layer goes through these.
#include "solvers/contract/price.hpp"
#include "solvers/contract/registry.hpp"
#include "solvers/contract/solver_info.hpp"
