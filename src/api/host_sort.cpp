#include "api/host_sort.hpp"

#include <cstring>
#include <utility>

#include "api/out_of_core.hpp"
#include "api/sort_pipeline.hpp"

namespace gpusort::detail {
namespace {

SortReport report_of(rt::Device& device, const algo::Plan& plan) {
  SortReport report;
  report.device = device.description().id;
  report.algorithm = plan.algorithm->name;
  return report;
}

}  // namespace

SortReport sort_host_with(rt::Device& device, const algo::Plan& plan, void* keys, void* values) {
  const SortRequest& r = plan.request;
  if (r.record_bytes) return sort_host_records(device, plan, keys, values);  // complex128 keys
  SortReport report = report_of(device, plan);
  if (plan.path == algo::Path::nothing_to_do) return report;
  algo::print_if_verbose(plan, device);
  if (plan.path == algo::Path::partitioned) {
    rt::Device* one[] = {&device};
    return sort_host_partitioned(one, plan, keys, values, std::move(report));
  }
  // One step: upload, sort, download (api/sort_pipeline.hpp). The caller's arrays are written by
  // the download only, once the sort has succeeded.
  const SortStep step{{{keys, values, r.n}}, keys, values};
  const StepTimes times = run_sort_steps(device, *plan.algorithm, r.type, r.value_bytes, r.options,
                                         std::span(&step, 1), r.n, r.options.host_threads);
  return with_step_times(std::move(report), times);
}

std::optional<SortReport> argsort_host_in_one_step(rt::Device& device, const algo::Plan& plan, const void* keys,
                                                   void* indices, void* sorted_keys) {
  const SortRequest& r = plan.request;
  if (plan.path == algo::Path::partitioned) return std::nullopt;
  if (r.record_bytes && plan.path != algo::Path::nothing_to_do)  // complex128 keys, planned as records
    return argsort_host_records_in_one_step(device, plan, keys, indices, sorted_keys);
  SortReport report = report_of(device, plan);
  if (plan.path == algo::Path::nothing_to_do) {  // a lone key's index is 0: nothing to do on the device
    if (r.n == 1) std::memset(indices, 0, r.value_bytes);
    if (r.n == 1 && sorted_keys && sorted_keys != keys) std::memcpy(sorted_keys, keys, key_size(r.type));
    return report;
  }
  algo::print_if_verbose(plan, device);
  // keys_out null: only the indices come back
  SortStep step{{{keys, nullptr, r.n}}, sorted_keys, indices};
  step.values_are_positions = true;
  const StepTimes times = run_sort_steps(device, *plan.algorithm, r.type, r.value_bytes, r.options,
                                         std::span(&step, 1), r.n, r.options.host_threads);
  return with_step_times(std::move(report), times);
}

}  // namespace gpusort::detail
