// The validation gate bites: the quick preset passes, and a solver that drops the correlation
// term (as the original prototype did) fails.
#include <boost/test/unit_test.hpp>
#include <filesystem>

#include "harness/sweep/validation_plan.hpp"

using namespace elsbench;

BOOST_AUTO_TEST_CASE(every_quick_case_passes) {
  const ValidationPlan plan = load_validation_plan("quick");
  for (const auto& c : plan.cases) {
    const CaseOutcome o = validate_case(plan, c);
    BOOST_TEST(o.status == CaseStatus::Pass, c.id() << ": " << to_string(o.status) << " " << o.skip_reason);
  }
}

BOOST_AUTO_TEST_CASE(dropping_the_correlation_term_fails_validation) {
  const ValidationPlan plan = load_validation_plan("quick");
  for (const char* product : {"min-call", "sample-2a-stepdown"}) {
    SweepCase c;
    c.product = product;
    c.solver = "adi-nocorr";
    c.n = 100;
    const CaseOutcome broken = validate_case(plan, c);
    c.solver = "adi";
    const CaseOutcome right = validate_case(plan, c);
    BOOST_TEST(right.status == CaseStatus::Pass, product);
    BOOST_TEST(broken.status == CaseStatus::Fail, product);
  }
}

BOOST_AUTO_TEST_CASE(a_malformed_case_file_names_the_field) {
  try {
    load_validation_plan((std::filesystem::path(ELSBENCH_SOURCE_DIR) / "products/catalog/min-call.json").string());
    BOOST_FAIL("a product file is not a case file");
  } catch (const std::exception& e) {
    BOOST_TEST(std::string(e.what()).find("cases") != std::string::npos, e.what());
  }
}
