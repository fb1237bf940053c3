// The book axis: notes per timed run. A case of book size B prices a book of B copies of its
// product the way `book price` does (a note per thread, or one batch per device) and records notes
// per second; 1 keeps the id a single note always had.
#include "harness/run/case_limits.hpp"
#include "harness/sweep/axis.hpp"

namespace elsbench {

ELSBENCH_SWEEP_AXIS({.key = "book",
                     .flag = "--book",
                     .help = "notes per timed run: copies of the product priced as one book",
                     .order = 80,
                     .type = SweepAxis::Type::Whole,
                     .min = 1,
                     .max = kMaxBookNotes,
                     .defaults = nlohmann::json::array({1}),
                     .enter = [](SweepCase c, const nlohmann::json& v) {
                       c.book = v.get<int>();
                       return std::vector<SweepCase>{c};
                     }});

}  // namespace elsbench
