#pragma once
// memcpy for large staging copies with non-temporal stores: the destination is written without
// first being read into the cache (no read-for-ownership) and without evicting what the cache
// holds. Staging through pinned memory moves every byte through host memory several times (the
// DMA, the copy's read, its write); with cached stores the write costs a read as well, which on a
// busy memory system is what limits the host path. Falls back to memcpy off x86-64.
#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__x86_64__) || defined(_M_X64)
#include <emmintrin.h>
#endif

namespace gpusort::core {

inline void streaming_copy(void* dst, const void* src, std::size_t bytes) {
#if defined(__x86_64__) || defined(_M_X64)
  auto* d = static_cast<unsigned char*>(dst);
  const auto* s = static_cast<const unsigned char*>(src);
  if (bytes < 4096) {
    std::memcpy(d, s, bytes);
    return;
  }
  const std::size_t head = (16 - (reinterpret_cast<std::uintptr_t>(d) & 15)) & 15;  // to a 16-byte boundary
  std::memcpy(d, s, head);
  d += head, s += head, bytes -= head;
  const std::size_t body = bytes & ~std::size_t(63);
  for (std::size_t i = 0; i < body; i += 64) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i + 16));
    const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i + 32));
    const __m128i e = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i + 48));
    _mm_stream_si128(reinterpret_cast<__m128i*>(d + i), a);
    _mm_stream_si128(reinterpret_cast<__m128i*>(d + i + 16), b);
    _mm_stream_si128(reinterpret_cast<__m128i*>(d + i + 32), c);
    _mm_stream_si128(reinterpret_cast<__m128i*>(d + i + 48), e);
  }
  _mm_sfence();  // the streamed stores are visible before anything that follows (the DMA, a reader)
  std::memcpy(d + body, s + body, bytes - body);
#else
  std::memcpy(dst, src, bytes);
#endif
}

}  // namespace gpusort::core
