// Term sheets in calendar dates: ISO dates read exactly (a day that does not exist is refused),
// autocall dates as ACT/365F years from the valuation date, daily knock-in monitoring on a
// calendar's business days (krx: weekdays less the exchange's holidays), the refusals naming
// their field, a round trip through the product's JSON, and the dates moving as the note ages.
#include <boost/test/unit_test.hpp>
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "platform/input_error.hpp"
#include "products/calendar.hpp"
#include "products/product_bumps.hpp"
#include "products/product_json.hpp"

using namespace elsbench;
using nlohmann::json;

namespace {

json dated_note() {
  return json::parse(R"({
    "id": "dated", "type": "stepdown-els", "notional": 10000, "valuation_date": "2026-11-27",
    "underlyings": [{"name": "KOSPI200", "spot": 100, "reference": 100, "vol": 0.25, "div_yield": 0.02}],
    "correlation": [[1.0]], "rate": 0.03, "performance": "worst-of",
    "autocall": [{"date": "2027-05-27", "barrier": 0.95, "coupon": 0.04},
                 {"date": "2027-11-29", "barrier": 0.9, "coupon": 0.08}],
    "knock_in": {"barrier": 0.6, "monitoring": "daily", "calendar": "krx"},
    "dummy_coupon": 0.08, "knocked_in": false})");
}

int day(const char* iso) { return parse_iso_date(iso).value(); }

void expect_refused(const json& j, const std::string& field, const std::string& words) {
  try {
    product_from_json(j, "t.json");
    BOOST_ERROR("accepted, expected a refusal naming " << field);
  } catch (const InputError& e) {
    BOOST_TEST(e.field() == field);
    BOOST_TEST(std::string(e.what()).find(words) != std::string::npos, e.what());
  }
}

}  // namespace

BOOST_AUTO_TEST_CASE(iso_dates_are_read_exactly) {
  BOOST_TEST(day("1970-01-01") == 0);
  BOOST_TEST(day("2000-03-01") - day("2000-02-28") == 2);  // 2000 was a leap year
  BOOST_TEST(day("2100-03-01") - day("2100-02-28") == 1);  // 2100 is not
  BOOST_TEST(iso_date(day("2027-11-29")) == "2027-11-29");
  for (const char* bad : {"2027-02-29", "2027-02-30", "2027-13-01", "2027-2-3", "27-01-05", "2027/01/05", "2027-01-0x"})
    BOOST_TEST(!parse_iso_date(bad).has_value(), bad);
  BOOST_TEST(days_a_year("ACT/365F") == 365.0);
  BOOST_TEST(days_a_year("ACT/360") == 360.0);
  BOOST_CHECK_THROW(days_a_year("30/360"), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(krx_business_days_leave_out_weekends_and_the_exchange_s_holidays) {
  const std::vector<int> days = business_days("krx", day("2026-12-31"), day("2028-01-01"));  // 2027
  const auto has = [&](const char* iso) { return std::binary_search(days.begin(), days.end(), day(iso)); };
  BOOST_TEST(has("2027-01-04"));   // a Monday
  BOOST_TEST(!has("2027-01-02"));  // a Saturday
  BOOST_TEST(!has("2027-01-01"));  // New Year's Day
  BOOST_TEST(!has("2027-09-15"));  // Chuseok
  BOOST_TEST(!has("2027-12-31"));  // the exchange's year-end closing
  // 261 weekdays in 2027, 16 of them the exchange's holidays (products/calendars/krx.txt).
  BOOST_TEST(days.size() == 245u);
  BOOST_TEST(business_days("weekdays", day("2026-12-31"), day("2028-01-01")).size() == 261u);
  BOOST_CHECK_THROW(business_days("krx", day("2040-06-01"), day("2041-06-01")), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(a_dated_note_counts_its_dates_from_its_valuation_date) {
  const Product p = product_from_json(dated_note(), "t.json");
  BOOST_TEST(p.els().autocall[0].time == 181.0 / 365.0);
  BOOST_TEST(p.els().autocall[1].time == 367.0 / 365.0);
  const std::vector<double> monitored = p.monitoring_dates();
  // The business days after the valuation date up to maturity, maturity (a Monday) last.
  const std::vector<int> days = business_days("krx", day("2026-11-27"), day("2027-11-29"));
  BOOST_TEST_REQUIRE(monitored.size() == days.size() + 1);
  BOOST_TEST(monitored.front() == (days.front() - day("2026-11-27")) / 365.0);
  BOOST_TEST(monitored.back() == p.maturity());
  // Written back as given, read again the same.
  const json again = product_to_json(p);
  BOOST_TEST(again["valuation_date"] == "2026-11-27");
  BOOST_TEST(again["autocall"][1]["date"] == "2027-11-29");
  BOOST_TEST(again["knock_in"]["calendar"] == "krx");
  BOOST_TEST(product_from_json(again, "t.json").monitoring_dates() == monitored, boost::test_tools::per_element());
  // Aged by a day, the dates move with the note and those now past drop out.
  const Product older = aged(p, 3.0 / 365.0);
  BOOST_TEST(older.monitoring_dates().size() < monitored.size());
  BOOST_TEST(older.monitoring_dates().back() == older.maturity(), boost::test_tools::tolerance(1e-15));
}

BOOST_AUTO_TEST_CASE(an_act_360_note_counts_its_years_over_360_days) {
  json j = dated_note();
  j["day_count"] = "ACT/360";
  const Product p = product_from_json(j, "t.json");
  BOOST_TEST(p.els().autocall[0].time == 181.0 / 360.0);
  BOOST_TEST(p.monitoring_dates().back() == p.maturity());
  BOOST_TEST(p.monitoring_dates().size() == product_from_json(dated_note(), "t.json").monitoring_dates().size());
  BOOST_TEST(product_to_json(p)["day_count"] == "ACT/360");
  j["day_count"] = "30/360";
  expect_refused(j, "day_count", "unknown day count '30/360'");
  json undated = dated_note();
  for (auto& a : undated["autocall"]) a = {{"time", 1.0}, {"barrier", 0.9}, {"coupon", 0.05}};
  undated["autocall"].erase(1);
  undated["knock_in"] = {{"barrier", 0.6}, {"monitoring", "daily"}};
  undated.erase("valuation_date");
  undated["day_count"] = "ACT/360";
  expect_refused(undated, "day_count", "give the note's valuation_date");
}

BOOST_AUTO_TEST_CASE(calendar_fields_are_refused_by_name) {
  json both = dated_note();
  both["autocall"][0]["time"] = 0.5;
  expect_refused(both, "autocall[0].date", "date or time, not both");
  json undated = dated_note();
  undated.erase("valuation_date");
  expect_refused(undated, "autocall[0].date", "valuation_date");
  json early = dated_note();
  early["autocall"][0]["date"] = "2026-11-27";
  expect_refused(early, "autocall[0].date", "after the valuation_date");
  json no_day = dated_note();
  no_day["valuation_date"] = "2026-11-31";
  expect_refused(no_day, "valuation_date", "ISO date");
  json with_days = dated_note();
  with_days["knock_in"]["days_per_year"] = 252;
  expect_refused(with_days, "knock_in.days_per_year", "not with a calendar");
  json unknown = dated_note();
  unknown["knock_in"]["calendar"] = "nyse";
  expect_refused(unknown, "knock_in.calendar", "unknown calendar 'nyse'");
  json far = dated_note();
  far["autocall"][1]["date"] = "2045-11-29";
  expect_refused(far, "knock_in.calendar", "cover 2020-2040");
}
