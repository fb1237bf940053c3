#include "products/book_csv.hpp"

#include <algorithm>
#include <cstdlib>
#include <regex>
#include <set>

#include "platform/nearest_word.hpp"
#include "products/product_json.hpp"

namespace elsbench {
namespace {

using nlohmann::json;

constexpr int kMaxCsvAssets = 3, kMaxCsvDates = 64;

const std::vector<std::string>& known_columns() {
  static const std::vector<std::string> columns = [] {
    std::vector<std::string> c = {"id",   "isin",        "tags",         "type",       "notional",
                                  "rate", "performance", "dummy_coupon", "knocked_in", "valuation_date",
                                  "day_count"};
    for (const TermObject& o : els_term_objects())
      for (const std::string_view key : o.keys) c.push_back(std::string(o.name) + "_" + std::string(key));
    for (int k = 1; k <= kMaxCsvAssets; ++k)
      for (const char* f : {"name", "spot", "reference", "vol", "div_yield"})
        c.push_back("underlying_" + std::to_string(k) + "_" + f);
    for (int i = 1; i <= kMaxCsvAssets; ++i)
      for (int j = i + 1; j <= kMaxCsvAssets; ++j) c.push_back("correlation_" + std::to_string(i) + "_" + std::to_string(j));
    for (int k = 1; k <= kMaxCsvDates; ++k)
      for (const char* f : {"time", "date", "barrier", "coupon"}) c.push_back("autocall_" + std::to_string(k) + "_" + f);
    return c;
  }();
  return columns;
}

std::string trimmed(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

// A cell as the loader reads it: a number where it reads as one, true/false, else the text (the
// loader then says "expected a number, got string" of "3%", naming the column).
json cell_value(const std::string& text) {
  if (text == "true" || text == "True" || text == "TRUE") return true;  // spreadsheets and pandas write True
  if (text == "false" || text == "False" || text == "FALSE") return false;
  char* end = nullptr;
  const double x = std::strtod(text.c_str(), &end);
  if (end != text.c_str() && *end == '\0') return x;
  return text;
}

// column -> index: "underlying_2_vol" -> 2; 0 where the column has no index.
int index_in(const std::string& column, const std::string& prefix) {
  return std::atoi(column.substr(prefix.size()).c_str());
}

std::string after_index(const std::string& column, const std::string& prefix) {
  const std::string rest = column.substr(prefix.size());
  return rest.substr(rest.find('_') + 1);
}

// The term object (els_term_objects) whose column this is, or nullptr.
const TermObject* term_object_of(const std::string& column) {
  for (const TermObject& o : els_term_objects())
    if (column.size() > o.name.size() && column.compare(0, o.name.size(), o.name) == 0 && column[o.name.size()] == '_')
      return &o;
  return nullptr;
}

}  // namespace

std::vector<std::string> csv_cells(std::string_view line, bool& ok) {
  std::vector<std::string> cells(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cells.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        cells.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      cells.emplace_back();
    } else {
      cells.back() += c;
    }
  }
  ok = !quoted;
  if (!ok) cells.clear();
  for (std::string& c : cells) c = trimmed(c);
  return cells;
}

std::string csv_column(const std::string& field) {
  static const std::regex underlying(R"(underlyings\[(\d+)\]\.(\w+))"), autocall(R"(autocall\[(\d+)\]\.(\w+))"),
      correlation(R"(correlation\[(\d+)\](?:\[(\d+)\])?)"), tag(R"(tags\[\d+\])"), term_key(R"((\w+)\.(\w+))");
  std::smatch m;
  const auto plus_one = [](const std::string& i) { return std::to_string(std::stoi(i) + 1); };
  if (std::regex_match(field, m, underlying)) return "underlying_" + plus_one(m[1]) + "_" + m[2].str();
  if (std::regex_match(field, m, autocall)) return "autocall_" + plus_one(m[1]) + "_" + m[2].str();
  if (std::regex_match(field, m, correlation)) {
    if (!m[2].matched) return "correlation_*";
    const int i = std::stoi(m[1]), j = std::stoi(m[2]);
    return "correlation_" + std::to_string(std::min(i, j) + 1) + "_" + std::to_string(std::max(i, j) + 1);
  }
  if (std::regex_match(field, m, tag)) return "tags";
  if (std::regex_match(field, m, term_key) && term_object_of(m[1].str() + "_" + m[2].str()))
    return m[1].str() + "_" + m[2].str();  // knock_in.barrier
  if (field == "underlyings") return "underlying_*";
  if (field == "correlation") return "correlation_*";
  if (field == "autocall") return "autocall_*";
  return field;
}

CsvBookHeader::CsvBookHeader(std::string_view line, const std::string& source) {
  bool ok = false;
  columns_ = csv_cells(line, ok);
  if (!ok) throw InputError(source, "<header>", "a quote is left open");
  std::set<std::string> seen;
  for (const std::string& c : columns_) {
    if (!std::count(known_columns().begin(), known_columns().end(), c)) {
      const std::string near = nearest_word(c, std::vector<std::string_view>(known_columns().begin(), known_columns().end()));
      throw InputError(source, c.empty() ? "<header>" : c,
                       near.empty() ? "unknown column (docs/books.md, CSV books)" : "unknown column; did you mean '" + near + "'?");
    }
    if (!seen.insert(c).second) throw InputError(source, c, "the column is given twice");
  }
  if (!seen.count("id")) throw InputError(source, "id", "missing: the header needs an id column");
}

json CsvBookHeader::row_json(std::string_view line, const std::string& where) const {
  bool ok = false;
  const std::vector<std::string> cells = csv_cells(line, ok);
  if (!ok) throw InputError(where, "<row>", "a quote is left open");
  if (cells.size() != columns_.size())
    throw InputError(where, "<row>", std::to_string(cells.size()) + " cells under a header of " +
                                         std::to_string(columns_.size()) + " columns");
  json j = {{"type", "stepdown-els"}};
  json underlyings = json::array(), autocall = json::array(), terms = json::object();
  std::vector<std::vector<double>> correlation(kMaxCsvAssets, std::vector<double>(kMaxCsvAssets, 0.0));
  bool has_correlation = false;
  int highest_correlated = 0;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const std::string& column = columns_[i];
    const std::string& text = cells[i];
    if (text.empty()) continue;
    if (column.rfind("underlying_", 0) == 0) {
      const auto k = static_cast<std::size_t>(index_in(column, "underlying_"));
      while (underlyings.size() < k) underlyings.push_back(json::object());
      underlyings[k - 1][after_index(column, "underlying_")] = after_index(column, "underlying_") == "name" ? json(text) : cell_value(text);
    } else if (column.rfind("autocall_", 0) == 0) {
      const auto k = static_cast<std::size_t>(index_in(column, "autocall_"));
      while (autocall.size() < k) autocall.push_back(json::object());
      autocall[k - 1][after_index(column, "autocall_")] = cell_value(text);
    } else if (column.rfind("correlation_", 0) == 0) {
      const int a = index_in(column, "correlation_") - 1, b = std::atoi(after_index(column, "correlation_").c_str()) - 1;
      const json v = cell_value(text);
      if (!v.is_number()) throw InputError(where, column, "expected a number, got '" + text + "'");
      highest_correlated = std::max(highest_correlated, b + 1);
      correlation[static_cast<std::size_t>(a)][static_cast<std::size_t>(b)] = v.get<double>();
      correlation[static_cast<std::size_t>(b)][static_cast<std::size_t>(a)] = v.get<double>();
      has_correlation = true;
    } else if (const TermObject* o = term_object_of(column)) {
      terms[std::string(o->name)][column.substr(o->name.size() + 1)] = cell_value(text);
    } else if (column == "tags") {
      json tags = json::array();
      std::size_t from = 0;
      for (std::size_t to; (to = text.find(';', from)) != std::string::npos; from = to + 1) tags.push_back(trimmed(text.substr(from, to - from)));
      tags.push_back(trimmed(text.substr(from)));
      j["tags"] = tags;
    } else {
      j[column] = column == "id" || column == "isin" || column == "type" || column == "performance" ? json(text) : cell_value(text);
    }
  }
  // Blank cells inside the underlyings or dates leave empty objects: the loader names what is missing.
  if (!underlyings.empty()) j["underlyings"] = underlyings;
  if (!autocall.empty()) j["autocall"] = autocall;
  for (const auto& [name, object] : terms.items()) j[name] = object;
  const std::size_t n = underlyings.size();
  if (highest_correlated > static_cast<int>(n))
    throw InputError(where, "correlation_*", "a correlation names underlying " + std::to_string(highest_correlated) +
                                                 " of a note of " + std::to_string(n));
  // No correlation cells: none given, and the loader asks for it by name (never a silent 0).
  if (has_correlation) {
    json m = json::array();
    for (std::size_t a = 0; a < n; ++a) {
      json row = json::array();
      for (std::size_t b = 0; b < n; ++b) row.push_back(a == b ? 1.0 : correlation[a][b]);
      m.push_back(row);
    }
    j["correlation"] = m;
  }
  return j;
}

}  // namespace elsbench
