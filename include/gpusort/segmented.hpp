#pragma once
// Many sorts at once: the keys (and values) of one array cut into segments, each sorted on its own.
//
//   std::vector<float> logits(batch * vocabulary);
//   gpusort::sort_segments(ctx, std::span(logits), gpusort::Segments::rows(batch, vocabulary),
//                          {.order = gpusort::order::descending, .stable = true});
//
// A segment is a run of consecutive elements; every element belongs to exactly one. Segments are
// either uniform rows (rows x length, as torch.sort(dim=-1) sees a contiguous 2-D tensor) or given by
// offsets: segment s holds elements [offsets[s], offsets[s + 1]), offsets[0] == 0, offsets[count] == n,
// non-decreasing (empty segments allowed), of 4 or 8 bytes each (CUB's DeviceSegmentedSort takes the
// same). Keys of different segments are never compared, and nothing moves from one segment into
// another. Order, stability and the float rules are those of the one-array sort (gpusort/options.hpp),
// within every segment. argsort's indices are local to their segment (0 .. its length - 1), as
// torch.sort(dim=-1) returns them.
//
// The plan is decided from the request (the key type, n, the number of segments, uniform or not),
// never from the offsets' contents. Uniform rows in the tile and onesweep bins read nothing back to
// the host, so a sort of device data on a CUDA stream can be captured in a CUDA graph. Segments by
// offsets: on a CPU binned by length on the device (nothing read back, fewer than 2^32 keys); on
// GPUs, and from 2^32 keys, one word made on the device is read back (whether every segment fits a
// tile's window), and the portable bin's 1-D radix (a named algorithm, a comparator) may read its
// histograms back.
// `gpusort plan --rows R` (or --segments S) prints what will run.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <type_traits>

#include "gpusort/argsort.hpp"
#include "gpusort/context.hpp"
#include "gpusort/device_array.hpp"
#include "gpusort/errors.hpp"
#include "gpusort/key_type.hpp"
#include "gpusort/native.hpp"
#include "gpusort/options.hpp"
#include "gpusort/sort.hpp"

namespace gpusort {

// Where the segments of a sort lie. Made by the named constructors below; a default Segments is one
// segment holding everything.
struct Segments {
  enum class kind { rows, host_offsets, device_offsets };
  kind form = kind::rows;
  std::uint64_t count = 1;   // segments (rows): 1 or more; 0 only with n == 0
  std::uint64_t length = 0;  // rows: the length of each (count * length == n); offsets: not read
  // Offsets: count + 1 entries of offset_bytes (4 or 8) each; host memory (host_offsets, read before
  // the call returns) or device memory of the Context's backend (device_offsets, read on the device
  // in order with the sort).
  const void* host = nullptr;
  std::optional<NativeView> device = std::nullopt;
  std::size_t offset_bytes = 8;

  // rows x length elements: row r holds [r * length, (r + 1) * length).
  static Segments rows(std::uint64_t rows, std::uint64_t length) {
    Segments s;
    s.form = kind::rows;
    s.count = rows;
    s.length = length;
    return s;
  }
  // offsets.size() - 1 segments, offsets on the host.
  template <class O>
    requires std::is_same_v<std::remove_cv_t<O>, std::uint32_t> || std::is_same_v<std::remove_cv_t<O>, std::uint64_t>
  static Segments offsets(std::span<O> offsets) {
    if (offsets.empty()) throw Error(errc::invalid_argument, "Segments::offsets: needs count + 1 offsets (got none)");
    Segments s;
    s.form = kind::host_offsets;
    s.count = offsets.size() - 1;
    s.host = offsets.data();
    s.offset_bytes = sizeof(O);
    return s;
  }
  // count segments, count + 1 offsets of offset_bytes each in device memory (a CudaView or an
  // OpenCLView of the Context's backend).
  static Segments device_offsets(const NativeView& offsets, std::uint64_t count, std::size_t offset_bytes) {
    Segments s;
    s.form = kind::device_offsets;
    s.count = count;
    s.device = offsets;
    s.offset_bytes = offset_bytes;
    return s;
  }
};

// Host data (as sort_host / argsort_host / sort_with_indices_host, gpusort/sort.hpp and argsort.hpp),
// each segment sorted on its own. Offsets are checked (count + 1 of them, starting at 0, ending at n,
// non-decreasing) before anything runs: Error(invalid_argument) naming the first bad one. The data
// go to the device in one piece: more than the device budget holds (SortOptions::device_memory_limit,
// else 70% of its memory) is Error(unsupported) for now. A failure leaves the caller's arrays unchanged.
SortReport sort_segments_host(Context& ctx, key_type type, void* keys, std::size_t n, void* values,
                              std::size_t value_bytes, const Segments& segments, const SortOptions& options = {});
// indices (index_bytes 4 or 8) receive each key's position within its segment; sorted_keys (may be
// nullptr: argsort alone; may equal keys: sorted in place) the keys in order.
SortReport argsort_segments_host(Context& ctx, key_type type, const void* keys, std::size_t n, void* sorted_keys,
                                 void* indices, std::size_t index_bytes, const Segments& segments,
                                 const SortOptions& options = argsort_options());

template <sortable_key K>
SortReport sort_segments(Context& ctx, std::span<K> keys, const Segments& segments, const SortOptions& options = {}) {
  static_assert(!std::is_const_v<K>, "gpusort::sort_segments sorts in place: the keys must not be const");
  return sort_segments_host(ctx, key_type_of<std::remove_cv_t<K>>::value, keys.data(), keys.size(), nullptr, 0,
                            segments, options);
}
template <sortable_key K, class V>
SortReport sort_segments_pairs(Context& ctx, std::span<K> keys, std::span<V> values, const Segments& segments,
                               const SortOptions& options = {}) {
  static_assert(!std::is_const_v<K> && !std::is_const_v<V>, "gpusort::sort_segments_pairs sorts in place");
  static_assert(std::is_trivially_copyable_v<V>, "values are moved as bytes");
  if (keys.size() != values.size())
    throw Error(errc::invalid_argument, "sort_segments_pairs: " + std::to_string(keys.size()) + " keys but " +
                                            std::to_string(values.size()) + " values");
  return sort_segments_host(ctx, key_type_of<std::remove_cv_t<K>>::value, keys.data(), keys.size(), values.data(),
                            sizeof(V), segments, options);
}
template <sortable_key K, argsort_index I>
SortReport argsort_segments(Context& ctx, std::span<const K> keys, std::span<I> indices, const Segments& segments,
                            const SortOptions& options = argsort_options()) {
  if (keys.size() != indices.size())
    throw Error(errc::invalid_argument, "argsort_segments: " + std::to_string(keys.size()) + " keys but " +
                                            std::to_string(indices.size()) + " indices");
  return argsort_segments_host(ctx, key_type_of<std::remove_cv_t<K>>::value, keys.data(), keys.size(), nullptr,
                               indices.data(), sizeof(I), segments, options);
}

// Device data gpusort made (gpusort/device_array.hpp), sorted in place.
SortReport sort_segments_device(Context& ctx, key_type type, DeviceBuffer& keys, std::size_t n, DeviceBuffer* values,
                                std::size_t value_bytes, const Segments& segments, const SortOptions& options = {});
template <sortable_key K>
SortReport sort_segments(Context& ctx, DeviceArray<K>& keys, const Segments& segments, const SortOptions& options = {}) {
  return sort_segments_device(ctx, key_type_of<K>::value, keys.buffer(), keys.size(), nullptr, 0, segments, options);
}
template <sortable_key K, class V>
SortReport sort_segments_pairs(Context& ctx, DeviceArray<K>& keys, DeviceArray<V>& values, const Segments& segments,
                               const SortOptions& options = {}) {
  if (keys.size() != values.size())
    throw Error(errc::invalid_argument, "sort_segments_pairs: keys and values differ in length");
  return sort_segments_device(ctx, key_type_of<K>::value, keys.buffer(), keys.size(), &values.buffer(), sizeof(V),
                              segments, options);
}

// The caller's memory and stream or queue (gpusort/native.hpp's rules: in == out sorts in place,
// otherwise the inputs are only read; the caller's stream waits for the sort).
Completion sort_segments_native_async(Context& ctx, key_type type, const NativeView& keys_in,
                                      const NativeView& keys_out, std::size_t n,
                                      const std::optional<NativeView>& values_in,
                                      const std::optional<NativeView>& values_out, std::size_t value_bytes,
                                      const Segments& segments, const NativeQueue& queue,
                                      const SortOptions& options = {});
SortReport sort_segments_native(Context& ctx, key_type type, const NativeView& keys_in, const NativeView& keys_out,
                                std::size_t n, const std::optional<NativeView>& values_in,
                                const std::optional<NativeView>& values_out, std::size_t value_bytes,
                                const Segments& segments, const NativeQueue& queue, const SortOptions& options = {});
// indices (index_bytes 4 or 8): each key's position within its segment, made on the device.
Completion argsort_segments_native_async(Context& ctx, key_type type, const NativeView& keys_in,
                                         const NativeView& keys_out, std::size_t n, const NativeView& indices,
                                         std::size_t index_bytes, const Segments& segments, const NativeQueue& queue,
                                         const SortOptions& options = argsort_options());
SortReport argsort_segments_native(Context& ctx, key_type type, const NativeView& keys_in, const NativeView& keys_out,
                                   std::size_t n, const NativeView& indices, std::size_t index_bytes,
                                   const Segments& segments, const NativeQueue& queue,
                                   const SortOptions& options = argsort_options());

}  // namespace gpusort
