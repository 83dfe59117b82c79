// How much of a device a host request needs, and how it is cut when the device cannot hold it at
// once: the sizes the planner decides the path by (algorithms/planner.hpp) and the partition sort
// cuts its chunks by (api/out_of_core.hpp).
#include "algorithms/host_sizing.hpp"

#include <algorithm>
#include <atomic>
#include <string>

#include "runtime/buffer_pool.hpp"

namespace gpusort::detail {
namespace {

using wide = unsigned __int128;  // footprints of up to 2^60 elements of 24 bytes do not overflow

constexpr wide kFixedMargin = 64 * 1024;  // histograms, tile status, counters, alignment

// What a device buffer of `bytes` occupies: what the device's temporary pool allocates for it
// (runtime/buffer_pool.hpp), which rounds small ones up to their size class.
wide temp_occupancy(wide bytes) {
  if (bytes == 0) return 0;                  // no such buffer (keys only: no values)
  if (bytes > wide(SIZE_MAX)) return bytes;  // far above the pooled sizes: allocated as asked
  return rt::BufferPool::allocation_bytes(std::size_t(bytes));
}

// The algorithms' temporaries for m elements: at most one more copy of keys and values, plus
// 1/8 of the data and a fixed margin for their small buffers.
wide temp_estimate(wide m, std::size_t kb, std::size_t vb) {
  return temp_occupancy(m * kb) + temp_occupancy(m * vb) + m * (kb + vb) / 8 + kFixedMargin;
}

std::uint64_t clamp64(wide x) { return x > wide(~std::uint64_t(0)) ? ~std::uint64_t(0) : std::uint64_t(x); }

std::atomic<std::uint64_t> max_buffer_for_testing{0};  // 0: no override

}  // namespace

std::uint64_t device_budget(const DeviceDescription& device, const SortOptions& options) {
  if (options.device_memory_limit != 0) return options.device_memory_limit;
  if (device.global_memory_bytes == 0) return ~std::uint64_t(0);
  return device.global_memory_bytes / 10 * 7;
}

std::uint64_t max_buffer_bytes(const DeviceDescription& device) {
  std::uint64_t limit = device.max_buffer_bytes != 0 ? device.max_buffer_bytes : ~std::uint64_t(0);
  if (const std::uint64_t test = max_buffer_for_testing.load(); test != 0) limit = std::min(limit, test);
  return limit;
}

void set_max_buffer_bytes_for_testing(std::uint64_t bytes) { max_buffer_for_testing.store(bytes); }

std::uint64_t largest_buffer_bytes(std::uint64_t m, std::size_t kb, std::size_t vb) {
  return clamp64(temp_occupancy(wide(m) * std::max(kb, vb)));
}

bool fits_in_one_piece(std::uint64_t n, std::size_t kb, std::size_t vb, std::uint64_t budget, std::uint64_t max_buffer) {
  return one_shot_bytes(n, kb, vb) <= budget && largest_buffer_bytes(n, kb, vb) <= max_buffer;
}

std::uint64_t one_shot_bytes(std::uint64_t n, std::size_t kb, std::size_t vb) {
  return clamp64(temp_occupancy(wide(n) * kb) + temp_occupancy(wide(n) * vb) + temp_estimate(n, kb, vb));
}

std::uint64_t pipeline_bytes(std::uint64_t m, std::size_t kb, std::size_t vb) {
  return clamp64(3 * wide(m) * (kb + vb) + temp_estimate(m, kb, vb));
}

std::uint64_t max_step_elements(std::size_t kb, std::size_t vb, std::uint64_t budget, std::uint64_t max_buffer) {
  if (pipeline_bytes(kMinChunk, kb, vb) > budget)
    throw Error(errc::out_of_memory,
                "device memory budget of " + std::to_string(budget) + " bytes is too small: sorting in chunks needs at least " +
                    std::to_string(pipeline_bytes(kMinChunk, kb, vb)) + " bytes (chunks of " +
                    std::to_string(kMinChunk) + " elements); raise SortOptions::device_memory_limit");
  // A chunk's largest buffer: an array's, or the temporaries the steps share (one buffer).
  const std::uint64_t smallest_need =
      std::max(largest_buffer_bytes(kMinChunk, kb, vb), clamp64(temp_estimate(kMinChunk, kb, vb)));
  if (smallest_need > max_buffer)
    throw Error(errc::out_of_memory, "the device allocates at most " + std::to_string(max_buffer) +
                                         " bytes in one buffer, less than a chunk of " + std::to_string(kMinChunk) +
                                         " elements needs (" + std::to_string(smallest_need) + " bytes)");
  // Largest chunk that fits (every size grows with m). The steps share one temporary storage
  // (sort_pipeline.hpp, shared_temporary_bytes): it must fit one allocation as well.
  auto fits = [&](std::uint64_t m) {
    return pipeline_bytes(m, kb, vb) <= budget && largest_buffer_bytes(m, kb, vb) <= max_buffer &&
           clamp64(temp_estimate(m, kb, vb)) <= max_buffer;
  };
  std::uint64_t lo = kMinChunk, hi = std::uint64_t(1) << 60;
  while (lo < hi) {
    const std::uint64_t mid = lo + (hi - lo + 1) / 2;
    if (fits(mid))
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

// Equal chunks of at most max_chunk elements (but the last, shorter), rounded up to a multiple of
// 256 elements where that still fits.
ChunkPlan equal_chunks(std::uint64_t n, std::uint64_t max_chunk) {
  const std::uint64_t count = std::max<std::uint64_t>(1, (n + max_chunk - 1) / max_chunk);
  std::uint64_t chunk = std::max<std::uint64_t>(1, (n + count - 1) / count);
  const std::uint64_t rounded = (chunk + 255) / 256 * 256;
  if (rounded <= max_chunk) chunk = rounded;
  return {chunk, static_cast<std::size_t>((n + chunk - 1) / chunk)};
}

ChunkPlan plan_chunks(std::uint64_t n, std::size_t kb, std::size_t vb, std::uint64_t budget, std::uint64_t max_buffer) {
  return equal_chunks(n, max_step_elements(kb, vb, budget, max_buffer));
}

}  // namespace gpusort::detail
