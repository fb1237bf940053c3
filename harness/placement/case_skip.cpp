#include "harness/placement/case_skip.hpp"

#include <new>
#include <stdexcept>

#include "platform/solver_error.hpp"

namespace elsbench {

std::string skip_reason(std::exception_ptr failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const SolverError& e) {
    return std::string(e.kind_name()) + ": " + e.what();
  } catch (const std::bad_alloc&) {
    return "out-of-memory: a host allocation failed";
  } catch (const std::invalid_argument& e) {
    // price_with refuses requests the solver does not take (dimension, precision, device).
    return std::string("unsupported: ") + e.what();
  } catch (const std::exception& e) {
    return std::string("error: ") + e.what();
  } catch (...) {
    return "error: unknown exception";
  }
}

CaseStatus failure_status(std::exception_ptr failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const SolverError& e) {
    if (e.kind() == SolverError::Kind::Unconverged) return CaseStatus::Unconverged;
  } catch (...) {
  }
  return CaseStatus::Skipped;
}

}  // namespace elsbench
