#pragma once
// A solver that cannot price a case says why in a way the sweep can record as a skip reason.
#include <stdexcept>
#include <string>

namespace elsbench {

class SolverError : public std::runtime_error {
 public:
  // DeviceFault: a sticky CUDA error (an illegal address, a trap, ...): the device's context is
  // unusable for the rest of the process, so a sweep skips its remaining GPU cases.
  // Unconverged: the march ran but its price lies outside the product's no-arbitrage bounds
  // (products/price_bounds.hpp): the grid cannot carry the note; the case is unconverged, not skipped.
  // Interrupted: stopped on request (platform/stop_request.hpp) before it finished.
  enum class Kind { Unstable, Unavailable, OutOfMemory, Unsupported, NonFinite, TooMuchWork, DeviceFault, Unconverged,
                    Interrupted };
  SolverError(Kind k, const std::string& what) : std::runtime_error(what), kind_(k) {}
  Kind kind() const { return kind_; }
  const char* kind_name() const {
    switch (kind_) {
      case Kind::Unstable: return "unstable";
      case Kind::Unavailable: return "unavailable";
      case Kind::OutOfMemory: return "out-of-memory";
      case Kind::Unsupported: return "unsupported";
      case Kind::NonFinite: return "non-finite";
      case Kind::TooMuchWork: return "too-much-work";
      case Kind::DeviceFault: return "device-fault";
      case Kind::Unconverged: return "unconverged";
      case Kind::Interrupted: return "interrupted";
    }
    return "?";
  }

 private:
  Kind kind_;
};

}  // namespace elsbench
