// price_on_gpu: the same problem, time grid and pricing as the CPU `adi` solver (adi_solver.cpp),
// with the march done by a GpuMarchSession.
#include <iomanip>
#include <sstream>

#include "solvers/adi/adi_solver.hpp"
#include "solvers/gpu/session.hpp"
#include "solvers/march/march.hpp"
#include "solvers/problem/problem_builder.hpp"

namespace elsbench {

const char* solver_name(GpuVariant v) {
  switch (v) {
    case GpuVariant::AdiCuda: return "adi-cuda";
    case GpuVariant::CusparseStrided: return "adi-cusparse";
    case GpuVariant::CusparseInterleaved: return "adi-cusparse-interleaved";
  }
  return "?";
}

std::string gpu_unavailable_reason() {
  std::string why;
  if (cuda_devices(&why).empty()) return why.empty() ? std::string("no CUDA device") : why;
  return {};
}

PriceResult price_on_gpu(GpuVariant variant, const Product& product, const SolverOptions& opt) {
  Problem pb = build_problem(product, opt.grid);
  const AdiScheme scheme = adi_scheme(opt.scheme.empty() ? adi_scheme_names().front() : opt.scheme);
  const int steps = opt.grid.nt ? *opt.grid.nt : adi_default_steps(product, opt.grid.n);
  set_time_grid(pb, make_time_grid(product.maturity(), event_taus(product), steps), opt.grid.damping_steps);

  GpuMarchSession session(variant, pb, scheme, opt.device.index, opt.precision);
  const double march_seconds = session.march();
  PriceResult r = result_at_spot(pb, session.values(false), scheme.name());
  r.peak_device_bytes = session.peak_device_bytes();
  std::ostringstream note;
  note << std::fixed << std::setprecision(3) << "device march " << march_seconds * 1e3 << " ms (CUDA events, "
       << pb.time.steps() << " steps, " << session.device().name << ")";
  r.notes.push_back(note.str());
  for (const std::string& n : session.notes()) r.notes.push_back(n);
  return r;
}

}  // namespace elsbench
