#pragma once
// The flags that choose where a command's references come from (price, validate, sweep; books),
// bound to a ReferencePolicy: --reference stored|auto, the store, the target and budget of a
// reference computed on demand, its device.
#include <CLI/CLI.hpp>
#include <string>

#include "harness/references/reference_policy.hpp"

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

}  // namespace elsbench
