// Records sorted by fields (gpusort/records.hpp). The passes (algorithms/records/record_passes.hpp) run on the
// device whenever the records and the sorts' temporaries fit it (algorithms/records/record_sort.hpp): keys
// made and records gathered by kernels, the host only copying the records up and down. Larger
// record sets take the host path below: keys made on the host, each pass a host sort of (key,
// index) pairs (which partitions through the device in chunks), then a gather on the host.
#include "gpusort/records.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "algorithms/request_checks.hpp"
#include "algorithms/records/record_passes.hpp"
#include "algorithms/records/record_sort.hpp"
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

// Host path: (key, index) passes with index type I, then the gather.
template <class I>
SortReport sort_by_index(Context& ctx, unsigned char* records, std::size_t n, std::size_t rb,
                         const std::vector<RecordPass>& passes, SortOptions options) {
  SortReport total;
  total.chunks = passes.size();
  std::vector<I> index(n);
  core::parallel_for(n, threads_for(n), [&](std::size_t, std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) index[i] = I(i);
  });
  core::HostArray keys = core::make_host_array(std::max<std::size_t>(1, n * 8));
  for (const RecordPass& pass : passes) {
    const std::size_t kb = key_size(pass.type);
    core::parallel_for(n, threads_for(n), [&](std::size_t, std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i)
        detail::record_key(pass, records + std::size_t(index[i]) * rb, keys.get() + i * kb);
    });
    options.order = pass.descending ? order::descending : order::ascending;
    add(total, sort_host(ctx, pass.type, keys.get(), n, index.data(), sizeof(I), options));
  }
  core::HostArray sorted = core::make_host_array(std::max<std::size_t>(1, n * rb));
  core::parallel_for(n, threads_for(n), [&](std::size_t, std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) std::memcpy(sorted.get() + i * rb, records + std::size_t(index[i]) * rb, rb);
  });
  std::memcpy(records, sorted.get(), n * rb);
  return total;
}

// Host path for small records with a one-pass key: they travel as the values of their keys.
SortReport sort_with_key(Context& ctx, unsigned char* records, std::size_t n, std::size_t rb, const RecordPass& pass,
                         SortOptions options) {
  const std::size_t kb = key_size(pass.type);
  core::HostArray keys = core::make_host_array(n * kb);
  core::parallel_for(n, threads_for(n), [&](std::size_t, std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) detail::record_key(pass, records + i * rb, keys.get() + i * kb);
  });
  options.order = pass.descending ? order::descending : order::ascending;
  return sort_host(ctx, pass.type, keys.get(), n, records, rb, options);
}

// The host form: the records uploaded through pinned staging, sorted on the device
// (algorithms/records/record_sort.hpp), downloaded into `records`, which are written only once the
// device sort has succeeded.
SortReport sort_host_records_via_device(rt::Device& device, void* records, std::uint64_t n, std::size_t record_bytes,
                                        const std::vector<detail::RecordPass>& passes, const SortOptions& options) {
  SortReport report;
  report.device = device.description().id;
  report.chunks = std::max<std::size_t>(1, passes.size());
  if (n <= 1) return report;
  const std::size_t bytes = std::size_t(n * record_bytes);
  // Everything that can fail for lack of memory is allocated before the first copy (through the
  // pool: on a shortage it frees its cached buffers and tries again).
  rt::BufferPool& pool = device.temp_pool();
  rt::BufferPtr in = pool.get(bytes);
  rt::BufferPtr out = detail::records_move_with_key(passes, record_bytes) ? nullptr : pool.get(bytes);
  const unsigned threads = detail::transfer_threads(options.host_threads, false);
  rt::DrainOnUnwind drain(device);
  auto t = core::host_clock::now();
  const detail::UploadPiece up{records, in.get(), 0, bytes};
  detail::upload(device, std::span(&up, 1), threads);
  report.upload_ms = core::ms_since(t);
  rt::Buffer& sorted = out ? *out : *in;
  const SortReport on_device = detail::sort_records_on_device(device, *in, sorted, n, record_bytes, passes, options);
  report.algorithm = on_device.algorithm;
  report.sort_ms = on_device.sort_ms;
  report.programs_compiled = on_device.programs_compiled;
  t = core::host_clock::now();
  const detail::DownloadPiece down{records, &sorted, 0, bytes};
  detail::download(device, std::span(&down, 1), threads);
  report.download_ms = core::ms_since(t);
  return report;
}

}  // namespace

SortReport sort_records(Context& ctx, void* records, std::size_t n, std::size_t record_bytes,
                        std::span<const RecordField> fields, const SortOptions& options) {
  detail::check_record_order(record_bytes, fields, options);
  if (n > 0 && !records) throw Error(errc::invalid_argument, "records is null");
  SortOptions o = options;
  o.stable = true;  // the passes rely on it
  const std::vector<RecordPass> passes = detail::record_passes(fields);
  auto* bytes = static_cast<unsigned char*>(records);
  rt::Device& device = ctx.runtime_device();
  // The caller's options as given (host_threads, the algorithm's fields, the budget), before
  // anything runs; the device path's passes see them without the host-only fields.
  detail::checked_algorithm(device.description(), n, o);
  const bool with_key = detail::records_move_with_key(passes, record_bytes);
  if (!passes.empty()) {  // the host path's chunks need this much (a comparator has no host path)
    std::size_t widest = 0;
    for (const RecordPass& pass : passes) widest = std::max(widest, key_size(pass.type));
    detail::check_device_memory_limit(o, widest, with_key ? record_bytes : detail::record_index_bytes(n));
  }
  if (n <= 1) return SortReport{};
  if (detail::records_fit_device(device, n, record_bytes, passes, o))
    return sort_host_records_via_device(device, bytes, n, record_bytes, passes, o);
  if (passes.empty())
    throw Error(errc::unsupported,
                "a record comparator runs on the device: " + std::to_string(n) + " records of " +
                    std::to_string(record_bytes) + " bytes, their addresses and the sort's temporaries (" +
                    std::to_string(n * record_bytes +
                                   detail::records_device_extra_bytes(device, n, record_bytes, passes, o)) +
                    " bytes) do not fit the device budget; sort by key fields (RecordField) instead");
  if (with_key) return sort_with_key(ctx, bytes, n, record_bytes, passes[0], o);
  if (n <= std::size_t(UINT32_MAX)) return sort_by_index<std::uint32_t>(ctx, bytes, n, record_bytes, passes, o);
  return sort_by_index<std::uint64_t>(ctx, bytes, n, record_bytes, passes, o);
}

namespace {

void check_device_records(const DeviceBuffer& buffer, std::size_t n, std::size_t record_bytes, const char* what) {
  if (n > buffer.bytes() / record_bytes)
    throw Error(errc::invalid_argument, std::string(what) + " holds fewer than n records of " +
                                            std::to_string(record_bytes) + " bytes");
}

SortReport device_records(Context& ctx, const DeviceBuffer& in, DeviceBuffer& out, std::size_t n,
                          std::size_t record_bytes, std::span<const RecordField> fields, const SortOptions& options) {
  detail::check_no_host_options(options);  // the order was checked before the buffers' sizes
  SortOptions o = options;
  o.stable = true;
  return detail::sort_records_on_device(ctx.runtime_device(), in.runtime_buffer(), out.runtime_buffer(), n,
                                        record_bytes, detail::record_passes(fields), o);
}

}  // namespace

SortReport sort_records_device(Context& ctx, DeviceBuffer& records, std::size_t n, std::size_t record_bytes,
                               std::span<const RecordField> fields, const SortOptions& options) {
  detail::check_record_order(record_bytes, fields, options);
  check_device_records(records, n, record_bytes, "the records buffer");
  return device_records(ctx, records, records, n, record_bytes, fields, options);
}

SortReport sort_records_device(Context& ctx, const DeviceBuffer& in, DeviceBuffer& out, std::size_t n,
                               std::size_t record_bytes, std::span<const RecordField> fields,
                               const SortOptions& options) {
  detail::check_record_order(record_bytes, fields, options);
  check_device_records(in, n, record_bytes, "the input buffer");
  check_device_records(out, n, record_bytes, "the output buffer");
  if (n > 0 && &in.runtime_buffer() == &out.runtime_buffer())
    throw Error(errc::invalid_argument, "sort_records_device: in and out are the same buffer (use the in-place form)");
  return device_records(ctx, in, out, n, record_bytes, fields, options);
}

}  // namespace gpusort
