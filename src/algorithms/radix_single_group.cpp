// Radix sort of small inputs by one work-group (issue 5: n <= 2^16 latency). radix_sort() takes
// this path when radix_single_group_fits(): one launch of kernels/radix_single_group.cl sorts the
// keys (and values) in local memory and writes them back in place; no fills, no temporaries, no
// read-backs (the multi-pass paths need a fill, a histogram launch and one to three launches per
// pass, which is most of a 4096-key sort's time on a GPU).
//
// Capacity: the largest n whose buffers fit the device's local memory (two of keys, two of values,
// the counters and the scan scratch: radix_single_group_local_bytes), capped at 4096 keys on GPUs
// (to be tuned on the H200) and 4096 on CPUs (OpenCL on the CPU, PoCL: keeps tests quick);
// GPUSORT_RADIX_SINGLE_MAX=<n> overrides the cap (0 disables the path). Explicit work-group size or
// items-per-thread options ask for the tiled multi-pass path's shape, so they disable this one.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "algorithms/drivers.hpp"

namespace gpusort::algo {
namespace {

constexpr std::uint32_t kBits = 4;  // 16 counters per work-item: 16 KiB for 256 work-items
constexpr std::uint32_t kRadix = 1u << kBits;
constexpr std::uint64_t kDefaultMaxN = 4096;

// Work-items per group. GPUs: 256 (16 keys each at 4096; the scan has 8 steps). CPUs (PoCL runs a
// group's work-items as loops split at every barrier): fewer work-items, fewer scan steps.
std::uint32_t group_size(const rt::Device& dev) {
  const auto& desc = dev.description();
  std::uint32_t g = desc.is_gpu ? 256 : 16;
  if (const char* e = std::getenv("GPUSORT_RADIX_SINGLE_GROUP")) {  // tuning: a power of two >= 16
    const auto v = static_cast<std::uint32_t>(std::strtoul(e, nullptr, 10));
    if (v >= kRadix && (v & (v - 1)) == 0) g = v;
  }
  while (g > kRadix && g > desc.max_work_group_size) g >>= 1;
  return g;  // the caller checks g against the device limit (a device below kRadix has no path)
}

// Elements per local buffer: SG_PAD's spare slot per 32 plus one, rounded to 16 (alignment).
std::uint64_t slots_for(std::uint64_t n) { return (n + (n >> 5) + 1 + 15) / 16 * 16; }

std::uint64_t local_bytes_for(std::uint64_t n, std::size_t key_bytes, std::size_t value_bytes, std::uint32_t group) {
  const std::uint64_t entries = std::uint64_t(kRadix) * group;
  return 2 * slots_for(n) * (key_bytes + value_bytes) + 4 * (entries + (entries >> 5) + group + 1);
}

std::uint64_t capacity(const rt::Device& dev, key_type type, std::size_t value_bytes, const SortOptions& options) {
  if (options.work_group_size != 0 || options.items_per_thread != 0) return 0;
  const auto& desc = dev.description();
  const std::uint32_t group = group_size(dev);
  if (group < kRadix || group > desc.max_work_group_size) return 0;
  std::uint64_t cap = kDefaultMaxN;
  if (const char* e = std::getenv("GPUSORT_RADIX_SINGLE_MAX")) cap = std::strtoull(e, nullptr, 10);  // tuning
  cap = std::min<std::uint64_t>(cap, 1ull << 24);  // u32 positions with room to spare
  // the largest n <= cap whose buffers fit (local_bytes_for grows with n)
  std::uint64_t lo = 0, hi = cap;
  while (lo < hi) {
    const std::uint64_t mid = lo + (hi - lo + 1) / 2;
    if (local_bytes_for(mid, key_size(type), value_bytes, group) <= desc.local_memory_bytes)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

}  // namespace

std::uint64_t radix_single_group_capacity(const rt::Device& dev, key_type type, std::size_t value_bytes,
                                          const SortOptions& options) {
  return capacity(dev, type, value_bytes, options);
}

bool radix_single_group_fits(const SortJob& job) {
  return job.n > 1 && job.n <= capacity(job.device, job.type, job.value_bytes, job.options);
}
bool radix_single_group_fits(const TempQuery& q) {
  return q.n > 1 && q.n <= capacity(q.device, q.type, q.value_bytes, q.options);
}

void radix_single_group_sort(SortJob& job) {
  if (job.n <= 1) return;
  rt::Device& dev = job.device;
  const std::uint32_t group = group_size(dev);
  auto defines = job.key_defines(group);
  defines.push_back("RADIX_BITS=" + std::to_string(kBits));
  rt::Program& prog = dev.program("radix_single_group.cl", defines);
  const std::uint64_t slots = slots_for(job.n);
  const std::uint64_t bytes = local_bytes_for(job.n, key_size(job.type), job.value_bytes, group);
  if (bytes > dev.description().local_memory_bytes)  // radix_single_group_fits was not asked first
    throw Error(errc::invalid_argument, "radix: " + std::to_string(job.n) + " keys do not fit one work-group's local memory");
  std::unique_ptr<rt::Event> start = job.options.verbose ? dev.record() : nullptr;
  dev.launch(prog.kernel("radix_single_group"), {1, group, static_cast<std::size_t>(bytes)},
             {job.keys, job.values_or_keys(), static_cast<std::uint32_t>(job.n), job.flip_arg(),
              static_cast<std::uint32_t>(slots)});
  if (start) {
    std::unique_ptr<rt::Event> stop = dev.record();
    stop->wait();
    std::fprintf(stderr, "radix: single work-group path (%u work-items, %llu bytes of local memory) %8.3f ms\n", group,
                 static_cast<unsigned long long>(bytes), stop->elapsed_ms_since(*start));
  }
}

}  // namespace gpusort::algo
