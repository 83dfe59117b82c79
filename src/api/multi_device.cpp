// Host sorts on several contexts at once: the partition sort of api/out_of_core.hpp with one
// device per context (chunks sorted on the devices, exact rank splits on the host, buckets sorted
// on the devices). See gpusort/multi_device.hpp.
#include "gpusort/multi_device.hpp"

#include <vector>

#include "algorithms/planner.hpp"
#include "api/out_of_core.hpp"

namespace gpusort {

SortReport sort_host_multi(std::span<Context* const> contexts, key_type type, void* keys, std::size_t n, void* values,
                           std::size_t value_bytes, const SortOptions& options) {
  if (contexts.empty()) throw Error(errc::invalid_argument, "sort on several devices: no context given");
  for (Context* c : contexts)
    if (!c) throw Error(errc::invalid_argument, "sort on several devices: a context is null");
  if (contexts.size() == 1 || n < 2 * contexts.size()) return sort_host(*contexts[0], type, keys, n, values, value_bytes, options);
  std::vector<rt::Device*> devices;
  for (Context* c : contexts) devices.push_back(&c->runtime_device());
  // The one plan, its algorithm checked for all n elements and against every device, before
  // anything moves.
  const algo::Plan plan = algo::make_plan({.type = type, .n = n, .value_bytes = value_bytes, .options = options},
                                          std::span<rt::Device* const>(devices));
  if ((value_bytes != 0) != (values != nullptr)) throw Error(errc::invalid_argument, "values and value size must be given together");
  if (!keys) throw Error(errc::invalid_argument, "keys is null");
  SortReport report;
  report.algorithm = plan.algorithm->name;
  for (Context* c : contexts) report.device += (report.device.empty() ? "" : "+") + c->device().id;
  algo::print_if_verbose(plan, *devices[0]);
  return detail::sort_host_partitioned(devices, plan, keys, values, std::move(report));
}

}  // namespace gpusort
