#include "runtime/pinned_pool.hpp"

namespace gpusort::rt {

PinnedPool& Device::pinned_pool() {
  std::lock_guard lock(pinned_pool_mutex_);
  if (!pinned_pool_) pinned_pool_ = std::make_shared<PinnedPool>(*this);
  return *pinned_pool_;
}

PinnedSlot& PinnedSlot::operator=(PinnedSlot&& other) noexcept {
  if (this != &other) {
    give_back();
    pool_ = std::move(other.pool_);
    buffer_ = std::move(other.buffer_);
  }
  return *this;
}

PinnedSlot::~PinnedSlot() { give_back(); }

void PinnedSlot::give_back() noexcept {
  if (!buffer_) return;
  if (auto pool = pool_.lock())
    pool->put_back(std::move(buffer_));
  else
    buffer_.reset();
}

PinnedSlot PinnedPool::lend() {
  {
    std::lock_guard lock(mutex_);
    if (!free_.empty()) {
      std::unique_ptr<HostBuffer> b = std::move(free_.back());
      free_.pop_back();
      ++stats_.reuses;
      stats_.kept_slots = free_.size();
      return PinnedSlot(weak_from_this(), std::move(b));
    }
  }
  std::unique_ptr<HostBuffer> b = device_.alloc_host(kSlotBytes);  // outside the lock: pinning is slow
  std::lock_guard lock(mutex_);
  ++stats_.allocations;
  return PinnedSlot(weak_from_this(), std::move(b));
}

void PinnedPool::put_back(std::unique_ptr<HostBuffer> buffer) noexcept {
  std::unique_ptr<HostBuffer> drop;  // freed outside the lock
  {
    std::lock_guard lock(mutex_);
    if (free_.size() < kMaxKeptSlots) {
      try {
        free_.push_back(std::move(buffer));
      } catch (...) {
        drop = std::move(buffer);
      }
    } else {
      drop = std::move(buffer);
    }
    stats_.kept_slots = free_.size();
  }
}

void PinnedPool::trim() {
  std::vector<std::unique_ptr<HostBuffer>> drop;
  std::lock_guard lock(mutex_);
  drop.swap(free_);
  stats_.kept_slots = 0;
}

PinnedPoolStats PinnedPool::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

}  // namespace gpusort::rt
