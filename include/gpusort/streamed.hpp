#pragma once
// Sorting an array that is read and written in pieces -- a file, a memory map, another process's
// memory -- with no host copy of the whole array: the pieces go straight between the caller's
// functions and the pinned staging memory that feeds the device, on several host threads at once,
// so reading overlaps the upload and the download overlaps writing.
//
//   read(offset, into, bytes)  fills `into` with `bytes` bytes of the array from byte `offset`;
//   write(offset, from, bytes) takes `bytes` bytes of the sorted array from byte `offset`.
//
// Each is called from several threads at once on disjoint ranges in no particular order, and the
// ranges of one array cover it exactly once. A function that throws stops the sort: the first
// error is rethrown once every copy in flight has finished. No write call is made before the sort
// has succeeded on the device; an error during the writes can leave part of the output written.
//
// The array is sorted in one piece on the device: fits_streamed says whether it can be (within
// SortOptions::device_memory_limit or the default budget, and the device's largest allocation).
// Larger arrays need host memory for the out-of-core partition sort (gpusort/sort.hpp, sort_host).
#include <cstddef>
#include <cstdint>
#include <functional>

#include "gpusort/context.hpp"
#include "gpusort/key_type.hpp"
#include "gpusort/options.hpp"
#include "gpusort/sort.hpp"

namespace gpusort {

using ReadPiece = std::function<void(std::uint64_t offset, void* into, std::size_t bytes)>;
using WritePiece = std::function<void(std::uint64_t offset, const void* from, std::size_t bytes)>;

struct StreamedArrays {
  ReadPiece read_keys;
  WritePiece write_keys;
  // Pairs: value_bytes (1, 2, 4, 8 or 16) and both functions; keys alone: 0 and neither.
  std::size_t value_bytes = 0;
  ReadPiece read_values;
  WritePiece write_values;
};

// Whether n elements of `type` (with values of value_bytes) sort in one piece on ctx's device under
// `options` -- what sort_streamed needs.
bool fits_streamed(Context& ctx, key_type type, std::size_t n, std::size_t value_bytes,
                   const SortOptions& options = {});

// Sorts the n elements that `arrays` reads, and hands the sorted ones to its write functions.
// Errors as for sort_host, and Error(out_of_memory) when !fits_streamed. SortReport: upload_ms
// includes the read calls, download_ms the write calls (each the host time that phase was busy).
SortReport sort_streamed(Context& ctx, key_type type, std::size_t n, const StreamedArrays& arrays,
                         const SortOptions& options = {});

}  // namespace gpusort
