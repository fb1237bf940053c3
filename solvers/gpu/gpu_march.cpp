#include <iomanip>
#include <sstream>

#include "solvers/gpu/session.hpp"

namespace elsbench {

std::string gpu_unavailable_reason() {
  std::string why;
  if (cuda_devices(&why).empty()) return why.empty() ? std::string("no CUDA device") : why;
  return {};
}

MarchFn march_on_gpu(GpuBackends backends) {
  return [backends](const Problem& pb, const SolverOptions& opt) {
    const AdiScheme scheme = adi_scheme(opt.scheme.empty() ? adi_scheme_names().front() : opt.scheme);
    GpuMarchSession session(backends, pb, scheme, opt.device.index, opt.precision);
    const double march_seconds = session.march();
    MarchResult m;
    m.values = session.values(false);
    m.scheme = scheme.name();
    m.peak_device_bytes = session.peak_device_bytes();
    m.measured_device_bytes = session.measured_device_bytes();
    std::ostringstream note;
    note << std::fixed << std::setprecision(3) << "device march " << march_seconds * 1e3 << " ms (CUDA events, "
         << pb.time.steps() << " steps, " << session.device().name << ")";
    m.notes.push_back(note.str());
    note.str("");
    note << "device memory: " << session.peak_device_bytes() << " bytes counted (cudaMalloc), "
         << session.measured_device_bytes() << " bytes measured (cudaMemGetInfo, context excluded, device-wide)";
    m.notes.push_back(note.str());
    for (const std::string& n : session.notes()) m.notes.push_back(n);
    return m;
  };
}

}  // namespace elsbench
