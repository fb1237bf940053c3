#include "harness/runner/run_file.hpp"

#include <filesystem>
#include <system_error>

#include "harness/machine/machine.hpp"
#include "harness/run/timing.hpp"
#include "harness/runner/signals.hpp"
#include "platform/input_error.hpp"

#ifndef ELSBENCH_VERSION
#define ELSBENCH_VERSION "unknown"
#endif

namespace elsbench {

ResultsFile fresh_results(const std::string& preset, const std::string& command, std::size_t cases,
                          const std::string& instance) {
  ResultsFile f;
  f.context = benchmark_context();
  f.elsbench() = {{"schema", kResultsSchema},
                  {"version", ELSBENCH_VERSION},
                  {"preset", preset},
                  {"command", command},
                  {"started", utc_timestamp()},
                  {"finished", nullptr},
                  {"complete", false},
                  {"cases_total", cases},
                  {"machine", to_json(describe_machine(instance))},
                  {"resumed", nlohmann::json::array()}};
  return f;
}

void record_resume(ResultsFile& f, const nlohmann::json& then, const std::string& command,
                   const std::string& instance) {
  const MachineInfo here = describe_machine(instance);
  nlohmann::json& els = f.elsbench();
  els["command"] = then.value("command", els.value("command", command));
  els["started"] = then.value("started", els.value("started", nlohmann::json()));
  els["resumed"] = then.value("resumed", nlohmann::json::array());
  els["resumed"].push_back(
      {{"at", utc_timestamp()}, {"command", command}, {"hostname", here.hostname}, {"git_commit", here.git_commit}});
}

namespace {

// The setting that differs (see refuse_other_settings), or empty when they agree.
std::string changed_setting(const nlohmann::json& then, const nlohmann::json& now, const std::vector<std::string>& first) {
  for (const std::string& key : first)
    if (then.value(key, nlohmann::json()) != now.value(key, nlohmann::json())) return key;
  for (const auto& [key, value] : now.items())
    if (!then.contains(key) || then[key] != value) return key;
  for (const auto& [key, value] : then.items())
    if (!now.contains(key)) return key;
  return {};
}

}  // namespace

void refuse_other_settings(const std::string& path, const std::string& field, const nlohmann::json& then,
                           const nlohmann::json& now, const std::string& elsewhere,
                           const std::vector<std::string>& first) {
  const std::string key = changed_setting(then, now, first);
  if (key.empty()) return;
  throw InputError(path, field + "." + key,
                   "--resume with another " + key + " (the file's: " + then.value(key, nlohmann::json()).dump() +
                       ", now: " + now.value(key, nlohmann::json()).dump() + "); " + elsewhere);
}

void mark_complete(ResultsFile& f) {
  f.elsbench()["complete"] = true;
  f.elsbench()["finished"] = utc_timestamp();
}

RunFile::RunFile(const std::string& path, const std::vector<std::string>& inputs, std::vector<std::string> formats)
    : path_(path), formats_(std::move(formats)) {
  if (path_.empty()) return;
  // Checked before the run's work and before its lock and attempts log exist.
  std::vector<std::string> files = written();
  files.push_back(path_ + ".attempts");
  for (const std::string& file : files) require_output_path(file);
  files.push_back(path_ + ".lock");
  for (const std::string& input : inputs)
    for (const std::string& written : files) {
      std::error_code ec;
      if (std::filesystem::equivalent(written, input, ec))
        throw InputError(path_, "--out", "the run would write " + written + ", which is its input " + input +
                                             "; name another results file");
    }
  lock_.emplace(path_);
}

std::vector<std::string> RunFile::written() const {
  std::vector<std::string> files{path_};
  for (const std::string& name : formats_) {
    const std::string file = format_path(path_, name);
    if (file == path_ && name != "json")
      throw InputError(path_, "--out", "the results file has the name of its " + name + " view; name it .json");
    if (file != path_) files.push_back(file);
  }
  return files;
}

void RunFile::save(const ResultsFile& file) const {
  if (path_.empty()) return;
  const FileWriteSection section;
  write_results(path_, file, formats_);
}

}  // namespace elsbench
