#pragma once
// Large host scratch arrays (out-of-core sorts, external sorts) that are cheap to touch the first
// time. A fresh array's pages fault in on first write, and in 4 KiB pages that costs more than the
// data's copy: 1.5 to 4.5 GB/s measured (H200 machine, and a 2-core build machine on 2026-11-23)
// against 20 GB/s with 2 MiB pages on two threads. So arrays from 4 MiB up are mapped directly and
// marked for transparent huge pages (madvise; a no-op where the kernel has them off). Contents
// are not initialised.
// GPUSORT_HUGE_PAGES=0 in the environment leaves the mark off: where the kernel compacts memory to
// serve the mark (transparent_hugepage/defrag "madvise" or "always") and memory is fragmented,
// for example by a page cache full of a large file just written, first faults may stall for long.
#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace gpusort::core {

struct HostArrayFree {
  std::size_t mapped = 0;  // bytes mapped with mmap; 0: allocated with new[]
  void operator()(unsigned char* p) const noexcept {
#if defined(__linux__)
    if (mapped) {
      ::munmap(p, mapped);
      return;
    }
#endif
    delete[] p;
  }
};
using HostArray = std::unique_ptr<unsigned char[], HostArrayFree>;

inline bool huge_pages_wanted() {
  static const bool wanted = [] {
    const char* v = std::getenv("GPUSORT_HUGE_PAGES");
    return !(v && v[0] == '0' && v[1] == '\0');
  }();
  return wanted;
}

// Throws std::bad_alloc when the memory cannot be had.
inline HostArray make_host_array(std::size_t bytes) {
#if defined(__linux__)
  constexpr std::size_t kMapFrom = std::size_t(4) << 20;
  if (bytes >= kMapFrom) {
    void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
#if defined(MADV_HUGEPAGE)
    if (huge_pages_wanted()) ::madvise(p, bytes, MADV_HUGEPAGE);
#endif
    return HostArray(static_cast<unsigned char*>(p), HostArrayFree{bytes});
  }
#endif
  return HostArray(new unsigned char[bytes], HostArrayFree{});
}

}  // namespace gpusort::core
