#pragma once
// x86 cores handle subnormal operands and results in microcode, about a hundred cycles each. An
// fp32 value surface whose tails decay below 1.2e-38 (a min call's zero region, reached by
// diffusion) made an fp32 march twice as slow as it should be; fp64 tails never get there.
// FlushSubnormals sets flush-to-zero and denormals-are-zero on the calling thread while it lives,
// and puts the thread's previous mode back: the threads go on to run code that must not flush.
#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

namespace elsbench {

class FlushSubnormals {
 public:
  explicit FlushSubnormals(bool on) {
#if defined(__SSE2__)
    if (!on) return;
    saved_ = _mm_getcsr();
    _mm_setcsr(saved_ | kFlushToZero | kDenormalsAreZero);
    set_ = true;
#else
    (void)on;
#endif
  }
  ~FlushSubnormals() {
#if defined(__SSE2__)
    if (set_) _mm_setcsr(saved_);
#endif
  }
  FlushSubnormals(const FlushSubnormals&) = delete;
  FlushSubnormals& operator=(const FlushSubnormals&) = delete;

 private:
  static constexpr unsigned kFlushToZero = 0x8000, kDenormalsAreZero = 0x0040;
  unsigned saved_ = 0;
  bool set_ = false;
};

}  // namespace elsbench
