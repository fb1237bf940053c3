#pragma once
// The estimated cost of pricing a note: grid points x its planned march steps (planned_work, the
// steps the cost model's rates count). Orders a book's work (largest first, so that no thread is
// left with a long note at the end) and splits it between devices or ranks.
#include <cstddef>
#include <vector>

#include "products/product.hpp"
#include "solvers/problem/grid_options.hpp"

namespace elsbench {

double note_cost(const Product& product, const GridOptions& grid, const TimeStepping& stepping = {});

// Splits notes (their costs given) into `parts` shares of about equal total cost: largest first,
// each to the share with the least so far. Each share lists note indices in increasing order.
std::vector<std::vector<std::size_t>> cost_balanced_shares(const std::vector<double>& costs, int parts);

}  // namespace elsbench
