#pragma once
// Partition, numpy's: each row rearranged around its key of rank kth, without sorting the row.
//
//   std::vector<float> d(queries * points);
//   auto near = gpusort::argpartition(ctx, std::span<const float>(d), 9, {.rows = queries});
//   // near[q * points + j] for j < 10: the positions of query q's 10 smallest distances
//
// Keys lie in uniform rows (rows x length, as numpy.partition(axis=-1) sees a contiguous 2-D array;
// one row for a 1-D array). Ranks are ascending as a stable sort of the row ranks its keys: NaN is
// the greatest float, -0 and +0 are equal, equal keys rank by position. Each output row holds the
// key of rank kth at place kth, no greater key before it and no smaller key after it (numpy's
// contract); more exactly, and the same on every device and run, it is three runs, each in position
// order: the keys less than that key, the keys equal to it, the keys greater. argpartition writes
// the positions within the row (0 .. length - 1) in the same layout; select_kth only each row's key
// of rank kth. kth counts from 0; a negative kth counts from the row's end as numpy's (kth + length).
// One kth a call: numpy's several kth at once are not taken (sort the rows for them).
//
// The keys are read a few times on the device (the top-k's radix selection of the kth + 1 smallest,
// 8 bits a pass: docs/algorithms/topk.md) and once more to write the row: linear work, nothing comes
// back to the host until the result does. The input keys are only read. `gpusort plan --partition
// KTH` prints what will run.
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
#include "gpusort/sort.hpp"
#include "gpusort/topk.hpp"

namespace gpusort {

struct PartitionOptions {
  std::uint64_t rows = 1;  // the keys are rows x (n / rows); rows must divide n
  bool verbose = false;    // the plan and the device time on stderr
};

// Type-erased host forms: n keys of `type` at keys (only read), rows x (n / rows). partition_host
// writes n keys to out_keys (nullptr: none) and n positions to positions (index_bytes 4 or 8;
// nullptr with index_bytes 0: none), at least one of them; select_kth_host writes rows keys to
// values and, where given, rows positions. A refused request (Error(invalid_argument) naming what is
// wrong: a kth outside -length .. length - 1 among them; any kth where there are no keys, as
// numpy) writes nothing.
SortReport partition_host(Context& ctx, key_type type, const void* keys, std::size_t n, std::int64_t kth,
                          void* out_keys, void* positions, std::size_t index_bytes,
                          const PartitionOptions& options = {});
SortReport select_kth_host(Context& ctx, key_type type, const void* keys, std::size_t n, std::int64_t kth,
                           void* values, void* positions, std::size_t index_bytes,
                           const PartitionOptions& options = {});

namespace detail {
inline void check_partition_sizes(const char* what, std::size_t want, std::size_t got) {
  if (got != want)
    throw Error(errc::invalid_argument, std::string(what) + ": " + std::to_string(want) + " elements wanted, not " +
                                            std::to_string(got));
}
}  // namespace detail

template <sortable_key K>
SortReport partition(Context& ctx, std::span<const K> keys, std::int64_t kth, std::span<K> out,
                     const PartitionOptions& options = {}) {
  detail::check_partition_sizes("partition: out", keys.size(), out.size());
  return partition_host(ctx, key_type_of<K>::value, keys.data(), keys.size(), kth, out.data(), nullptr, 0, options);
}
template <sortable_key K, topk_index I>
SortReport partition(Context& ctx, std::span<const K> keys, std::int64_t kth, std::span<K> out,
                     std::span<I> positions, const PartitionOptions& options = {}) {
  detail::check_partition_sizes("partition: out", keys.size(), out.size());
  detail::check_partition_sizes("partition: positions", keys.size(), positions.size());
  return partition_host(ctx, key_type_of<K>::value, keys.data(), keys.size(), kth, out.data(), positions.data(),
                        sizeof(I), options);
}
template <sortable_key K, topk_index I>
SortReport argpartition(Context& ctx, std::span<const K> keys, std::int64_t kth, std::span<I> positions,
                        const PartitionOptions& options = {}) {
  detail::check_partition_sizes("argpartition: positions", keys.size(), positions.size());
  return partition_host(ctx, key_type_of<K>::value, keys.data(), keys.size(), kth, nullptr, positions.data(),
                        sizeof(I), options);
}
template <sortable_key K>
SortReport select_kth(Context& ctx, std::span<const K> keys, std::int64_t kth, std::span<K> values,
                      const PartitionOptions& options = {}) {
  detail::check_partition_sizes("select_kth: values (one a row)", options.rows, values.size());
  return select_kth_host(ctx, key_type_of<K>::value, keys.data(), keys.size(), kth, values.data(), nullptr, 0,
                         options);
}
template <sortable_key K, topk_index I>
SortReport select_kth(Context& ctx, std::span<const K> keys, std::int64_t kth, std::span<K> values,
                      std::span<I> positions, const PartitionOptions& options = {}) {
  detail::check_partition_sizes("select_kth: values (one a row)", options.rows, values.size());
  detail::check_partition_sizes("select_kth: positions (one a row)", options.rows, positions.size());
  return select_kth_host(ctx, key_type_of<K>::value, keys.data(), keys.size(), kth, values.data(), positions.data(),
                         sizeof(I), options);
}

// The results as new vectors (keys other than bool; for bools use the span forms).
template <sortable_key K>
  requires(!std::is_same_v<K, bool>)
std::vector<K> partition(Context& ctx, std::span<const K> keys, std::int64_t kth, const PartitionOptions& options = {}) {
  std::vector<K> out(keys.size());
  partition(ctx, keys, kth, std::span<K>(out), options);
  return out;
}
template <sortable_key K, topk_index I = std::int64_t>
std::vector<I> argpartition(Context& ctx, std::span<const K> keys, std::int64_t kth,
                            const PartitionOptions& options = {}) {
  std::vector<I> positions(keys.size());
  argpartition(ctx, keys, kth, std::span<I>(positions), options);
  return positions;
}
template <sortable_key K>
  requires(!std::is_same_v<K, bool>)
std::vector<K> select_kth(Context& ctx, std::span<const K> keys, std::int64_t kth,
                          const PartitionOptions& options = {}) {
  std::vector<K> values(options.rows);
  select_kth(ctx, keys, kth, std::span<K>(values), options);
  return values;
}

// Device data gpusort made (gpusort/device_array.hpp): keys only read; out_keys and positions (either
// may be null, not both) hold n elements each, or rows where kth_only (select_kth).
SortReport partition_device(Context& ctx, key_type type, const DeviceBuffer& keys, std::size_t n, std::int64_t kth,
                            DeviceBuffer* out_keys, DeviceBuffer* positions, std::size_t index_bytes, bool kth_only,
                            const PartitionOptions& options = {});
template <sortable_key K>
SortReport partition(Context& ctx, const DeviceArray<K>& keys, std::int64_t kth, DeviceArray<K>& out,
                     const PartitionOptions& options = {}) {
  detail::check_partition_sizes("partition: out", keys.size(), out.size());
  return partition_device(ctx, key_type_of<K>::value, keys.buffer(), keys.size(), kth, &out.buffer(), nullptr, 0,
                          false, options);
}
template <sortable_key K, topk_index I>
SortReport partition(Context& ctx, const DeviceArray<K>& keys, std::int64_t kth, DeviceArray<K>& out,
                     DeviceArray<I>& positions, const PartitionOptions& options = {}) {
  detail::check_partition_sizes("partition: out", keys.size(), out.size());
  detail::check_partition_sizes("partition: positions", keys.size(), positions.size());
  return partition_device(ctx, key_type_of<K>::value, keys.buffer(), keys.size(), kth, &out.buffer(),
                          &positions.buffer(), sizeof(I), false, options);
}
template <sortable_key K, topk_index I>
SortReport argpartition(Context& ctx, const DeviceArray<K>& keys, std::int64_t kth, DeviceArray<I>& positions,
                        const PartitionOptions& options = {}) {
  detail::check_partition_sizes("argpartition: positions", keys.size(), positions.size());
  return partition_device(ctx, key_type_of<K>::value, keys.buffer(), keys.size(), kth, nullptr, &positions.buffer(),
                          sizeof(I), false, options);
}
template <sortable_key K>
SortReport select_kth(Context& ctx, const DeviceArray<K>& keys, std::int64_t kth, DeviceArray<K>& values,
                      const PartitionOptions& options = {}) {
  detail::check_partition_sizes("select_kth: values (one a row)", options.rows, values.size());
  return partition_device(ctx, key_type_of<K>::value, keys.buffer(), keys.size(), kth, &values.buffer(), nullptr, 0,
                          true, options);
}

// The caller's memory and stream or queue (gpusort/native.hpp): keys (n, only read), out_keys and
// positions (index_bytes 4 or 8; either may be absent, not both) of n elements, or rows where
// kth_only (select_kth), none overlapping. The work is enqueued after what the caller's queue holds,
// and the caller's queue waits for it.
Completion partition_native_async(Context& ctx, key_type type, const NativeView& keys, std::size_t n, std::int64_t kth,
                                  const std::optional<NativeView>& out_keys,
                                  const std::optional<NativeView>& positions, std::size_t index_bytes,
                                  bool kth_only, const NativeQueue& queue, const PartitionOptions& options = {});
SortReport partition_native(Context& ctx, key_type type, const NativeView& keys, std::size_t n, std::int64_t kth,
                            const std::optional<NativeView>& out_keys, const std::optional<NativeView>& positions,
                            std::size_t index_bytes, bool kth_only, const NativeQueue& queue,
                            const PartitionOptions& options = {});

}  // namespace gpusort
