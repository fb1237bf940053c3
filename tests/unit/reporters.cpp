// Results formats (harness/results/reporter.hpp): --out-format's words, the default JSON and CSV,
// and a format added in one file (this one) that the writer then runs like the built-in ones.
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "harness/results/reporter.hpp"
#include "harness/runner/run_file.hpp"
#include "platform/input_error.hpp"
#include "tests/unit/scratch_dir.hpp"

using namespace elsbench;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// A format of this test: a line per case, its id and entry count, between a header from the
// context and a footer with the total, so that the order of the calls shows in the text.
class CaseLines : public Reporter {
 public:
  void context(const json& context) override {
    text_ << "preset " << context.at("elsbench").at("preset").get<std::string>() << '\n';
  }
  void add_case(std::span<const json> entries) override {
    text_ << entries.front().at("case_id").get<std::string>() << ' ' << entries.size() << '\n';
    ++cases_;
  }
  std::string finalize() override { return text_.str() + std::to_string(cases_) + " cases\n"; }

 private:
  std::ostringstream text_;
  int cases_ = 0;
};

ResultsFormat case_lines() {
  return {"case-lines", ".cases.txt", "a line per case (a test's format)", [] { return std::make_unique<CaseLines>(); },
          nullptr};
}

ELSBENCH_REGISTER_RESULTS_FORMAT(case_lines)

ResultsFile two_cases() {
  ResultsFile f;
  f.context["elsbench"] = {{"schema", kResultsSchema}, {"preset", "quick"}};
  for (const char* id : {"a", "a", "b"}) f.benchmarks.push_back({{"case_id", id}, {"status", "pass"}, {"price", 1.0}, {"real_time", 1.0}});
  return f;
}

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

BOOST_AUTO_TEST_CASE(out_formats_are_registered_names_once_with_json_among_them) {
  BOOST_TEST(default_out_formats() == (std::vector<std::string>{"json", "csv"}), boost::test_tools::per_element());
  BOOST_TEST(parse_out_formats("json") == (std::vector<std::string>{"json"}), boost::test_tools::per_element());
  BOOST_TEST(parse_out_formats("csv,json,case-lines").size() == 3u);
  for (const char* bad : {"", "csv", "json,xml", "json,json", "json,", "JSON"})
    BOOST_CHECK_EXCEPTION(parse_out_formats(bad), InputError,
                          [](const InputError& e) { return e.field() == "--out-format"; });
}

BOOST_AUTO_TEST_CASE(a_format_added_in_one_file_is_written_beside_the_results_file) {
  testing::ScratchDir dir{"reporters"};
  const fs::path results = dir / "r.json";
  const RunFile writer(results.string(), {}, {"json", "case-lines"});
  BOOST_TEST(writer.written() == (std::vector<std::string>{results.string(), (dir / "r.cases.txt").string()}),
             boost::test_tools::per_element());
  writer.save(two_cases());
  BOOST_TEST(read(dir / "r.cases.txt") == "preset quick\na 2\nb 1\n2 cases\n");
  BOOST_TEST(read_results_file(results.string()).benchmarks.size() == 3u);
  BOOST_TEST(!fs::exists(dir / "r.csv"));  // not asked for
}

BOOST_AUTO_TEST_CASE(a_results_file_named_as_a_view_is_refused) {
  testing::ScratchDir dir{"reporters-name"};
  BOOST_CHECK_THROW(RunFile((dir / "r.csv").string(), {}, {"json", "csv"}), InputError);
  const RunFile fine((dir / "r.csv").string(), {}, {"json"});
  BOOST_TEST(fine.written().size() == 1u);
}
