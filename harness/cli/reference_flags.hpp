#pragma once
// The flags that choose where a command's references come from (price, validate, sweep; books),
// bound to a ReferencePolicy: --reference stored|auto, the store, the target and budget of a
// reference computed on demand, its device.
#include <CLI/CLI.hpp>
#include <optional>
#include <string>

#include "harness/references/reference_policy.hpp"
#include "solvers/contract/error_target.hpp"

namespace elsbench {

struct ReferenceFlags {
  std::string mode = "stored", store, device = "auto";
  double target_percent = 0.005;  // of notional
  double budget_seconds = 600;
  int threads = 0;

  // `default_mode`: what the command does without --reference ("none" allowed for price).
  void add_to(CLI::App& cmd, const std::string& default_mode = "stored");
  bool wanted() const { return mode != "none"; }
  ReferencePolicy policy() const;  // throws InputError naming the flag
};

// --tol (price, book price, validate): the verdict's discretisation allowance, one amount for every
// case ("1bp" of the notional, or "0.01"), instead of the grid rule or the price's own bar. Empty
// text: none. read_tol throws InputError naming --tol, also when no reference is asked for.
void add_tol_flag(CLI::App& cmd, std::string& text);
std::optional<ErrorTarget> read_tol(const std::string& text, bool reference_wanted);

}  // namespace elsbench
