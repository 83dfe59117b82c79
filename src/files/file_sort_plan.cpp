// The file sorts' planner (files/file_sort_plan.hpp) and its public form, plan_sort_file.
#include "files/file_sort_plan.hpp"

#include <algorithm>
#include <vector>

#include "api/host_transfer.hpp"
#include "files/streamed_file_sort.hpp"
#include "gpusort/errors.hpp"
#include "runtime/device.hpp"

namespace gpusort {

const char* to_string(file_sort_path path) {
  switch (path) {
    case file_sort_path::in_memory: return "in memory";
    case file_sort_path::streamed: return "streamed";
    case file_sort_path::external: return "external";
  }
  return "?";
}

namespace files {
namespace {

SortRequest request_of(const FileSortShape& shape, const SortOptions& options) {
  return {.type = shape.type, .n = shape.n, .value_bytes = shape.value_bytes, .options = options};
}

std::uint64_t input_bytes(const FileSortShape& shape) {
  return shape.input_bytes ? shape.input_bytes : shape.n * (key_size(shape.type) + shape.value_bytes);
}

// Copy threads whose pinned staging the memory limit holds (0: none).
unsigned copy_threads_within(std::uint64_t memory_limit, unsigned requested) {
  if (memory_limit < kStagingPerThread + kStreamedHeads) return 0;
  const auto most =
      static_cast<unsigned>(std::min<std::uint64_t>(64, (memory_limit - kStreamedHeads) / kStagingPerThread));
  return std::min(detail::transfer_threads(requested, /*both_directions=*/false), most);
}

}  // namespace

FilePlan plan_file(std::span<Context* const> contexts, const FileSortShape& shape, const SortOptions& options,
                   std::uint64_t memory_limit) {
  if (contexts.empty()) throw Error(errc::invalid_argument, "sort_file: no context given");
  for (Context* c : contexts)
    if (!c) throw Error(errc::invalid_argument, "sort_file: a context is null");
  rt::Device& device = contexts[0]->runtime_device();
  FilePlan plan;
  const bool over_limit = memory_limit && shape.sizes_known && input_bytes(shape) > memory_limit;

  // Streamed: one device, and under a memory limit a GPU (a device that is not keeps its buffers
  // in host memory, so the limit would not hold) with room for one copy thread's staging.
  if (contexts.size() == 1 && shape.sizes_known && shape.streamable) {
    SortOptions streamed = options;
    bool open = true;
    if (memory_limit) {
      streamed.host_threads = copy_threads_within(memory_limit, options.host_threads);
      open = streamed.host_threads > 0 && contexts[0]->device().is_gpu;
    }
    if (open) {
      algo::Plan p = algo::make_plan(request_of(shape, streamed), device);
      if (p.path != algo::Path::partitioned && !p.request.record_bytes) {  // complex128 keys: in memory
        plan.path = file_sort_path::streamed;
        plan.copy_threads = memory_limit ? streamed.host_threads : 0;
        plan.device_plan = std::move(p);
        return plan;
      }
    }
  }
  if (over_limit) {
    if (shape.type == key_type::c128)  // the external sort's runs are not planned as records
      throw Error(errc::unsupported, "complex128 (c128) keys larger than the memory limit (external sorts) are not "
                                     "supported yet");
    if (!options.comparator.empty())  // the runs' splits and buckets use the natural order
      throw Error(errc::unsupported, "SortOptions::comparator: inputs larger than SortFileRequest::memory_limit "
                                     "(external sorts) are not supported");
    plan.path = file_sort_path::external;
    plan.runs = external_runs(shape.n, key_size(shape.type), shape.value_bytes, memory_limit);
    return plan;
  }
  plan.path = file_sort_path::in_memory;
  if (contexts.size() == 1) plan.device_plan = algo::make_plan(request_of(shape, options), device);
  return plan;
}

}  // namespace files

FileSortPlan plan_sort_file(std::span<Context* const> contexts, const FileSortShape& shape, const SortOptions& options,
                            std::uint64_t memory_limit) {
  const files::FilePlan p = files::plan_file(contexts, shape, options, memory_limit);
  FileSortPlan out;
  out.path = p.path;
  out.copy_threads = p.copy_threads;
  rt::Device& first = contexts[0]->runtime_device();
  switch (p.path) {
    case file_sort_path::streamed:
      out.description = "streamed through the device (regular files that fit it): read into pinned staging while "
                        "it uploads, written from it while it downloads";
      if (p.copy_threads)
        out.description += "; " + std::to_string(p.copy_threads) + " copy thread(s) within the memory limit";
      break;
    case file_sort_path::external:
      out.runs = p.runs.count;
      out.run_elements = p.runs.run;
      out.description = "external (larger than the memory limit): " + std::to_string(p.runs.count) +
                        " runs of up to " + std::to_string(p.runs.run) +
                        " elements, each sorted as planned below and written to the temporary directory; then as "
                        "many buckets cut at exact ranks, each read back, sorted and appended to the output";
      break;
    case file_sort_path::in_memory:
      out.description = "in host memory: the inputs read whole, sorted as planned below, written out";
      break;
  }
  if (p.device_plan) {
    out.piece = algo::describe(*p.device_plan, first);
  } else {
    // Several devices, or one run of an external sort: the plan of that host sort.
    SortRequest piece{.type = shape.type, .n = shape.n, .value_bytes = shape.value_bytes, .options = options};
    if (p.path == file_sort_path::external) piece.n = p.runs.run;
    std::vector<rt::Device*> devices;
    // several devices share a sort of at least two elements each, as sort_host_multi does
    if (piece.n >= 2 * contexts.size())
      for (Context* c : contexts) devices.push_back(&c->runtime_device());
    out.piece = algo::describe(devices.size() > 1 ? algo::make_plan(piece, std::span<rt::Device* const>(devices))
                                                  : algo::make_plan(piece, first),
                               first);
  }
  return out;
}

}  // namespace gpusort
