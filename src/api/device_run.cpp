#include "api/device_run.hpp"

#include <cstdio>
#include <string>

#include "algorithms/order_check.hpp"
#include "algorithms/records/record_sort.hpp"
#include "runtime/program_cache.hpp"

namespace gpusort::detail {

std::uint64_t needed_temp_bytes(const algo::Algorithm& algorithm, rt::Device& device, key_type type, std::uint64_t n,
                                std::size_t value_bytes, const SortOptions& options) {
  if (!algorithm.temp_bytes)
    throw Error(errc::unsupported, "algorithm " + algorithm.name +
                                       " does not report its temporary storage; let gpusort allocate it");
  return algo::sort_temp_bytes(algorithm, {device, type, n, value_bytes, options});
}

std::uint64_t needed_temp_bytes(const algo::Plan& plan, rt::Device& device) {
  const SortRequest& r = plan.request;
  if (r.record_bytes) return 0;  // complex128 keys, sorted as records: temporaries of their own
  return needed_temp_bytes(*plan.algorithm, device, r.type, r.n, r.value_bytes, r.options);
}

DeviceRun run_on_device(rt::Device& device, const algo::Plan& plan, rt::Buffer& keys, rt::Buffer* values,
                        rt::Buffer* temp_storage) {
  const algo::Algorithm& algorithm = *plan.algorithm;
  const SortRequest& r = plan.request;
  if (temp_storage) {
    const std::uint64_t need = needed_temp_bytes(plan, device);
    if (need > temp_storage->bytes())
      throw Error(errc::invalid_argument, algorithm.name + " needs " + std::to_string(need) +
                                              " bytes of temporary storage, got " +
                                              std::to_string(temp_storage->bytes()) +
                                              " (see gpusort::temporary_storage_bytes)");
  }
  algo::print_if_verbose(plan, device);
  if (r.record_bytes) {  // complex128 keys, planned as 16-byte records: sorted where they lie, values too
    const SortReport report = sort_records_on_device(device, plan, RecordBuffers{keys, &keys, values, values});
    return {report.sort_ms, report.programs_compiled};
  }
  algo::SortJob job{device, r.type, r.n, r.value_bytes, keys, values, r.options, temp_storage};
  if (r.n <= 1) return {};
  const algo::RunEvents events = algo::run(algorithm, job);
  const double ms = events.stop->elapsed_ms_since(*events.start);
  if (r.options.verbose) {
    auto stats = rt::program_cache_stats();
    std::fprintf(stderr, "gpusort: %s on %s (%s): %.3f ms device time; kernel programs compiled %llu, loaded from cache %llu\n",
                 algorithm.name.c_str(), device.description().id.c_str(), device.description().name.c_str(), ms,
                 (unsigned long long)stats.compiled, (unsigned long long)stats.loaded);
  }
  return {ms, events.programs_compiled};
}

}  // namespace gpusort::detail
