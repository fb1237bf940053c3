// When a GPU suite or benchmark runs, skips or fails (platform/gpu_gate.hpp): only a machine
// without a GPU skips; a driver too old for the toolkit, or any other CUDA error, fails with the
// reason; ELSBENCH_REQUIRE_GPU=1 turns every skip into a failure.
#include <boost/test/unit_test.hpp>
#include <cstdlib>

#include "platform/gpu_gate.hpp"

using namespace elsbench;

namespace {

// CUDA's error numbers (ABI-stable; checked against the headers in platform/cuda_devices.cpp).
constexpr int kSuccess = 0, kInsufficientDriver = 35, kNoDevice = 100, kDevicesUnavailable = 46,
              kSystemDriverMismatch = 803;

CudaProbe probe(CudaPresence p) { return {p, p == CudaPresence::Devices ? 1 : 0, "because"}; }

}  // namespace

BOOST_AUTO_TEST_CASE(only_no_device_or_no_driver_reads_as_no_gpu) {
  BOOST_TEST((classify_device_count(kSuccess, 2, 13000) == CudaPresence::Devices));
  BOOST_TEST((classify_device_count(kSuccess, 0, 13000) == CudaPresence::NoDevice));
  BOOST_TEST((classify_device_count(kNoDevice, 0, 13000) == CudaPresence::NoDevice));
  // No driver at all (cudaDriverGetVersion gives 0): a machine without a GPU.
  BOOST_TEST((classify_device_count(kInsufficientDriver, 0, 0) == CudaPresence::NoDriver));
  // A driver older than CUDA 13 (an R570 driver reports 12.8): a GPU this build cannot use.
  BOOST_TEST((classify_device_count(kInsufficientDriver, 0, 12080) == CudaPresence::Broken));
  BOOST_TEST((classify_device_count(kDevicesUnavailable, 0, 13000) == CudaPresence::Broken));
  BOOST_TEST((classify_device_count(kSystemDriverMismatch, 0, 13000) == CudaPresence::Broken));
}

BOOST_AUTO_TEST_CASE(skips_only_without_a_gpu_and_fails_on_a_broken_one) {
  BOOST_TEST((gpu_gate(probe(CudaPresence::Devices), false).gate == GpuGate::Run));
  for (CudaPresence p : {CudaPresence::NotBuilt, CudaPresence::NoDriver, CudaPresence::NoDevice}) {
    const GpuGateDecision d = gpu_gate(probe(p), false);
    BOOST_TEST((d.gate == GpuGate::Skip));
    BOOST_TEST(d.reason == "because");
  }
  const GpuGateDecision broken = gpu_gate(probe(CudaPresence::Broken), false);
  BOOST_TEST((broken.gate == GpuGate::Fail));
  BOOST_TEST(broken.reason == "because");
}

BOOST_AUTO_TEST_CASE(require_gpu_turns_every_skip_into_a_failure) {
  BOOST_TEST((gpu_gate(probe(CudaPresence::Devices), true).gate == GpuGate::Run));
  for (CudaPresence p : {CudaPresence::NotBuilt, CudaPresence::NoDriver, CudaPresence::NoDevice, CudaPresence::Broken}) {
    const GpuGateDecision d = gpu_gate(probe(p), true);
    BOOST_TEST((d.gate == GpuGate::Fail));
    BOOST_TEST(d.reason.find("because") == 0u);
  }
}

BOOST_AUTO_TEST_CASE(require_gpu_is_read_from_the_environment) {
  setenv("ELSBENCH_REQUIRE_GPU", "1", 1);
  BOOST_TEST(gpu_required());
  setenv("ELSBENCH_REQUIRE_GPU", "0", 1);
  BOOST_TEST(!gpu_required());
  unsetenv("ELSBENCH_REQUIRE_GPU");
  BOOST_TEST(!gpu_required());
}

BOOST_AUTO_TEST_CASE(this_machine_is_probed_consistently) {
  // Whatever this machine is, the device list and the probe agree.
  const CudaProbe p = probe_cuda();
  std::string why;
  const auto devices = cuda_devices(&why);
  BOOST_TEST((devices.empty() == (p.presence != CudaPresence::Devices)));
  if (devices.empty()) BOOST_TEST(why == p.reason);
  for (std::size_t i = 0; i < devices.size(); ++i) BOOST_TEST(devices[i].index == static_cast<int>(i));
  if (!cuda_built()) BOOST_TEST((p.presence == CudaPresence::NotBuilt));
}
