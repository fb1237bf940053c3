// libFuzzer target: the product loader (the text of a product file, as `--product FILE` reads it).
#include <nlohmann/json.hpp>

#include "products/product_json.hpp"
#include "tests/fuzz/fuzz_target.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return elsbench::fuzz::accepts_or_refuses(data, size, [](std::string_view text) {
    const elsbench::Product p = elsbench::product_from_text(text, "fuzz.json");
    // What the loader accepted must round-trip: the loader reads its own writing back.
    elsbench::product_from_json(elsbench::product_to_json(p), "fuzz.json (written back)");
  });
}
