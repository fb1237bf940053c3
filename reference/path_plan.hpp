#pragma once
// What a Monte Carlo path steps through, built once on the host and shared by the CPU and CUDA
// engines: the dates (autocall dates, coupon dates and, with a knock-in, the daily grid; only maturity for a
// validation product) and each step's exact log-space coefficients of correlated GBM.
#include <vector>

#include "products/product.hpp"

namespace elsbench {

struct PathPlan {
  int dim = 0;
  int steps = 0;
  std::vector<double> time;      // [step]: t_1 .. t_n (t_0 = 0); the last is maturity
  std::vector<double> discount;  // [step]: exp(-r t)
  // x_a = log(S_a / reference_a) moves by drift + sum_b shock_ab z_b, z independent normals.
  std::vector<double> drift;     // [step][asset]: (r - q_a - vol_a^2 / 2) dt
  std::vector<double> shock;     // [step][asset][asset]: vol_a sqrt(dt) L_ab, L lower Cholesky factor
  std::vector<double> bridge_rate;        // [step][asset]: 2 / (vol_a^2 dt), crossing probability
  std::vector<int> autocall;              // [step]: index into els.autocall, or -1
  std::vector<unsigned char> monitored;   // [step]: daily knock-in observation at this date
  std::vector<unsigned char> coupon;      // [step]: a periodic coupon date
  std::vector<double> start;              // [asset]: log(spot / reference)
  double log_barrier = 0;                 // log of the knock-in barrier, in performance units
  int lizard_step = -1;                   // the step of a lizard's date (observed on monitored steps up to it), or -1
  double log_lizard = 0;                  // log of the lizard's barrier
  bool continuous = false;                // Brownian-bridge crossing between dates
  bool starts_knocked_in = false;

  double drift_at(int step, int a) const { return drift[static_cast<std::size_t>(step * dim + a)]; }
  double shock_at(int step, int a, int b) const {
    return shock[static_cast<std::size_t>((step * dim + a) * dim + b)];
  }
};

PathPlan make_path_plan(const Product& p);

}  // namespace elsbench
