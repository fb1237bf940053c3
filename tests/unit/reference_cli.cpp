// The reference commands as a user runs them: `reference --json` carries the text output's
// fields, and a note no one stored a value for gets pass or fail from `sweep` and `validate` with
// --reference auto, its reference computed once and read back by the next run from the store,
// which `reference --list` and `--clear` manage.
#include <sys/stat.h>
#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "products/catalog.hpp"
#include "products/product_json.hpp"
#include "reference/closed_form.hpp"
#include "tests/unit/report_binary.hpp"
#include "tests/unit/scratch_dir.hpp"

using namespace elsbench;
using testing::elsbench_binary;
using testing::run_command;
using testing::shell_quoted;
namespace fs = std::filesystem;

namespace {

struct Scratch : testing::ScratchDir {
  Scratch() : ScratchDir("refcli-test") {}
};

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs `elsbench ARGS`, stdout and stderr to files of the scratch folder; returns the exit status.
int run_elsbench(const Scratch& s, const std::string& args, const std::string& name) {
  return run_command(shell_quoted(elsbench_binary()) + " " + args + " > " + shell_quoted((s / (name + ".out")).string()) +
                     " 2> " + shell_quoted((s / (name + ".err")).string()));
}

// The text output's "label   value" rows.
std::string row(const std::string& text, const std::string& label) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(label, 0) == 0) return line.substr(13);
  return "";
}

// The note of tests/unit/reference_store.cpp, as a file a user wrote.
fs::path write_note(const Scratch& s) {
  nlohmann::json j = product_to_json(resolve_product("els-1a-stepdown"));
  j["id"] = "my-note";
  for (auto& a : j["autocall"]) a["coupon"] = a["coupon"].get<double>() * 1.1;
  const fs::path path = s / "my-note.json";
  std::ofstream(path) << j.dump(2);
  return path;
}

std::string auto_flags(const Scratch& s) {
  return " --reference auto --reference-store " + shell_quoted((s / "store").string()) +
         " --reference-target 0.05 --reference-device cpu";
}

}  // namespace

BOOST_AUTO_TEST_CASE(reference_json_has_the_text_outputs_fields) {
  const Scratch s;
  const std::string args = "reference --product european-call --paths 40000 --seed 3 --threads 1";
  BOOST_REQUIRE(run_elsbench(s, args, "text") == 0);
  BOOST_REQUIRE(run_elsbench(s, args + " --json", "json") == 0);
  const std::string text = read(s / "text.out");
  const nlohmann::json j = nlohmann::json::parse(read(s / "json.out"));
  BOOST_TEST(j["product"] == "european-call");
  BOOST_TEST(j["paths"] == 40000);
  BOOST_TEST(j["seed"] == 3);
  BOOST_TEST(j["device"] == "cpu");
  BOOST_TEST(j["threads"] == 1);
  BOOST_TEST(j["generator_version"].is_number_integer());
  BOOST_TEST(j["wrote"].is_null());
  BOOST_TEST(j["std_error_percent_of_notional"].is_null());  // an option has no notional to speak of
  // The same run: the price the text prints to 10 digits, and the same standard error.
  BOOST_TEST(std::stod(row(text, "price")) == j["price"].get<double>(), boost::test_tools::tolerance(1e-9));
  BOOST_TEST(std::stod(row(text, "std error")) == j["std_error"].get<double>(), boost::test_tools::tolerance(1e-3));
  BOOST_TEST(row(text, "paths").find(j["generator"].get<std::string>()) != std::string::npos);
  BOOST_TEST(j["seconds"].get<double>() > 0);
  BOOST_TEST(j["paths_per_second"].get<double>() > 0);
  // And it is a Monte Carlo estimate of the closed form.
  const double exact = *closed_form_price(resolve_product("european-call"));
  BOOST_TEST(std::abs(j["price"].get<double>() - exact) <= 4 * j["std_error"].get<double>());
}

BOOST_AUTO_TEST_CASE(a_note_no_one_stored_gets_a_verdict_in_sweep_and_validate) {
  const Scratch s;
  const fs::path note = write_note(s);
  const std::string results = (s / "results.json").string();
  const std::string sweep = "sweep --products " + shell_quoted(note.string()) +
                            " --solvers adi --n 100 --repetitions 2 --devices cpu:t1 --out " + shell_quoted(results);

  // Without --reference auto: no reference, as before.
  BOOST_REQUIRE(run_elsbench(s, sweep, "plain") == 0);
  // Named: a range-for over a member of a temporary reads freed memory (AddressSanitizer found it).
  const nlohmann::json plain = nlohmann::json::parse(read(results));
  for (const auto& e : plain["benchmarks"]) BOOST_TEST(e["status"] == "no-reference");

  BOOST_REQUIRE(run_elsbench(s, sweep + auto_flags(s), "auto") == 0);
  BOOST_TEST(read(s / "auto.err").find("computing one") != std::string::npos, read(s / "auto.err"));
  const nlohmann::json file = nlohmann::json::parse(read(results));
  BOOST_TEST(file["context"]["elsbench"]["references"]["mode"] == "auto");
  for (const auto& e : file["benchmarks"]) {
    BOOST_TEST(e["reference_source"] == "monte-carlo-on-demand");
    BOOST_TEST(e["reference_stderr"].get<double>() <= 0.05);
    // The one-asset note converges well at n = 100 (els-1a: 99.6787 at n = 200 against 99.6795).
    BOOST_TEST(e["status"] == "pass", e["case_id"] << ": error " << e["error"] << ", allowed " << e["allowance"]);
  }

  // validate, in another process: the store's value, not a second computation.
  const nlohmann::json preset = {{"cases", {{{"product", note.string()}, {"solver", "adi"}, {"n", 100}}}}};
  std::ofstream(s / "preset.json") << preset.dump(2);
  const std::string validate = "validate --threads 1 --preset " + shell_quoted((s / "preset.json").string());
  BOOST_TEST(run_elsbench(s, validate, "validate-plain") == 1);
  BOOST_TEST(read(s / "validate-plain.out").find("no-reference") != std::string::npos);
  BOOST_TEST(run_elsbench(s, validate + auto_flags(s), "validate-auto") == 0, read(s / "validate-auto.out"));
  BOOST_TEST(read(s / "validate-auto.out").find(" pass") != std::string::npos);
  BOOST_TEST(read(s / "validate-auto.err").find("computing one") == std::string::npos, read(s / "validate-auto.err"));
  BOOST_TEST(read(s / "validate-auto.err").find("(stored ") != std::string::npos, read(s / "validate-auto.err"));

  // reference --list shows the entry; --clear empties the store.
  const std::string store = " --reference-store " + shell_quoted((s / "store").string());
  BOOST_REQUIRE(run_elsbench(s, "reference --list --json" + store, "list") == 0);
  const nlohmann::json listed = nlohmann::json::parse(read(s / "list.out"));
  BOOST_REQUIRE(listed["entries"].size() == 1u);
  BOOST_TEST(listed["entries"][0]["status"] == "ok");
  BOOST_TEST(listed["entries"][0]["product"] == "my-note");
  BOOST_REQUIRE(run_elsbench(s, "reference --clear" + store, "clear") == 0);
  BOOST_TEST(read(s / "clear.out").find("removed 1 ") != std::string::npos);
  BOOST_REQUIRE(run_elsbench(s, "reference --list --json" + store, "list2") == 0);
  BOOST_TEST(nlohmann::json::parse(read(s / "list2.out"))["entries"].empty());
  // --list refuses a product: a mistyped command does not silently list.
  BOOST_TEST(run_elsbench(s, "reference --list --product european-call" + store, "bad") == 2);
}

// --clear removes only what the store wrote; a store path that is not a folder is bad input for
// --list and --clear alike (it listed as "0 entries", exit 0).
BOOST_AUTO_TEST_CASE(clear_removes_only_the_stores_own_files) {
  const Scratch s;
  const std::filesystem::path store = s / "store";
  std::filesystem::create_directories(store);
  const std::string foreign = std::string(64, 'a') + ".json", damaged = std::string(64, 'b') + ".json",
                    interrupted = std::string(64, 'c') + ".json.tmp";
  std::ofstream(store / foreign) << R"({"mine": true})";
  std::ofstream(store / damaged) << R"({"format": "elsbench-reference-store-entry", "checksum": "0"})";  // stale
  std::ofstream(store / interrupted) << R"({"format": "elsb)";
  const std::string at = " --reference-store " + shell_quoted(store.string());
  BOOST_REQUIRE(run_elsbench(s, "reference --clear" + at, "clear") == 0);
  BOOST_TEST(read(s / "clear.out").find("removed 2 ") != std::string::npos, read(s / "clear.out"));
  BOOST_TEST(read(s / "clear.out").find("kept " + (store / foreign).string()) != std::string::npos);
  BOOST_TEST(std::filesystem::exists(store / foreign));
  BOOST_TEST(!std::filesystem::exists(store / damaged));
  BOOST_TEST(!std::filesystem::exists(store / interrupted));

  std::ofstream(s / "file") << "x";
  BOOST_REQUIRE(::mkfifo((s / "fifo").c_str(), 0644) == 0);
  for (const char* not_folder : {"file", "fifo"})
    for (const char* what : {"--list", "--clear"}) {
      const std::string name = std::string(not_folder) + what;
      BOOST_TEST(run_elsbench(s, std::string("reference ") + what + " --reference-store " +
                                     shell_quoted((s / not_folder).string()), name) == 2);
      BOOST_TEST(read(s / (name + ".err")).find("not a folder") != std::string::npos, read(s / (name + ".err")));
    }
}

BOOST_AUTO_TEST_CASE(a_stored_reference_is_replaced_only_when_asked) {
  // `reference --write` replaced a 1e8-path reference with a 1,000-path one, and the catalog note's
  // reference with that of a file reusing its id with other terms, silently.
  const Scratch s;
  const fs::path note = write_note(s);
  const std::string root = "ELSBENCH_ROOT=" + shell_quoted(s.dir.string()) + " ";
  const std::string write = root + shell_quoted(elsbench_binary()) + " reference --product " +
                            shell_quoted(note.string()) + " --threads 1 --write";
  const fs::path stored = s / "reference" / "values" / "my-note.json";
  const auto quiet = [&](const std::string& args, const std::string& name) {
    return run_command(write + args + " > " + shell_quoted((s / (name + ".out")).string()) + " 2>&1");
  };
  BOOST_REQUIRE(quiet(" --paths 20000", "good") == 0);
  const std::string good = read(stored);

  BOOST_TEST(quiet(" --paths 2000", "worse") == 2);
  BOOST_TEST(read(s / "worse.out").find("holds a better reference") != std::string::npos, read(s / "worse.out"));
  BOOST_TEST(read(stored) == good);

  nlohmann::json other = nlohmann::json::parse(read(note));
  other["rate"] = other["rate"].get<double>() + 0.01;
  std::ofstream(note) << other.dump(2);
  BOOST_TEST(quiet(" --paths 200000", "other") == 2);
  BOOST_TEST(read(s / "other.out").find("other terms") != std::string::npos, read(s / "other.out"));
  BOOST_TEST(read(s / "other.out").find("paths/s") == std::string::npos);  // refused before the run
  BOOST_TEST(read(stored) == good);

  BOOST_TEST(quiet(" --paths 2000 --replace", "replaced") == 0, read(s / "replaced.out"));
  BOOST_TEST(read(stored) != good);
  BOOST_TEST(quiet(" --paths 2000 --reference-store " + shell_quoted((s / "store").string()), "store") == 2);
}
