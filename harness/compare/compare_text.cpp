#include "harness/compare/compare_text.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "harness/compare/mann_whitney.hpp"

namespace elsbench {
namespace {

std::string format(const char* fmt, double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, x);
  return buf;
}

std::string or_dash(const std::optional<double>& x, const char* fmt, double scale = 1.0) {
  return x ? format(fmt, *x * scale) : "-";
}

std::string pad(const std::string& s, std::size_t width) {
  return s.size() >= width ? s + ' ' : s + std::string(width - s.size(), ' ');
}

std::string verdict(const CaseComparison& c) {
  std::string v = c.price_regression     ? "PRICE REGRESSION (" + c.price_note + ")"
                 : c.aged || !c.price_note.empty() ? "price " + c.price_note
                                                   : "price ok";
  if (c.lost) v += ", now skipped";
  return v + ", time " + to_string(c.time);
}

std::string case_line(const CaseComparison& c, std::size_t id_width) {
  std::ostringstream out;
  const auto word = [](const std::optional<CaseStatus>& s) { return std::string(s ? to_string(*s) : "-"); };
  const std::string status =
      c.base_status == c.new_status ? word(c.new_status) : word(c.base_status) + "->" + word(c.new_status);
  out << pad(c.case_id, id_width) << pad(status, 14)
      << pad(or_dash(c.base_price, "%.8f") + " -> " + or_dash(c.new_price, "%.8f"), 30)
      << pad(or_dash(c.drift, "%+.3g"), 11) << pad(or_dash(c.drift_in_stderr, "%+.2f"), 9)
      << pad(or_dash(c.base_seconds, "%.4g", 1e3) + " -> " + or_dash(c.new_seconds, "%.4g", 1e3), 22)
      << pad(or_dash(c.time_change_pct, "%+.1f%%"), 9)
      << pad(c.time_test ? format("%.3g", c.time_test->p_value) : "-", 8) << verdict(c) << '\n';
  return out.str();
}

std::string header(std::size_t id_width) {
  return pad("case", id_width) + pad("status", 14) + pad("price base -> new", 30) + pad("drift", 11) +
         pad("drift/SE", 9) + pad("median ms base -> new", 22) + pad("change", 9) + pad("p", 8) + "verdict\n";
}

// A slowdown cannot be shown with too few repetitions; say so rather than let "within noise"
// read as evidence of no change.
std::string underpowered_note(const Comparison& cmp, const CompareOptions& opt) {
  int underpowered = 0;
  double smallest = 0;
  for (const auto& c : cmp.cases) {
    if (!c.time_test) continue;
    const double p = smallest_p_value(c.base_repetitions, c.new_repetitions);
    if (p >= opt.alpha) {
      ++underpowered;
      smallest = std::max(smallest, p);
    }
  }
  if (underpowered == 0) return "";
  return "note: " + std::to_string(underpowered) + " case(s) have too few repetitions for any change to be " +
         "significant (smallest attainable p " + format("%.3g", smallest) + " >= " + format("%g", opt.alpha) +
         "); sweep with more repetitions to test times\n";
}

std::string listed(const std::string& title, const std::vector<std::string>& ids) {
  if (ids.empty()) return "";
  std::string s = title + " (" + std::to_string(ids.size()) + "):\n";
  for (const auto& id : ids) s += "  " + id + '\n';
  return s;
}

// Said first: what a difference between these two files can mean.
std::string scope_note(const CompareScope& s) {
  std::string note;
  if (!s.same_commit)
    note += "note: BASE is commit " + s.base_commit.substr(0, 12) + ", NEW commit " + s.new_commit.substr(0, 12) +
            ": a price that moved is the code's change between them (age), listed and not failed (--fail-on-change "
            "fails it); a case that now fails its reference fails\n";
  if (!s.same_machine) note += "note: BASE and NEW ran on different machines: times are not compared\n";
  for (const std::string& d : s.settings_differ)
    note += "note: the books were priced under other settings (" + d + "): their prices differ by it, not by the code\n";
  return note;
}

std::string joined(const std::vector<std::string>& values) {
  std::string out;
  for (const std::string& v : values) out += (out.empty() ? "" : ", ") + v;
  return out;
}

// The settings the unmatched cases differ in, and how to compare along one.
std::string why_unmatched(const Comparison& cmp) {
  std::ostringstream out;
  for (const AxisDifference& d : cmp.differing)
    out << "the unmatched cases differ in " << d.axis << " (BASE: " << joined(d.base_values)
        << "; NEW: " << joined(d.new_values) << "): a case matches only its twin of the same " << d.axis
        << "; one file's cases are compared along it by `elsbench compare FILE --by " << d.axis << "="
        << d.base_values.front() << "," << d.new_values.front() << "` (a sweep over both values writes one)\n";
  return out.str();
}

}  // namespace

std::string to_text(const Comparison& cmp, const CompareOptions& opt) {
  std::size_t id_width = 6;
  for (const auto& c : cmp.cases) id_width = std::max(id_width, c.case_id.size() + 2);
  std::ostringstream out;
  out << scope_note(cmp.scope);
  out << header(id_width);
  for (const auto& c : cmp.cases) out << case_line(c, id_width);
  out << listed("only in BASE", cmp.only_base) << listed("only in NEW", cmp.only_new);
  int faster = 0;
  for (const auto& c : cmp.cases) faster += c.time == TimeVerdict::Faster;
  out << cmp.cases.size() << " cases matched: " << cmp.price_regressions() << " price regression(s) (tolerance "
      << format("%g", opt.price_tol) << "), " << cmp.slowdowns() << " significant slowdown(s) and " << faster
      << " speedup(s) (beyond " << format("%g", opt.time_tol_pct) << "% at p < " << format("%g", opt.alpha)
      << "), " << cmp.lost_cases() << " case(s) lost";
  if (cmp.aged()) out << ", " << cmp.aged() << " price(s) changed across commits (age)";
  int noisy = 0;
  for (const auto& c : cmp.cases) noisy += c.time == TimeVerdict::Noisy;
  if (noisy) out << ", " << noisy << " noisy time(s) not judged (--include-noisy judges them)";
  out << '\n';
  out << underpowered_note(cmp, opt);
  out << why_unmatched(cmp);
  const int code = regression_exit_code(cmp, opt);
  const char* not_comparable = cmp.nothing_matched() ? "NOT COMPARABLE (no case matched)" : "NOT COMPARABLE (other settings)";
  out << "result: " << (code == 2 ? not_comparable : code ? "REGRESSION" : "ok") << '\n';
  return out.str();
}

}  // namespace elsbench
