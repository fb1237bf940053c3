#pragma once
// One case: one product priced by one solver (and scheme) on one grid, device and precision. A
// sweep is a list of cases, and so is a validation preset. Its id is the key of the results file:
// --resume and `compare` match cases by it.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "solvers/contract/options.hpp"

namespace elsbench {

// How many time steps a case takes: a fixed count, a multiple of n, or the solver's own choice.
struct NtRule {
  enum class Kind { Fixed, PerN, Auto };
  Kind kind = Kind::Auto;
  double value = 0;  // steps (fixed) or steps per node (per-n)

  std::optional<int> steps(int n) const;  // empty for auto
  std::string str() const;                // "fixed:200" | "per-n:2" | "auto"
};
NtRule parse_nt_rule(const std::string& s);

struct SweepCase {
  std::string product;  // product id
  std::string solver;
  std::string scheme;   // empty: the solver has no scheme choice
  int n = 100;                  // nodes per axis; with axis_nodes, the largest
  std::vector<int> axis_nodes;  // nodes of each axis when they differ (a book's --n N1,N2); empty: n
  NtRule nt;
  Device device;        // CPU cases carry their thread count (resolved when planned)
  Precision precision = Precision::FP64;
  int book = 1;         // notes per timed run: copies of the product priced as one book
  // Grid settings of this case over its sweep's (the grid codec's keys, e.g. {"ki_damping": 0});
  // each is part of the id and a field of its results.
  nlohmann::json grid = nlohmann::json::object();
  // Set when planning already knows that the case cannot run (a scheme the solver lacks).
  std::string skip_reason;

  // "sample-2a-stepdown/adi:hundsdorfer-verwer/n=100/nt=200/cpu/t2/fp64", "/book=256" appended
  // for a book of more than one note (a single note keeps the id it always had), then
  // "/key=value" for each grid setting of the case
  std::string id() const;
  // A book's note: "book" in place of the device part, so that the notes of two runs of a book
  // match wherever each run placed them (the device is a field of the entry).
  std::string note_id() const;
  // The case on the grid settings shared by its sweep (mesh, S_max, density, damping), its own
  // grid settings over them.
  SolverOptions options(const GridOptions& sweep_grid) const;
};

}  // namespace elsbench
