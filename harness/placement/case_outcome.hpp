#pragma once
// What became of one priced item, a sweep's or a validation's case or a book's note: the one
// outcome type of every run. A book's pricing fills its status and result (or why it failed); the
// case runner adds the reference, the verdict and the timings.
#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "harness/placement/case_status.hpp"
#include "reference/reference_value.hpp"
#include "solvers/contract/price_result.hpp"

namespace elsbench {

// How a judged outcome's allowance k x stderr + tol was formed, for the reader who asks why.
struct AllowanceSource {
  double k = 3;                // standard errors of the reference allowed
  bool from_estimate = false;  // tol is the price's own error bar or estimate; else a rule's
  std::string tol_source;      // "--tol 1bp" where the user set it
  double c = 0;                // the default rule's coefficient c (100/n)^2, where it was used
};

struct CaseOutcome {
  CaseStatus status = CaseStatus::Skipped;
  // Why it was skipped, or why unconverged without a result (its price lay outside its no-arbitrage bounds).
  std::string skip_reason;
  std::optional<PriceResult> result;  // the first (untimed) pricing
  std::optional<ReferenceValue> reference;
  double tol = 0;  // the discretisation allowance, set when judged against a reference or an estimate
  Verdict verdict;
  AllowanceSource allowance_source;
  nlohmann::json timings = nlohmann::json::array();  // Google Benchmark's entries for the case
  int repetitions_run = 0;
  double median_interval = 0;  // the median's 95 % half-width / median (timing.hpp)
  std::string timing_stop;     // why the repetitions stopped
  std::string noise;           // why the timing is noisy (platform/machine_load.hpp); "" when it is not
  // Peaks over every pricing of the case, and the process's peak resident set after it.
  std::size_t peak_host_bytes = 0, peak_device_bytes = 0, process_peak_rss_bytes = 0;
  std::size_t measured_device_bytes = 0;  // cudaMemGetInfo's peak over the pricings; 0: not measured

  bool priced() const { return result.has_value(); }
  bool skipped() const { return status == CaseStatus::Skipped; }
  bool passed() const { return status == CaseStatus::Pass; }
};

// A pricing not (yet) judged: no-reference, with its result and the result's memory peaks.
inline CaseOutcome unjudged(PriceResult result) {
  CaseOutcome out;
  out.status = CaseStatus::NoReference;
  out.peak_host_bytes = result.peak_host_bytes;
  out.peak_device_bytes = result.peak_device_bytes;
  out.measured_device_bytes = result.measured_device_bytes;
  out.result = std::move(result);
  return out;
}

}  // namespace elsbench
