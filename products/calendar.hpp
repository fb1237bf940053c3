#pragma once
// A term sheet's calendar dates: ISO dates (YYYY-MM-DD) as day numbers, year fractions between
// them by its day count, and the business days of a named calendar: "weekdays" (Monday to Friday), or
// "krx" (the Korea Exchange's trading days: weekdays less products/calendars/krx.txt, written by
// make_krx.py there from the `holidays` package's XKRX calendar).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace elsbench {

// Days since 1970-01-01 of an ISO date; empty where the text is not one (2027-02-30, 2027-2-3).
std::optional<int> parse_iso_date(std::string_view text);
std::string iso_date(int day);

// The days of a year by the day counts a term sheet may name: "ACT/365F" (the default) 365,
// "ACT/360" 360: the years between two days are their actual days over it. Throws
// std::invalid_argument for another name.
double days_a_year(const std::string& day_count);

// The business days d with from < d < to of `calendar` ("weekdays", "krx"); throws
// std::invalid_argument for an unknown calendar or one whose holiday file does not cover those years (it says which it does).
std::vector<int> business_days(const std::string& calendar, int from, int to);

}  // namespace elsbench
