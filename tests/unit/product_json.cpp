// The product loader refuses every malformed or inconsistent file before any work, with an
// InputError that names the file and the field (its JSON path). One case per rule.
#include "products/product_json.hpp"

#include <unistd.h>

#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "platform/input_error.hpp"
#include "products/catalog.hpp"

using namespace elsbench;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const std::string kSource = "test.json";

json sample_els() {
  return json::parse(R"({
    "id": "t-els", "type": "stepdown-els", "notional": 100.0,
    "underlyings": [
      {"name": "S1", "spot": 100.0, "reference": 100.0, "vol": 0.25, "div_yield": 0.02},
      {"name": "S2", "spot": 100.0, "reference": 100.0, "vol": 0.30, "div_yield": 0.015}],
    "correlation": [[1.0, 0.5], [0.5, 1.0]],
    "rate": 0.03, "performance": "worst-of",
    "autocall": [
      {"time": 0.5, "barrier": 0.95, "coupon": 0.04},
      {"time": 1.0, "barrier": 0.90, "coupon": 0.08},
      {"time": 1.5, "barrier": 0.85, "coupon": 0.12}],
    "knock_in": {"barrier": 0.50, "monitoring": "daily", "days_per_year": 252},
    "dummy_coupon": 0.12, "knocked_in": false})");
}

json sample_min_call() {
  return json::parse(R"({
    "id": "t-min-call", "type": "min-call",
    "underlyings": [{"spot": 100.0, "vol": 0.3}, {"spot": 100.0, "vol": 0.3}],
    "correlation": [[1.0, 0.5], [0.5, 1.0]],
    "rate": 0.05, "strike": 100.0, "maturity": 1.0})");
}

// The loader must refuse `j`, naming this file and exactly `field`, in the exception's fields and
// in its message (which is what a user sees); returns the message.
std::string expect_refused(const json& j, const std::string& field) {
  try {
    product_from_json(j, kSource);
    BOOST_ERROR("accepted, expected a refusal naming '" << field << "'");
  } catch (const InputError& e) {
    BOOST_CHECK_EQUAL(e.file(), kSource);
    BOOST_CHECK_EQUAL(e.field(), field);
    const std::string what = e.what();
    BOOST_CHECK_MESSAGE(what.find(kSource) != std::string::npos,
                        "message lacks the file: " << what);
    BOOST_CHECK_MESSAGE(what.find("'" + field + "'") != std::string::npos,
                        "message lacks the field: " << what);
    return what;
  }
  return "";
}

// A refusal naming `field` whose message contains `text`.
void expect_message(const json& j, const std::string& field, const std::string& text) {
  const std::string what = expect_refused(j, field);
  BOOST_CHECK_MESSAGE(what.find(text) != std::string::npos, "message lacks \"" << text << "\": " << what);
}

// A file removed at the end of the test that wrote it.
struct TempFile {
  fs::path path;
  TempFile(const std::string& name, const std::string& text)
      : path(fs::temp_directory_path() /
             ("elsbench-test-" + std::to_string(::getpid()) + "-" + name)) {
    std::ofstream(path) << text;
  }
  ~TempFile() { fs::remove(path); }
};

}  // namespace

BOOST_AUTO_TEST_CASE(samples_are_accepted) {
  // Guards the cases below: each one breaks exactly one rule of a valid document.
  const Product els = product_from_json(sample_els(), kSource);
  BOOST_CHECK_EQUAL(els.dimension(), 2);
  BOOST_CHECK_EQUAL(els.els().autocall.size(), 3u);
  BOOST_CHECK_EQUAL(product_from_json(sample_min_call(), kSource).option().strikes.at(0), 100.0);
}

// A desk's identifiers: an ISIN (its check digit verified) and free tags, written back as read.
BOOST_AUTO_TEST_CASE(isin_and_tags_are_carried_and_checked) {
  json j = sample_els();
  j["isin"] = "KR7005930003";
  j["tags"] = json::array({"desk-A", "2026Q4 issue"});
  const Product p = product_from_json(j, kSource);
  BOOST_TEST(p.isin == "KR7005930003");
  BOOST_TEST(p.tags == (std::vector<std::string>{"desk-A", "2026Q4 issue"}), boost::test_tools::per_element());
  const json back = product_to_json(p);
  BOOST_TEST(back["isin"] == "KR7005930003");
  BOOST_TEST(back["tags"] == j["tags"]);
  BOOST_TEST(!product_to_json(product_from_json(sample_els(), kSource)).contains("isin"));
  for (const char* wrong : {"KR7005930004", "KR700593000", "kr7005930003", "K17005930003"}) {
    j["isin"] = wrong;
    expect_refused(j, "isin");
  }
  j["isin"] = "US0378331005";
  BOOST_TEST(product_from_json(j, kSource).isin == "US0378331005");
  j["tags"] = json::array({"ok", 3});
  expect_refused(j, "tags[1]");
  j["tags"] = json::array({""});
  expect_refused(j, "tags[0]");
  j["tags"] = "desk-A";
  expect_refused(j, "tags");
  j["tags"] = json(std::vector<std::string>(17, "t"));
  expect_refused(j, "tags");
}

BOOST_AUTO_TEST_CASE(missing_field) {
  json j = sample_els();
  j.erase("rate");
  expect_refused(j, "rate");
  j = sample_els();
  j["underlyings"][1].erase("vol");
  expect_refused(j, "underlyings[1].vol");
  j = sample_min_call();
  j.erase("strike");
  expect_refused(j, "strike");
}

BOOST_AUTO_TEST_CASE(wrong_type) {
  json j = sample_els();
  j["rate"] = "0.03";
  expect_refused(j, "rate");
  j = sample_els();
  j["underlyings"][0]["spot"] = json::array({100.0});
  expect_refused(j, "underlyings[0].spot");
  j = sample_els();
  j["autocall"] = json::object();
  expect_refused(j, "autocall");
  j = sample_els();
  j["knocked_in"] = "no";
  expect_refused(j, "knocked_in");
}

BOOST_AUTO_TEST_CASE(vol_not_positive) {
  json j = sample_els();
  j["underlyings"][1]["vol"] = 0.0;
  expect_refused(j, "underlyings[1].vol");
  j["underlyings"][1]["vol"] = -0.2;
  expect_refused(j, "underlyings[1].vol");
}

BOOST_AUTO_TEST_CASE(correlation_not_symmetric) {
  json j = sample_els();
  j["correlation"] = json::parse("[[1.0, 0.5], [0.4, 1.0]]");
  expect_refused(j, "correlation");
}

BOOST_AUTO_TEST_CASE(correlation_not_positive_definite) {
  json j = sample_els();
  j["underlyings"].push_back({{"spot", 100.0}, {"vol", 0.2}});
  // Every entry is a valid correlation, but S1 ~ S2, S2 ~ S3 and S1 ~ -S3 cannot all hold.
  j["correlation"] = json::parse("[[1.0, 0.9, -0.9], [0.9, 1.0, 0.9], [-0.9, 0.9, 1.0]]");
  expect_refused(j, "correlation");
  // Singular (perfect correlation) is refused too: no Cholesky factor, a degenerate PDE.
  j = sample_els();
  j["correlation"] = json::parse("[[1.0, 1.0], [1.0, 1.0]]");
  expect_refused(j, "correlation");
}

BOOST_AUTO_TEST_CASE(autocall_dates_unsorted) {
  json j = sample_els();
  j["autocall"][1]["time"] = 0.4;  // before autocall[0]
  expect_refused(j, "autocall[1].time");
}

BOOST_AUTO_TEST_CASE(autocall_dates_duplicate) {
  json j = sample_els();
  j["autocall"][2]["time"] = 1.0;  // same as autocall[1]
  expect_refused(j, "autocall[2].time");
}

BOOST_AUTO_TEST_CASE(barrier_not_positive) {
  json j = sample_els();
  j["autocall"][2]["barrier"] = 0.0;
  expect_refused(j, "autocall[2].barrier");
  j = sample_els();
  j["knock_in"]["barrier"] = -0.5;
  expect_refused(j, "knock_in.barrier");
}

BOOST_AUTO_TEST_CASE(unknown_type) {
  json j = sample_els();
  j["type"] = "snowball";
  expect_refused(j, "type");
}

BOOST_AUTO_TEST_CASE(unknown_performance) {
  json j = sample_els();
  j["performance"] = "average-of";
  expect_refused(j, "performance");
}

BOOST_AUTO_TEST_CASE(unknown_monitoring) {
  json j = sample_els();
  j["knock_in"]["monitoring"] = "weekly";
  expect_refused(j, "knock_in.monitoring");
}

BOOST_AUTO_TEST_CASE(wrong_number_of_underlyings) {
  json j = sample_min_call();
  j["underlyings"].erase(1);
  j.erase("correlation");
  expect_refused(j, "underlyings");  // a min call needs two
  j = sample_min_call();
  j["type"] = "european-call";
  expect_refused(j, "underlyings");  // a European call needs one
  j = sample_els();
  for (int i = 0; i < 2; ++i) j["underlyings"].push_back({{"spot", 100.0}, {"vol", 0.2}});
  expect_refused(j, "underlyings");  // an ELS has 1 to 3
}

BOOST_AUTO_TEST_CASE(knock_in_barrier_missing) {
  json j = sample_els();
  j["knock_in"].erase("barrier");
  expect_refused(j, "knock_in.barrier");
  // Without monitoring there is no knock-in, so no barrier is needed.
  j["knock_in"]["monitoring"] = "none";
  BOOST_CHECK_NO_THROW(product_from_json(j, kSource));
}

BOOST_AUTO_TEST_CASE(unknown_keys_are_refused_with_the_nearest_known_key) {
  // A misspelt optional key took its default without a word: notional 1.0 instead of 100.
  json j = sample_els();
  j["notionl"] = 100.0;
  j.erase("notional");
  expect_message(j, "notionl", "unknown key; did you mean 'notional'?");
  j = sample_els();
  j["underlyings"][1]["div_yeild"] = 0.01;
  expect_message(j, "underlyings[1].div_yeild", "did you mean 'div_yield'?");
  j = sample_els();
  j["autocall"][2]["Coupon"] = 0.1;
  expect_message(j, "autocall[2].Coupon", "did you mean 'coupon'?");
  j = sample_els();
  j["knock_in"]["days-per-year"] = 250;
  expect_message(j, "knock_in.days-per-year", "did you mean 'days_per_year'?");
  // Nothing close: the message lists the keys the object has.
  j = sample_els();
  j["comment"] = "a note";
  expect_message(j, "comment", "unknown key (expected id, type, notional, underlyings");
  // A key of another type: an ELS has no strike, an exchange option neither.
  j = sample_els();
  j["strike"] = 100.0;
  expect_refused(j, "strike");
  j = sample_min_call();
  j["type"] = "exchange";
  expect_refused(j, "strike");
}

BOOST_AUTO_TEST_CASE(file_errors_name_the_path) {
  const TempFile bad_json("bad.json", "{\"id\": \"x\",");
  try {
    load_product_file(bad_json.path.string());
    BOOST_ERROR("accepted a truncated file");
  } catch (const InputError& e) {
    BOOST_CHECK_EQUAL(e.file(), bad_json.path.string());
    BOOST_CHECK_EQUAL(e.field(), "<file>");
  }
  json j = sample_els();
  j["underlyings"][0]["vol"] = 0.0;
  const TempFile bad_vol("vol.json", j.dump());
  try {
    load_product_file(bad_vol.path.string());
    BOOST_ERROR("accepted a zero vol");
  } catch (const InputError& e) {
    BOOST_CHECK_EQUAL(e.file(), bad_vol.path.string());
    BOOST_CHECK_EQUAL(e.field(), "underlyings[0].vol");
    BOOST_CHECK(std::string(e.what()).find(bad_vol.path.string()) != std::string::npos);
  }
  BOOST_CHECK_THROW(
      load_product_file((fs::temp_directory_path() / "elsbench-no-such.json").string()),
      InputError);
}

BOOST_AUTO_TEST_CASE(catalog_loads_and_ids_match_file_names) {
  int count = 0;
  for (const auto& entry : fs::directory_iterator(catalog_dir())) {
    if (entry.path().extension() != ".json") continue;
    BOOST_TEST_CONTEXT(entry.path().string()) {
      Product p;
      BOOST_REQUIRE_NO_THROW(p = load_product_file(entry.path().string()));
      BOOST_CHECK_EQUAL(p.id, entry.path().stem().string());
      BOOST_CHECK_EQUAL(p.source, entry.path().string());
      // What the loader writes back, it reads back the same.
      BOOST_CHECK_EQUAL(product_to_json(product_from_json(product_to_json(p), kSource)),
                        product_to_json(p));
      ++count;
    }
  }
  BOOST_CHECK_EQUAL(static_cast<std::size_t>(count), load_catalog().size());
  // the sample ELS of docs/products.md, a 1-asset and a 3-asset ELS, and one file per validation product.
  BOOST_CHECK_GE(count, 11);
}

BOOST_AUTO_TEST_CASE(a_coupon_written_as_a_percentage_is_refused_naming_the_fraction) {
  // A coupon of 5, meant as 5 %, priced a 10,000 note at 31,389 with exit 0.
  json j = sample_els();
  j["autocall"][0]["coupon"] = 5;
  expect_message(j, "autocall[0].coupon", "5 % is 0.05");
  j = sample_els();
  j["dummy_coupon"] = 12;
  expect_message(j, "dummy_coupon", "12 % is 0.12");
  j = sample_els();
  j["autocall"][0]["coupon"] = 1.0;  // 100 % of notional: the most a coupon may be
  BOOST_CHECK_NO_THROW(product_from_json(j, kSource));
}

BOOST_AUTO_TEST_CASE(an_implausible_rate_names_its_value) {
  json j = sample_els();
  j["rate"] = 3.5;
  expect_message(j, "rate", "implausible rate 3.5");
}

BOOST_AUTO_TEST_CASE(a_misspelt_catalog_id_gets_the_nearest_id) {
  try {
    resolve_product("sample-2a-stepdwn");
    BOOST_ERROR("a misspelt id resolved");
  } catch (const InputError& e) {
    BOOST_CHECK_EQUAL(e.field(), "--product");
    BOOST_TEST(std::string(e.what()).find("did you mean 'sample-2a-stepdown'?") != std::string::npos, e.what());
  }
  try {
    resolve_product("no-such-note-anywhere");
    BOOST_ERROR("an unknown id resolved");
  } catch (const InputError& e) {
    BOOST_TEST(std::string(e.what()).find("did you mean") == std::string::npos, e.what());
  }
}
