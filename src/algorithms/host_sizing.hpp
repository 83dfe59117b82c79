#pragma once
// How much of a device a host request needs, and how it is cut when the device cannot hold it at
// once (chunks, then buckets: api/out_of_core.hpp). Pure functions of the request and the device
// description: the planner decides a host request's path by them.
#include <cstddef>
#include <cstdint>

#include "gpusort/device.hpp"
#include "gpusort/options.hpp"

namespace gpusort::detail {

// Device bytes a host sort may use: options.device_memory_limit, else 70% of the device's global
// memory (no limit when the device does not say).
std::uint64_t device_budget(const DeviceDescription& device, const SortOptions& options);

// The largest single device buffer a host sort may plan for: the device's max_buffer_bytes (no
// limit when the device does not say), or less while a test lowers it.
std::uint64_t max_buffer_bytes(const DeviceDescription& device);
// Test seam: plan as if no device could allocate more than `bytes` in one buffer (0: the devices'
// own limits again). Lets a test check the chunking by the largest allocation without gigabytes.
void set_max_buffer_bytes_for_testing(std::uint64_t bytes);

// The largest single device buffer of sorting m elements: each buffer holds one field (key or
// value) of each element -- the device copies and the algorithms' temporaries alike (their small
// buffers aside; rank's 4-byte tie claims serve at most 2^16 keys) -- rounded up as the device's
// temporary pool rounds.
std::uint64_t largest_buffer_bytes(std::uint64_t m, std::size_t key_bytes, std::size_t value_bytes);

// Estimated device bytes of sorting n elements in one piece (keys + values + the algorithm's
// temporaries: one more copy, rounded up as the temporary pool rounds, plus a margin).
std::uint64_t one_shot_bytes(std::uint64_t n, std::size_t key_bytes, std::size_t value_bytes);
// ... and of the sort pipeline with steps of m elements (three buffer sets + one's temporaries:
// api/sort_pipeline.hpp).
std::uint64_t pipeline_bytes(std::uint64_t m, std::size_t key_bytes, std::size_t value_bytes);

// Whether n elements sort in one piece: one_shot_bytes within the budget and every buffer within
// the largest allocation.
bool fits_in_one_piece(std::uint64_t n, std::size_t key_bytes, std::size_t value_bytes, std::uint64_t budget,
                       std::uint64_t max_buffer);

// The smallest chunk the pipeline accepts; a budget below pipeline_bytes(kMinChunk) is an error
// (the planner rejects such a SortOptions::device_memory_limit first: request_checks.hpp).
inline constexpr std::uint64_t kMinChunk = 1024;
// The most chunks (and buckets) a partition sort takes: its split table holds chunks^2 positions
// and its buckets chunks^2 slices (1024^2 x 32 bytes = 32 MiB). More is Error(out_of_memory).
inline constexpr std::size_t kMaxChunks = 1024;

struct ChunkPlan {
  std::uint64_t chunk = 0;  // elements per chunk (the last one may be shorter)
  std::size_t count = 0;    // number of chunks
};
// Equal chunks (but the last) that fit the budget, each of whose buffers fits max_buffer bytes.
// Throws Error(out_of_memory) when even a chunk of kMinChunk elements does not.
ChunkPlan plan_chunks(std::uint64_t n, std::size_t key_bytes, std::size_t value_bytes, std::uint64_t budget,
                      std::uint64_t max_buffer = ~std::uint64_t(0));

// Equal chunks of at most max_chunk elements (but the last, shorter), rounded up to a multiple of
// 256 elements where that still fits.
ChunkPlan equal_chunks(std::uint64_t n, std::uint64_t max_chunk);

// The largest step (elements) the pipeline can hold within budget and max_buffer: at least
// kMinChunk, else Error(out_of_memory) as plan_chunks.
std::uint64_t max_step_elements(std::size_t key_bytes, std::size_t value_bytes, std::uint64_t budget,
                                std::uint64_t max_buffer);

}  // namespace gpusort::detail
