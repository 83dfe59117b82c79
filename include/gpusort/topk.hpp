#pragma once
// Top-k: the k largest (or smallest) keys of each row, with their positions, without sorting the rows.
//
//   std::vector<float> logits(batch * vocabulary);
//   auto best = gpusort::topk(ctx, std::span<const float>(logits), 50, {.rows = batch});
//   // best.values[r * 50 + j], best.indices[r * 50 + j]: row r's j-th largest logit and its column
//
// Keys lie in uniform rows (rows x length, as torch.topk(dim=-1) sees a contiguous 2-D tensor; one
// row for a 1-D array), or in segments given by offsets (TopkOptions::segments). Each row's k first keys in the order are chosen, as a stable sort of the row
// would put them first: ties go to the lower position, NaN is the greatest float (first among the
// largest, last among the smallest), -0 and +0 are equal. The result is the same on every device and
// run. sorted (the default): each row's k come in order, ties by position; otherwise in the order of
// their positions in the row. Indices are positions within the row (0 .. length - 1). k runs from 0
// (nothing is written) to the row length (the whole row, sorted or not).
//
// The selection reads each row a few times on the device (radix selection on the key's bits, 8 at a
// time, stopping as soon as the k are settled: docs/algorithms/topk.md) and nothing comes back to the
// host until the k do; a sorted top-k then sorts only the k of each row. The input keys are only read.
// `gpusort plan --top K` prints what will run.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "gpusort/context.hpp"
#include "gpusort/device_array.hpp"
#include "gpusort/errors.hpp"
#include "gpusort/key_type.hpp"
#include "gpusort/native.hpp"
#include "gpusort/segmented.hpp"
#include "gpusort/sort.hpp"

namespace gpusort {

struct TopkOptions {
  std::uint64_t rows = 1;  // the keys are rows x (n / rows); rows must divide n
  bool largest = true;     // the k largest of each row, else the k smallest
  bool sorted = true;      // each row's k in order, else unordered (the same order on every run of a device)
  bool verbose = false;    // the plan and the device time on stderr
  // Segments instead of rows (gpusort/segmented.hpp; `rows` is then not read): segment s's k first keys
  // go to values[s * k ...], indices within the segment. A segment shorter than k gives all its keys,
  // and its other slots are padded: keys with all bits zero, indices with all bits one (-1). Host
  // offsets are checked before anything runs; each segment takes one work-group (fine for segments of
  // up to about a million keys; longer ones are correct but slow).
  std::optional<Segments> segments = std::nullopt;

  std::uint64_t row_count() const { return segments ? segments->count : rows; }
};

// A top-k's index type: a position within the row.
template <class I>
concept topk_index = std::is_same_v<I, std::int64_t> || std::is_same_v<I, std::int32_t> ||
                     std::is_same_v<I, std::uint64_t> || std::is_same_v<I, std::uint32_t>;

// Type-erased host form: n keys of `type` at keys (only read), rows x (n / rows); values receives
// rows x k keys, indices (index_bytes 4 or 8; nullptr with index_bytes 0: keys alone) rows x k
// positions. A refused request (Error(invalid_argument) naming what is wrong) writes nothing.
SortReport topk_host(Context& ctx, key_type type, const void* keys, std::size_t n, std::uint64_t k, void* values,
                     void* indices, std::size_t index_bytes, const TopkOptions& options = {});

template <sortable_key K, topk_index I>
SortReport topk(Context& ctx, std::span<const K> keys, std::uint64_t k, std::span<K> values, std::span<I> indices,
                const TopkOptions& options = {}) {
  const std::uint64_t want = options.row_count() * k;
  if (values.size() != want || indices.size() != want)
    throw Error(errc::invalid_argument, "topk: rows x k = " + std::to_string(want) + " values and indices, not " +
                                            std::to_string(values.size()) + " and " + std::to_string(indices.size()));
  return topk_host(ctx, key_type_of<K>::value, keys.data(), keys.size(), k, values.data(), indices.data(), sizeof(I),
                   options);
}
template <sortable_key K>
SortReport topk_keys(Context& ctx, std::span<const K> keys, std::uint64_t k, std::span<K> values,
                     const TopkOptions& options = {}) {
  if (values.size() != options.row_count() * k)
    throw Error(errc::invalid_argument, "topk_keys: rows x k = " + std::to_string(options.row_count() * k) + " values, not " +
                                            std::to_string(values.size()));
  return topk_host(ctx, key_type_of<K>::value, keys.data(), keys.size(), k, values.data(), nullptr, 0, options);
}

// The values and indices as new vectors (keys other than bool; for bools use the span forms).
template <class K, class I>
struct TopkResult {
  std::vector<K> values;   // rows (or segments) x k
  std::vector<I> indices;  // rows (or segments) x k
  SortReport report;
};
template <sortable_key K, topk_index I = std::int64_t>
  requires(!std::is_same_v<K, bool>)
TopkResult<K, I> topk(Context& ctx, std::span<const K> keys, std::uint64_t k, const TopkOptions& options = {}) {
  TopkResult<K, I> r;
  r.values.resize(options.row_count() * k);
  r.indices.resize(options.row_count() * k);
  r.report = topk(ctx, keys, k, std::span<K>(r.values), std::span<I>(r.indices), options);
  return r;
}

// Device data gpusort made (gpusort/device_array.hpp): keys only read, values and indices written.
SortReport topk_device(Context& ctx, key_type type, const DeviceBuffer& keys, std::size_t n, std::uint64_t k,
                       DeviceBuffer& values, DeviceBuffer* indices, std::size_t index_bytes,
                       const TopkOptions& options = {});
template <sortable_key K, topk_index I>
SortReport topk(Context& ctx, const DeviceArray<K>& keys, std::uint64_t k, DeviceArray<K>& values,
                DeviceArray<I>& indices, const TopkOptions& options = {}) {
  if (values.size() != options.row_count() * k || indices.size() != options.row_count() * k)
    throw Error(errc::invalid_argument, "topk: values and indices must hold rows x k = " +
                                            std::to_string(options.row_count() * k) + " elements");
  return topk_device(ctx, key_type_of<K>::value, keys.buffer(), keys.size(), k, values.buffer(), &indices.buffer(),
                     sizeof(I), options);
}
template <sortable_key K>
SortReport topk_keys(Context& ctx, const DeviceArray<K>& keys, std::uint64_t k, DeviceArray<K>& values,
                     const TopkOptions& options = {}) {
  if (values.size() != options.row_count() * k)
    throw Error(errc::invalid_argument, "topk_keys: values must hold rows x k = " +
                                            std::to_string(options.row_count() * k) + " elements");
  return topk_device(ctx, key_type_of<K>::value, keys.buffer(), keys.size(), k, values.buffer(), nullptr, 0, options);
}

// The caller's memory and stream or queue (gpusort/native.hpp): keys (n, only read), values
// (rows x k keys) and indices (rows x k of index_bytes; none with index_bytes 0) must not overlap.
// The work is enqueued after what the caller's queue holds, and the caller's queue waits for it.
Completion topk_native_async(Context& ctx, key_type type, const NativeView& keys, std::size_t n, std::uint64_t k,
                             const NativeView& values, const std::optional<NativeView>& indices,
                             std::size_t index_bytes, const NativeQueue& queue, const TopkOptions& options = {});
SortReport topk_native(Context& ctx, key_type type, const NativeView& keys, std::size_t n, std::uint64_t k,
                       const NativeView& values, const std::optional<NativeView>& indices, std::size_t index_bytes,
                       const NativeQueue& queue, const TopkOptions& options = {});

}  // namespace gpusort
