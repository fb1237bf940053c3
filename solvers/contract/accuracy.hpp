#pragma once
// Prices made to an accuracy. A second-order grid's error falls as n^-2, so the price at n and
// n/2 nodes per axis (the same time steps) give Richardson's value, P(n) + (P(n) - P(n/2)) / 3
// (1 / 3.3 where the levels show a higher order: richardson_weight), an order more accurate for a
// quarter more work in 2-D: the default grid of `price`. With an
// error target the grid is chosen from a small pilot, priced, and its value given an error bar,
// the sum of a space, a time and a truncation part (each defined in docs/accuracy.md, "Richardson's
// value, the error bar and --target-error").
#include <string>
#include <vector>

#include "products/product.hpp"
#include "solvers/contract/error_target.hpp"
#include "solvers/contract/price_result.hpp"
#include "solvers/contract/solver_info.hpp"

namespace elsbench {


// Richardson's value for a grid halved: P(n) + w (P(n) - P(n/2)), w = 1 / (2^p - 1) for the
// order p its levels show (richardson_weight). A Greek of Richardson's value is the same
// combination of its values on the two grids.
double richardson(double fine, double coarse, double weight);

// The product's weight: 1/3 for the schemes' second order; 1 / 3.3 for a note of one or two assets
// with a daily knock-in to come, whose levels at the default's nodes and steps fall faster
// (accuracy.cpp).
double richardson_weight(const Product& product);

// Nodes per axis of the default grid by dimension: Richardson's value from them and half as many
// costs about what the plain price at 200 nodes cost in 2-D (docs/accuracy.md).
int default_nodes(int dimension);
// The default grid of `product`: default_nodes(its assets), twice as many for an ELS of two or
// three assets with no daily knock-in to come, whose steps span days rather than one a day.
int default_nodes(const Product& product);
// `grid` moved onto the default grid of `product`: default_nodes on every axis, the solver's own
// time steps, its other keys (mesh, damping...) as they were.
GridOptions on_default_grid(GridOptions grid, const Product& product);
// "Richardson's value from 400, 144 or 80 nodes by the note's assets, ... and half as many".
std::string default_grid_words();

// The nodes per axis of price_to_target's pilot, doubled while its grids cannot carry the note.
int pilot_nodes(int dimension);

// The pricings of Richardson's value on `grid` (n, and n/2 at the same steps) and with its error
// bar (price_with_bound), as add_bound chooses them: the coarser grid n/4 where the builder takes
// it, the time levels (time_estimate's halvings on n/2, or where the dates pin the steps on n/4,
// n/2 without it; a daily note from twice the default nodes one level at four times the steps)
// and, where the domain leaves anything to truncate, the wider domain on n/4 (or n/2). Each with
// its march work (planned_work) under the solver's `stepping`, the fine first. Throws where the
// builder refuses the fine or the coarse grid.
struct PlannedLevel {
  double nodes = 0;  // per axis
  double work = 0;   // points x march steps
};
std::vector<PlannedLevel> extrapolated_levels(const Product& product, const GridOptions& grid, bool with_bar,
                                              const TimeStepping& stepping);
// Their work over the fine grid's alone; where the builder refuses, the levels' share of nodes.
double extrapolated_work(const Product& product, const GridOptions& grid, bool with_bar);
// The least price_to_target prices on `grid`'s steps: its pilot and a grid of twice the pilot's
// nodes, each with its bar (extrapolated_levels). Which grid it lands on is known after the pilot.
std::vector<PlannedLevel> target_levels_at_least(const Product& product, const GridOptions& grid,
                                                 const TimeStepping& stepping);

// Richardson's value from options.grid (n) and n/2 at the same steps: price, delta and gamma.
PriceResult price_extrapolated(const SolverInfo& solver, const Product& product, const SolverOptions& options);
// price_extrapolated with its error bar (accuracy->bound).
PriceResult price_with_bound(const SolverInfo& solver, const Product& product, const SolverOptions& options);
// The grid that meets the target at least cost, from a pilot: accuracy->bound <= target unless
// accuracy->target is missed after its tries (the caller reports that, exit 3): the chosen grid, a
// retry, and a second retry where the first narrowed the bar.
PriceResult price_to_target(const SolverInfo& solver, const Product& product, SolverOptions options,
                            const ErrorTarget& target);

// Throws SolverError(Unconverged) naming both where the price's error bar misses its target: a
// price to a target that it does not meet is not reported as one (book notes, sweep cases).
void require_target_met(const Accuracy& accuracy);

}  // namespace elsbench
