#include "harness/results/reporter.hpp"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "platform/file_io.hpp"
#include "platform/input_error.hpp"

namespace elsbench {

ResultsFormats& ResultsFormats::instance() {
  static ResultsFormats formats;
  return formats;
}

void ResultsFormats::add(ResultsFormat f) {
  if (!f.make == !f.whole_file)
    throw std::logic_error("results format '" + f.name + "': give it a reporter or a whole-file function, one of them");
  formats_.push_back(std::move(f));
}

const ResultsFormat& ResultsFormats::named(const std::string& name, const std::string& origin,
                                           const std::string& field) const {
  for (const ResultsFormat& f : formats_)
    if (f.name == name) return f;
  std::string known;
  for (const ResultsFormat& f : formats_) known += (known.empty() ? "" : ", ") + f.name;
  throw InputError(origin, field, "unknown format '" + name + "' (there are: " + known + ")");
}

std::vector<std::string> default_out_formats() { return {"json", "csv"}; }

std::vector<std::string> parse_out_formats(const std::string& list, const std::string& origin,
                                           const std::string& field) {
  std::vector<std::string> names;
  std::size_t from = 0;
  while (from <= list.size()) {
    const std::size_t comma = std::min(list.find(',', from), list.size());
    const std::string name = list.substr(from, comma - from);
    ResultsFormats::instance().named(name, origin, field);
    if (std::find(names.begin(), names.end(), name) != names.end())
      throw InputError(origin, field, "'" + name + "' is named twice");
    names.push_back(name);
    from = comma + 1;
  }
  if (std::find(names.begin(), names.end(), "json") == names.end())
    throw InputError(origin, field,
                     "'" + list + "' leaves out json, the run's record that --resume, compare and the report read");
  return names;
}

std::string format_path(const std::string& results_path, const std::string& name) {
  const ResultsFormat& f = ResultsFormats::instance().named(name);
  if (f.extension.empty()) return results_path;
  return std::filesystem::path(results_path).replace_extension(f.extension).string();
}

std::string render(const ResultsFormat& format, const ResultsFile& file) {
  if (format.whole_file) return format.whole_file(file);
  const std::unique_ptr<Reporter> r = format.make();
  r->context(file.context);
  const auto& all = file.benchmarks.get_ref<const nlohmann::json::array_t&>();
  for (std::size_t first = 0; first < all.size();) {
    const std::string id = all[first].value("case_id", "");
    std::size_t last = first + 1;
    while (last < all.size() && all[last].value("case_id", "") == id) ++last;
    r->add_case(std::span<const nlohmann::json>(all.data() + first, last - first));
    first = last;
  }
  return r->finalize();
}

void write_results(const std::string& results_path, const ResultsFile& file,
                   const std::vector<std::string>& formats) {
  for (const std::string& name : formats)
    write_file_atomically(format_path(results_path, name), render(ResultsFormats::instance().named(name), file));
}

}  // namespace elsbench
