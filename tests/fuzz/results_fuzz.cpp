// libFuzzer target: the results-file readers, as `sweep --resume` (results_file_from_text, then the
// recorded sweep) and `compare` (cases_from_json) read a file.
#include <nlohmann/json.hpp>

#include "harness/compare/compare_cases.hpp"
#include "harness/results/results_file.hpp"
#include "harness/sweep/axes.hpp"
#include "tests/fuzz/fuzz_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace elsbench;
  fuzz::accepts_or_refuses(data, size, [](std::string_view text) {
    ResultsFile file = results_file_from_text(text, "fuzz.json");
    file.case_ids();
    if (file.elsbench().contains("sweep") && !file.elsbench()["sweep"].is_null())
      sweep_spec_from_json(file.elsbench()["sweep"], "fuzz.json (context.elsbench.sweep)");
  });
  return fuzz::accepts_or_refuses(data, size, [](std::string_view text) {
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception&) {
      return;  // load_cases refuses it as not valid JSON
    }
    cases_from_json(j, "fuzz.json");
  });
}
