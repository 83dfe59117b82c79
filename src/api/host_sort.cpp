#include "api/host_sort.hpp"

#include <cstring>
#include <utility>

#include "api/out_of_core.hpp"
#include "api/sort_pipeline.hpp"

namespace gpusort::detail {

SortReport sort_host_with(rt::Device& device, const algo::Algorithm& algorithm, key_type type, void* keys,
                          std::size_t n, void* values, std::size_t value_bytes, const SortOptions& options) {
  SortReport report;
  report.device = device.description().id;
  report.algorithm = algorithm.name;
  if (n <= 1) return report;

  // Larger than the device budget, or than its largest allocation: the partition sort in chunks
  // and buckets (api/out_of_core.hpp).
  const std::uint64_t budget = device_budget(device.description(), options);
  const std::uint64_t max_buffer = max_buffer_bytes(device.description());
  if (!fits_in_one_piece(n, key_size(type), value_bytes, budget, max_buffer)) {
    rt::Device* one[] = {&device};
    return sort_host_partitioned(one, algorithm, type, keys, n, values, value_bytes, options, std::move(report));
  }

  // One step: upload, sort, download (api/sort_pipeline.hpp). The caller's arrays are written by
  // the download only, once the sort has succeeded.
  const SortStep step{{{keys, values, n}}, keys, values};
  const StepTimes times =
      run_sort_steps(device, algorithm, type, value_bytes, options, std::span(&step, 1), n, options.host_threads);
  return with_step_times(std::move(report), times);
}

std::optional<SortReport> argsort_host_in_one_step(rt::Device& device, const algo::Algorithm& algorithm, key_type type,
                                                   const void* keys, std::size_t n, void* indices,
                                                   std::size_t index_bytes, const SortOptions& options) {
  if (!fits_in_one_piece(n, key_size(type), index_bytes, device_budget(device.description(), options),
                         max_buffer_bytes(device.description())))
    return std::nullopt;
  SortReport report;
  report.device = device.description().id;
  report.algorithm = algorithm.name;
  if (n <= 1) {  // a lone key's index is 0: nothing to do on the device
    if (n == 1) std::memset(indices, 0, index_bytes);
    return report;
  }
  SortStep step{{{keys, nullptr, n}}, nullptr, indices};
  step.values_are_positions = true;
  const StepTimes times =
      run_sort_steps(device, algorithm, type, index_bytes, options, std::span(&step, 1), n, options.host_threads);
  return with_step_times(std::move(report), times);
}

}  // namespace gpusort::detail
