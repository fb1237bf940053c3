// The results file itself (RESULTS_SCHEMA.md), with the checksum a resume checks.
#include "harness/results/reporter.hpp"

namespace elsbench {
namespace {

ResultsFormat json_format() { return {"json", "", "the results file (always written)", nullptr, results_file_text}; }

}  // namespace

ELSBENCH_REGISTER_RESULTS_FORMAT(json_format)

}  // namespace elsbench
