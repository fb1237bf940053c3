#include "products/note_events.hpp"

#include <algorithm>

namespace elsbench {
namespace {

// A lizard: on its date the intact note redeems (at every node: the autocall on the same date
// then takes its own side); on each monitoring day up to it, the intact note breaks below the
// lizard's barrier.
void add_lizard(const Product& p, const std::vector<double>& days, std::vector<NoteEvent>& out) {
  const Lizard& lizard = p.els().lizard;
  const double when = p.els().autocall[static_cast<std::size_t>(lizard.autocall)].time;
  out.push_back({EventKind::LizardRedeem, when, 0.0, false, p.notional * (1.0 + lizard.coupon)});
  for (double t : days)
    if (t <= when + 1e-9) out.push_back({EventKind::LizardBreak, t, lizard.barrier, true, 0.0});
}

}  // namespace

std::vector<NoteEvent> note_events(const Product& p) {
  std::vector<NoteEvent> out;
  if (!p.is_els()) return out;
  const auto& dates = p.els().autocall;
  const double T = p.maturity();
  for (std::size_t k = 0; k < dates.size(); ++k)
    out.push_back({EventKind::Autocall, dates[k].time, dates[k].barrier, false, p.notional * (1.0 + dates[k].coupon),
                   k + 1 == dates.size()});
  const Coupons& c = p.els().coupons;
  for (double t : p.coupon_dates())
    out.push_back({EventKind::Coupon, t, c.barrier, false, p.notional * c.coupon, t == T, c.memory});
  if (!p.can_knock_in()) return out;  // nor a lizard (has_lizard)
  const std::vector<double> days = p.monitoring_dates();
  if (p.has_lizard()) add_lizard(p, days, out);
  for (std::size_t i = 0; i < days.size(); ++i)
    out.push_back({EventKind::KnockIn, days[i], p.els().knock_in.barrier, true, 0.0, i + 1 == days.size()});
  return out;
}

int value_layers(const Product& p, const std::vector<NoteEvent>& events) {
  const bool own = std::any_of(events.begin(), events.end(), [](const NoteEvent& e) { return has_own_layer(e.kind); });
  return 1 + (own ? 1 : 0) + (p.can_knock_in() ? 1 : 0);
}

}  // namespace elsbench
