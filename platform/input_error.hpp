#pragma once
#include <stdexcept>
#include <string>

namespace elsbench {

// Bad input is a normal case: the message names the file and the field, the CLI exits non-zero.
class InputError : public std::runtime_error {
 public:
  InputError(const std::string& file, const std::string& field, const std::string& what)
      : std::runtime_error(file + ": field '" + field + "': " + what), file_(file), field_(field), reason_(what) {}
  const std::string& file() const { return file_; }
  const std::string& field() const { return field_; }
  // The refusal without the file and field: "must be > 0, got -0.3".
  const std::string& reason() const { return reason_; }

 private:
  std::string file_, field_, reason_;
};

}  // namespace elsbench
