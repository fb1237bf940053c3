#pragma once
// A vector whose resize leaves new elements of trivially copyable types unwritten (their lifetime
// begins implicitly, C++20): a GPU book's batch arrays (a few hundred MB) are then first written,
// and their pages first touched, by the threads that fill them, side by side, instead of by one
// thread initialising them beforehand. Whoever resizes writes every new element before reading it.
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace elsbench {

template <class T>
struct UninitializedAllocator : std::allocator<T> {
  using value_type = T;
  template <class U>
  struct rebind {
    using other = UninitializedAllocator<U>;
  };
  UninitializedAllocator() = default;
  template <class U>
  UninitializedAllocator(const UninitializedAllocator<U>&) noexcept {}

  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    if constexpr (sizeof...(Args) == 0 && std::is_trivially_copyable_v<U> && std::is_trivially_destructible_v<U>) {
      static_cast<void>(p);
    } else if constexpr (sizeof...(Args) == 0) {
      ::new (static_cast<void*>(p)) U;
    } else {
      ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
  }
};

template <class T>
using UninitializedVector = std::vector<T, UninitializedAllocator<T>>;

}  // namespace elsbench
