#include "harness/cli/reference_flags.hpp"

#include <iostream>

#include "platform/device.hpp"
#include "platform/input_error.hpp"

namespace elsbench {

void ReferenceFlags::add_to(CLI::App& cmd, const std::string& default_mode) {
  mode = default_mode;
  cmd.add_option("--reference", mode,
                 "none (price only) | stored: closed forms and reference/values/ | auto: also compute and cache a Monte Carlo reference "
                 "for a product that has none")
      ->capture_default_str();
  cmd.add_option("--reference-store", store,
                 "folder of references computed on demand (default: $ELSBENCH_REFERENCE_STORE, else "
                 "~/.cache/elsbench/references)");
  cmd.add_option("--reference-target", target_percent,
                 "target standard error of a computed reference, % of notional")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd.add_option("--reference-budget", budget_seconds, "seconds allowed to compute one product's reference")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd.add_option("--reference-device", device, "auto (a CUDA device when built and present, else cpu) | cpu | cuda:N")
      ->capture_default_str();
}

ReferencePolicy ReferenceFlags::policy() const {
  ReferencePolicy p;
  try {
    p.mode = parse_reference_mode(mode == "none" ? "stored" : mode);
  } catch (const std::invalid_argument& e) {
    throw InputError("(command line)", "--reference", e.what());
  }
  try {
    parse_device(device);
  } catch (const std::invalid_argument& e) {
    throw InputError("(command line)", "--reference-device", e.what());
  }
  p.store = store;
  p.target_fraction = target_percent / 100.0;
  p.budget_seconds = budget_seconds;
  p.device = device;
  p.threads = threads;
  p.log = &std::cerr;
  return p;
}

void add_tol_flag(CLI::App& cmd, std::string& text) {
  cmd.add_option("--tol", text,
                 "judge against the reference with this allowance for the discretisation (1bp of the notional, or\n"
                 "an amount: 0.01) instead of the grid rule or the price's own error bar");
}

std::optional<ErrorTarget> read_tol(const std::string& text, bool reference_wanted) {
  if (text.empty()) return std::nullopt;
  if (!reference_wanted)
    throw InputError("(command line)", "--tol", "it judges a price against its reference: add --reference stored|auto");
  try {
    return parse_error_target(text);
  } catch (const std::invalid_argument& e) {
    throw InputError("(command line)", "--tol", e.what());
  }
}

}  // namespace elsbench
