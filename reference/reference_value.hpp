#pragma once
// A reference value no solver under test produced: a closed form where one exists, else the
// stored Monte Carlo value of reference/values/<id>.json. And the validation rule of docs/products.md.
#include <optional>
#include <string>

#include "products/product.hpp"

namespace elsbench {

struct ReferenceValue {
  double price = 0;
  double std_error = 0;    // 0 for a closed form
  std::string source;      // "closed-form" | "monte-carlo"
  std::string provenance;  // formula name, or the stored file with paths/seed/generator/date
};

// Closed form when the product has one, else the stored Monte Carlo value, else nothing.
std::optional<ReferenceValue> reference_for(const Product& product);

struct Verdict {
  bool pass = false;
  double error = 0;      // price - reference
  double allowance = 0;  // k * std_error + tol
};

// |price - reference| <= k * std_error + tol.
inline Verdict judge(double price, const ReferenceValue& ref, double tol, double k = 3.0) {
  Verdict v;
  v.error = price - ref.price;
  v.allowance = k * ref.std_error + tol;
  v.pass = (v.error < 0 ? -v.error : v.error) <= v.allowance;
  return v;
}

}  // namespace elsbench
