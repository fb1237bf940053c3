#pragma once
// The contract every loader's fuzz target checks: any input is either accepted or refused with an
// InputError (file and field named). Any other exception escapes the target, and libFuzzer reports
// it as a crash, like a signal, a sanitizer finding, a leak or a hang.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "platform/input_error.hpp"

namespace elsbench::fuzz {

inline std::string_view text_of(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

template <class Load>
int accepts_or_refuses(const std::uint8_t* data, std::size_t size, Load load) {
  try {
    load(text_of(data, size));
  } catch (const InputError&) {
  }
  return 0;
}

}  // namespace elsbench::fuzz
