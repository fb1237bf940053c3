#include "reference/reference_value.hpp"

#include <sstream>

#include "reference/closed_form.hpp"
#include "reference/stored_reference.hpp"

namespace elsbench {
namespace {

std::string describe(const StoredReference& s) {
  std::ostringstream out;
  out << stored_reference_path(s.product_id) << ": " << s.paths << " paths, seed " << s.seed << ", "
      << s.generator << " v" << s.generator_version << ", " << s.device << ", commit " << s.git_commit
      << ", " << s.date << "; regenerate: " << s.command;
  return out.str();
}

}  // namespace

std::optional<ReferenceValue> reference_for(const Product& product) {
  if (const auto exact = closed_form_price(product))
    return ReferenceValue{*exact, 0.0, "closed-form", closed_form_name(product.type)};
  const auto stored = load_stored_reference(product.id);
  // A value stored for other terms (the product file changed since) is no reference for these.
  if (!stored || !prices_product(*stored, product)) return std::nullopt;
  return ReferenceValue{stored->price, stored->std_error, "monte-carlo", describe(*stored)};
}

}  // namespace elsbench
