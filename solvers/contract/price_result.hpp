#pragma once
// What every solver returns: the fields of docs/solvers.md (What a pricing returns).
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "solvers/contract/batch_times.hpp"

namespace elsbench {

// Greeks by bump-and-reprice on the same grid (solvers/contract/risk_greeks.hpp), with the bumps
// used. Units: vega per unit of volatility, rho per unit of rate, theta per year of calendar time.
// The units a risk Greek is read in: the model's (per unit of vol, per unit of rate, per year) or a
// desk's (per vol point, per basis point, per calendar day).
enum class GreekUnits { Model, Desk };

struct RiskGreeks {
  std::vector<double> vega;  // per asset, central difference, vol +- vol_bump (absolute)
  double rho = 0;            // central difference, rate +- rate_bump (absolute)
  double theta = 0;          // (V(aged by dt) - V) / dt at fixed spots
  double vol_bump = 0, rate_bump = 0, theta_dt = 0;
  GreekUnits units = GreekUnits::Model;
};

// The discretisation error of a price along one direction of refinement (error_estimate.hpp).
struct AxisErrorEstimate {
  std::vector<int> m;              // nodes per axis (space) or time steps (time), the base first
  std::vector<double> prices;      // at each m
  std::optional<double> observed_order;  // from three levels, where they show one
  double order = 2;                // the order used: the observed one if plausible, else the nominal
  double error = 0;                // estimated error of the base price: price - limit
  bool refined = false;            // time only: the other level is finer (the grid could not coarsen)
};

struct ErrorEstimate {
  AxisErrorEstimate space, time;
  double extrapolated = 0;  // the base price less both estimated errors (Richardson)
  double error = 0;         // space.error + time.error
  double truncation = 0;    // the price on a domain twice as wide less the price (n/2 nodes)
  bool truncation_priced = true;  // false: the domain left nothing to price (truncation_negligible)
  // The space levels show no order in [1.5, 3] (a discontinuity near a node, a grid before its
  // asymptotic range): the space part of the bound is then erratic_space (error_estimate.hpp).
  bool erratic = false;
  double bound = 0;         // what the price claims: |error| <= bound (error_estimate.hpp)
};

// One pricing an accuracy request made (accuracy.hpp), for its cost.
struct GridPricing {
  std::string role;           // "fine", "coarse", "coarser", "time", "domain", or "pilot ..."
  std::vector<int> shape;
  std::size_t time_steps = 0;
  double price = 0;
  double seconds = 0;
  double point_steps() const {
    double p = static_cast<double>(time_steps);
    for (int n : shape) p *= n;
    return p;
  }
};

// A price made to an accuracy (solvers/contract/accuracy.hpp): Richardson's value from n and n/2
// nodes per axis at the same time steps, and where asked its error bar.
struct Accuracy {
  int n = 0;                       // the finer grid's nodes per axis (the coarser has n/2)
  double fine = 0, coarse = 0;     // the prices at n and n/2
  std::optional<double> target;    // in price units (--target-error)
  std::string target_text;         // as asked: "0.5bp", "0.01"
  std::optional<double> bound;     // estimated |error| of the price: space + time + truncation
  double space = 0, time = 0, truncation = 0;
  bool truncation_priced = true;   // false: the domain left nothing to price (truncation_negligible)
  bool erratic = false;            // the space levels showed no order in [1.5, 3]: bound widened
  std::vector<GridPricing> pricings;  // every pricing it took, in order
  double cost = 0;                 // their point-steps over those of the pricing at n
};

struct PriceResult {
  std::string product;
  std::string solver;
  std::string scheme;
  std::string mesh;                 // e.g. "sinh 200x200, S_max 400/400"
  std::vector<int> shape;           // nodes per axis
  std::size_t time_steps = 0;
  // The --nt that gives this time grid again: time_steps less the knock-in damping sub-steps,
  // which the grid adds after each monitoring date whatever nt is.
  std::size_t nt = 0;
  double march_steps = 0;           // TimeGrid::march_steps: what the cost model's rates count
  std::string device = "cpu";
  std::string precision = "fp64";
  int threads = 1;
  double price = 0;
  std::vector<double> delta, gamma;  // per asset, at the spot
  std::vector<double> cross_gamma;   // per pair of assets (1,2), (1,3), (2,3), at the spot
  std::optional<RiskGreeks> greeks;  // when asked (price --greeks)
  std::optional<ErrorEstimate> error_estimate;  // when asked (--error-estimate)
  std::optional<Accuracy> accuracy;  // a Richardson value (the default grid, --target-error)
  double seconds = 0;                // wall time of the whole pricing (setup + march)
  std::size_t peak_host_bytes = 0;   // heap bytes the pricing allocated, at its peak
  std::size_t peak_device_bytes = 0; // device bytes the pricing allocated, at its peak
  std::size_t measured_device_bytes = 0;  // cudaMemGetInfo's peak drop over the pricing; 0: not measured
  std::vector<std::string> notes;    // e.g. "fell back to the CPU: no CUDA device"
  std::optional<BatchTimes> batch_times;  // the first note of a batched march: its batch's times

  std::size_t grid_points() const {
    std::size_t p = 1;
    for (int n : shape) p *= static_cast<std::size_t>(n);
    return p;
  }
};

}  // namespace elsbench
