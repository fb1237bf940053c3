#pragma once
// Pricing one product with one variant: the request checked against what the variant declared,
// the problem built once for it, its march run under the host-memory tracker, and the price and
// Greeks read at the spot the same way for every variant.
#include <optional>
#include <vector>

#include "products/price_bounds.hpp"
#include "products/product.hpp"
#include "solvers/contract/price_result.hpp"
#include "solvers/contract/solver_info.hpp"

namespace elsbench {

// Throws std::invalid_argument for a request the variant does not take (dimension, precision,
// device, scheme), SolverError when it cannot price the case (unavailable device, unstable step,
// out of memory).
PriceResult price_with(const SolverInfo& solver, const Product& product, SolverOptions options);

// The values at the pricing date on the whole mesh (layers x points, axis 0 contiguous, layer 0
// the note not knocked in) and the mesh's nodes per axis: for a caller who wants more than the
// price at the spot (the Python package's values=True).
struct PricedGrid {
  std::vector<double> values;
  std::vector<std::vector<double>> nodes;
  int layers = 1;
};
// price_with, handing the grid over to `grid` too.
PriceResult price_with(const SolverInfo& solver, const Product& product, SolverOptions options, PricedGrid& grid);

// Several notes through the variant's march_book, in chunks of `chunk_notes` marched together, the
// problems of the next chunk built while a chunk marches (and the variant's prepare_book of them,
// when it has one); each result as price_with gives it, its
// seconds its chunk's wall time shared evenly, the first of a chunk carrying its BatchTimes.
// Throws as price_with does, for the first note the variant refuses; the variant must have a march_book.
constexpr std::size_t kPipelineNotes = 512;
std::vector<PriceResult> price_book_with(const SolverInfo& solver, const std::vector<const Product*>& notes,
                                         SolverOptions options, std::size_t chunk_notes = kPipelineNotes);

// The no-arbitrage bound (products/price_bounds.hpp) `price` lies beyond, with the rounding slack of
// a march in `precision`; none when it lies within them. price_with refuses such a price as
// unconverged, and a book's --resume does not keep one.
std::optional<PriceBound> bound_crossed(const Product& product, double price, Precision precision);

}  // namespace elsbench
