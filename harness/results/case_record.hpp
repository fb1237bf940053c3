#pragma once
// A case as it appears in a results file (harness/results/RESULTS_SCHEMA.md): Google Benchmark's entries
// for it, each carrying the same elsbench fields; a skipped case is one synthetic `median`
// aggregate with zero time, marked as an error the way Google Benchmark marks a skipped run.
#include <nlohmann/json.hpp>

#include "harness/run/case.hpp"
#include "harness/run/case_run.hpp"
#include "products/product.hpp"

namespace elsbench {

nlohmann::json case_fields(const SweepCase& c, const Product& product, const CaseOutcome& out);
nlohmann::json case_entries(const SweepCase& c, const Product& product, const CaseOutcome& out);
// The timing entries of a case priced once (a book's note): one repetition and its median, as
// Google Benchmark would write them, `seconds` being that pricing's own.
nlohmann::json single_pricing_timings(const std::string& name, double seconds);

}  // namespace elsbench
