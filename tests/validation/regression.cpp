// CI price regression: ci/regression.sh runs the small deterministic sweep of
// ci/baseline/regression-sweep.json and compares its prices strictly against the committed
// baseline. A tampered baseline proves the comparison can fail.
#include <boost/test/unit_test.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "products/catalog.hpp"
#include "tests/unit/report_binary.hpp"

namespace elsbench {
namespace {

using testing::elsbench_binary;
using testing::run_command;
using testing::shell_quoted;

std::string baseline() { return project_root() + "/ci/baseline/regression.json"; }

}  // namespace

BOOST_AUTO_TEST_CASE(quick_sweep_prices_match_the_committed_baseline) {
  const std::string cmd = "ELSBENCH_BIN=" + shell_quoted(elsbench_binary()) + " bash " +
                          shell_quoted(project_root() + "/ci/regression.sh");
  BOOST_TEST(run_command(cmd) == 0, "price regression against " << baseline() << " (see the compare output above)");
}

BOOST_AUTO_TEST_CASE(a_drifted_price_fails_the_comparison) {
  std::ifstream in(baseline());
  nlohmann::json results = nlohmann::json::parse(in);
  const std::string victim = results["benchmarks"].at(0)["case_id"];
  for (auto& entry : results["benchmarks"])
    if (entry["case_id"] == victim) entry["price"] = entry["price"].get<double>() + 1e-6;
  const std::string tampered =
      (std::filesystem::temp_directory_path() / ("elsbench-tampered-" + std::to_string(getpid()) + ".json")).string();
  std::ofstream(tampered) << results.dump();
  const int status = run_command(shell_quoted(elsbench_binary()) + " compare " + shell_quoted(baseline()) + " " +
                                 shell_quoted(tampered) + " --price-tol 1e-9 > /dev/null");
  std::filesystem::remove(tampered);
  BOOST_TEST(status == 1);
}

}  // namespace elsbench
