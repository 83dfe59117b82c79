#pragma once
// Complex128 keys in segments (SortRequest::type c128 with rows or offsets). No bin sorts 16-byte
// keys: as a record sort does one array of them (records/record_passes.hpp), each key's
// order-isomorphic 128-bit image is cut into a low and a high u64 word, and the segments are
// sorted twice by the plan's part, a segmented sort of u64 words with the keys' global positions
// as values: the low words first, then the high words in that order. Both passes are stable and
// keep every element in its segment, so the positions end in numpy's complex order within each
// segment; the keys and values are gathered by them, and an argsort's positions are made local to
// their segment (kernels/segmented_gather.cl). run_segmented (segmented_sort.hpp) calls this for
// every c128 job.
#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/planner.hpp"
#include "algorithms/segmented/segmented_job.hpp"

namespace gpusort::algo {

// The plan's part for the word passes of a c128 segmented `request`: the same segments, u64 keys
// in the request's order, stable, positions of `position_bytes` as values, on the device.
SortRequest complex128_word_request(const SortRequest& request, std::size_t position_bytes);

void segmented_complex128_sort(SegmentedJob& job, const Plan& plan);
std::uint64_t segmented_complex128_temp_bytes(const Plan& plan, rt::Device& device);
std::vector<std::string> segmented_complex128_steps(const Plan& plan, rt::Device& device);

}  // namespace gpusort::algo
