#pragma once
// A book as a desk keeps it: CSV, one note a row under a header, in a wide layout of the product
// schema's fields (the columns: docs/books.md, "CSV books"; a template: products/templates/book.csv).
// An empty cell is an absent field (a two-asset note leaves underlying_3_* empty, a note of four
// dates autocall_5_* onwards). Each row is read by the product loader itself, and its refusals
// name the row's line and the CSV column ("column 'autocall_3_barrier'").
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "platform/input_error.hpp"

namespace elsbench {

class CsvBookHeader {
 public:
  // Throws InputError(source, the column) for an unknown or repeated column, or without `id`.
  CsvBookHeader(std::string_view line, const std::string& source);
  // The product JSON of one row; throws InputError(where, the column) for a row that cannot be
  // split into the header's cells.
  nlohmann::json row_json(std::string_view line, const std::string& where) const;

 private:
  std::vector<std::string> columns_;
};

// The CSV column a product field's path names ("underlyings[1].vol" -> "underlying_2_vol").
std::string csv_column(const std::string& field);

// The cells of one CSV line: comma-separated, a quoted cell may hold commas and "" for a quote.
// Empty on a malformed line (a quote left open); `ok` says which.
std::vector<std::string> csv_cells(std::string_view line, bool& ok);

}  // namespace elsbench
