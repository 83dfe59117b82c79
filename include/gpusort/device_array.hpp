#pragma once
// Device-resident data, for callers who keep their keys on the GPU between operations.
#include <cstddef>
#include <memory>
#include <span>
#include <type_traits>

#include "gpusort/context.hpp"
#include "gpusort/errors.hpp"
#include "gpusort/key_type.hpp"
#include "gpusort/options.hpp"
#include "gpusort/sort.hpp"

namespace gpusort {

namespace rt {
class Buffer;
class Device;
}  // namespace rt

// An untyped device allocation owned by a context's device. Move-only: a copy would share the
// memory (sorting the copy would sort the original), so there is none; copy the data explicitly.
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  DeviceBuffer(Context& ctx, std::size_t bytes);
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&&) noexcept = default;
  DeviceBuffer& operator=(DeviceBuffer&&) noexcept = default;
  std::size_t bytes() const noexcept;
  void upload(const void* src, std::size_t bytes, std::size_t offset = 0);
  void download(void* dst, std::size_t bytes, std::size_t offset = 0) const;
  rt::Buffer& runtime_buffer() const;
  // A buffer over bytes [offset, offset + bytes) of this one, sharing its memory (to carve one
  // allocation into several, as the distributed sort does with its temporary storage). offset is a
  // multiple of 4096, bytes > 0 and the range inside this buffer, otherwise Error(invalid_argument).
  // A view of a view is a window of the same memory. The view keeps the memory alive.
  DeviceBuffer view(std::size_t offset, std::size_t bytes) const;

 private:
  std::shared_ptr<rt::Device> device_;  // keeps the device alive as long as its memory
  std::shared_ptr<rt::Buffer> buffer_;
};

// Typed device memory; move-only like DeviceBuffer.
template <class T>
class DeviceArray {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  DeviceArray() = default;
  DeviceArray(Context& ctx, std::size_t n) : buffer_(ctx, n * sizeof(T)), size_(n) {}
  DeviceArray(Context& ctx, std::span<const T> host) : DeviceArray(ctx, host.size()) { upload(host); }
  std::size_t size() const noexcept { return size_; }
  void upload(std::span<const T> host) {
    if (host.size() != size_) throw Error(errc::invalid_argument, "DeviceArray::upload: size mismatch");
    buffer_.upload(host.data(), host.size_bytes());
  }
  void download(std::span<T> host) const {
    if (host.size() != size_) throw Error(errc::invalid_argument, "DeviceArray::download: size mismatch");
    buffer_.download(host.data(), host.size_bytes());
  }
  DeviceBuffer& buffer() noexcept { return buffer_; }
  const DeviceBuffer& buffer() const noexcept { return buffer_; }

 private:
  DeviceBuffer buffer_;
  std::size_t size_ = 0;
};

// Type-erased device entry point: sorts n keys (and values) in place in device memory.
SortReport sort_device(Context& ctx, key_type type, DeviceBuffer& keys, std::size_t n, DeviceBuffer* values,
                       std::size_t value_bytes, const SortOptions& options = {});

// Caller-supplied temporary storage (CUB style), for callers who manage device memory:
//   auto bytes = gpusort::temporary_storage_bytes(ctx, gpusort::key_type::u32, n, 4, options);
//   gpusort::DeviceBuffer temp(ctx, bytes);               // allocate once, reuse for many sorts
//   gpusort::sort_pairs(ctx, keys, values, temp, options);
// The sort then allocates no device memory. Without it, gpusort takes temporaries from a per-device
// pool of reusable buffers. On NVIDIA's OpenCL the caller's storage costs speed: kernels run on its
// sub-buffers 25-55x slower (H200, 2026-11-26, docs/DESIGN-NOTES.md); use the pool form there.
// temporary_storage_bytes throws Error(unsupported) for an algorithm that
// does not report its needs; a sort given less than it needs throws Error(invalid_argument) before
// touching the data. complex128 keys (sorted as records) report 0: their passes and gathers take
// their temporaries from the pool, whatever storage is given.
std::size_t temporary_storage_bytes(Context& ctx, key_type type, std::size_t n, std::size_t value_bytes,
                                    const SortOptions& options = {});

SortReport sort_device(Context& ctx, key_type type, DeviceBuffer& keys, std::size_t n, DeviceBuffer* values,
                       std::size_t value_bytes, const SortOptions& options, DeviceBuffer& temporary_storage);

template <sortable_key K>
SortReport sort(Context& ctx, DeviceArray<K>& keys, DeviceBuffer& temporary_storage, const SortOptions& options = {}) {
  return sort_device(ctx, key_type_of<K>::value, keys.buffer(), keys.size(), nullptr, 0, options, temporary_storage);
}

template <sortable_key K, class V>
SortReport sort_pairs(Context& ctx, DeviceArray<K>& keys, DeviceArray<V>& values, DeviceBuffer& temporary_storage,
                      const SortOptions& options = {}) {
  if (keys.size() != values.size()) throw Error(errc::invalid_argument, "sort_pairs: keys and values differ in length");
  return sort_device(ctx, key_type_of<K>::value, keys.buffer(), keys.size(), &values.buffer(), sizeof(V), options,
                     temporary_storage);
}

template <sortable_key K>
SortReport sort(Context& ctx, DeviceArray<K>& keys, const SortOptions& options = {}) {
  return sort_device(ctx, key_type_of<K>::value, keys.buffer(), keys.size(), nullptr, 0, options);
}

template <sortable_key K, class V>
SortReport sort_pairs(Context& ctx, DeviceArray<K>& keys, DeviceArray<V>& values, const SortOptions& options = {}) {
  if (keys.size() != values.size()) throw Error(errc::invalid_argument, "sort_pairs: keys and values differ in length");
  return sort_device(ctx, key_type_of<K>::value, keys.buffer(), keys.size(), &values.buffer(), sizeof(V), options);
}

}  // namespace gpusort
