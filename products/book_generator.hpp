#pragma once
// Books for benchmarks: realistic Korean step-down ELS term sheets, seasoned, deterministic for a
// seed (the same seed gives the same book on every machine and compiler).
#include <cstdint>
#include <string>
#include <vector>

#include "products/product.hpp"

namespace elsbench {

// The notes a book holds: as issued (step-down schedules of 95-70 %, coupons of 4-12 % a year), or
// digital-heavy, where an FD grid's error and its error bar are weakest: redemption barriers of
// 60-80 % far below the mesh's concentration at the spot, a single redemption date or many,
// coupons up to 40 %, half of them knocked in (issue 44's hard cases); paying monthly coupons; or
// as issued with a lizard on the next redemption date. book_family_words() names them in order.
enum class BookFamily { Issued, Digital, Monthly, Lizard };

struct BookSpec {
  int notes = 64;
  int assets = 0;  // 1, 2 or 3; 0: mixed (20 % one, 50 % two, 30 % three underlyings)
  std::uint64_t seed = 1;
  BookFamily family = BookFamily::Issued;
};
// "issued", "digital", "monthly" or "lizard"; throws std::invalid_argument naming the words it takes.
BookFamily parse_book_family(const std::string& word);
const std::vector<std::string>& book_family_words();

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
