// The top-k entry points (gpusort/topk.hpp): one request, planned once (algorithms/planner.hpp),
// then the plan's selection (algorithms/topk/topk_select.hpp). Host keys go up once and the k of
// each row come back once; the caller's arrays are written only once the device has finished.
#include <cstdio>
#include <optional>
#include <string>

#include "algorithms/planner.hpp"
#include "algorithms/topk/topk_select.hpp"
#include "api/native_enqueue.hpp"
#include "api/segmented_request.hpp"
#include "gpusort/topk.hpp"
#include "runtime/buffer_pool.hpp"
#include "runtime/device.hpp"

namespace gpusort {
namespace {

SortRequest topk_request(key_type type, std::size_t n, std::uint64_t k, std::size_t index_bytes,
                         const TopkOptions& options, data_location where) {
  if (options.segments) {  // segments: their shape, host offsets checked before anything runs
    detail::check_segments_given(*options.segments, n);
    TopkOptions rows = options;
    rows.segments.reset();
    rows.rows = options.segments->count;
    if (options.segments->form == Segments::kind::rows) return topk_request(type, n, k, index_bytes, rows, where);
    SortRequest r = topk_request(type, n, k, index_bytes, TopkOptions{.rows = 1, .largest = options.largest,
                                                                         .sorted = options.sorted,
                                                                         .verbose = options.verbose},
                                 where);
    return detail::segmented_request(*options.segments, r);
  }
  if (options.rows == 0 ? n != 0 : n % options.rows != 0)
    throw Error(errc::invalid_argument, "topk: " + std::to_string(options.rows) + " rows do not cut " +
                                            std::to_string(n) + " keys into rows of one length");
  SortRequest r;
  r.type = type;
  r.n = n;
  r.value_bytes = index_bytes;
  r.where = where;
  r.rows = options.rows;
  r.row_length = options.rows ? n / options.rows : 0;
  r.topk = true;
  r.k = k;
  r.topk_sorted = options.sorted;
  r.options.order = options.largest ? order::descending : order::ascending;
  r.options.stable = true;
  r.options.verbose = options.verbose;
  return r;
}

// Indices without their width, or a width without indices where some are written (k > 0).
void check_indices_given(const void* indices, std::size_t index_bytes, std::uint64_t selected) {
  if ((index_bytes == 0 && indices != nullptr) || (index_bytes != 0 && indices == nullptr && selected != 0))
    throw Error(errc::invalid_argument, "topk: indices and their width must be given together");
}

SortReport report_of(rt::Device& device, const algo::Plan& plan, const algo::RunEvents* events) {
  SortReport report;
  report.device = device.description().id;
  report.algorithm = algo::topk_report_name(plan);
  if (events) {
    report.sort_ms = events->stop->elapsed_ms_since(*events->start);
    report.programs_compiled = events->programs_compiled;
  }
  if (plan.options().verbose && events)
    std::fprintf(stderr, "gpusort: %s on %s (%s): %.3f ms device time\n", report.algorithm.c_str(),
                 device.description().id.c_str(), device.description().name.c_str(), report.sort_ms);
  return report;
}

// Segments by offsets where the device reads them (none for rows).
detail::DeviceSegments offsets_on_device(rt::Device& device, const TopkOptions& options, const SortRequest& r) {
  if (!options.segments || r.offset_bytes == 0) return {};
  return detail::device_segments(device, *options.segments, r);
}

}  // namespace

SortReport topk_host(Context& ctx, key_type type, const void* keys, std::size_t n, std::uint64_t k, void* values,
                     void* indices, std::size_t index_bytes, const TopkOptions& options) {
  rt::Device& device = ctx.runtime_device();
  const algo::Plan plan = algo::make_plan(topk_request(type, n, k, index_bytes, options, data_location::host), device);
  check_indices_given(indices, index_bytes, plan.request.rows * k);
  const SortRequest& r = plan.request;
  if (plan.path == algo::Path::nothing_to_do) return report_of(device, plan, nullptr);
  if (!keys || !values) throw Error(errc::invalid_argument, "topk: keys or values is null");
  const std::size_t kb = key_size(type), selected = r.rows * r.k;
  algo::print_if_verbose(plan, device);
  rt::BufferPtr in = device.temp_pool().get(n * kb), out = device.temp_pool().get(selected * kb);
  rt::BufferPtr idx = index_bytes ? device.temp_pool().get(selected * index_bytes) : nullptr;
  device.write(*in, 0, keys, n * kb);
  const detail::DeviceSegments segments = offsets_on_device(device, options, r);
  algo::TopkJob job{device, *in, *out, idx.get(), segments.offsets.get()};
  const algo::RunEvents events = algo::run_topk(plan, job);
  device.read(*out, 0, values, selected * kb);
  if (idx) device.read(*idx, 0, indices, selected * index_bytes);
  return report_of(device, plan, &events);
}

SortReport topk_device(Context& ctx, key_type type, const DeviceBuffer& keys, std::size_t n, std::uint64_t k,
                       DeviceBuffer& values, DeviceBuffer* indices, std::size_t index_bytes,
                       const TopkOptions& options) {
  rt::Device& device = ctx.runtime_device();
  const algo::Plan plan =
      algo::make_plan(topk_request(type, n, k, index_bytes, options, data_location::device), device);
  check_indices_given(indices, index_bytes, plan.request.rows * k);
  const SortRequest& r = plan.request;
  const std::size_t kb = key_size(type), selected = r.rows * r.k;
  if (n * kb > keys.bytes()) throw Error(errc::invalid_argument, "topk: the keys buffer holds fewer than n keys");
  if (selected * kb > values.bytes())
    throw Error(errc::invalid_argument, "topk: the values buffer holds fewer than rows x k keys");
  if (indices && selected * index_bytes > indices->bytes())
    throw Error(errc::invalid_argument, "topk: the indices buffer holds fewer than rows x k indices");
  if (plan.path == algo::Path::nothing_to_do) return report_of(device, plan, nullptr);
  algo::print_if_verbose(plan, device);
  const detail::DeviceSegments segments = offsets_on_device(device, options, r);
  algo::TopkJob job{device, keys.runtime_buffer(), values.runtime_buffer(),
                    indices ? &indices->runtime_buffer() : nullptr, segments.offsets.get()};
  const algo::RunEvents events = algo::run_topk(plan, job);
  events.stop->wait();
  return report_of(device, plan, &events);
}

Completion topk_native_async(Context& ctx, key_type type, const NativeView& keys, std::size_t n, std::uint64_t k,
                             const NativeView& values, const std::optional<NativeView>& indices,
                             std::size_t index_bytes, const NativeQueue& queue, const TopkOptions& options) {
  std::shared_ptr<rt::Device> device = ctx.shared_runtime_device();
  if (index_bytes != 0 && !indices) throw Error(errc::invalid_argument, "topk: index bytes given without indices");
  const algo::Plan plan = algo::make_plan(
      topk_request(type, n, k, indices ? index_bytes : 0, options, data_location::caller_memory), *device);
  const SortRequest& r = plan.request;
  const std::string name = algo::topk_report_name(plan);
  if (plan.path == algo::Path::nothing_to_do) return Completion(nullptr, name);
  const std::size_t kb = key_size(type), selected = r.rows * r.k;
  rt::BufferPtr in = device->wrap(keys, n * kb), out = device->wrap(values, selected * kb);
  rt::BufferPtr idx = r.value_bytes ? device->wrap(*indices, selected * r.value_bytes) : nullptr;
  const detail::DeviceSegments segments = offsets_on_device(*device, options, r);
  return detail::enqueue_after_caller(
      device, queue,
      [&] {
        algo::print_if_verbose(plan, *device);
        algo::TopkJob job{*device, *in, *out, idx.get(), segments.offsets.get()};
        return algo::run_topk(plan, job);
      },
      name);
}

SortReport topk_native(Context& ctx, key_type type, const NativeView& keys, std::size_t n, std::uint64_t k,
                       const NativeView& values, const std::optional<NativeView>& indices, std::size_t index_bytes,
                       const NativeQueue& queue, const TopkOptions& options) {
  SortOptions report_options;
  report_options.verbose = options.verbose;
  return detail::wait_and_report(
      ctx, topk_native_async(ctx, type, keys, n, k, values, indices, index_bytes, queue, options), report_options);
}

}  // namespace gpusort
