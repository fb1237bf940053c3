#pragma once
// Device allocations of one GPU march, counted: every cudaMalloc goes through a DeviceAllocator,
// whose peak is the peak_device_bytes of the result (cuSPARSE work buffers included). A failed
// cudaMalloc is a SolverError(OutOfMemory) with the bytes asked and the device's free/total
// memory, so that a sweep records the case as skipped instead of crashing.
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <cuda_runtime_api.h>

namespace elsbench::gpu {

class DeviceAllocator {
 public:
  void* allocate(std::size_t bytes, const std::string& what);
  void release(void* p, std::size_t bytes) noexcept;
  std::size_t current() const { return current_; }
  std::size_t peak() const { return peak_; }

 private:
  std::size_t current_ = 0, peak_ = 0;
};

// An owned device array of T.
template <class T>
class DeviceArray {
 public:
  DeviceArray() = default;
  DeviceArray(DeviceAllocator& alloc, std::size_t count, const std::string& what)
      : alloc_(&alloc), count_(count),
        data_(static_cast<T*>(alloc.allocate(count * sizeof(T), what))) {}
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  DeviceArray(DeviceArray&& o) noexcept { swap(o); }
  DeviceArray& operator=(DeviceArray&& o) noexcept {
    DeviceArray tmp(std::move(o));
    swap(tmp);
    return *this;
  }
  ~DeviceArray() {
    if (data_) alloc_->release(data_, count_ * sizeof(T));
  }

  T* data() const { return data_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }
  // Host to device, the whole array (sizes must match).
  template <class Alloc>
  void upload(const std::vector<T, Alloc>& host, const std::string& what);
  // The same on `stream` (copy_to_device_on): the caller synchronises it before a kernel reads.
  template <class Alloc>
  void upload_on(cudaStream_t stream, const std::vector<T, Alloc>& host, const std::string& what);
  std::vector<T> download(std::size_t count) const;

 private:
  void swap(DeviceArray& o) noexcept {
    std::swap(alloc_, o.alloc_);
    std::swap(count_, o.count_);
    std::swap(data_, o.data_);
  }
  DeviceAllocator* alloc_ = nullptr;
  std::size_t count_ = 0;
  T* data_ = nullptr;
};

// Plain byte copies, checked (defined in device_memory.cpp for the element types used).
void copy_to_device(void* dst, const void* src, std::size_t bytes, const std::string& what);
void copy_to_host(void* dst, const void* src, std::size_t bytes, const std::string& what);
// A copy that returns once the source is read (cudaMemcpy), the device not synchronised: the
// caller synchronises it before a kernel on a non-blocking stream reads.
void copy_to_device_unsynchronised(void* dst, const void* src, std::size_t bytes, const std::string& what);
// A copy on `stream`, the device not synchronised: a batch uploaded on one thread while another
// batch marches (copy_to_device's device-wide synchronisation would wait for that march).
void copy_to_device_on(cudaStream_t stream, void* dst, const void* src, std::size_t bytes, const std::string& what);

template <class T>
template <class Alloc>
void DeviceArray<T>::upload(const std::vector<T, Alloc>& host, const std::string& what) {
  if (host.size() != count_) throw std::logic_error("upload of " + what + ": size mismatch");
  if (count_) copy_to_device(data_, host.data(), bytes(), "cudaMemcpy (upload " + what + ")");
}

template <class T>
template <class Alloc>
void DeviceArray<T>::upload_on(cudaStream_t stream, const std::vector<T, Alloc>& host, const std::string& what) {
  if (host.size() != count_) throw std::logic_error("upload of " + what + ": size mismatch");
  if (count_) copy_to_device_on(stream, data_, host.data(), bytes(), "cudaMemcpyAsync (upload " + what + ")");
}

template <class T>
std::vector<T> DeviceArray<T>::download(std::size_t count) const {
  std::vector<T> host(count);
  if (count) copy_to_host(host.data(), data_, count * sizeof(T), "cudaMemcpy (download)");
  return host;
}

}  // namespace elsbench::gpu
