// Multi-sequence selection over sorted runs (api/run_splits.hpp).
#include "api/run_splits.hpp"

#include <algorithm>
#include <limits>

#include "gpusort/errors.hpp"
#include "gpusort/key_order.hpp"

namespace gpusort::detail {
namespace {

template <class K>
using okey_t = decltype(ordered_bits(K{}));

// The key's position in the requested order as an unsigned integer (gpusort/key_order.hpp).
template <class K>
struct OrderedKey {
  order o;
  okey_t<K> operator()(K k) const noexcept { return ordered_bits(k, o); }
};

// First index of a[0, len) whose ordered key is > v (or_equal) or >= v (!or_equal).
template <class K>
std::size_t bound(const K* a, std::size_t len, okey_t<K> v, OrderedKey<K> ok, bool or_equal) noexcept {
  std::size_t lo = 0, hi = len;
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    const okey_t<K> m = ok(a[mid]);
    if (or_equal ? m <= v : m < v)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

// Multi-sequence selection: starts[j] = how far into run j (absolute index) the first r elements
// of the stable merged order reach. The merged order is (ordered key, run index, index in run), so
// the first r elements are every element with a key below the r-th key v, then elements equal to
// v taken from the lowest runs first. v is found by binary search over the ordered key values.
template <class K>
void select_rank(const K* keys, const std::vector<std::size_t>& off, std::size_t r, OrderedKey<K> ok,
                 std::size_t* starts) noexcept {
  using U = okey_t<K>;
  const std::size_t runs = off.size() - 1, n = off.back();
  if (r == 0 || r >= n) {
    for (std::size_t j = 0; j < runs; ++j) starts[j] = r == 0 ? off[j] : off[j + 1];
    return;
  }
  auto count_le = [&](U v) {
    std::size_t s = 0;
    for (std::size_t j = 0; j < runs; ++j) s += bound(keys + off[j], off[j + 1] - off[j], v, ok, true);
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
    const std::size_t lt = bound(keys + off[j], off[j + 1] - off[j], lo, ok, false);
    starts[j] = off[j] + lt;
    need -= lt;
  }
  for (std::size_t j = 0; j < runs && need > 0; ++j) {
    const std::size_t le = bound(keys + off[j], off[j + 1] - off[j], lo, ok, true);
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
    select_rank(static_cast<const K*>(runs.keys), runs.offsets, std::min(r, runs.offsets.back()), OrderedKey<K>{o},
                starts.data());
  });
  return starts;
}

}  // namespace gpusort::detail
