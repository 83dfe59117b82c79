// The segmented entry points of host data and DeviceArray (gpusort/segmented.hpp): one request,
// planned once (algorithms/planner.hpp), the offsets checked on the host, then the plan's bin
// (algorithms/segmented/segmented_sort.hpp). Host data go up and come back in one piece through
// the sort pipeline (api/sort_pipeline.hpp): the caller's arrays are written only once the sort
// has succeeded.
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>

#include "algorithms/planner.hpp"
#include "algorithms/segmented/segmented_sort.hpp"
#include "api/segmented_request.hpp"
#include "api/sort_pipeline.hpp"
#include "gpusort/segmented.hpp"
#include "runtime/device.hpp"

namespace gpusort {
namespace {

// What SortRequest cannot say: values given without their width or the other way round.
void check_values_given(const void* values, std::size_t value_bytes, std::uint64_t n) {
  if ((value_bytes == 0 && values != nullptr) || (value_bytes != 0 && values == nullptr && n > 0))
    throw Error(errc::invalid_argument, "values and value size must be given together");
}

SortReport report_of(rt::Device& device, const algo::Plan& plan) {
  SortReport report;
  report.device = device.description().id;
  report.algorithm = plan.request.segmented() ? algo::segmented_report_name(plan) : plan.algorithm->name;
  return report;
}

// One step of host data through the pipeline, sorted by the plan's bin.
SortReport run_host_step(rt::Device& device, const algo::Plan& plan, const Segments& segments, const detail::SortStep& step) {
  const SortRequest& r = plan.request;
  algo::print_if_verbose(plan, device);
  const detail::DeviceSegments on_device = detail::device_segments(device, segments, r);
  algo::SegmentedBin ran = plan.segments.bin;
  auto sort = [&](algo::SortJob& job) {
    algo::SegmentedJob segmented{job, on_device.shape};
    algo::RunEvents events = algo::run_segmented(plan, segmented);
    ran = segmented.ran;
    return events;
  };
  const detail::StepTimes times = detail::run_sort_steps(device, *plan.algorithm, r.type, r.value_bytes, r.options,
                                                         std::span(&step, 1), r.n, r.options.host_threads, {},
                                                         nullptr, sort);
  SortReport report = report_of(device, plan);
  report.algorithm = algo::segmented_report_name(plan, ran);  // the bin that sorted
  return detail::with_step_times(std::move(report), times);
}

}  // namespace

SortReport sort_segments_host(Context& ctx, key_type type, void* keys, std::size_t n, void* values,
                              std::size_t value_bytes, const Segments& segments, const SortOptions& options) {
  check_values_given(values, value_bytes, n);
  if (n > 0 && !keys) throw Error(errc::invalid_argument, "keys is null");
  rt::Device& device = ctx.runtime_device();
  // Planned (and refused) before any transfer, so bad requests cost nothing.
  const algo::Plan plan = algo::make_plan(
      detail::segmented_request(segments, {.type = type, .n = n, .value_bytes = value_bytes, .options = options}),
      device);
  detail::check_segments_given(segments, n);
  if (plan.path == algo::Path::nothing_to_do) return report_of(device, plan);
  return run_host_step(device, plan, segments, {{{keys, values, n}}, keys, values});
}

SortReport argsort_segments_host(Context& ctx, key_type type, const void* keys, std::size_t n, void* sorted_keys,
                                 void* indices, std::size_t index_bytes, const Segments& segments,
                                 const SortOptions& options) {
  rt::Device& device = ctx.runtime_device();
  const algo::Plan plan = algo::make_plan(
      detail::segmented_request(
          segments, {.type = type, .n = n, .value_bytes = index_bytes, .positions = true, .options = options}),
      device);
  if (n > 0 && (!keys || !indices)) throw Error(errc::invalid_argument, "argsort: keys or indices is null");
  detail::check_segments_given(segments, n);
  if (plan.path == algo::Path::nothing_to_do) {  // a lone key is the first of its segment
    if (n == 1) std::memset(indices, 0, index_bytes);
    if (n == 1 && sorted_keys && sorted_keys != keys) std::memcpy(sorted_keys, keys, key_size(type));
    return report_of(device, plan);
  }
  // The keys go up as they lie (never written), the indices are made on the device, and only they
  // (and the sorted keys, where asked for) come back.
  detail::SortStep step{{{keys, nullptr, n}}, sorted_keys, indices};
  step.values_are_positions = true;
  return run_host_step(device, plan, segments, step);
}

SortReport sort_segments_device(Context& ctx, key_type type, DeviceBuffer& keys, std::size_t n, DeviceBuffer* values,
                                std::size_t value_bytes, const Segments& segments, const SortOptions& options) {
  check_values_given(values, value_bytes, n);
  rt::Device& device = ctx.runtime_device();
  const algo::Plan plan = algo::make_plan(
      detail::segmented_request(segments, {.type = type,
                                           .n = n,
                                           .value_bytes = value_bytes,
                                           .where = data_location::device,
                                           .options = options}),
      device);
  if (n * key_size(type) > keys.bytes()) throw Error(errc::invalid_argument, "keys buffer holds fewer than n keys");
  if (values && n * value_bytes > values->bytes())
    throw Error(errc::invalid_argument, "values buffer holds fewer than n values");
  detail::check_segments_given(segments, n);
  SortReport report = report_of(device, plan);
  if (plan.path == algo::Path::nothing_to_do) return report;
  // In place on the device: a failure may leave the data partly sorted, every key and value still
  // present (the bins permute within the buffers or their temporaries).
  const detail::DeviceSegments on_device = detail::device_segments(device, segments, plan.request);
  algo::print_if_verbose(plan, device);
  algo::SortJob job{device, type, n, value_bytes, keys.runtime_buffer(), values ? &values->runtime_buffer() : nullptr,
                    plan.options()};
  algo::SegmentedJob segmented{job, on_device.shape};
  const algo::RunEvents events = algo::run_segmented(plan, segmented);
  report.algorithm = algo::segmented_report_name(plan, segmented.ran);  // the bin that sorted
  report.sort_ms = events.stop->elapsed_ms_since(*events.start);
  report.programs_compiled = events.programs_compiled;
  if (options.verbose)
    std::fprintf(stderr, "gpusort: %s on %s (%s): %.3f ms device time\n", report.algorithm.c_str(),
                 device.description().id.c_str(), device.description().name.c_str(), report.sort_ms);
  return report;
}

}  // namespace gpusort
