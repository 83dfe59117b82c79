#include "api/host_sort.hpp"

#include <chrono>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "api/device_run.hpp"
#include "api/out_of_core.hpp"
#include "runtime/buffer_pool.hpp"

namespace gpusort::detail {
namespace {

using clock = std::chrono::steady_clock;
double ms_since(clock::time_point t0) { return std::chrono::duration<double, std::milli>(clock::now() - t0).count(); }

}  // namespace

SortReport sort_host_with(rt::Device& device, const algo::Algorithm& algorithm, key_type type, void* keys,
                          std::size_t n, void* values, std::size_t value_bytes, const SortOptions& options) {
  SortReport report;
  report.device = device.description().id;
  report.algorithm = algorithm.name;
  if (n <= 1) return report;

  // Larger than the device budget, or than its largest allocation: sorted in chunks and merged on
  // the host (api/out_of_core.hpp).
  const std::uint64_t budget = device_budget(device.description(), options);
  const std::uint64_t max_buffer = max_buffer_bytes(device.description());
  if (!fits_in_one_piece(n, key_size(type), value_bytes, budget, max_buffer))
    return sort_host_chunked(device, algorithm, type, keys, n, values, value_bytes, options, budget, max_buffer,
                             std::move(report));

  const std::size_t key_bytes = n * key_size(type);
  const std::size_t val_bytes = n * value_bytes;
  auto t0 = clock::now();
  // Device copies from the pool: repeated small sorts allocate nothing after the first.
  rt::BufferPtr dkeys = device.temp_pool().get(key_bytes);
  rt::BufferPtr dvalues = value_bytes ? device.temp_pool().get(val_bytes) : nullptr;
  device.write(*dkeys, 0, keys, key_bytes);
  if (dvalues) device.write(*dvalues, 0, values, val_bytes);
  report.upload_ms = ms_since(t0);

  const DeviceRun run = run_on_device(device, algorithm, type, n, *dkeys, dvalues.get(), value_bytes, options);
  report.sort_ms = run.ms;
  report.programs_compiled = run.compiled;

  // Download into staging first: the caller's arrays change only once everything has succeeded.
  t0 = clock::now();
  std::vector<unsigned char> staged_keys, staged_values;
  try {
    staged_keys.resize(key_bytes);
    staged_values.resize(val_bytes);
  } catch (const std::bad_alloc&) {
    throw Error(errc::out_of_memory, "cannot allocate " + std::to_string(key_bytes + val_bytes) + " bytes of host staging memory");
  }
  device.read(*dkeys, 0, staged_keys.data(), key_bytes);
  if (dvalues) device.read(*dvalues, 0, staged_values.data(), val_bytes);
  std::memcpy(keys, staged_keys.data(), key_bytes);
  if (dvalues) std::memcpy(values, staged_values.data(), val_bytes);
  report.download_ms = ms_since(t0);
  return report;
}

}  // namespace gpusort::detail
