// Records sorted by fields (gpusort/records.hpp), as the planner plans them once
// (algorithms/planner.hpp): the passes (algorithms/records/record_passes.hpp) run on the device
// whenever the records and the sorts' temporaries fit it (algorithms/records/record_sort.hpp): keys
// made and records gathered by kernels, the host only copying the records up and down. Larger
// record sets take the host path below: keys made on the host, each pass a host sort of (key,
// index) pairs as its part of the plan (which partitions through the device in chunks), then a
// gather on the host.
#include "gpusort/records.hpp"

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/planner.hpp"
#include "algorithms/records/record_passes.hpp"
#include "algorithms/records/record_sort.hpp"
#include "api/host_sort.hpp"
#include "api/host_transfer.hpp"
#include "core/host_array.hpp"
#include "core/host_clock.hpp"
#include "core/parallel_for.hpp"
#include "gpusort/device_array.hpp"
#include "runtime/buffer_pool.hpp"
#include "runtime/device.hpp"
#include "runtime/drain_on_unwind.hpp"

namespace gpusort {
namespace {

using detail::RecordPass;

std::size_t threads_for(std::size_t n) { return core::threads_for(n, std::size_t(1) << 18); }

void add(SortReport& total, const SortReport& r) {
  total.algorithm = r.algorithm;
  total.device = r.device;
  total.upload_ms += r.upload_ms;
  total.sort_ms += r.sort_ms;
  total.download_ms += r.download_ms;
  total.programs_compiled += r.programs_compiled;
}

// `items` (n of `bytes` each) in the order of `index`, through a host copy.
template <class I>
void gather_on_host(unsigned char* items, std::size_t n, std::size_t bytes, const std::vector<I>& index) {
  core::HostArray sorted = core::make_host_array(std::max<std::size_t>(1, n * bytes));
  core::parallel_for(n, threads_for(n), [&](std::size_t, std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) std::memcpy(sorted.get() + i * bytes, items + std::size_t(index[i]) * bytes, bytes);
  });
  std::memcpy(items, sorted.get(), n * bytes);
}

// Host path: (key, index) passes with index type I, each sorted as its part of the plan, then the
// gather of the records (and of complex128 keys' values).
template <class I>
SortReport sort_by_index(rt::Device& device, const algo::Plan& plan, unsigned char* records, unsigned char* values) {
  const std::size_t n = std::size_t(plan.request.n), rb = plan.request.record_bytes;
  const std::vector<RecordPass>& passes = plan.records.passes;
  SortReport total;
  total.chunks = passes.size();
  std::vector<I> index(n);
  core::parallel_for(n, threads_for(n), [&](std::size_t, std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) index[i] = I(i);
  });
  core::HostArray keys = core::make_host_array(std::max<std::size_t>(1, n * 8));
  for (std::size_t p = 0; p < passes.size(); ++p) {
    const RecordPass& pass = passes[p];
    const std::size_t kb = key_size(pass.type);
    core::parallel_for(n, threads_for(n), [&](std::size_t, std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i)
        detail::record_key(pass, records + std::size_t(index[i]) * rb, keys.get() + i * kb);
    });
    add(total, detail::sort_host_with(device, plan.parts[p], keys.get(), index.data()));
  }
  gather_on_host(records, n, rb, index);
  if (values) gather_on_host(values, n, plan.records.values.bytes, index);
  return total;
}

// Host path for small records with a one-pass key: they travel as the values of their keys.
SortReport sort_with_key(rt::Device& device, const algo::Plan& plan, unsigned char* records) {
  const std::size_t n = std::size_t(plan.request.n), rb = plan.request.record_bytes;
  const RecordPass& pass = plan.records.passes[0];
  const std::size_t kb = key_size(pass.type);
  core::HostArray keys = core::make_host_array(n * kb);
  core::parallel_for(n, threads_for(n), [&](std::size_t, std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) detail::record_key(pass, records + i * rb, keys.get() + i * kb);
  });
  return detail::sort_host_with(device, plan.parts[0], keys.get(), records);
}

// The host form: the records (and complex128 keys' values) uploaded through pinned staging,
// sorted on the device (algorithms/records/record_sort.hpp), downloaded: the sorted records into
// records_out (null: not wanted, an argsort's), the values or an argsort's indices into values_out.
// The outputs are written only once the device sort has succeeded.
SortReport sort_host_records_via_device(rt::Device& device, const algo::Plan& plan, const void* records,
                                        void* records_out, const void* values, void* values_out) {
  const std::size_t n = std::size_t(plan.request.n);
  const std::size_t bytes = n * plan.request.record_bytes;
  const detail::RecordValues& rv = plan.records.values;
  const std::size_t value_bytes = n * rv.bytes;
  SortReport report;
  // Everything that can fail for lack of memory is allocated before the first copy (through the
  // pool: on a shortage it frees its cached buffers and tries again).
  rt::BufferPool& pool = device.temp_pool();
  rt::BufferPtr in = pool.get(bytes);
  rt::BufferPtr out = plan.records.move_with_key || !records_out ? nullptr : pool.get(bytes);
  rt::BufferPtr values_in = rv.bytes && !rv.positions ? pool.get(value_bytes) : nullptr;
  rt::BufferPtr values_sorted = rv.bytes ? pool.get(value_bytes) : nullptr;
  const unsigned threads = detail::transfer_threads(plan.options().host_threads, false);
  rt::DrainOnUnwind drain(device);
  auto t = core::host_clock::now();
  std::vector<detail::UploadPiece> up{{records, in.get(), 0, bytes}};
  if (values_in) up.push_back({values, values_in.get(), 0, value_bytes});
  detail::upload(device, up, threads);
  report.upload_ms = core::ms_since(t);
  rt::Buffer* sorted = plan.records.move_with_key ? in.get() : out.get();
  const SortReport on_device = detail::sort_records_on_device(
      device, plan, detail::RecordBuffers{*in, sorted, values_in.get(), values_sorted.get()});
  report.device = on_device.device;
  report.chunks = on_device.chunks;
  report.algorithm = on_device.algorithm;
  report.sort_ms = on_device.sort_ms;
  report.programs_compiled = on_device.programs_compiled;
  t = core::host_clock::now();
  std::vector<detail::DownloadPiece> down;
  if (sorted) down.push_back({records_out, sorted, 0, bytes});
  if (values_sorted) down.push_back({values_out, values_sorted.get(), 0, value_bytes});
  detail::download(device, down, threads);
  report.download_ms = core::ms_since(t);
  return report;
}

// The request of a record sort (the planner checks it, then plans it once).
SortRequest records_request(std::size_t n, std::size_t record_bytes, std::span<const RecordField> fields,
                            data_location where, const SortOptions& options) {
  return {.n = n,
          .where = where,
          .record_bytes = record_bytes,
          .record_fields = std::vector<RecordField>(fields.begin(), fields.end()),
          .options = options};
}

}  // namespace

SortReport sort_records(Context& ctx, void* records, std::size_t n, std::size_t record_bytes,
                        std::span<const RecordField> fields, const SortOptions& options) {
  rt::Device& device = ctx.runtime_device();
  const algo::Plan plan =
      algo::make_plan(records_request(n, record_bytes, fields, data_location::host, options), device);
  if (n > 0 && !records) throw Error(errc::invalid_argument, "records is null");
  return detail::sort_host_records(device, plan, records);
}

SortReport detail::sort_host_records(rt::Device& device, const algo::Plan& plan, void* records, void* values) {
  auto* bytes = static_cast<unsigned char*>(records);
  auto* value_bytes = plan.records.values.bytes ? static_cast<unsigned char*>(values) : nullptr;
  algo::print_if_verbose(plan, device);
  switch (plan.path) {
    case algo::Path::one_piece: return sort_host_records_via_device(device, plan, bytes, bytes, value_bytes, value_bytes);
    case algo::Path::host_passes:
      if (plan.records.move_with_key) return sort_with_key(device, plan, bytes);
      if (plan.records.index_bytes == 4) return sort_by_index<std::uint32_t>(device, plan, bytes, value_bytes);
      return sort_by_index<std::uint64_t>(device, plan, bytes, value_bytes);
    default: return SortReport{.algorithm = plan.algorithm->name, .device = device.description().id};
  }
}

std::optional<SortReport> detail::argsort_host_records_in_one_step(rt::Device& device, const algo::Plan& plan,
                                                                   const void* keys, void* indices, void* sorted_keys) {
  if (plan.path != algo::Path::one_piece) return std::nullopt;
  algo::print_if_verbose(plan, device);
  return sort_host_records_via_device(device, plan, keys, sorted_keys, nullptr, indices);
}

namespace {

void check_device_records(const DeviceBuffer& buffer, std::size_t n, std::size_t record_bytes, const char* what) {
  if (n > buffer.bytes() / record_bytes)
    throw Error(errc::invalid_argument, std::string(what) + " holds fewer than n records of " +
                                            std::to_string(record_bytes) + " bytes");
}

// Planned before the buffers' sizes are checked (the order and options first, as for host records).
algo::Plan device_records_plan(Context& ctx, std::size_t n, std::size_t record_bytes,
                               std::span<const RecordField> fields, const SortOptions& options) {
  return algo::make_plan(records_request(n, record_bytes, fields, data_location::device, options),
                         ctx.runtime_device());
}

SortReport device_records(Context& ctx, const algo::Plan& plan, const DeviceBuffer& in, DeviceBuffer& out) {
  algo::print_if_verbose(plan, ctx.runtime_device());
  return detail::sort_records_on_device(ctx.runtime_device(), plan, in.runtime_buffer(), out.runtime_buffer());
}

}  // namespace

SortReport sort_records_device(Context& ctx, DeviceBuffer& records, std::size_t n, std::size_t record_bytes,
                               std::span<const RecordField> fields, const SortOptions& options) {
  const algo::Plan plan = device_records_plan(ctx, n, record_bytes, fields, options);
  check_device_records(records, n, record_bytes, "the records buffer");
  return device_records(ctx, plan, records, records);
}

SortReport sort_records_device(Context& ctx, const DeviceBuffer& in, DeviceBuffer& out, std::size_t n,
                               std::size_t record_bytes, std::span<const RecordField> fields,
                               const SortOptions& options) {
  const algo::Plan plan = device_records_plan(ctx, n, record_bytes, fields, options);
  check_device_records(in, n, record_bytes, "the input buffer");
  check_device_records(out, n, record_bytes, "the output buffer");
  if (n > 0 && &in.runtime_buffer() == &out.runtime_buffer())
    throw Error(errc::invalid_argument, "sort_records_device: in and out are the same buffer (use the in-place form)");
  return device_records(ctx, plan, in, out);
}

}  // namespace gpusort
