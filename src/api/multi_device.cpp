// Host sorts on several contexts at once: the partition sort of api/out_of_core.hpp with one
// device per context (chunks sorted on the devices, exact rank splits on the host, buckets sorted
// on the devices). See gpusort/multi_device.hpp.
#include "gpusort/multi_device.hpp"

#include <vector>

#include "algorithms/chooser.hpp"
#include "api/option_checks.hpp"
#include "api/out_of_core.hpp"

namespace gpusort {

SortReport sort_host_multi(std::span<Context* const> contexts, key_type type, void* keys, std::size_t n, void* values,
                           std::size_t value_bytes, const SortOptions& options) {
  detail::check_key_type(type);
  if (contexts.empty()) throw Error(errc::invalid_argument, "sort on several devices: no context given");
  for (Context* c : contexts)
    if (!c) throw Error(errc::invalid_argument, "sort on several devices: a context is null");
  if (contexts.size() == 1 || n < 2 * contexts.size()) return sort_host(*contexts[0], type, keys, n, values, value_bytes, options);
  if (value_bytes != 0 && !is_supported_value_size(value_bytes))
    throw Error(errc::invalid_argument, "values of " + std::to_string(value_bytes) + " bytes are not supported (1, 2, 4, 8 or 16)");
  if ((value_bytes != 0) != (values != nullptr)) throw Error(errc::invalid_argument, "values and value size must be given together");
  if (!keys) throw Error(errc::invalid_argument, "keys is null");
  // The one choice, checked for all n elements and against every device, before anything moves.
  const algo::Algorithm& algorithm = algo::choose(contexts[0]->device(), options, n);
  algo::check_size(algorithm, n);
  for (Context* c : contexts) detail::check_options(options, algorithm, c->device());
  detail::check_device_memory_limit(options, key_size(type), value_bytes);

  std::vector<rt::Device*> devices;
  SortReport report;
  report.algorithm = algorithm.name;
  for (Context* c : contexts) {
    devices.push_back(&c->runtime_device());
    report.device += (report.device.empty() ? "" : "+") + c->device().id;
  }
  return detail::sort_host_partitioned(devices, algorithm, type, keys, n, values, value_bytes, options,
                                       std::move(report));
}

}  // namespace gpusort
