// Multi-sequence selection over sorted runs (api/run_splits.hpp).
#include "api/run_splits.hpp"

#include <algorithm>
#include <limits>

#include "core/ordered_search.hpp"
#include "gpusort/errors.hpp"
#include "gpusort/key_order.hpp"

namespace gpusort::detail {
namespace {

template <class K>
using okey_t = core::ordered_key_t<K>;

// Multi-sequence selection: starts[j] = how far into run j (absolute index) the first r elements
// of the stable merged order reach. The merged order is (ordered key, run index, index in run), so
// the first r elements are every element with a key below the r-th key v, then elements equal to
// v taken from the lowest runs first. v is found by binary search over the ordered key values.
template <class K>
void select_rank(const K* keys, const std::vector<std::size_t>& off, std::size_t r, order o,
                 std::size_t* starts) noexcept {
  using U = okey_t<K>;
  const std::size_t runs = off.size() - 1, n = off.back();
  if (r == 0 || r >= n) {
    for (std::size_t j = 0; j < runs; ++j) starts[j] = r == 0 ? off[j] : off[j + 1];
    return;
  }
  auto count_le = [&](U v) {
    std::size_t s = 0;
    for (std::size_t j = 0; j < runs; ++j) s += core::ordered_bound(keys + off[j], off[j + 1] - off[j], v, o, true);
    return s;
  };
  U lo = 0, hi = std::numeric_limits<U>::max();  // count_le(max) == n >= r
  while (lo < hi) {
    const U mid = U(lo + U(hi - lo) / 2);
    if (count_le(mid) >= r)
      hi = mid;
    else
      lo = U(mid + 1);
  }
  std::size_t need = r;
  for (std::size_t j = 0; j < runs; ++j) {
    const std::size_t lt = core::ordered_bound(keys + off[j], off[j + 1] - off[j], lo, o, false);
    starts[j] = off[j] + lt;
    need -= lt;
  }
  for (std::size_t j = 0; j < runs && need > 0; ++j) {
    const std::size_t le = core::ordered_bound(keys + off[j], off[j + 1] - off[j], lo, o, true);
    const std::size_t take = std::min(le - (starts[j] - off[j]), need);
    starts[j] += take;
    need -= take;
  }
}

}  // namespace

std::vector<std::size_t> split_at_rank(const SortedRuns& runs, order o, std::size_t r) {
  if (runs.offsets.empty() || runs.offsets.front() != 0)
    throw Error(errc::invalid_argument, "run splits: runs must be given as offsets starting at 0");
  std::vector<std::size_t> starts(runs.offsets.size() - 1);
  if (starts.empty()) return starts;
  visit_key_type(runs.type, [&](auto tag) {
    using K = decltype(tag);
    select_rank(static_cast<const K*>(runs.keys), runs.offsets, std::min(r, runs.offsets.back()), o,
                starts.data());
  });
  return starts;
}

}  // namespace gpusort::detail
