#pragma once
// f(i) for every i in [0, count) on the OpenMP threads, an item to a thread at a time (a GPU
// book's notes: problems, plans, images). An exception must not leave an OpenMP region: each
// item's is kept, and the first in item order rethrown once every item has been tried.
#include <omp.h>

#include <cstddef>
#include <exception>
#include <vector>

namespace elsbench {

template <class F>
void side_by_side(std::size_t count, F&& f) {
  std::vector<std::exception_ptr> failures(count);
  const auto n = static_cast<std::ptrdiff_t>(count);
#pragma omp parallel for schedule(dynamic, 1) if (n > 1 && omp_get_max_threads() > 1)
  for (std::ptrdiff_t i = 0; i < n; ++i) {
    try {
      f(static_cast<std::size_t>(i));
    } catch (...) {
      failures[static_cast<std::size_t>(i)] = std::current_exception();
    }
  }
  for (const std::exception_ptr& e : failures)
    if (e) std::rethrow_exception(e);
}

}  // namespace elsbench
