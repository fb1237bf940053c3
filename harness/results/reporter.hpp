#pragma once
// What a run writes of its results, one reporter per format, in Google Benchmark's shape: the
// file's context, each case's entries in order, then finalize, whose text is written atomically
// beside the results file at every save. The JSON is the run's record (resume, compare and the
// report read it) and is always written; the others are views chosen by --out-format. A format is
// one file that registers itself (json_reporter.cpp, csv_reporter.cpp).
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "harness/results/results_file.hpp"

namespace elsbench {

class Reporter {
 public:
  virtual ~Reporter() = default;
  virtual void context(const nlohmann::json& context) = 0;
  virtual void add_case(std::span<const nlohmann::json> entries) = 0;  // one case's, in file order
  virtual std::string finalize() = 0;
};

struct ResultsFormat {
  std::string name;       // as --out-format names it
  std::string extension;  // its file beside the results file, r.json -> r<extension>; empty: the file itself
  std::string help;
  // A reporter fed the file case by case; or, for a format that is a function of the whole file
  // (the JSON, the CSV view), that function, given the file itself rather than a copy of it.
  std::function<std::unique_ptr<Reporter>()> make;
  std::function<std::string(const ResultsFile&)> whole_file;
};

class ResultsFormats {
 public:
  static ResultsFormats& instance();
  void add(ResultsFormat f);
  const std::vector<ResultsFormat>& all() const { return formats_; }
  // Throws InputError naming `origin`, `field` and the formats there are.
  const ResultsFormat& named(const std::string& name, const std::string& origin = "(command line)",
                             const std::string& field = "--out-format") const;

 private:
  std::vector<ResultsFormat> formats_;
};

#define ELSBENCH_REGISTER_RESULTS_FORMAT(make_format)                                    \
  namespace {                                                                            \
  [[maybe_unused]] const bool registered_format_ =                                       \
      (ResultsFormats::instance().add(make_format()), true);                           \
  }

// What a run writes when --out-format is not given.
std::vector<std::string> default_out_formats();
// "json,csv": each a registered format, once, json among them (InputError naming `origin` and
// `field`: the command line's --out-format, or Python's out_format).
std::vector<std::string> parse_out_formats(const std::string& list, const std::string& origin = "(command line)",
                                           const std::string& field = "--out-format");
// The path of format `name`'s file for the results file at `results_path` (json: that path).
std::string format_path(const std::string& results_path, const std::string& name);
// The format's text of a whole results file.
std::string render(const ResultsFormat& format, const ResultsFile& file);
// Each format's text, written atomically to its path.
void write_results(const std::string& results_path, const ResultsFile& file, const std::vector<std::string>& formats);

}  // namespace elsbench
