#pragma once
// Makes a CUDA device current for a scope and gives the previous one back at its end. CUDA's
// current device is per host thread and anyone may change it between two calls of a session (a
// second session, the Monte Carlo, a caller): every entry point that touches the device takes a
// guard instead of assuming that the device chosen at construction is still current.
namespace elsbench::gpu {

class DeviceGuard {
 public:
  explicit DeviceGuard(int device);
  ~DeviceGuard();
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  int previous_ = -1;
};

}  // namespace elsbench::gpu
