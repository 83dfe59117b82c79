// Stable multi-threaded k-way merge of sorted runs on the host (the merge step of out-of-core sorts).
#include "api/host_merge.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <thread>
#include <type_traits>

#include "core/parallel_for.hpp"
#include "gpusort/errors.hpp"
#include "gpusort/key_order.hpp"
#include "gpusort/key_type.hpp"

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

template <class U>
struct Head {
  U key;
  std::size_t run;
};

template <class U>
inline bool head_before(const Head<U>& a, const Head<U>& b) noexcept {
  return a.key < b.key || (a.key == b.key && a.run < b.run);
}

template <class U>
inline void sift_down(Head<U>* heap, std::size_t size, std::size_t i) noexcept {
  const Head<U> x = heap[i];
  for (;;) {
    std::size_t c = 2 * i + 1;
    if (c >= size) break;
    if (c + 1 < size && head_before(heap[c + 1], heap[c])) ++c;
    if (!head_before(heap[c], x)) break;
    heap[i] = heap[c];
    i = c;
  }
  heap[i] = x;
}

// Merges run slices [begin[j], end[j]) into out_keys/out_values (which point at this slice's
// first output element). heap and pos have room for one entry per run.
template <class K, std::size_t VB>
void merge_slices(const K* keys, const unsigned char* values, const std::size_t* begin, const std::size_t* end,
                  std::size_t runs, OrderedKey<K> ok, K* out_keys, unsigned char* out_values, Head<okey_t<K>>* heap,
                  std::size_t* pos) noexcept {
  std::size_t h = 0;
  for (std::size_t j = 0; j < runs; ++j) {
    pos[j] = begin[j];
    if (begin[j] < end[j]) heap[h++] = {ok(keys[begin[j]]), j};
  }
  for (std::size_t i = h / 2; i-- > 0;) sift_down(heap, h, i);
  std::size_t o = 0;
  while (h > 1) {
    const std::size_t j = heap[0].run;
    const std::size_t p = pos[j]++;
    out_keys[o] = keys[p];
    if constexpr (VB != 0) std::memcpy(out_values + o * VB, values + p * VB, VB);
    ++o;
    if (pos[j] < end[j])
      heap[0].key = ok(keys[pos[j]]);
    else
      heap[0] = heap[--h];
    sift_down(heap, h, 0);
  }
  if (h == 1) {  // one run left: the rest of it in one copy
    const std::size_t j = heap[0].run, count = end[j] - pos[j];
    std::memcpy(out_keys + o, keys + pos[j], count * sizeof(K));
    if constexpr (VB != 0) std::memcpy(out_values + o * VB, values + pos[j] * VB, count * VB);
  }
}

template <class K, std::size_t VB>
unsigned merge_typed(const SortedRuns& r, order o, void* keys_out, void* values_out, unsigned threads) {
  using U = okey_t<K>;
  const std::vector<std::size_t>& off = r.offsets;
  const std::size_t runs = off.size() - 1, n = off.back();
  const K* keys = static_cast<const K*>(r.keys);
  const auto* values = static_cast<const unsigned char*>(r.values);
  const OrderedKey<K> ok{o};

  // Automatic: one thread per hardware thread, each with at least 32768 elements to merge.
  const std::size_t t_count =
      threads ? std::max<std::size_t>(1, std::min<std::size_t>(threads, n)) : core::threads_for(n, 32768);
  auto rank_of = [&](std::size_t t) { return core::part_begin(n, t_count, t); };

  // Everything that allocates, before the first write.
  std::vector<std::size_t> starts((t_count + 1) * runs);
  std::vector<Head<U>> heaps(t_count * runs);
  std::vector<std::size_t> pos(t_count * runs);
  for (std::size_t t = 0; t <= t_count; ++t) select_rank(keys, off, rank_of(t), ok, &starts[t * runs]);

  // Part t merges output [rank_of(t), rank_of(t + 1)): parallel_for cuts [0, n) the same way.
  core::parallel_for(n, t_count, [&](std::size_t t, std::size_t first, std::size_t) noexcept {
    merge_slices<K, VB>(keys, values, &starts[t * runs], &starts[(t + 1) * runs], runs, ok,
                        static_cast<K*>(keys_out) + first,
                        VB ? static_cast<unsigned char*>(values_out) + first * VB : nullptr, &heaps[t * runs],
                        &pos[t * runs]);
  });
  return static_cast<unsigned>(t_count);
}

template <class K>
unsigned merge_values(const SortedRuns& r, order o, void* ko, void* vo, unsigned threads) {
  switch (r.value_bytes) {
    case 0: return merge_typed<K, 0>(r, o, ko, vo, threads);
    case 1: return merge_typed<K, 1>(r, o, ko, vo, threads);
    case 2: return merge_typed<K, 2>(r, o, ko, vo, threads);
    case 4: return merge_typed<K, 4>(r, o, ko, vo, threads);
    case 8: return merge_typed<K, 8>(r, o, ko, vo, threads);
    case 16: return merge_typed<K, 16>(r, o, ko, vo, threads);
  }
  throw Error(errc::invalid_argument, "merge: unsupported value size " + std::to_string(r.value_bytes));
}

}  // namespace

unsigned merge_sorted_runs(const SortedRuns& r, order o, void* keys_out, void* values_out, unsigned threads) {
  if (r.offsets.size() < 2 || r.offsets.front() != 0)
    throw Error(errc::invalid_argument, "merge: runs must be given as offsets starting at 0");
  if (r.offsets.back() == 0) return 0;
  return visit_key_type(r.type, [&](auto tag) {
    return merge_values<decltype(tag)>(r, o, keys_out, values_out, threads);
  });
}

}  // namespace gpusort::detail
