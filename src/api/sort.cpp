// The public sort entry points: validation, transfers, dispatch, timing.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

#include "algorithms/algorithm.hpp"
#include "api/option_checks.hpp"
#include "api/out_of_core.hpp"
#include "gpusort/device_array.hpp"
#include "gpusort/sort.hpp"
#include "runtime/buffer_pool.hpp"
#include "runtime/device.hpp"
#include "runtime/program_cache.hpp"

namespace gpusort {
namespace {

using clock = std::chrono::steady_clock;
double ms_since(clock::time_point t0) { return std::chrono::duration<double, std::milli>(clock::now() - t0).count(); }

void validate(key_type type, std::uint64_t n, const void* values, std::size_t value_bytes) {
  if (value_bytes != 0 && !is_supported_value_size(value_bytes))
    throw Error(errc::invalid_argument, "values of " + std::to_string(value_bytes) + " bytes are not supported (1, 2, 4, 8 or 16)");
  if ((value_bytes == 0 && values != nullptr) || (value_bytes != 0 && values == nullptr && n > 0))
    throw Error(errc::invalid_argument, "values and value size must be given together");
  if (n > std::uint64_t(-1) / 16) throw Error(errc::invalid_argument, "n is too large");
  (void)type;
}

// The temporary storage `algorithm` needs for this sort; Error(unsupported) if it does not say.
std::uint64_t needed_temp_bytes(const algo::Algorithm& algorithm, rt::Device& device, key_type type, std::uint64_t n,
                                std::size_t value_bytes, const SortOptions& options) {
  if (!algorithm.temp_bytes)
    throw Error(errc::unsupported, "algorithm " + algorithm.name +
                                       " does not report its temporary storage; let gpusort allocate it");
  return algorithm.temp_bytes({device, type, n, value_bytes, options});
}

// Runs the chosen algorithm on device buffers; returns the algorithm name, the device time between
// its first and last command, and how many kernel programs this process compiled meanwhile (their
// compile time falls inside the device time: the device waits while the host compiles).
struct DeviceRun {
  std::string algorithm;
  double ms = 0;
  std::uint64_t compiled = 0;
};
// `algorithm` comes from detail::checked_algorithm (options checked). temp_storage: caller-supplied
// temporary storage, checked against the algorithm's needs before anything runs; nullptr =
// temporaries from the device's pool.
DeviceRun run_on_device(rt::Device& device, const algo::Algorithm& algorithm, key_type type, std::uint64_t n,
                        rt::Buffer& keys, rt::Buffer* values, std::size_t value_bytes, const SortOptions& options,
                        rt::Buffer* temp_storage = nullptr) {
  if (temp_storage) {
    const std::uint64_t need = needed_temp_bytes(algorithm, device, type, n, value_bytes, options);
    if (need > temp_storage->bytes())
      throw Error(errc::invalid_argument, algorithm.name + " needs " + std::to_string(need) +
                                              " bytes of temporary storage, got " +
                                              std::to_string(temp_storage->bytes()) +
                                              " (see gpusort::temporary_storage_bytes)");
  }
  algo::SortJob job{device, type, n, value_bytes, keys, values, options, temp_storage};
  if (n <= 1) return {algorithm.name, 0.0, 0};
  const std::uint64_t compiled_before = rt::program_cache_stats().compiled;
  auto start = device.record();
  algorithm.run(job);
  auto stop = device.record();
  double ms = stop->elapsed_ms_since(*start);
  const std::uint64_t compiled = rt::program_cache_stats().compiled - compiled_before;
  if (options.verbose) {
    auto stats = rt::program_cache_stats();
    std::fprintf(stderr, "gpusort: %s on %s (%s): %.3f ms device time; kernel programs compiled %llu, loaded from cache %llu\n",
                 algorithm.name.c_str(), device.description().id.c_str(), device.description().name.c_str(), ms,
                 (unsigned long long)stats.compiled, (unsigned long long)stats.loaded);
  }
  return {algorithm.name, ms, compiled};
}

}  // namespace

std::vector<AlgorithmInfo> algorithms() {
  std::vector<AlgorithmInfo> out;
  for (const auto& a : algo::registry()) out.push_back({a.name, a.description, a.can_be_stable});
  return out;
}

SortReport sort_host(Context& ctx, key_type type, void* keys, std::size_t n, void* values, std::size_t value_bytes,
                     const SortOptions& options) {
  validate(type, n, values, value_bytes);
  if (n > 0 && !keys) throw Error(errc::invalid_argument, "keys is null");
  rt::Device& device = ctx.runtime_device();
  SortReport report;
  report.device = device.description().id;
  // Choose and check the options (reject) before any transfer, so bad requests cost nothing.
  const algo::Algorithm& algorithm = detail::checked_algorithm(device.description(), type, n, value_bytes, options);
  detail::check_device_memory_limit(options, key_size(type), value_bytes);
  report.algorithm = algorithm.name;
  if (n <= 1) return report;

  // Larger than the device budget, or than its largest allocation: sorted in chunks and merged on
  // the host (api/out_of_core.hpp).
  const std::uint64_t budget = detail::device_budget(device.description(), options);
  const std::uint64_t max_buffer = detail::max_buffer_bytes(device.description());
  if (!detail::fits_in_one_piece(n, key_size(type), value_bytes, budget, max_buffer))
    return detail::sort_host_chunked(device, type, keys, n, values, value_bytes, options, budget, max_buffer,
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

DeviceBuffer::DeviceBuffer(Context& ctx, std::size_t bytes)
    : device_(ctx.shared_runtime_device()), buffer_(device_->alloc(bytes)) {}
void DeviceBuffer::upload(const void* src, std::size_t bytes, std::size_t offset) {
  if (offset + bytes > this->bytes()) throw Error(errc::invalid_argument, "DeviceBuffer::upload past the end");
  device_->write(*buffer_, offset, src, bytes);
}
void DeviceBuffer::download(void* dst, std::size_t bytes, std::size_t offset) const {
  if (offset + bytes > this->bytes()) throw Error(errc::invalid_argument, "DeviceBuffer::download past the end");
  device_->read(*buffer_, offset, dst, bytes);
}
std::size_t DeviceBuffer::bytes() const noexcept { return buffer_ ? buffer_->bytes() : 0; }
rt::Buffer& DeviceBuffer::runtime_buffer() const {
  if (!buffer_) throw Error(errc::invalid_argument, "empty DeviceBuffer");
  return *buffer_;
}

namespace {

SortReport sort_device_impl(Context& ctx, key_type type, DeviceBuffer& keys, std::size_t n, DeviceBuffer* values,
                            std::size_t value_bytes, const SortOptions& options, DeviceBuffer* temporary_storage) {
  validate(type, n, values, value_bytes);
  if (n * key_size(type) > keys.bytes())
    throw Error(errc::invalid_argument, "keys buffer holds fewer than n keys");
  if (values && n * value_bytes > values->bytes())
    throw Error(errc::invalid_argument, "values buffer holds fewer than n values");
  rt::Device& device = ctx.runtime_device();
  const algo::Algorithm& algorithm = detail::checked_algorithm(device.description(), type, n, value_bytes, options);
  detail::check_no_device_memory_limit(options);
  SortReport report;
  report.device = device.description().id;
  // Sorting in place on the device: a failure may leave device data partly sorted, but every key
  // and value is still present (drivers only permute within the buffers or their temporaries).
  rt::Buffer* temp = nullptr;
  if (temporary_storage) {
    temp = &temporary_storage->runtime_buffer();
    if (temp == &keys.runtime_buffer() || (values && temp == &values->runtime_buffer()))
      throw Error(errc::invalid_argument, "the temporary storage must be a buffer of its own, not the keys or values");
  }
  const DeviceRun run = run_on_device(device, algorithm, type, n, keys.runtime_buffer(),
                                      values ? &values->runtime_buffer() : nullptr, value_bytes, options, temp);
  report.algorithm = run.algorithm;
  report.sort_ms = run.ms;
  report.programs_compiled = run.compiled;
  return report;
}

}  // namespace

SortReport sort_device(Context& ctx, key_type type, DeviceBuffer& keys, std::size_t n, DeviceBuffer* values,
                       std::size_t value_bytes, const SortOptions& options) {
  return sort_device_impl(ctx, type, keys, n, values, value_bytes, options, nullptr);
}

SortReport sort_device(Context& ctx, key_type type, DeviceBuffer& keys, std::size_t n, DeviceBuffer* values,
                       std::size_t value_bytes, const SortOptions& options, DeviceBuffer& temporary_storage) {
  return sort_device_impl(ctx, type, keys, n, values, value_bytes, options, &temporary_storage);
}

std::size_t temporary_storage_bytes(Context& ctx, key_type type, std::size_t n, std::size_t value_bytes,
                                    const SortOptions& options) {
  if (value_bytes != 0 && !is_supported_value_size(value_bytes))
    throw Error(errc::invalid_argument, "values of " + std::to_string(value_bytes) + " bytes are not supported (1, 2, 4, 8 or 16)");
  if (n > std::uint64_t(-1) / 16) throw Error(errc::invalid_argument, "n is too large");
  rt::Device& device = ctx.runtime_device();
  const algo::Algorithm& algorithm = detail::checked_algorithm(device.description(), type, n, value_bytes, options);
  detail::check_no_device_memory_limit(options);
  return static_cast<std::size_t>(needed_temp_bytes(algorithm, device, type, n, value_bytes, options));
}

}  // namespace gpusort
