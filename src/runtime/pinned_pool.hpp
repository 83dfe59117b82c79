#pragma once
// Pinned (page-locked) host staging memory, one pool per device (Device::pinned_pool()). Copies
// between host memory and the device run at the link's rate only from pinned memory, and pinning
// costs milliseconds per megabyte, so host sorts stage through slots of one fixed size that are
// kept for the next sort.
//  - A slot is kSlotBytes of HostBuffer (Device::alloc_host); lend() hands out a free one or
//    allocates one.
//  - A slot comes back when its PinnedSlot is destroyed; at most kMaxKeptSlots are kept (their
//    bytes are the pool's bound on idle pinned memory), the rest are freed.
//  - Slots in use are bounded by their users: a host transfer holds two per copy thread.
// Thread-safe.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "runtime/device.hpp"

namespace gpusort::rt {

class PinnedPool;

// One lent slot; returns itself to its pool (or frees itself if the pool is gone) when destroyed.
class PinnedSlot {
 public:
  PinnedSlot() = default;
  PinnedSlot(PinnedSlot&&) noexcept = default;
  PinnedSlot& operator=(PinnedSlot&&) noexcept;
  ~PinnedSlot();
  unsigned char* data() const { return static_cast<unsigned char*>(buffer_->data()); }
  std::size_t bytes() const { return buffer_ ? buffer_->bytes() : 0; }  // 0: holds no slot

 private:
  friend class PinnedPool;
  PinnedSlot(std::weak_ptr<PinnedPool> pool, std::unique_ptr<HostBuffer> buffer)
      : pool_(std::move(pool)), buffer_(std::move(buffer)) {}
  void give_back() noexcept;
  std::weak_ptr<PinnedPool> pool_;
  std::unique_ptr<HostBuffer> buffer_;
};

struct PinnedPoolStats {
  std::uint64_t allocations = 0;  // slots pinned from the backend
  std::uint64_t reuses = 0;       // lends served by a kept slot
  std::uint64_t kept_slots = 0;   // free slots held now
};

class PinnedPool : public std::enable_shared_from_this<PinnedPool> {
 public:
  // 8 MiB: a copy of it takes ~0.15 ms at 55 GB/s, long against the ~10 us of a queue round
  // trip, and short enough that a 64 MiB transfer already spreads over eight copy threads.
  static constexpr std::size_t kSlotBytes = std::size_t(8) << 20;
  static constexpr std::size_t kMaxKeptSlots = 32;  // 256 MiB of idle pinned memory at most

  explicit PinnedPool(Device& device) : device_(device) {}
  PinnedPool(const PinnedPool&) = delete;
  PinnedPool& operator=(const PinnedPool&) = delete;

  // A slot of kSlotBytes; throws Error(out_of_memory) as Device::alloc_host does.
  PinnedSlot lend();
  // Frees every kept slot.
  void trim();
  PinnedPoolStats stats() const;

 private:
  friend class PinnedSlot;
  void put_back(std::unique_ptr<HostBuffer> buffer) noexcept;

  Device& device_;
  mutable std::mutex mutex_;
  std::vector<std::unique_ptr<HostBuffer>> free_;
  PinnedPoolStats stats_;
};

}  // namespace gpusort::rt
