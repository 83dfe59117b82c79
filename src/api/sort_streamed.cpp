// Sorts of arrays read and written through the caller's functions (gpusort/streamed.hpp): one step
// of the sort pipeline (api/sort_pipeline.hpp) whose pieces are filled and drained by those
// functions in the pinned slots themselves.
#include "gpusort/streamed.hpp"

#include <utility>

#include "api/option_checks.hpp"
#include "api/out_of_core.hpp"
#include "api/sort_pipeline.hpp"
#include "runtime/device.hpp"

namespace gpusort {
namespace {

void check_arrays(std::size_t n, const StreamedArrays& a) {
  if (a.value_bytes != 0 && !is_supported_value_size(a.value_bytes))
    throw Error(errc::invalid_argument,
                "values of " + std::to_string(a.value_bytes) + " bytes are not supported (1, 2, 4, 8 or 16)");
  if (n > std::uint64_t(-1) / 16) throw Error(errc::invalid_argument, "n is too large");
  if (n == 0) return;
  if (!a.read_keys || !a.write_keys)
    throw Error(errc::invalid_argument, "sort_streamed: read_keys and write_keys must both be given");
  const bool with_values = a.value_bytes != 0;
  if (with_values != bool(a.read_values) || with_values != bool(a.write_values))
    throw Error(errc::invalid_argument,
                "sort_streamed: value_bytes, read_values and write_values must be given together");
}

}  // namespace

bool fits_streamed(Context& ctx, key_type type, std::size_t n, std::size_t value_bytes, const SortOptions& options) {
  const DeviceDescription& d = ctx.device();
  return detail::fits_in_one_piece(n, key_size(type), value_bytes, detail::device_budget(d, options),
                                   detail::max_buffer_bytes(d));
}

SortReport sort_streamed(Context& ctx, key_type type, std::size_t n, const StreamedArrays& arrays,
                         const SortOptions& options) {
  detail::check_key_type(type);
  check_arrays(n, arrays);
  rt::Device& device = ctx.runtime_device();
  // Every check before the first read, so a bad request costs nothing.
  const algo::Algorithm& algorithm = detail::checked_algorithm(device.description(), n, options);
  detail::check_device_memory_limit(options, key_size(type), arrays.value_bytes);
  SortReport report;
  report.device = device.description().id;
  report.algorithm = algorithm.name;
  if (!fits_streamed(ctx, type, n, arrays.value_bytes, options))
    throw Error(errc::out_of_memory, "sort_streamed: " + std::to_string(n) + " elements do not fit the device in one " +
                                         "piece (raise SortOptions::device_memory_limit, or sort them in host memory: " +
                                         "sort_host sorts larger arrays in chunks and buckets)");
  if (n == 0) return report;
  const bool pairs = arrays.value_bytes != 0;
  detail::HostRange range{nullptr, nullptr, n, &arrays.read_keys, pairs ? &arrays.read_values : nullptr};
  detail::SortStep step{{range}, nullptr, nullptr, &arrays.write_keys, pairs ? &arrays.write_values : nullptr};
  const detail::StepTimes times = detail::run_sort_steps(device, algorithm, type, arrays.value_bytes, options,
                                                         std::span(&step, 1), n, options.host_threads);
  return detail::with_step_times(std::move(report), times);
}

}  // namespace gpusort
