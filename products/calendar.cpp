#include "products/calendar.hpp"

#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>

#include "products/catalog.hpp"

namespace elsbench {
namespace {

// Howard Hinnant's days_from_civil: the proleptic Gregorian calendar, any year.
int days_from_civil(int y, unsigned m, unsigned d) {
  y -= m <= 2 ? 1 : 0;
  const int era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int>(doe) - 719468;
}

struct Civil {
  int year;
  unsigned month, day;
};

Civil civil_from_days(int z) {
  z += 719468;
  const int era = (z >= 0 ? z : z - 146096) / 146097;
  const auto doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  const unsigned d = doy - (153 * mp + 2) / 5 + 1;
  const unsigned m = mp < 10 ? mp + 3 : mp - 9;
  return {static_cast<int>(yoe) + era * 400 + (m <= 2 ? 1 : 0), m, d};
}

bool weekday(int day) {
  const int w = ((day % 7) + 7 + 3) % 7;  // 1970-01-01 was a Thursday: 0 = Monday
  return w < 5;
}

// A holiday file: "# years FIRST LAST" and one ISO date a line (a name may follow it).
struct Holidays {
  int first_year = 0, last_year = 0;
  std::set<int> days;
};

Holidays read_holidays(const std::string& name) {
  const std::string path = project_root() + "/products/calendars/" + name + ".txt";
  std::ifstream in(path);
  if (!in) throw std::invalid_argument("the " + name + " calendar's holiday file " + path + " cannot be read");
  Holidays h;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("# years ", 0) == 0) {
      if (std::sscanf(line.c_str(), "# years %d %d", &h.first_year, &h.last_year) != 2)
        throw std::invalid_argument(path + ": a '# years FIRST LAST' line that does not read");
      continue;
    }
    if (line.empty() || line[0] == '#') continue;
    const std::optional<int> day = parse_iso_date(std::string_view(line).substr(0, 10));
    if (!day) throw std::invalid_argument(path + ": '" + line + "' does not start with an ISO date");
    h.days.insert(*day);
  }
  if (h.first_year == 0) throw std::invalid_argument(path + ": no '# years FIRST LAST' line");
  return h;
}

const Holidays& holidays_of(const std::string& name) {
  static std::mutex lock;
  static std::map<std::string, Holidays> read;
  const std::lock_guard guard(lock);
  auto it = read.find(name);
  if (it == read.end()) it = read.emplace(name, read_holidays(name)).first;
  return it->second;
}

}  // namespace

std::optional<int> parse_iso_date(std::string_view text) {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return std::nullopt;
  for (std::size_t i : {0u, 1u, 2u, 3u, 5u, 6u, 8u, 9u})
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
  const auto number = [&](std::size_t from, std::size_t count) {
    int v = 0;
    for (std::size_t i = from; i < from + count; ++i) v = 10 * v + (text[i] - '0');
    return v;
  };
  const int y = number(0, 4), m = number(5, 2), d = number(8, 2);
  if (m < 1 || m > 12 || d < 1) return std::nullopt;
  const int day = days_from_civil(y, static_cast<unsigned>(m), static_cast<unsigned>(d));
  const Civil back = civil_from_days(day);  // 2027-02-30 comes back as 2027-03-02
  if (back.year != y || back.month != static_cast<unsigned>(m) || back.day != static_cast<unsigned>(d)) return std::nullopt;
  return day;
}

std::string iso_date(int day) {
  const Civil c = civil_from_days(day);
  char text[16];
  std::snprintf(text, sizeof text, "%04d-%02u-%02u", c.year, c.month, c.day);
  return text;
}

double days_a_year(const std::string& day_count) {
  if (day_count == "ACT/365F") return 365.0;
  if (day_count == "ACT/360") return 360.0;
  throw std::invalid_argument("unknown day count '" + day_count + "' (ACT/365F, ACT/360)");
}

std::vector<int> business_days(const std::string& calendar, int from, int to) {
  const Holidays* h = nullptr;
  if (calendar == "krx") h = &holidays_of("krx");
  else if (calendar != "weekdays") throw std::invalid_argument("unknown calendar '" + calendar + "' (weekdays, krx)");
  if (h && (civil_from_days(from).year < h->first_year || civil_from_days(to).year > h->last_year))
    throw std::invalid_argument("the " + calendar + " calendar's holidays cover " + std::to_string(h->first_year) + "-" +
                                std::to_string(h->last_year) + " (products/calendars/make_krx.py writes more)");
  std::vector<int> days;
  for (int d = from + 1; d < to; ++d)
    if (weekday(d) && !(h && h->days.count(d))) days.push_back(d);
  return days;
}

}  // namespace elsbench
