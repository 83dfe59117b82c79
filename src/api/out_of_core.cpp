// Out-of-core and several-device host sorts: sizing, then two passes of the sort pipeline with
// the run splits between them.
#include "api/out_of_core.hpp"

#include <algorithm>
#include <atomic>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <string>
#include <thread>
#include <vector>

#include "algorithms/algorithm.hpp"
#include "api/run_splits.hpp"
#include "api/sort_pipeline.hpp"
#include "core/host_array.hpp"
#include "core/host_clock.hpp"
#include "core/parallel_for.hpp"
#include "runtime/buffer_pool.hpp"

namespace gpusort::detail {
namespace {

using clock = core::host_clock;
using core::ms_since;

std::string mib(std::uint64_t bytes) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.1f MiB", double(bytes) / (1024.0 * 1024.0));
  return buf;
}

}  // namespace

namespace {

// Copies src to dst on the host's threads (restoring the caller's arrays after a failure).
void parallel_copy(void* dst, const void* src, std::size_t bytes) {
  core::parallel_for(bytes, core::threads_for(bytes, std::size_t(64) << 20), [&](std::size_t, std::size_t b, std::size_t e) {
    std::memcpy(static_cast<unsigned char*>(dst) + b, static_cast<const unsigned char*>(src) + b, e - b);
  });
}

// Runs each device's steps (device d: steps d, d + D, ...) on a thread per device; rethrows the
// first error once all have stopped. Returns the slowest device's times (summed per phase).
StepTimes run_on_devices(std::span<rt::Device* const> devices, const algo::Algorithm& algorithm, key_type type,
                         std::size_t vb, const SortOptions& options, const std::vector<SortStep>& steps,
                         std::uint64_t capacity, const char* what, bool verbose,
                         std::atomic<bool>* writing = nullptr) {
  const std::size_t d_count = devices.size(), total = steps.size();
  std::vector<StepTimes> times(d_count);
  std::vector<std::exception_ptr> errors(d_count);
  auto work = [&](std::size_t d) {
    try {
      std::vector<SortStep> mine;
      std::vector<std::size_t> index;
      for (std::size_t i = d; i < total; i += d_count) mine.push_back(steps[i]), index.push_back(i);
      auto done = [&](std::size_t k) {
        if (verbose)
          std::fprintf(stderr, "gpusort: %s %zu/%zu sorted on %s\n", what, index[k] + 1, total,
                       devices[d]->description().id.c_str());
      };
      times[d] =
          run_sort_steps(*devices[d], algorithm, type, vb, options, mine, capacity, options.host_threads, done, writing);
    } catch (...) {
      errors[d] = std::current_exception();
    }
  };
  {
    std::vector<std::jthread> threads;
    for (std::size_t d = 1; d < d_count; ++d) threads.emplace_back(work, d);
    work(0);
  }
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
  StepTimes slowest;
  for (const StepTimes& t : times) {
    slowest.upload_ms = std::max(slowest.upload_ms, t.upload_ms);
    slowest.sort_ms = std::max(slowest.sort_ms, t.sort_ms);
    slowest.download_ms = std::max(slowest.download_ms, t.download_ms);
    slowest.compiled += t.compiled;
  }
  return slowest;
}

}  // namespace

SortReport sort_host_partitioned(std::span<rt::Device* const> devices, const algo::Plan& plan, void* keys,
                                 void* values, SortReport report) {
  const algo::Algorithm& algorithm = *plan.algorithm;
  const key_type type = plan.request.type;
  const std::size_t n = std::size_t(plan.request.n), vb = plan.request.value_bytes, kb = key_size(type);
  const std::size_t d_count = devices.size();
  const SortOptions& options = plan.options();
  const std::size_t m = static_cast<std::size_t>(plan.chunks.chunk), chunks = plan.chunks.count;
  SortOptions step_options = options;
  step_options.verbose = false;  // one line per step from here, not the algorithm's phase times
  if (options.verbose)
    std::fprintf(stderr,
                 "gpusort: %zu elements need ~%s on the device (largest buffer %s); %zu chunks of %zu on %zu device(s), "
                 "sorted by %s, then %zu buckets\n",
                 n, mib(one_shot_bytes(n, kb, vb)).c_str(), mib(largest_buffer_bytes(n, kb, vb)).c_str(), chunks, m,
                 d_count, algorithm.name.c_str(), chunks);

  for (rt::Device* d : devices) d->temp_pool().trim();  // cached buffers of earlier sorts go first
  core::HostArray scratch;                              // sorted chunks: all keys, then all values
  try {
    scratch = core::make_host_array(n * (kb + vb));
  } catch (const std::bad_alloc&) {
    throw Error(errc::out_of_memory,
                "cannot allocate " + std::to_string(n * (kb + vb)) + " bytes of host memory for the sorted chunks");
  }
  unsigned char* scratch_keys = scratch.get();
  unsigned char* scratch_values = scratch.get() + n * kb;
  const auto* in_keys = static_cast<const unsigned char*>(keys);
  const auto* in_values = static_cast<const unsigned char*>(values);
  auto length = [&](std::size_t c) { return std::min(m, n - c * m); };

  // Pass 1: chunks into the scratch area.
  auto t = clock::now();
  std::vector<SortStep> steps(chunks);
  for (std::size_t c = 0; c < chunks; ++c)
    steps[c] = {{{in_keys + c * m * kb, vb ? in_values + c * m * vb : nullptr, length(c)}},
                scratch_keys + c * m * kb,
                vb ? scratch_values + c * m * vb : nullptr};
  const StepTimes first = run_on_devices(devices, algorithm, type, vb, step_options, steps, m, "chunk", options.verbose);

  // The splits: bucket b is ranks [b * m, (b + 1) * m) of the merged chunks.
  const auto t_split = clock::now();
  SortedRuns runs{type, scratch_keys, {}};
  for (std::size_t c = 0; c <= chunks; ++c) runs.offsets.push_back(std::min(n, c * m));
  std::vector<std::vector<std::size_t>> starts(chunks + 1);
  std::vector<std::exception_ptr> split_errors(chunks + 1);  // parallel_for's work must not throw
  core::parallel_for(chunks + 1, core::threads_for(chunks + 1, 1), [&](std::size_t, std::size_t b0, std::size_t b1) {
    for (std::size_t b = b0; b < b1; ++b) {
      try {
        starts[b] = split_at_rank(runs, options.order, std::min(n, b * m));
      } catch (...) {
        split_errors[b] = std::current_exception();
      }
    }
  });
  for (auto& e : split_errors)
    if (e) std::rethrow_exception(e);
  for (std::size_t b = 0; b < chunks; ++b) {
    SortStep& st = steps[b];
    st.in.clear();
    for (std::size_t c = 0; c < chunks; ++c) {
      const std::size_t from = starts[b][c], to = starts[b + 1][c];
      if (to > from) st.in.push_back({scratch_keys + from * kb, vb ? scratch_values + from * vb : nullptr, to - from});
    }
    st.keys_out = static_cast<unsigned char*>(keys) + b * m * kb;
    st.values_out = vb ? static_cast<unsigned char*>(values) + b * m * vb : nullptr;
  }
  report.split_ms = ms_since(t_split);

  // Pass 2: buckets to their final place.
  StepTimes second;
  std::atomic<bool> writing{false};
  try {
    second = run_on_devices(devices, algorithm, type, vb, step_options, steps, m, "bucket", options.verbose, &writing);
  } catch (...) {
    if (writing.load()) {  // the caller's arrays were partly written: every element back, as sorted chunks
      parallel_copy(keys, scratch_keys, n * kb);
      if (vb) parallel_copy(values, scratch_values, n * vb);
    }
    throw;
  }
  report.upload_ms = first.upload_ms + second.upload_ms;
  report.sort_ms = first.sort_ms + second.sort_ms;
  report.download_ms = first.download_ms + second.download_ms;
  report.programs_compiled = first.compiled + second.compiled;
  report.chunks = chunks;
  if (options.verbose)
    std::fprintf(stderr, "gpusort: %zu chunks and %zu buckets in %.3f ms (splits %.3f ms on the host)\n", chunks,
                 chunks, ms_since(t), report.split_ms);
  return report;
}

}  // namespace gpusort::detail
