// Out-of-core host sorts: a double-buffered chunk pipeline on the device, then a host merge.
#include "api/out_of_core.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "algorithms/algorithm.hpp"
#include "api/host_merge.hpp"
#include "runtime/buffer_pool.hpp"
#include "runtime/program_cache.hpp"

namespace gpusort::detail {
namespace {

using clock = std::chrono::steady_clock;
double ms_since(clock::time_point t0) { return std::chrono::duration<double, std::milli>(clock::now() - t0).count(); }

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

std::string mib(std::uint64_t bytes) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.1f MiB", double(bytes) / (1024.0 * 1024.0));
  return buf;
}

// Waits for every queue the pipeline used before its buffers go away (an error mid-pipeline may
// leave copies in flight that read or write the staging memory).
struct Drain {
  rt::Device& device;
  rt::Queue* queues[2];
  bool armed = true;
  ~Drain() {
    if (!armed) return;
    for (rt::Queue* q : queues) {
      try {
        if (q) q->finish();
      } catch (...) {
      }
    }
    try {
      device.finish();
    } catch (...) {
    }
  }
};

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
  return clamp64(2 * wide(m) * (kb + vb) + temp_estimate(m, kb, vb));
}

ChunkPlan plan_chunks(std::uint64_t n, std::size_t kb, std::size_t vb, std::uint64_t budget, std::uint64_t max_buffer) {
  if (pipeline_bytes(kMinChunk, kb, vb) > budget)
    throw Error(errc::out_of_memory,
                "device memory budget of " + std::to_string(budget) + " bytes is too small: sorting in chunks needs at least " +
                    std::to_string(pipeline_bytes(kMinChunk, kb, vb)) + " bytes (chunks of " +
                    std::to_string(kMinChunk) + " elements); raise SortOptions::device_memory_limit");
  if (largest_buffer_bytes(kMinChunk, kb, vb) > max_buffer)
    throw Error(errc::out_of_memory, "the device allocates at most " + std::to_string(max_buffer) +
                                         " bytes in one buffer, less than a chunk of " + std::to_string(kMinChunk) +
                                         " elements needs (" + std::to_string(largest_buffer_bytes(kMinChunk, kb, vb)) +
                                         " bytes)");
  // Largest chunk that fits (both sizes grow with m).
  auto fits = [&](std::uint64_t m) { return pipeline_bytes(m, kb, vb) <= budget && largest_buffer_bytes(m, kb, vb) <= max_buffer; };
  std::uint64_t lo = kMinChunk, hi = std::max<std::uint64_t>(n, kMinChunk);
  while (lo < hi) {
    const std::uint64_t mid = lo + (hi - lo + 1) / 2;
    if (fits(mid))
      lo = mid;
    else
      hi = mid - 1;
  }
  const std::uint64_t max_chunk = lo;
  ChunkPlan plan;
  std::uint64_t count = (n + max_chunk - 1) / max_chunk;
  // Equal chunks, rounded up to a multiple of 256 elements where that still fits.
  std::uint64_t chunk = (n + count - 1) / count;
  const std::uint64_t rounded = (chunk + 255) / 256 * 256;
  if (rounded <= max_chunk) chunk = rounded;
  plan.chunk = chunk;
  plan.count = static_cast<std::size_t>((n + chunk - 1) / chunk);
  return plan;
}

SortReport sort_host_chunked(rt::Device& device, const algo::Algorithm& algorithm, key_type type, void* keys,
                             std::size_t n, void* values, std::size_t value_bytes, const SortOptions& options,
                             std::uint64_t budget, std::uint64_t max_buffer, SortReport report) {
  const std::size_t kb = key_size(type), vb = value_bytes;
  const ChunkPlan plan = plan_chunks(n, kb, vb, budget, max_buffer);
  const std::size_t m = static_cast<std::size_t>(plan.chunk), chunks = plan.count;
  SortOptions chunk_options = options;
  chunk_options.verbose = false;  // one line per chunk from here, not the algorithm's phase times
  if (options.verbose)
    std::fprintf(stderr,
                 "gpusort: %zu elements need ~%s on the device (largest buffer %s), budget %s (largest allocation %s): "
                 "%zu chunks of %zu, sorted by %s, merged on the host\n",
                 n, mib(one_shot_bytes(n, kb, vb)).c_str(), mib(largest_buffer_bytes(n, kb, vb)).c_str(),
                 mib(budget).c_str(), mib(max_buffer).c_str(), chunks, m, algorithm.name.c_str());

  // Everything is allocated before anything runs; cached pool buffers of earlier sorts go first.
  device.temp_pool().trim();
  std::unique_ptr<unsigned char[]> scratch;  // sorted chunks: all keys, then all values
  try {
    scratch = std::make_unique_for_overwrite<unsigned char[]>(n * (kb + vb));
  } catch (const std::bad_alloc&) {
    throw Error(errc::out_of_memory,
                "cannot allocate " + std::to_string(n * (kb + vb)) + " bytes of host memory for the sorted chunks");
  }
  unsigned char* scratch_keys = scratch.get();
  unsigned char* scratch_values = scratch.get() + n * kb;
  std::unique_ptr<rt::HostBuffer> staging[2] = {device.alloc_host(m * (kb + vb)), device.alloc_host(m * (kb + vb))};
  rt::BufferPtr dkeys[2] = {device.alloc(m * kb), device.alloc(m * kb)};
  rt::BufferPtr dvalues[2] = {vb ? device.alloc(m * vb) : nullptr, vb ? device.alloc(m * vb) : nullptr};
  std::unique_ptr<rt::Queue> upload_queue = device.create_queue();
  std::unique_ptr<rt::Queue> download_queue = device.create_queue();
  Drain drain{device, {upload_queue.get(), download_queue.get()}};

  auto length = [&](std::size_t c) { return std::min(m, n - c * m); };
  // Caller's chunk c -> staging s -> device set s (asynchronous on the upload queue).
  auto stage_in = [&](std::size_t c, int s) {
    const std::size_t len = length(c);
    auto* st = static_cast<unsigned char*>(staging[s]->data());
    std::memcpy(st, static_cast<const unsigned char*>(keys) + c * m * kb, len * kb);
    device.write(*dkeys[s], 0, st, len * kb, upload_queue.get(), true);
    if (vb) {
      std::memcpy(st + m * kb, static_cast<const unsigned char*>(values) + c * m * vb, len * vb);
      device.write(*dvalues[s], 0, st + m * kb, len * vb, upload_queue.get(), true);
    }
  };
  // Device set s -> staging s (asynchronous on the download queue).
  auto start_download = [&](std::size_t c, int s) {
    const std::size_t len = length(c);
    auto* st = static_cast<unsigned char*>(staging[s]->data());
    device.read(*dkeys[s], 0, st, len * kb, download_queue.get(), true);
    if (vb) device.read(*dvalues[s], 0, st + m * kb, len * vb, download_queue.get(), true);
  };
  // Staging s (downloaded chunk c) -> scratch.
  auto stage_out = [&](std::size_t c, int s) {
    const std::size_t len = length(c);
    const auto* st = static_cast<const unsigned char*>(staging[s]->data());
    std::memcpy(scratch_keys + c * m * kb, st, len * kb);
    if (vb) std::memcpy(scratch_values + c * m * vb, st + m * kb, len * vb);
  };

  // The pipeline. At step c: chunk c sorts on the device's default queue while chunk c-1 downloads
  // (download queue) and chunk c+1 uploads (upload queue) into the other buffer set. Order:
  //  - sort c starts after its upload finished (upload_queue->finish());
  //  - the other set is refilled only after chunk c-1's download finished and left the staging;
  //  - chunk c's download starts after its sort finished (its stop event).
  auto t = clock::now();
  stage_in(0, 0);
  report.upload_ms += ms_since(t);
  report.sort_ms = 0;
  const std::uint64_t compiled_before = rt::program_cache_stats().compiled;
  for (std::size_t c = 0; c < chunks; ++c) {
    const int s = int(c & 1);
    t = clock::now();
    upload_queue->finish();
    report.upload_ms += ms_since(t);

    algo::SortJob job{device, type, length(c), vb, *dkeys[s], dvalues[s].get(), chunk_options};
    const algo::RunEvents sorted = algo::run(algorithm, job);

    if (c >= 1) {
      t = clock::now();
      download_queue->finish();
      stage_out(c - 1, 1 - s);
      report.download_ms += ms_since(t);
    }
    if (c + 1 < chunks) {
      t = clock::now();
      stage_in(c + 1, 1 - s);
      report.upload_ms += ms_since(t);
    }
    sorted.stop->wait();
    const double ms = sorted.stop->elapsed_ms_since(*sorted.start);
    report.sort_ms += ms;
    start_download(c, s);
    if (options.verbose) std::fprintf(stderr, "gpusort: chunk %zu/%zu sorted (%.3f ms device time)\n", c + 1, chunks, ms);
  }
  t = clock::now();
  download_queue->finish();
  stage_out(chunks - 1, int((chunks - 1) & 1));
  report.download_ms += ms_since(t);
  drain.armed = false;

  // The merge writes the caller's arrays; it fails (bad_alloc) only before its first write.
  t = clock::now();
  SortedRuns runs{type, scratch_keys, vb ? scratch_values : nullptr, vb, {}};
  unsigned threads = 0;
  try {
    runs.offsets.resize(chunks + 1);
    for (std::size_t c = 0; c <= chunks; ++c) runs.offsets[c] = std::min(n, c * m);
    threads = merge_sorted_runs(runs, options.order, keys, vb ? values : nullptr);
  } catch (const std::bad_alloc&) {
    throw Error(errc::out_of_memory, "cannot allocate host memory for merging " + std::to_string(chunks) + " chunks");
  }
  report.merge_ms = ms_since(t);
  report.chunks = chunks;
  if (options.verbose)
    std::fprintf(stderr, "gpusort: merged %zu chunks on %u host threads in %.3f ms\n", chunks, threads, report.merge_ms);
  report.programs_compiled = rt::program_cache_stats().compiled - compiled_before;
  return report;
}

}  // namespace gpusort::detail
