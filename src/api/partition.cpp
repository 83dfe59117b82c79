// The partition entry points (gpusort/partition.hpp): one request, planned once
// (algorithms/planner.hpp), then the plan's selection and scatter (algorithms/topk/topk_partition.hpp).
// Host keys go up once and the result comes back once; the caller's arrays are written only once
// the device has finished.
#include <cstdio>
#include <optional>
#include <string>

#include "algorithms/planner.hpp"
#include "algorithms/topk/topk_partition.hpp"
#include "api/native_enqueue.hpp"
#include "gpusort/partition.hpp"
#include "runtime/buffer_pool.hpp"
#include "runtime/device.hpp"

namespace gpusort {
namespace {

const char* name_of(bool kth_only) { return kth_only ? "select_kth" : "partition"; }

// The elements each output holds: the keys, or one a row for select_kth.
std::uint64_t written_of(const SortRequest& r) { return r.select_kth ? r.rows : r.n; }

SortRequest partition_request(key_type type, std::size_t n, std::int64_t kth, std::size_t index_bytes, bool kth_only,
                              const PartitionOptions& options, data_location where) {
  const char* what = name_of(kth_only);
  if (options.rows == 0 ? n != 0 : n % options.rows != 0)
    throw Error(errc::invalid_argument, std::string(what) + ": " + std::to_string(options.rows) +
                                            " rows do not cut " + std::to_string(n) + " keys into rows of one length");
  SortRequest r;
  r.type = type;
  r.n = n;
  r.value_bytes = index_bytes;
  r.where = where;
  r.rows = options.rows;
  r.row_length = options.rows ? n / options.rows : 0;
  r.partition = true;
  r.select_kth = kth_only;
  // numpy's negative kth counts from the row's end; without keys, as numpy, any kth selects nothing
  const auto length = static_cast<std::int64_t>(r.row_length);
  if (n != 0 && (kth < -length || kth >= length))
    throw Error(errc::invalid_argument, std::string(what) + ": kth = " + std::to_string(kth) + " is outside " +
                                            std::to_string(-length) + " .. " + std::to_string(length - 1) +
                                            " (rows of " + std::to_string(length) + " keys)");
  r.kth = n == 0 ? 0 : static_cast<std::uint64_t>(kth < 0 ? kth + length : kth);
  r.options.stable = true;
  r.options.verbose = options.verbose;
  return r;
}

// Positions without their width or a width without positions; neither keys nor positions out,
// where something is written (an empty output's memory may be null).
void check_outputs(bool kth_only, const void* out_keys, const void* positions, std::size_t index_bytes,
                   std::uint64_t written) {
  const std::string what = name_of(kth_only);
  if ((index_bytes == 0 && positions) || (index_bytes != 0 && !positions && written != 0))
    throw Error(errc::invalid_argument, what + ": positions and their width must be given together");
  if (!out_keys && !positions && written != 0)
    throw Error(errc::invalid_argument, what + ": neither keys nor positions to write");
}

SortReport report_of(rt::Device& device, const algo::Plan& plan, const algo::RunEvents* events) {
  SortReport report;
  report.device = device.description().id;
  report.algorithm = algo::partition_report_name(plan);
  if (events) {
    report.sort_ms = events->stop->elapsed_ms_since(*events->start);
    report.programs_compiled = events->programs_compiled;
  }
  if (plan.options().verbose && events)
    std::fprintf(stderr, "gpusort: %s on %s (%s): %.3f ms device time\n", report.algorithm.c_str(),
                 device.description().id.c_str(), device.description().name.c_str(), report.sort_ms);
  return report;
}


SortReport run_host(Context& ctx, key_type type, const void* keys, std::size_t n, std::int64_t kth, void* out_keys,
                    void* positions, std::size_t index_bytes, bool kth_only, const PartitionOptions& options) {
  rt::Device& device = ctx.runtime_device();
  const algo::Plan plan =
      algo::make_plan(partition_request(type, n, kth, index_bytes, kth_only, options, data_location::host), device);
  check_outputs(kth_only, out_keys, positions, index_bytes, written_of(plan.request));
  if (plan.path == algo::Path::nothing_to_do) return report_of(device, plan, nullptr);
  if (!keys) throw Error(errc::invalid_argument, std::string(name_of(kth_only)) + ": keys is null");
  const std::size_t kb = key_size(type), written = written_of(plan.request);
  algo::print_if_verbose(plan, device);
  rt::BufferPtr in = device.temp_pool().get(n * kb);
  rt::BufferPtr out = out_keys ? device.temp_pool().get(written * kb) : nullptr;
  rt::BufferPtr idx = positions ? device.temp_pool().get(written * index_bytes) : nullptr;
  device.write(*in, 0, keys, n * kb);
  algo::PartitionJob job{device, *in, out.get(), idx.get()};
  const algo::RunEvents events = algo::run_partition(plan, job);
  if (out) device.read(*out, 0, out_keys, written * kb);
  if (idx) device.read(*idx, 0, positions, written * index_bytes);
  return report_of(device, plan, &events);
}

}  // namespace

SortReport partition_host(Context& ctx, key_type type, const void* keys, std::size_t n, std::int64_t kth,
                          void* out_keys, void* positions, std::size_t index_bytes, const PartitionOptions& options) {
  return run_host(ctx, type, keys, n, kth, out_keys, positions, index_bytes, false, options);
}

SortReport select_kth_host(Context& ctx, key_type type, const void* keys, std::size_t n, std::int64_t kth,
                           void* values, void* positions, std::size_t index_bytes, const PartitionOptions& options) {
  return run_host(ctx, type, keys, n, kth, values, positions, index_bytes, true, options);
}

SortReport partition_device(Context& ctx, key_type type, const DeviceBuffer& keys, std::size_t n, std::int64_t kth,
                            DeviceBuffer* out_keys, DeviceBuffer* positions, std::size_t index_bytes, bool kth_only,
                            const PartitionOptions& options) {
  rt::Device& device = ctx.runtime_device();
  const algo::Plan plan = algo::make_plan(
      partition_request(type, n, kth, index_bytes, kth_only, options, data_location::device), device);
  check_outputs(kth_only, out_keys, positions, index_bytes, written_of(plan.request));
  const std::string what = name_of(kth_only);
  const std::size_t kb = key_size(type), written = written_of(plan.request);
  if (n * kb > keys.bytes()) throw Error(errc::invalid_argument, what + ": the keys buffer holds fewer than n keys");
  if (out_keys && written * kb > out_keys->bytes())
    throw Error(errc::invalid_argument, what + ": the output keys buffer holds fewer than " +
                                            std::to_string(written) + " keys");
  if (positions && written * index_bytes > positions->bytes())
    throw Error(errc::invalid_argument, what + ": the positions buffer holds fewer than " +
                                            std::to_string(written) + " positions");
  if (plan.path == algo::Path::nothing_to_do) return report_of(device, plan, nullptr);
  algo::print_if_verbose(plan, device);
  algo::PartitionJob job{device, keys.runtime_buffer(), out_keys ? &out_keys->runtime_buffer() : nullptr,
                         positions ? &positions->runtime_buffer() : nullptr};
  const algo::RunEvents events = algo::run_partition(plan, job);
  events.stop->wait();
  return report_of(device, plan, &events);
}

Completion partition_native_async(Context& ctx, key_type type, const NativeView& keys, std::size_t n, std::int64_t kth,
                                  const std::optional<NativeView>& out_keys,
                                  const std::optional<NativeView>& positions, std::size_t index_bytes,
                                  bool kth_only, const NativeQueue& queue, const PartitionOptions& options) {
  std::shared_ptr<rt::Device> device = ctx.shared_runtime_device();
  const std::string what = name_of(kth_only);
  if ((index_bytes != 0) != positions.has_value())
    throw Error(errc::invalid_argument, what + ": positions and their width must be given together");
  if (!out_keys && !positions) throw Error(errc::invalid_argument, what + ": neither keys nor positions to write");
  const algo::Plan plan = algo::make_plan(
      partition_request(type, n, kth, index_bytes, kth_only, options, data_location::caller_memory), *device);
  const SortRequest& r = plan.request;
  const std::string name = algo::partition_report_name(plan);
  if (plan.path == algo::Path::nothing_to_do) return Completion(nullptr, name);
  const std::size_t kb = key_size(type), written = written_of(r);
  rt::BufferPtr in = device->wrap(keys, n * kb);
  rt::BufferPtr out = out_keys ? device->wrap(*out_keys, written * kb) : nullptr;
  rt::BufferPtr idx = positions ? device->wrap(*positions, written * index_bytes) : nullptr;
  return detail::enqueue_after_caller(
      device, queue,
      [&] {
        algo::print_if_verbose(plan, *device);
        algo::PartitionJob job{*device, *in, out.get(), idx.get()};
        return algo::run_partition(plan, job);
      },
      name);
}

SortReport partition_native(Context& ctx, key_type type, const NativeView& keys, std::size_t n, std::int64_t kth,
                            const std::optional<NativeView>& out_keys, const std::optional<NativeView>& positions,
                            std::size_t index_bytes, bool kth_only, const NativeQueue& queue,
                            const PartitionOptions& options) {
  SortOptions report_options;
  report_options.verbose = options.verbose;
  return detail::wait_and_report(
      ctx,
      partition_native_async(ctx, type, keys, n, kth, out_keys, positions, index_bytes, kth_only, queue, options),
      report_options);
}

}  // namespace gpusort
