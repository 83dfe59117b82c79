#pragma once
// What a caller can ask of a sort. Designed for designated initializers:
//   gpusort::sort(ctx, keys, {.order = gpusort::order::descending, .stable = true});
#include <cstddef>
#include <cstdint>
#include <string>

namespace gpusort {

enum class order { ascending, descending };

// Every field is checked before a sort does anything (Error(invalid_argument) naming the field):
// values out of range are refused, and so is an algorithm-specific field (work_group_size through
// host_merge_levels) left off its default when the chosen algorithm does not read it, or when
// `algorithm` is "auto" -- nothing is silently ignored.
struct SortOptions {
  gpusort::order order = gpusort::order::ascending;
  // Equal keys keep their input order. An algorithm that cannot be stable rejects this (Error).
  bool stable = false;
  // "auto" lets gpusort choose; otherwise a name from `gpusort algorithms` / gpusort::algorithms().
  std::string algorithm = "auto";
  // Work-group (CUDA: block) size; 0 = the algorithm's default for the device, else a power of two
  // up to the device's max_work_group_size. Every device algorithm reads it (not batcher-*).
  std::size_t work_group_size = 0;
  // Keys each work-item handles in tiled kernels; 0 = default. merge: a power of two 1..64;
  // radix: 1..64; rank: 1..16; section-merge and hybrid (the section length): 1..1024.
  std::size_t items_per_thread = 0;
  // Algorithm-specific variant choices; empty = default. local_variant: bitonic, merge, rank;
  // merge_variant: merge, hybrid ("host-levels=K"). See docs/algorithms/.
  std::string local_variant;
  std::string merge_variant;
  // hybrid: how many top merge levels the host's threads do: -1 = automatic, or 0..64
  // (docs/algorithms/hybrid.md).
  int host_merge_levels = -1;
  // A run-time order: the body of `int before(K a, K b)` in the kernel dialect (what OpenCL C and
  // CUDA C++ share; K is the key type itself: unsigned int, short, float, double...), true when a
  // sorts strictly before b; it must be a strict weak order. Empty = the key
  // type's natural order. Compiled with the sort's programs and cached like them; a compile error
  // names the body's own lines ("comparator:2: ..."). Keys that are neither before the other are
  // equal: `stable` keeps them in input order, `order` descending reverses the order. The
  // comparison sorts on the device take it: merge ("auto" then means merge), bitonic, odd-even,
  // rank, section-merge, naive-merge (not radix, hybrid or the host's batcher networks); and only
  // for data sorted in one piece on one device: out-of-core, several-device and distributed sorts
  // refuse it (their cuts use the natural order). Record sorts (gpusort/records.hpp) take a
  // comparator over two records instead. Example: "return (a & 0xFFu) < (b & 0xFFu);" sorts u32
  // keys by their low byte. Over floats that may hold NaN, a strict weak order places NaN itself:
  // "return isnan(b) ? !isnan(a) : a < b;" (NaN last); `a < b` alone, or `a <= b`, is none. Every
  // sort by a comparator is checked: where it lost or duplicated keys or left adjacent keys out of
  // the order, it fails with Error(invalid_argument) ("the comparator is not a strict weak
  // order ...") and the caller's data unchanged; a sort of the caller's device memory keeps a copy
  // of it for that (in temporary_storage_bytes). At most 16 KiB of text.
  std::string comparator;
  // Print what was chosen and how long each phase took (to stderr).
  bool verbose = false;
  // Host sorts (sort, sort_pairs, sort_host): how many bytes of device memory the sort may use;
  // 0 = 70% of the device's global memory; else at least what chunks of 1024 elements need (some
  // 70 to 140 KiB, by key and value size). When the keys, values and the algorithm's temporaries do
  // not fit it, or one of their buffers exceeds the device's largest allocation
  // (DeviceDescription::max_buffer_bytes), the data is sorted in two passes of steps that do
  // (chunks, then buckets cut at exact ranks; pipelined: upload, sort, download overlap)
  // (docs/DESIGN-NOTES.md, "Out-of-core"). Sorts of device memory (sort_device) refuse a nonzero value.
  std::uint64_t device_memory_limit = 0;
  // Host sorts: host threads per copy direction that stage data through pinned memory (each holds
  // two 8 MiB pinned slots); 0 = automatic (one-piece sorts, which copy one way at a time: every
  // hardware thread, at most 16; pipelined steps, both ways at once: half, at most 8), else 1..64.
  unsigned host_threads = 0;
};

}  // namespace gpusort
