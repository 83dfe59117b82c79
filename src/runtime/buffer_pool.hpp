#pragma once
// A small cache of reusable device buffers, one per device (Device::temp_pool()), for the
// temporaries of sorts (SortJob::temp) and the device copies of host sorts. Repeated small sorts
// then stop paying an allocation and a free per buffer (cuMemAlloc/cuMemFree, clCreateBuffer).
//  - Requests up to kMaxPooledBytes are rounded up to a power of two (at least kMinClassBytes);
//    a free buffer of that size class is reused, else a new one is allocated. bytes() of a lent
//    buffer is its class size, which may exceed the request.
//  - When the last shared_ptr to a lent buffer drops, the buffer goes back to its class; at most
//    kMaxPerClass buffers per class and kMaxCachedBytes in all are kept, the rest are freed.
//  - Larger requests are allocated and freed directly.
//  - A failed allocation frees every cached buffer and tries once more.
// Reuse is safe without events for work on the device's in-order default queue (every driver's):
// work queued after a buffer came back runs after the work that used it before. A user that
// writes a lent buffer from another queue (the host-sort uploads, api/sort_pipeline.cpp) first
// waits for the default queue.
// Thread-safe.
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "runtime/device.hpp"

namespace gpusort::rt {

struct BufferPoolStats {
  std::uint64_t device_allocations = 0;  // buffers of the pooled classes allocated from the device
  std::uint64_t reuses = 0;              // requests served by a cached buffer
  std::uint64_t direct_allocations = 0;  // requests above kMaxPooledBytes (allocated and freed directly)
  std::uint64_t cached_buffers = 0;      // free buffers held now
  std::uint64_t cached_bytes = 0;
};

class BufferPool : public std::enable_shared_from_this<BufferPool> {
 public:
  static constexpr std::size_t kMaxPooledBytes = std::size_t(64) << 20;
  static constexpr std::size_t kMinClassBytes = 4096;
  static constexpr std::size_t kMaxPerClass = 8;  // one radix sort of pairs holds 5 buffers of one class
  static constexpr std::size_t kMaxCachedBytes = std::size_t(256) << 20;

  explicit BufferPool(Device& device) : device_(device) {}
  BufferPool(const BufferPool&) = delete;
  BufferPool& operator=(const BufferPool&) = delete;

  // A buffer of at least `bytes` bytes; throws Error(out_of_memory) as Device::alloc does.
  BufferPtr get(std::size_t bytes);
  // Frees every cached (free) buffer; lent buffers are unaffected.
  void trim();
  BufferPoolStats stats() const;

  static std::size_t size_class(std::size_t bytes);
  // What get(bytes) allocates, and bytes() of what it lends: bytes' size class, or bytes itself
  // above kMaxPooledBytes. Lets a caller plan a sort's device footprint before allocating.
  static std::size_t allocation_bytes(std::size_t bytes);

 private:
  struct Return;
  void put_back(BufferPtr buffer) noexcept;
  BufferPtr lend(BufferPtr buffer);
  BufferPtr allocate(std::size_t bytes);

  Device& device_;
  mutable std::mutex mutex_;
  std::map<std::size_t, std::vector<BufferPtr>> free_;
  BufferPoolStats stats_;
};

}  // namespace gpusort::rt
