#include "runtime/buffer_pool.hpp"

namespace gpusort::rt {

BufferPool& Device::temp_pool() {
  std::lock_guard lock(temp_pool_mutex_);
  if (!temp_pool_) temp_pool_ = std::make_shared<BufferPool>(*this);
  return *temp_pool_;
}

// The deleter of a lent buffer: hands the real buffer back to its pool (or frees it when the pool
// is gone).
struct BufferPool::Return {
  std::weak_ptr<BufferPool> pool;
  BufferPtr buffer;
  void operator()(Buffer*) noexcept {
    BufferPtr b = std::move(buffer);
    if (auto p = pool.lock()) p->put_back(std::move(b));
  }
};

std::size_t BufferPool::size_class(std::size_t bytes) {
  std::size_t c = kMinClassBytes;
  while (c < bytes) c <<= 1;
  return c;
}

std::size_t BufferPool::allocation_bytes(std::size_t bytes) {
  return bytes > kMaxPooledBytes ? bytes : size_class(bytes);
}

BufferPtr BufferPool::allocate(std::size_t bytes) {
  try {
    return device_.alloc(bytes);
  } catch (const Error& e) {
    if (e.code() != errc::out_of_memory) throw;
    trim();  // the cache may be what fills the device
    return device_.alloc(bytes);
  }
}

BufferPtr BufferPool::lend(BufferPtr buffer) {
  Buffer* raw = buffer.get();
  // The returned pointer is the backend's own buffer object (backends downcast it); only the
  // deleter differs.
  return BufferPtr(raw, Return{weak_from_this(), std::move(buffer)});
}

BufferPtr BufferPool::get(std::size_t bytes) {
  if (bytes > kMaxPooledBytes) {
    {
      std::lock_guard lock(mutex_);
      ++stats_.direct_allocations;
    }
    return allocate(bytes);
  }
  const std::size_t cls = size_class(bytes);
  {
    std::lock_guard lock(mutex_);
    auto it = free_.find(cls);
    if (it != free_.end() && !it->second.empty()) {
      BufferPtr b = std::move(it->second.back());
      it->second.pop_back();
      ++stats_.reuses;
      --stats_.cached_buffers;
      stats_.cached_bytes -= cls;
      return lend(std::move(b));
    }
  }
  BufferPtr b = allocate(cls);
  {
    std::lock_guard lock(mutex_);
    ++stats_.device_allocations;
  }
  return lend(std::move(b));
}

void BufferPool::put_back(BufferPtr buffer) noexcept {
  BufferPtr drop;  // freed outside the lock
  try {
    std::lock_guard lock(mutex_);
    auto& list = free_[buffer->bytes()];
    if (list.size() < kMaxPerClass && stats_.cached_bytes + buffer->bytes() <= kMaxCachedBytes) {
      stats_.cached_bytes += buffer->bytes();
      ++stats_.cached_buffers;
      list.push_back(std::move(buffer));
    } else {
      drop = std::move(buffer);
    }
  } catch (...) {
    // no memory for the list: the buffer is simply freed
  }
}

void BufferPool::trim() {
  std::map<std::size_t, std::vector<BufferPtr>> drop;
  {
    std::lock_guard lock(mutex_);
    drop.swap(free_);
    stats_.cached_buffers = 0;
    stats_.cached_bytes = 0;
  }
}

BufferPoolStats BufferPool::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

}  // namespace gpusort::rt
