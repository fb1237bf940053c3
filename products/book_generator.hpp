#pragma once
// Books for benchmarks: realistic Korean step-down ELS term sheets, seasoned, deterministic for a
// seed (the same seed gives the same book on every machine and compiler).
#include <cstdint>
#include <string>
#include <vector>

#include "products/product.hpp"

namespace elsbench {

struct BookSpec {
  int notes = 64;
  int assets = 0;  // 1, 2 or 3; 0: mixed (20 % one, 50 % two, 30 % three underlyings)
  std::uint64_t seed = 1;
};

// The underlyings a generated note draws from: index-like, vols 15-35 %, correlations 0.3-0.8.
struct IndexAsset {
  const char* name;
  double level, vol, div_yield;
};
const std::vector<IndexAsset>& book_asset_table();
double book_asset_correlation(std::size_t i, std::size_t k);

std::vector<Product> generate_book(const BookSpec& spec);
// One product JSON per line (product_to_json), newline-terminated.
std::string book_jsonl(const std::vector<Product>& notes);

}  // namespace elsbench
