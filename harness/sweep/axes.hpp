#pragma once
// The axes of a sweep. A sweep is a union of groups; each group is the product of its axes
// (solvers x products x n x time-step rules x devices x precisions x book sizes), so a preset can
// run the slow explicit solver on small grids only and the GPU solvers up to n = 2000.
// Axis values stay strings here, as the user wrote them (they are recorded in the results file
// and read back by --resume); they are parsed when the sweep is planned.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "harness/run/case.hpp"
#include "harness/run/tolerance.hpp"
#include "solvers/contract/options.hpp"

namespace elsbench {

// A sweep's device: cpu (every core, resolved to cpu:tN when planned), cpu:tN or cuda:N, parsed by
// platform/device.hpp's parser; `auto` is refused (a timing must name what ran).
Device parse_sweep_device(const std::string& s);

struct SweepAxes {
  std::vector<std::string> solvers;  // "name" or "name:scheme"
  std::vector<std::string> schemes;  // for solvers named without a scheme; empty: the default; "all"
  std::vector<std::string> products; // catalog ids or JSON files
  std::vector<int> n;
  std::vector<std::string> nt_rules;
  std::vector<std::string> devices;
  std::vector<std::string> precisions;
  // Notes per timed run: a case of book size B prices a book of B copies of its product the way
  // `book price` does (a note per thread, or one batch per device), and records notes per second.
  std::vector<int> book;

  // Each axis of `top` that is non-empty replaces this one's.
  void overlay(const SweepAxes& top);
};
nlohmann::json to_json(const SweepAxes& a);
// Fills the axes left empty with their one natural value and checks that every value parses, so
// that a bad preset is refused before the first case runs; errors name `source` and `field`.axis.
void complete(SweepAxes& a, const std::string& source, const std::string& field);

struct SweepSpec {
  std::string preset = "custom";
  std::string description;
  std::vector<SweepAxes> groups;  // each complete: every axis filled
  int repetitions = 3;
  GridOptions grid;  // mesh settings shared by every case (n and nt are axes)
  ToleranceRule tolerance;
  bool error_estimate = false;  // estimate each case's discretisation error (case_run.hpp: unconverged)
};

// The preset format, also the copy kept in a results file's context.elsbench.sweep:
//   {
//     "name": "quick", "description": "...",
//     "repetitions": 3,                                   // timed, after one untimed pricing; >= 2
//     "grid": {"mesh": "sinh", "s_max": 4.0, "density": 0.5, "damping": 2,   // optional: the grid
//              "ki_damping": 2, "ki_damping_fraction": 0.35},                  // codec's keys but n, nt
//     "error_estimate": false,                            // optional: coarser grids per case
//     "tolerance": {"c": 0.01, "fp32_relative": 1e-4, "floor_fraction": 0.01,
//                   "overrides": [{"product": "..", "solver": "..", "precision": "..", "n": 50,
//                                  "tol": 0.5 | "c": 0.02}]},                   // optional
//     "axes":   {"solvers": ["explicit", "adi:douglas"], "schemes": ["all"], "products": [".."],
//                "n": [50, 100], "nt_rules": ["auto", "fixed:200", "per-n:2"],
//                "devices": ["cpu", "cpu:t1", "cuda:0"], "precisions": ["fp64", "fp32"],
//                "book": [1, 16, 256]},
//     "groups": [{"solvers": ["explicit"], "n": [50]}, {"n": [100, 200]}]      // optional
//   }
// Each group takes "axes" and replaces the axes it names; without "groups" the sweep is "axes".
// Defaults: nt_rules ["auto"], devices ["cpu"], precisions ["fp64"], book [1], schemes [] (the
// solver's default). `source` names the file in errors.
SweepSpec sweep_spec_from_json(const nlohmann::json& j, const std::string& source);
nlohmann::json to_json(const SweepSpec& spec);

}  // namespace elsbench
