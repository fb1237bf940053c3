// The flat view (results_csv.hpp): one row a case, for spreadsheets and quick greps.
#include "harness/results/reporter.hpp"
#include "harness/results/results_csv.hpp"

namespace elsbench {
namespace {

ResultsFormat csv_format() { return {"csv", ".csv", "one row a case", nullptr, results_csv}; }

}  // namespace

ELSBENCH_REGISTER_RESULTS_FORMAT(csv_format)

}  // namespace elsbench
