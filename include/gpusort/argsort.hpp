#pragma once
// argsort: the permutation that sorts the keys, leaving the keys themselves untouched.
//   std::vector<float> keys = ...;
//   std::vector<std::uint32_t> order(keys.size());
//   gpusort::argsort(ctx, keys, order);   // keys[order[0]] <= keys[order[1]] <= ...
//   gpusort::sort_with_indices(ctx, keys, sorted, order);   // also sorted[i] == keys[order[i]]
#include <cstddef>
#include <cstdint>
#include <ranges>
#include <string>
#include <type_traits>

#include "gpusort/context.hpp"
#include "gpusort/errors.hpp"
#include "gpusort/key_type.hpp"
#include "gpusort/options.hpp"
#include "gpusort/sort.hpp"

namespace gpusort {

// The options argsort uses when none are given: a stable sort, so that equal keys keep their
// index order and the result is unique (as numpy's kind="stable"). Options the caller passes are
// used as given, stable or not.
inline SortOptions argsort_options() {
  SortOptions o;
  o.stable = true;
  return o;
}

// Type-erased form: n keys of `type` at keys (read only); indices receives n indices of
// index_bytes (4 or 8) each. Where keys and indices fit the device in one piece, the keys are
// uploaded from where they lie, the indices made on the device and only they copied back; larger
// data is sorted in chunks with indices made on the host. On any error before the indices are
// copied back they are unchanged (a device lost during that copy can leave them part written, as
// sort_host's arrays).
SortReport argsort_host(Context& ctx, key_type type, const void* keys, std::size_t n, void* indices,
                        std::size_t index_bytes, const SortOptions& options = argsort_options());

// argsort that also writes the sorted keys (torch.sort's values and indices): sorted_keys receives
// the n keys in order, indices their positions in keys. One sort, as argsort_host's: the keys travel
// with the indices on the device and come back with them, so no gather pass follows. sorted_keys may
// be keys itself (then sorted in place once the sort has succeeded); otherwise keys are only read.
SortReport sort_with_indices_host(Context& ctx, key_type type, const void* keys, std::size_t n, void* sorted_keys,
                                  void* indices, std::size_t index_bytes,
                                  const SortOptions& options = argsort_options());

template <class I>
concept argsort_index = std::is_same_v<I, std::uint32_t> || std::is_same_v<I, std::uint64_t>;

// keys: any contiguous range of a key type (std::vector, std::span, array); indices: a contiguous
// range of std::uint32_t or std::uint64_t of the same length. indices[i] is the position in keys
// of the i-th key in sorted order. 32-bit indices need n <= 2^32.
template <std::ranges::contiguous_range Keys, std::ranges::contiguous_range Indices>
  requires sortable_key<std::ranges::range_value_t<Keys>> && argsort_index<std::ranges::range_value_t<Indices>>
SortReport argsort(Context& ctx, const Keys& keys, Indices&& indices, const SortOptions& options = argsort_options()) {
  using K = std::remove_cv_t<std::ranges::range_value_t<Keys>>;
  using I = std::ranges::range_value_t<Indices>;
  const std::size_t n = std::ranges::size(keys);
  if (std::ranges::size(indices) != n)
    throw Error(errc::invalid_argument, "argsort: " + std::to_string(n) + " keys but " +
                                            std::to_string(std::ranges::size(indices)) + " indices");
  return argsort_host(ctx, key_type_of<K>::value, std::ranges::data(keys), n, std::ranges::data(indices), sizeof(I),
                      options);
}

// keys and sorted_keys: contiguous ranges of one key type and length; indices as argsort's.
// sorted_keys[i] == keys[indices[i]], in sorted order.
template <std::ranges::contiguous_range Keys, std::ranges::contiguous_range SortedKeys,
          std::ranges::contiguous_range Indices>
  requires sortable_key<std::ranges::range_value_t<Keys>> &&
           std::is_same_v<std::remove_cv_t<std::ranges::range_value_t<Keys>>, std::ranges::range_value_t<SortedKeys>> &&
           argsort_index<std::ranges::range_value_t<Indices>>
SortReport sort_with_indices(Context& ctx, const Keys& keys, SortedKeys&& sorted_keys, Indices&& indices,
                             const SortOptions& options = argsort_options()) {
  using K = std::remove_cv_t<std::ranges::range_value_t<Keys>>;
  using I = std::ranges::range_value_t<Indices>;
  const std::size_t n = std::ranges::size(keys);
  if (std::ranges::size(indices) != n || std::ranges::size(sorted_keys) != n)
    throw Error(errc::invalid_argument, "sort_with_indices: " + std::to_string(n) + " keys but " +
                                            std::to_string(std::ranges::size(sorted_keys)) + " sorted keys and " +
                                            std::to_string(std::ranges::size(indices)) + " indices");
  return sort_with_indices_host(ctx, key_type_of<K>::value, std::ranges::data(keys), n,
                                std::ranges::data(sorted_keys), std::ranges::data(indices), sizeof(I), options);
}

}  // namespace gpusort
