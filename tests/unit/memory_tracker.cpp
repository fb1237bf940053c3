// The replaced global allocation functions (platform/memory_tracker): the bytes a block holds are
// counted while it lives and in the peak, and a block of 512 bytes or more starts on a cache line
// (the solvers' 64-byte vector loads would otherwise straddle two lines), whichever way it is
// allocated.
#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <memory>
#include <new>
#include <vector>

#include "platform/memory_tracker.hpp"

namespace elsbench {
namespace {

bool on_cache_line(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 64 == 0; }

}  // namespace

BOOST_AUTO_TEST_CASE(blocks_of_512_bytes_or_more_start_on_a_cache_line) {
  for (std::size_t n : {512, 520, 4000, 4096, 100000, 3 << 20}) {
    std::vector<std::unique_ptr<char[]>> blocks;
    for (int k = 0; k < 8; ++k) {
      blocks.emplace_back(new char[n]);
      BOOST_TEST(on_cache_line(blocks.back().get()), n << " bytes, block " << k);
    }
    std::vector<double> values(n / sizeof(double) + 1);
    BOOST_TEST(on_cache_line(values.data()), "std::vector of " << values.size() << " doubles");
    void* aligned = ::operator new(n, std::align_val_t{256});
    BOOST_TEST(reinterpret_cast<std::uintptr_t>(aligned) % 256 == 0, "an over-aligned request keeps its alignment");
    ::operator delete(aligned, std::align_val_t{256});
  }
}

BOOST_AUTO_TEST_CASE(a_block_is_counted_while_it_lives_and_in_the_peak) {
  const std::size_t before = memory::current_bytes();
  const memory::Scope scope;
  constexpr std::size_t n = 1 << 20;
  {
    std::vector<char> block(n);
    BOOST_TEST(memory::current_bytes() >= before + n);
  }
  BOOST_TEST(memory::current_bytes() < before + n);
  BOOST_TEST(scope.peak() >= n);
}

}  // namespace elsbench
