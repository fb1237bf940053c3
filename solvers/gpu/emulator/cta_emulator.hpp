#pragma once
// A CTA on the CPU, for kernel bodies written against a CTA policy (kernels/note_march.hpp): each
// phase runs every thread in a random order before its barrier, each warp phase its lanes in
// lockstep (lockstep.hpp). Checked, it finds what a device would show as a wrong price or not at
// all: races (a value two threads touch in one phase, one writing), reads before writes (a note
// starts on NaN), and bank wavefronts: per warp and access instruction (its call site, and the
// how-manieth time a lane reaches it), the most distinct 4-byte words one of the 32 banks serves,
// against the fewest the access's bytes need (128 bytes a wavefront).
#include <algorithm>
#include <cstddef>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "solvers/gpu/emulator/lockstep.hpp"

namespace elsbench::gpu {

struct CtaFindings {
  long long phases = 0;
  long long races = 0;
  std::string first_race;         // where, by which threads
  long long wavefronts = 0;       // shared-memory wavefronts of the warps' accesses
  long long ideal_wavefronts = 0; // what the same accesses need without bank conflicts
};

// The values (in V) and the scratch (in T) of a CTA's workspace: one region each, one after the
// other in the workspace's bytes, as the device lays them out.
template <class U>
struct WorkRegion {
  explicit WorkRegion(const char* what) : name(what) {}
  const char* name;
  std::vector<U> data;
  long long first_word = 0;  // the region's first 4-byte word in the workspace
  std::vector<long long> stamp;
  std::vector<int> writer, reader;  // per value in this phase: -1 none, a thread, -2 several readers
};

template <class V, class T = V>
class EmulatedCta {
 public:
  // `queue`: the book's queue position, shared by every CTA of an emulated launch; `values`:
  // the workspace's values in V, before its `scratch` values in T.
  EmulatedCta(int threads, std::size_t scratch, int& queue, bool checked, std::size_t values = 0)
      : threads_(threads), queue_(queue), checked_(checked) {
    if (threads % kWarp != 0) throw std::invalid_argument("EmulatedCta: threads must be whole warps");
    size(values_, values, 0);
    size(scratch_, scratch, static_cast<long long>(values * sizeof(V) / 4));
    if (checked_) {
      trace_.resize(static_cast<std::size_t>(threads));
      item_.assign(static_cast<std::size_t>(threads), 0);
    }
  }

  int threads() const { return threads_; }
  int warp_count() const { return threads_ / kWarp; }

  // Not inlined: the return address names the access's call site in the body.
  [[gnu::noinline]] T get(long long i) { return scratch_.data[touch(scratch_, i, false, __builtin_return_address(0))]; }
  [[gnu::noinline]] void set(long long i, T v) { scratch_.data[touch(scratch_, i, true, __builtin_return_address(0))] = v; }
  [[gnu::noinline]] V value(long long i) { return values_.data[touch(values_, i, false, __builtin_return_address(0))]; }
  [[gnu::noinline]] void set_value(long long i, V v) {
    values_.data[touch(values_, i, true, __builtin_return_address(0))] = v;
  }

  template <class F>
  void phase(F f) {
    for (int t : random_order(threads_)) {
      tid_ = t;
      f(t);
    }
    end_phase();
  }

  // The warps' raw accesses (span) are checked for races, not counted for banks.
  template <class F>
  void warps(F f) {
    for (int w : random_order(warp_count())) {
      tid_ = w * kWarp;
      f(w, LockstepWarp{});
    }
    end_phase();
  }

  // The calling thread starts its work item k of this phase: its accesses are matched with its
  // warp's other lanes' by item, so that a lane with nothing to do in one item (a row's pad slot)
  // does not shift the rest.
  void item(long long k) {
    if (checked_) item_[static_cast<std::size_t>(tid_)] = k;
  }

  T* span(long long i, int count, int) {
    for (int c = 0; c < count; ++c) mark(scratch_, i + c, true);
    return scratch_.data.data() + i;
  }

  // A new note finds the workspace as the last one left it: NaN here, so that a read of a value
  // the note never wrote shows in its price.
  int next_note() {
    std::fill(values_.data.begin(), values_.data.end(), std::numeric_limits<V>::quiet_NaN());
    std::fill(scratch_.data.begin(), scratch_.data.end(), std::numeric_limits<T>::quiet_NaN());
    end_phase();
    return queue_++;
  }

  const CtaFindings& findings() const { return found_; }

 private:
  struct Access {
    const void* site;
    long long item;
    long long word;  // first 4-byte word of the access in the workspace
    int words;
  };

  template <class U>
  void size(WorkRegion<U>& r, std::size_t count, long long first_word) {
    r.data.assign(count, U(0));
    r.first_word = first_word;
    if (!checked_) return;
    r.stamp.assign(count, -1);
    r.writer.assign(count, -1);
    r.reader.assign(count, -1);
  }

  template <class U>
  std::size_t touch(WorkRegion<U>& r, long long i, bool write, const void* site) {
    if (i < 0 || static_cast<std::size_t>(i) >= r.data.size())
      throw std::out_of_range("EmulatedCta: workspace index " + std::to_string(i) + " outside its " +
                              std::to_string(r.data.size()) + " values of " + std::to_string(sizeof(U)) + " bytes");
    if (checked_) {
      mark(r, i, write);
      constexpr int words = static_cast<int>(sizeof(U) / 4);
      trace_[static_cast<std::size_t>(tid_)].push_back(
          {site, item_[static_cast<std::size_t>(tid_)], r.first_word + i * words, words});
    }
    return static_cast<std::size_t>(i);
  }

  template <class U>
  void mark(WorkRegion<U>& r, long long i, bool write) {
    if (!checked_) return;
    const auto at = static_cast<std::size_t>(i);
    if (r.stamp[at] != found_.phases) {
      r.stamp[at] = found_.phases;
      r.writer[at] = r.reader[at] = -1;
    }
    const int other_writer = r.writer[at] >= 0 && r.writer[at] != tid_ ? r.writer[at] : -1;
    const int other_reader = r.reader[at] == -2 || (r.reader[at] >= 0 && r.reader[at] != tid_) ? r.reader[at] : -1;
    if (other_writer >= 0 || (write && other_reader != -1)) race(r, i, other_writer >= 0 ? other_writer : other_reader);
    if (write) {
      r.writer[at] = tid_;
    } else {
      r.reader[at] = r.reader[at] == -1 || r.reader[at] == tid_ ? tid_ : -2;
    }
  }

  template <class U>
  void race(const WorkRegion<U>& r, long long i, int other) {
    if (found_.races++ == 0)
      found_.first_race = "phase " + std::to_string(found_.phases) + ": " + r.name + " " + std::to_string(i) + " touched by thread " + std::to_string(tid_) + " and " +
                          (other == -2 ? std::string("several readers") : "thread " + std::to_string(other)) +
                          ", one of them writing";
  }

  void end_phase() {
    if (checked_) count_wavefronts();
    ++found_.phases;
  }

  // Per warp, the accesses of its lanes at one (item, site, occurrence) as one request.
  void count_wavefronts() {
    using Key = std::tuple<long long, const void*, int>;
    for (int w = 0; w < warp_count(); ++w) {
      std::map<Key, std::vector<Access>> requests;
      for (int lane = 0; lane < kWarp; ++lane) {
        std::map<std::pair<long long, const void*>, int> seen;
        for (const Access& a : trace_[static_cast<std::size_t>(w * kWarp + lane)])
          requests[{a.item, a.site, seen[{a.item, a.site}]++}].push_back(a);
      }
      for (const auto& [instruction, accesses] : requests) count_request(accesses);
    }
    for (auto& tr : trace_) tr.clear();
    std::fill(item_.begin(), item_.end(), 0);
  }

  void count_request(const std::vector<Access>& accesses) {
    constexpr int kBanks = 32;
    std::vector<long long> words[kBanks];
    long long bytes = 0;
    for (const Access& a : accesses) {
      bytes += 4LL * a.words;
      for (long long word = a.word; word < a.word + a.words; ++word) {
        auto& in_bank = words[word % kBanks];
        if (std::find(in_bank.begin(), in_bank.end(), word) == in_bank.end()) in_bank.push_back(word);
      }
    }
    std::size_t most = 0;
    for (const auto& in_bank : words) most = std::max(most, in_bank.size());
    found_.wavefronts += static_cast<long long>(most);
    found_.ideal_wavefronts += (bytes + 127) / 128;
  }

  int threads_;
  WorkRegion<V> values_{"value"};
  WorkRegion<T> scratch_{"scratch value"};
  int& queue_;
  bool checked_;
  int tid_ = 0;
  std::vector<std::vector<Access>> trace_;  // per thread, its workspace accesses in this phase
  std::vector<long long> item_;             // per thread, its work item in this phase
  CtaFindings found_;
};

}  // namespace elsbench::gpu
