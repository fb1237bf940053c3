#pragma once
// A CTA on the CPU, for kernel bodies written against a CTA policy (kernels/note_march.hpp): each
// phase runs every thread in a random order before its barrier, each warp phase its lanes in
// lockstep (lockstep.hpp). Checked, it finds what a device would show as a wrong price or not at
// all: races (a value two threads touch in one phase, one writing), reads before writes (a note
// starts on NaN), and bank wavefronts: per warp and access instruction (its call site, and the
// how-manieth time a lane reaches it), the most distinct 4-byte words one of the 32 banks serves,
// against the fewest the access's bytes need (128 bytes a wavefront).
#include <cstddef>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
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

template <class T>
class EmulatedCta {
 public:
  // `queue`: the book's queue position, shared by every CTA of an emulated launch.
  EmulatedCta(int threads, std::size_t workspace_values, int& queue, bool checked)
      : threads_(threads), work_(workspace_values), queue_(queue), checked_(checked) {
    if (threads % kWarp != 0) throw std::invalid_argument("EmulatedCta: threads must be whole warps");
    if (checked_) {
      stamp_.assign(work_.size(), -1);
      writer_.assign(work_.size(), -1);
      reader_.assign(work_.size(), -1);
      trace_.resize(static_cast<std::size_t>(threads));
    }
  }

  int threads() const { return threads_; }
  int warp_count() const { return threads_ / kWarp; }

  // Not inlined: the return address names the access's call site in the body.
  [[gnu::noinline]] T get(long long i) {
    touch(i, false, __builtin_return_address(0));
    return work_[static_cast<std::size_t>(i)];
  }
  [[gnu::noinline]] void set(long long i, T v) {
    touch(i, true, __builtin_return_address(0));
    work_[static_cast<std::size_t>(i)] = v;
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

  T* span(long long i, int count, int) {
    for (int c = 0; c < count; ++c) mark(i + c, true);
    return work_.data() + i;
  }

  // A new note finds the workspace as the last one left it: NaN here, so that a read of a value
  // the note never wrote shows in its price.
  int next_note() {
    std::fill(work_.begin(), work_.end(), std::numeric_limits<T>::quiet_NaN());
    end_phase();
    return queue_++;
  }

  const CtaFindings& findings() const { return found_; }

 private:
  struct Access {
    const void* site;
    long long value;
  };

  void touch(long long i, bool write, const void* site) {
    if (i < 0 || static_cast<std::size_t>(i) >= work_.size())
      throw std::out_of_range("EmulatedCta: workspace index " + std::to_string(i) + " outside its " +
                              std::to_string(work_.size()) + " values");
    if (!checked_) return;
    mark(i, write);
    trace_[static_cast<std::size_t>(tid_)].push_back({site, i});
  }

  void mark(long long i, bool write) {
    if (!checked_) return;
    const auto at = static_cast<std::size_t>(i);
    if (stamp_[at] != found_.phases) {
      stamp_[at] = found_.phases;
      writer_[at] = reader_[at] = -1;
    }
    const int other_writer = writer_[at] >= 0 && writer_[at] != tid_ ? writer_[at] : -1;
    const int other_reader = reader_[at] == -2 || (reader_[at] >= 0 && reader_[at] != tid_) ? reader_[at] : -1;
    if (other_writer >= 0 || (write && other_reader != -1)) race(i, other_writer >= 0 ? other_writer : other_reader);
    if (write) {
      writer_[at] = tid_;
    } else {
      reader_[at] = reader_[at] == -1 || reader_[at] == tid_ ? tid_ : -2;
    }
  }

  void race(long long i, int other) {
    if (found_.races++ == 0)
      found_.first_race = "phase " + std::to_string(found_.phases) + ": value " + std::to_string(i) +
                          " touched by thread " + std::to_string(tid_) + " and " +
                          (other == -2 ? std::string("several readers") : "thread " + std::to_string(other)) +
                          ", one of them writing";
  }

  void end_phase() {
    if (checked_) count_wavefronts();
    ++found_.phases;
  }

  // Per warp, the accesses of its lanes at one (site, occurrence) as one request.
  void count_wavefronts() {
    for (int w = 0; w < warp_count(); ++w) {
      std::map<std::pair<const void*, int>, std::vector<long long>> requests;
      for (int lane = 0; lane < kWarp; ++lane) {
        std::map<const void*, int> seen;
        for (const Access& a : trace_[static_cast<std::size_t>(w * kWarp + lane)])
          requests[{a.site, seen[a.site]++}].push_back(a.value);
      }
      for (const auto& [instruction, values] : requests) count_request(values);
    }
    for (auto& tr : trace_) tr.clear();
  }

  void count_request(const std::vector<long long>& values) {
    constexpr int kBanks = 32;
    const long long words_per_value = static_cast<long long>(sizeof(T) / 4);
    std::vector<long long> words[kBanks];
    for (long long v : values)
      for (long long part = 0; part < words_per_value; ++part) {
        const long long word = v * words_per_value + part;
        auto& in_bank = words[word % kBanks];
        if (std::find(in_bank.begin(), in_bank.end(), word) == in_bank.end()) in_bank.push_back(word);
      }
    std::size_t most = 0;
    for (const auto& in_bank : words) most = std::max(most, in_bank.size());
    found_.wavefronts += static_cast<long long>(most);
    found_.ideal_wavefronts += (static_cast<long long>(values.size() * sizeof(T)) + 127) / 128;
  }

  int threads_;
  std::vector<T> work_;
  int& queue_;
  bool checked_;
  int tid_ = 0;
  std::vector<long long> stamp_;
  std::vector<int> writer_, reader_;   // per value in this phase: -1 none, a thread, -2 several readers
  std::vector<std::vector<Access>> trace_;  // per thread, its workspace accesses in this phase
  CtaFindings found_;
};

}  // namespace elsbench::gpu
