// argsort of host keys. Where keys and indices fit the device in one step, the keys go up as they
// lie, the indices are made on the device by the sort (SortJob::values_are_positions) and only the
// indices come back (api/host_sort.hpp, argsort_host_in_one_step). Larger data goes through
// sort_host's chunks and merges: the indices 0..n-1 are then made on the host and sorted as the
// values of a copy of the keys (each chunk's positions would need an offset the device fill lacks).
// sort_with_indices_host is the same sort with the sorted keys downloaded too (the device sort
// carries them with the indices already).
#include "gpusort/argsort.hpp"

#include <cstring>
#include <numeric>
#include <vector>

#include "api/host_sort.hpp"
#include "algorithms/planner.hpp"
#include "runtime/device.hpp"

namespace gpusort {
namespace {

template <class I>
std::vector<I> iota_indices(std::size_t n) {
  std::vector<I> out(n);
  std::iota(out.begin(), out.end(), I{0});
  return out;
}

}  // namespace

SortReport sort_with_indices_host(Context& ctx, key_type type, const void* keys, std::size_t n, void* sorted_keys,
                                  void* indices, std::size_t index_bytes, const SortOptions& options) {
  rt::Device& device = ctx.runtime_device();
  // Planned (and refused) before any transfer, as sort_host does.
  const algo::Plan plan = algo::make_plan(
      {.type = type, .n = n, .value_bytes = index_bytes, .positions = true, .options = options}, device);
  if (n > 0 && (!keys || !indices)) throw Error(errc::invalid_argument, "argsort: keys or indices is null");
  if (auto report = detail::argsort_host_in_one_step(device, plan, keys, indices, sorted_keys)) return *report;
  // Staged copies: the caller's keys are never written, and its indices (and sorted keys) only once
  // all succeeded.
  std::vector<unsigned char> staged_keys;
  try {
    staged_keys.resize(n * key_size(type));
  } catch (const std::bad_alloc&) {
    throw Error(errc::out_of_memory, "argsort: cannot allocate " + std::to_string(n * key_size(type)) +
                                         " bytes of host staging memory");
  }
  if (n) std::memcpy(staged_keys.data(), keys, staged_keys.size());
  auto sort_with = [&](auto staged_indices) {
    SortReport report = detail::sort_host_with(device, plan, staged_keys.data(), staged_indices.data());
    if (n) std::memcpy(indices, staged_indices.data(), n * index_bytes);
    if (n && sorted_keys) std::memcpy(sorted_keys, staged_keys.data(), staged_keys.size());
    return report;
  };
  try {
    return index_bytes == 4 ? sort_with(iota_indices<std::uint32_t>(n)) : sort_with(iota_indices<std::uint64_t>(n));
  } catch (const std::bad_alloc&) {
    throw Error(errc::out_of_memory, "argsort: cannot allocate host staging memory for " + std::to_string(n) +
                                         " indices");
  }
}

SortReport argsort_host(Context& ctx, key_type type, const void* keys, std::size_t n, void* indices,
                        std::size_t index_bytes, const SortOptions& options) {
  return sort_with_indices_host(ctx, type, keys, n, nullptr, indices, index_bytes, options);
}

}  // namespace gpusort
