#pragma once
// Host-side helpers for the algorithms that sort (part of) the data on the CPU (batcher-*, hybrid):
// fetch a job's keys and values, map keys to ordered u64 integers (the host twin of kernels/keys.h,
// flip included), and write a permutation of them back.
#include <cstdint>
#include <vector>

#include "algorithms/algorithm.hpp"

namespace gpusort::algo {

struct HostCopy {
  std::vector<unsigned char> keys;    // n * key_size bytes, as on the device
  std::vector<unsigned char> values;  // n * value_bytes bytes (empty without values)
};

HostCopy download(SortJob& job);
// ordered[i]: the i-th key as an unsigned integer whose natural order is the job's sort order
// (ascending or descending; -0.0 == +0.0, NaNs equal and last ascending).
std::vector<std::uint64_t> ordered_keys(const SortJob& job, const HostCopy& host);
// Writes keys/values back so that position i holds the original element perm[i].
void upload_permuted(SortJob& job, const HostCopy& host, const std::vector<std::uint64_t>& perm);

}  // namespace gpusort::algo
