#pragma once
// A long call from Python: run on a thread of its own with the GIL released, while the calling
// thread looks every 100 ms for a signal (Ctrl-C: KeyboardInterrupt) and reports progress. On a
// signal the pricing is asked to stop (platform/stop_request.hpp), which the CPU marches see
// between time steps, and the call raises the KeyboardInterrupt once the worker has returned.
#include <nanobind/nanobind.h>

#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>

#include "platform/stop_request.hpp"

namespace elsbench::python {

// progress(done, total) is called with the GIL held; `count` reads (done, total) in the worker's units.
template <class Work, class Count>
auto watched_call(Work&& work, const nanobind::object& progress, Count&& count) -> decltype(work()) {
  namespace nb = nanobind;
  using Result = decltype(work());
  clear_stop_request();
  march_progress().reset();
  std::optional<Result> out;
  std::exception_ptr failure;
  std::mutex m;
  std::condition_variable finished;
  bool done = false, interrupted = false;
  {
    nb::gil_scoped_release unlocked;
    std::thread worker([&] {
      try {
        out.emplace(work());
      } catch (...) {
        failure = std::current_exception();
      }
      const std::lock_guard lock(m);
      done = true;
      finished.notify_all();
    });
    for (;;) {
      {
        std::unique_lock lock(m);
        if (finished.wait_for(lock, std::chrono::milliseconds(100), [&] { return done; })) break;
      }
      nb::gil_scoped_acquire locked;
      if (PyErr_CheckSignals() != 0) {
        interrupted = true;
        request_stop();
        break;
      }
      if (!progress.is_none()) {
        const auto [d, t] = count();
        try {
          progress(d, t);
        } catch (nb::python_error& e) {
          e.restore();  // a failing progress bar stops the call as a Ctrl-C does, with its own error
          interrupted = true;
          request_stop();
          break;
        }
      }
    }
    worker.join();
  }
  clear_stop_request();
  if (interrupted) throw nb::python_error();
  if (failure) std::rethrow_exception(failure);
  return std::move(*out);
}

}  // namespace elsbench::python
