#pragma once
// Guard zones: bytes of a known pattern around the memory a sort is given, checked after the sort,
// so a write past either end (host transfer code, a kernel's last tile, a temporary carved too
// large) shows up as a failure instead of silent corruption of the caller's neighbouring data.
//
// The public API sorts whole host spans and the first n elements of a device buffer, so the zones
// are: both sides of a host span (GuardedHostArray), after the n elements of a device buffer and
// after the bytes temporary_storage_bytes asked for (DeviceBufferWithGuard).
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "gpusort/device_array.hpp"

namespace gpusort::test {

// The pattern byte at offset i of a zone; it varies with i so that a shifted copy of the zone (or
// of a key that happens to look like the pattern) does not pass for the original.
inline unsigned char guard_byte(std::size_t i) { return static_cast<unsigned char>(0xA5 ^ (i * 0x3D)); }

inline void fill_guard(unsigned char* zone, std::size_t bytes) {
  for (std::size_t i = 0; i < bytes; ++i) zone[i] = guard_byte(i);
}

// `what` names the zone in the failure message.
inline ::testing::AssertionResult guard_intact(const unsigned char* zone, std::size_t bytes, const std::string& what) {
  for (std::size_t i = 0; i < bytes; ++i)
    if (zone[i] != guard_byte(i))
      return ::testing::AssertionFailure() << what << " overwritten at byte " << i << " of " << bytes;
  return ::testing::AssertionSuccess();
}

// Host elements with guard zones of kGuardBytes on both sides; span() is what the sort gets.
template <class T>
class GuardedHostArray {
 public:
  static constexpr std::size_t kGuardBytes = 256;

  explicit GuardedHostArray(const std::vector<T>& contents)
      : bytes_(kGuardBytes + contents.size() * sizeof(T) + kGuardBytes), n_(contents.size()) {
    fill_guard(bytes_.data(), kGuardBytes);
    if (n_) std::memcpy(bytes_.data() + kGuardBytes, contents.data(), n_ * sizeof(T));
    fill_guard(bytes_.data() + kGuardBytes + n_ * sizeof(T), kGuardBytes);
  }
  // kGuardBytes is a multiple of every key and value size, so the span stays aligned.
  std::span<T> span() { return {reinterpret_cast<T*>(bytes_.data() + kGuardBytes), n_}; }
  std::vector<T> contents() const {
    std::vector<T> out(n_);
    if (n_) std::memcpy(out.data(), bytes_.data() + kGuardBytes, n_ * sizeof(T));
    return out;
  }
  ::testing::AssertionResult guards_intact() const {
    auto before = guard_intact(bytes_.data(), kGuardBytes, "guard zone before the host array");
    if (!before) return before;
    return guard_intact(bytes_.data() + kGuardBytes + n_ * sizeof(T), kGuardBytes, "guard zone after the host array");
  }

 private:
  static_assert(kGuardBytes % 16 == 0);
  // Allocated by operator new, so aligned for any key or value type.
  std::vector<unsigned char> bytes_;
  std::size_t n_;
};

// A device buffer of payload_bytes followed by guard_bytes of the guard pattern (the payload starts
// filled with the pattern too: for temporary storage, whose contents do not matter).
class DeviceBufferWithGuard {
 public:
  static constexpr std::size_t kDefaultGuardBytes = 4096;

  DeviceBufferWithGuard(Context& ctx, std::size_t payload_bytes, std::size_t guard_bytes = kDefaultGuardBytes)
      : buffer_(ctx, payload_bytes + guard_bytes), payload_bytes_(payload_bytes), guard_bytes_(guard_bytes) {
    std::vector<unsigned char> pattern(payload_bytes + guard_bytes);
    fill_guard(pattern.data(), payload_bytes);
    fill_guard(pattern.data() + payload_bytes, guard_bytes);
    buffer_.upload(pattern.data(), pattern.size());
  }
  template <class T>
  DeviceBufferWithGuard(Context& ctx, const std::vector<T>& contents) : DeviceBufferWithGuard(ctx, contents.size() * sizeof(T)) {
    if (!contents.empty()) buffer_.upload(contents.data(), payload_bytes_);
  }

  DeviceBuffer& buffer() { return buffer_; }
  template <class T>
  std::vector<T> contents() const {
    std::vector<T> out(payload_bytes_ / sizeof(T));
    if (!out.empty()) buffer_.download(out.data(), payload_bytes_);
    return out;
  }
  ::testing::AssertionResult guard_intact(const std::string& what) const {
    std::vector<unsigned char> zone(guard_bytes_);
    buffer_.download(zone.data(), guard_bytes_, payload_bytes_);
    return test::guard_intact(zone.data(), guard_bytes_, "guard zone after the " + what);
  }

 private:
  DeviceBuffer buffer_;
  std::size_t payload_bytes_;
  std::size_t guard_bytes_;
};

}  // namespace gpusort::test
