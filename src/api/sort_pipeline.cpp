#include "api/sort_pipeline.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <set>
#include <stdexcept>
#include <thread>

#include "api/device_run.hpp"
#include "api/host_transfer.hpp"
#include "api/out_of_core.hpp"
#include "gpusort/errors.hpp"
#include "core/host_clock.hpp"
#include "runtime/buffer_pool.hpp"
#include "runtime/drain_on_unwind.hpp"
#include "runtime/program_cache.hpp"

namespace gpusort::detail {
namespace {

using clock = core::host_clock;
using core::ms_since;

struct BufferSet {
  rt::BufferPtr keys, values;
};

void upload_step(rt::Device& device, const SortStep& step, BufferSet& set, std::size_t kb, std::size_t vb,
                 unsigned threads) {
  std::vector<UploadPiece> pieces;
  std::size_t at = 0;
  for (const HostRange& r : step.in) {
    if (r.count == 0) continue;
    pieces.push_back({r.keys, set.keys.get(), at * kb, r.count * kb, r.read_keys});
    if (vb && !step.values_are_positions)
      pieces.push_back({r.values, set.values.get(), at * vb, r.count * vb, r.read_values});
    at += r.count;
  }
  upload(device, pieces, threads);
}

void download_step(rt::Device& device, const SortStep& step, const BufferSet& set, std::size_t kb, std::size_t vb,
                   unsigned threads, std::atomic<bool>* writing) {
  if (writing) writing->store(true);
  const std::size_t n = step.count();
  std::vector<DownloadPiece> pieces;
  // an argsort's step brings back its indices only (keys_out null); every other step its keys
  if (!step.values_are_positions || step.keys_out || step.write_keys)
    pieces.push_back({step.keys_out, set.keys.get(), 0, n * kb, step.write_keys});
  if (vb) pieces.push_back({step.values_out, set.values.get(), 0, n * vb, step.write_values});
  download(device, pieces, threads);
}

}  // namespace

std::size_t SortStep::count() const {
  std::size_t n = 0;
  for (const HostRange& r : in) n += r.count;
  return n;
}

SortReport with_step_times(SortReport report, const StepTimes& times) {
  report.upload_ms = times.upload_ms;
  report.sort_ms = times.sort_ms;
  report.download_ms = times.download_ms;
  report.programs_compiled = times.compiled;
  return report;
}

std::uint64_t shared_temporary_bytes(rt::Device& device, const algo::Algorithm& algorithm, key_type type,
                                     std::size_t value_bytes, const SortOptions& options,
                                     std::span<const SortStep> steps) {
  if (!algorithm.temp_bytes) return 0;
  std::set<std::size_t> counts;
  for (const SortStep& st : steps) counts.insert(st.count());
  std::uint64_t need = 0;
  for (std::size_t c : counts)
    if (c > 1) need = std::max(need, needed_temp_bytes(algorithm, device, type, c, value_bytes, options));
  // An algorithm's temporaries in one piece can be about twice an array's buffer (radix: a keys and
  // a values area); the planner's chunks keep them within the largest allocation (out_of_core.cpp,
  // max_step_elements). Refused here before any copy rather than failing at the allocation.
  if (const std::uint64_t limit = max_buffer_bytes(device.description()); need > limit)
    throw Error(errc::out_of_memory, algorithm.name + "'s temporaries for steps of " +
                                         std::to_string(*counts.rbegin()) + " elements need " + std::to_string(need) +
                                         " bytes in one buffer; the device allocates at most " +
                                         std::to_string(limit) + " (sort in smaller chunks)");
  return need;
}

StepTimes run_sort_steps(rt::Device& device, const algo::Algorithm& algorithm, key_type type, std::size_t vb,
                         const SortOptions& options, std::span<const SortStep> steps, std::uint64_t capacity,
                         unsigned threads, const std::function<void(std::size_t)>& on_done,
                         std::atomic<bool>* writing, const std::function<algo::RunEvents(algo::SortJob&)>& sort) {
  StepTimes times;
  if (steps.empty()) return times;
  const std::size_t kb = key_size(type);
  const bool pipelined = steps.size() > 1;
  if (pipelined)
    for (const SortStep& st : steps)
      if (st.values_are_positions)  // each step's positions would start at 0
        throw std::logic_error("run_sort_steps: positions made on the device serve a sort of one step");
  threads = transfer_threads(threads, pipelined);  // one direction at a time, or both at once
  const std::size_t sets_count = pipelined ? 3 : 1;
  const std::size_t cap = static_cast<std::size_t>(capacity);

  // Everything is allocated before the first copy, so a shortage fails with no output written.
  std::vector<BufferSet> sets(sets_count);
  rt::BufferPtr temp;
  if (pipelined) {
    for (BufferSet& s : sets) {
      s.keys = device.alloc(cap * kb);
      if (vb) s.values = device.alloc(cap * vb);
    }
    if (const std::uint64_t need = shared_temporary_bytes(device, algorithm, type, vb, options, steps))
      temp = device.alloc(static_cast<std::size_t>(need));
  } else {
    const std::size_t n = steps[0].count();
    sets[0].keys = device.temp_pool().get(std::max<std::size_t>(1, n * kb));
    if (vb) sets[0].values = device.temp_pool().get(std::max<std::size_t>(1, n * vb));
    // The pool lends a buffer as soon as its last user has enqueued its work on the default queue
    // (runtime/buffer_pool.hpp), and the upload below runs on queues of its own: wait for the
    // default queue first (an asynchronous sort may still be using these buffers).
    device.record()->wait();
  }
  rt::DrainOnUnwind drain(device);  // buffers and staging outlive the work queued on them
  const std::uint64_t compiled_before = rt::program_cache_stats().compiled;

  auto timed = [](double& total, auto&& f) {
    const auto t0 = clock::now();
    f();
    total += ms_since(t0);
  };
  timed(times.upload_ms, [&] { upload_step(device, steps[0], sets[0], kb, vb, threads); });
  for (std::size_t i = 0; i < steps.size(); ++i) {
    BufferSet& set = sets[i % sets_count];
    std::exception_ptr up_error, down_error;
    {
      // Step i + 1 uploads and step i - 1 downloads while step i sorts.
      std::jthread up, down;
      if (i + 1 < steps.size())
        up = std::jthread([&] {
          try {
            timed(times.upload_ms, [&] { upload_step(device, steps[i + 1], sets[(i + 1) % sets_count], kb, vb, threads); });
          } catch (...) {
            up_error = std::current_exception();
          }
        });
      if (i >= 1)
        down = std::jthread([&] {
          try {
            timed(times.download_ms,
                  [&] { download_step(device, steps[i - 1], sets[(i - 1) % sets_count], kb, vb, threads, writing); });
          } catch (...) {
            down_error = std::current_exception();
          }
        });
      // The sort itself; the threads are joined (jthread) before an error here leaves the block.
      const std::size_t n = steps[i].count();
      algo::SortJob job{device, type, n, vb, *set.keys, set.values.get(), options, temp.get()};
      job.values_are_positions = steps[i].values_are_positions;
      job.output_is_scratch = true;  // the step's output is downloaded only once its sort succeeded
      if (n > 1 || job.values_are_positions) {  // (run() makes a lone position too)
        const algo::RunEvents events = sort ? sort(job) : algo::run(algorithm, job);
        events.stop->wait();
        times.sort_ms += events.stop->elapsed_ms_since(*events.start);
      }
    }
    if (up_error) std::rethrow_exception(up_error);
    if (down_error) std::rethrow_exception(down_error);
    if (i >= 1 && on_done) on_done(i - 1);
  }
  const std::size_t last = steps.size() - 1;
  timed(times.download_ms, [&] { download_step(device, steps[last], sets[last % sets_count], kb, vb, threads, writing); });
  if (on_done) on_done(last);
  times.compiled = rt::program_cache_stats().compiled - compiled_before;
  return times;
}

}  // namespace gpusort::detail
