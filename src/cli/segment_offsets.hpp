#pragma once
// gpusort sort --segments FILE: where each segment of a segmented sort starts, read from a file of
// S + 1 offsets (raw little-endian u64, or a 1-D .npy of uint64, uint32, int64 or int32) and checked
// against the keys' count before anything is sorted or written.
#include <cstdint>
#include <string>
#include <vector>

#include "array_file.hpp"

namespace gpusort::cli {

// The offsets as u64: offsets[0] == 0, offsets.back() == n, never decreasing (empty segments are
// allowed). Error(invalid_argument) naming the file and the first offset that breaks a rule; a .npy
// is recognised by its magic unless `format` is raw.
std::vector<std::uint64_t> load_segment_offsets(const std::string& path, std::uint64_t n, FileFormat format);

}  // namespace gpusort::cli
