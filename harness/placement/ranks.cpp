#include "harness/placement/ranks.hpp"

#include <cstdlib>

#ifdef ELSBENCH_HAVE_MPI
#include <mpi.h>
#endif

namespace elsbench {

bool Ranks::built_with_mpi() {
#ifdef ELSBENCH_HAVE_MPI
  return true;
#else
  return false;
#endif
}

#ifdef ELSBENCH_HAVE_MPI

namespace {

// mpirun (Open MPI, or a PMI launcher) tells its ranks so: a plain run does not start MPI at all.
bool launched_by_mpirun() {
  return std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr || std::getenv("PMI_SIZE") != nullptr;
}

}  // namespace

Ranks::Ranks() {
  if (!launched_by_mpirun()) return;
  int provided = 0;
  // Only the main thread calls MPI; the pricing threads never do.
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  started_ = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

Ranks::~Ranks() {
  if (started_) MPI_Finalize();
}

std::vector<std::string> Ranks::gather(const std::string& mine) const {
  if (!started_) return {mine};
  int length = static_cast<int>(mine.size());
  std::vector<int> lengths(static_cast<std::size_t>(size_)), offsets(static_cast<std::size_t>(size_));
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  int total = 0;
  for (int r = 0; r < size_; ++r) {
    offsets[static_cast<std::size_t>(r)] = total;
    total += lengths[static_cast<std::size_t>(r)];
  }
  std::string all(rank_ == 0 ? static_cast<std::size_t>(total) : 0, '\0');
  MPI_Gatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, 0, MPI_COMM_WORLD);
  if (rank_ != 0) return {};
  std::vector<std::string> parts;
  for (int r = 0; r < size_; ++r)
    parts.push_back(all.substr(static_cast<std::size_t>(offsets[static_cast<std::size_t>(r)]),
                               static_cast<std::size_t>(lengths[static_cast<std::size_t>(r)])));
  return parts;
}

std::string Ranks::broadcast(const std::string& from_root) const {
  if (!started_) return from_root;
  int length = static_cast<int>(from_root.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::string text = rank_ == 0 ? from_root : std::string(static_cast<std::size_t>(length), '\0');
  MPI_Bcast(text.data(), length, MPI_CHAR, 0, MPI_COMM_WORLD);
  return text;
}

void Ranks::abort(int code) const {
  if (started_) MPI_Abort(MPI_COMM_WORLD, code);
  std::exit(code);
}

#else

Ranks::Ranks() = default;
Ranks::~Ranks() = default;
std::vector<std::string> Ranks::gather(const std::string& mine) const { return {mine}; }
std::string Ranks::broadcast(const std::string& from_root) const { return from_root; }
void Ranks::abort(int code) const { std::exit(code); }

#endif

}  // namespace elsbench
