#pragma once
// The one way host data is sorted on a device: a sequence of steps, each of which uploads some
// host ranges into device buffers (end to end), sorts them there, and downloads the result to one
// host range. One step is a host sort that fits the device; several are the passes of an
// out-of-core or several-device sort (api/out_of_core.hpp).
// With several steps the device holds three buffer sets: while step i sorts (default queue), step
// i + 1 uploads and step i - 1 downloads (api/host_transfer.hpp, threads of their own), so the
// link carries both directions at once and the sort hides behind them.
#include <cstddef>
#include <atomic>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "algorithms/algorithm.hpp"
#include "gpusort/key_type.hpp"
#include "gpusort/options.hpp"
#include "gpusort/sort.hpp"
#include "gpusort/streamed.hpp"
#include "runtime/device.hpp"

namespace gpusort::detail {

// count elements: keys of key_size(type) bytes each, values of value_bytes (nullptr without).
// Instead of host memory, a range may be read by the caller's functions (gpusort/streamed.hpp;
// offsets from the range's first byte).
struct HostRange {
  const void* keys;
  const void* values;
  std::size_t count;
  const ReadPiece* read_keys = nullptr;
  const ReadPiece* read_values = nullptr;
};

struct SortStep {
  std::vector<HostRange> in;  // sorted as one array, in this order (a stable sort keeps it)
  void* keys_out;             // in's total count of elements each (with values_are_positions it may be
                              // null, and no write_keys: the keys are not downloaded)
  void* values_out;
  const WritePiece* write_keys = nullptr;  // instead of keys_out / values_out, when given
  const WritePiece* write_values = nullptr;
  // argsort: the values are the step's positions 0..count-1 (4 or 8 bytes), made on the device
  // (SortJob::values_are_positions) instead of uploaded; in's values are not read. The positions
  // are the step's own, so this serves a sort of one step.
  bool values_are_positions = false;
  std::size_t count() const;
};

// Host-clock time each phase was busy (they overlap with several steps), the device time of the
// sorts, and the kernel programs compiled meanwhile.
struct StepTimes {
  double upload_ms = 0;
  double sort_ms = 0;
  double download_ms = 0;
  std::uint64_t compiled = 0;
};

// `report` with the steps' phase times and compiled programs filled in.
SortReport with_step_times(SortReport report, const StepTimes& times);

// The one temporary storage a run of several steps allocates and shares between them: the most
// any step needs (0: the algorithm needs none). Error(out_of_memory) where that would not fit the
// device's largest allocation (max_buffer_bytes; the planner's chunks keep it within).
std::uint64_t shared_temporary_bytes(rt::Device& device, const algo::Algorithm& algorithm, key_type type,
                                     std::size_t value_bytes, const SortOptions& options,
                                     std::span<const SortStep> steps);

// Runs the steps in order on `device`; every step holds at most `capacity` elements. Device
// buffers: one set from the temporary pool for a single step; otherwise three sets allocated for
// the call and, where `algorithm` reports its needs (temp_bytes), one temporary storage for all
// steps (shared_temporary_bytes: no allocation or free between steps, which would stall the copies). A step's output is
// written only after its sort has succeeded; on an error the remaining steps do not run and every
// copy in flight is waited for before this throws. threads: host threads per transfer direction
// (0: automatic). on_done(i), if given, runs on the calling thread once step i's output is
// complete (it must not throw).
// writing, if given, is set before the first byte of any step's output is written.
// sort, if given, sorts each step's job in place of algo::run(algorithm, job) (a segmented sort's
// bin: api/segmented_host.cpp); `algorithm` still sizes the shared temporaries.
StepTimes run_sort_steps(rt::Device& device, const algo::Algorithm& algorithm, key_type type, std::size_t value_bytes,
                         const SortOptions& options, std::span<const SortStep> steps, std::uint64_t capacity,
                         unsigned threads, const std::function<void(std::size_t)>& on_done = {},
                         std::atomic<bool>* writing = nullptr,
                         const std::function<algo::RunEvents(algo::SortJob&)>& sort = {});

}  // namespace gpusort::detail
