// Sorts of arrays read and written through the caller's functions (gpusort/streamed.hpp): one step
// of the sort pipeline (api/sort_pipeline.hpp) whose pieces are filled and drained by those
// functions in the pinned slots themselves.
#include "gpusort/streamed.hpp"

#include <utility>

#include "algorithms/planner.hpp"
#include "api/sort_pipeline.hpp"
#include "api/streamed_run.hpp"
#include "runtime/device.hpp"

namespace gpusort {
namespace {

// What SortRequest cannot say: the caller's functions given together.
void check_arrays(std::size_t n, const StreamedArrays& a) {
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
  const algo::Plan plan =
      algo::make_plan({.type = type, .n = n, .value_bytes = value_bytes, .options = options}, ctx.runtime_device());
  return plan.path != algo::Path::partitioned && !plan.request.record_bytes;  // complex128 keys: records
}

SortReport sort_streamed(Context& ctx, key_type type, std::size_t n, const StreamedArrays& arrays,
                         const SortOptions& options) {
  rt::Device& device = ctx.runtime_device();
  // Planned (and refused) before the first read, so a bad request costs nothing.
  const algo::Plan plan =
      algo::make_plan({.type = type, .n = n, .value_bytes = arrays.value_bytes, .options = options}, device);
  return detail::sort_streamed_with(device, plan, arrays);
}

namespace detail {

SortReport sort_streamed_with(rt::Device& device, const algo::Plan& plan, const StreamedArrays& arrays) {
  const SortRequest& r = plan.request;
  const std::size_t n = static_cast<std::size_t>(r.n);
  if (arrays.value_bytes != r.value_bytes)
    throw Error(errc::invalid_argument, "sort_streamed: the arrays' value_bytes is not the plan's");
  check_arrays(n, arrays);
  if (r.record_bytes)  // complex128 keys, planned as records
    throw Error(errc::unsupported, "sort_streamed: complex128 (c128) keys are not streamed yet: sort them in host memory");
  const algo::Algorithm& algorithm = *plan.algorithm;
  SortReport report;
  report.device = device.description().id;
  report.algorithm = algorithm.name;
  if (plan.path == algo::Path::partitioned)
    throw Error(errc::out_of_memory, "sort_streamed: " + std::to_string(n) + " elements do not fit the device in one " +
                                         "piece (raise SortOptions::device_memory_limit, or sort them in host memory: " +
                                         "sort_host sorts larger arrays in chunks and buckets)");
  if (n == 0) return report;
  algo::print_if_verbose(plan, device);
  const bool pairs = arrays.value_bytes != 0;
  detail::HostRange range{nullptr, nullptr, n, &arrays.read_keys, pairs ? &arrays.read_values : nullptr};
  detail::SortStep step{{range}, nullptr, nullptr, &arrays.write_keys, pairs ? &arrays.write_values : nullptr};
  const SortOptions& options = r.options;
  const detail::StepTimes times = detail::run_sort_steps(device, algorithm, r.type, arrays.value_bytes, options,
                                                         std::span(&step, 1), n, options.host_threads);
  return detail::with_step_times(std::move(report), times);
}

}  // namespace detail
}  // namespace gpusort
