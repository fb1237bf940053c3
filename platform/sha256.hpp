#pragma once
// SHA-256 (FIPS 180-4) of a byte string, as 64 lower-case hex digits: the key of a content-addressed
// store must not collide by accident, and no crypto library is a dependency.
#include <string>
#include <string_view>

namespace elsbench {

std::string sha256_hex(std::string_view bytes);

}  // namespace elsbench
