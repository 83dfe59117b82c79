#pragma once
// The long-row bin of segmented sorts on CUDA: uniform rows (rows x row_length, each row longer than
// a tile) sorted by one onesweep radix pass per digit over all rows at once, with one look-back
// chain per row (kernels/segmented_onesweep.cl). Keys alone, pairs, and argsort with positions local
// to the row; both orders, the float rules and stability of the 1-D radix sort. The launches depend
// only on the request (every pass runs; nothing is read back), so the sort can be captured in a CUDA
// graph. Internal: the segmented dispatcher calls it.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "algorithms/radix_policy.hpp"
#include "algorithms/segmented/segmented_job.hpp"
#include "gpusort/context.hpp"
#include "gpusort/key_type.hpp"
#include "gpusort/options.hpp"
#include "runtime/device.hpp"

namespace gpusort::algo {

// Measured choices per class of devices (device_class, gpusort/device.hpp): the first row whose
// class matches wins (radix_tuning.hpp's rule); the last row is the generic one.
struct SegmentedOnesweepTuning {
  const char* name;          // as `gpusort plan` prints it
  const char* device_class;  // a device_class() or a prefix of one ending at a ':'; "" any
  const char* measured_on;   // the device class its values were measured on ("" none)
  const char* note;          // what the row is, in one line
  // keys per thread of a tile of 256 threads, keys alone / pairs (0: the 1-D onesweep's choice for an
  // array of rows x row_length keys, radix_policy.cpp)
  std::uint32_t items_keys, items_pairs;
  // the 1-D choice's tiles per row kept, with the fewest keys per thread that fill them (a row's last
  // tile is otherwise up to a tile short); an explicit items_per_thread is taken as it is
  bool fit_items_to_rows;
  std::uint64_t min_row_length;  // rows of at least this many keys take the bin
};
std::span<const SegmentedOnesweepTuning> segmented_onesweep_tuning_rows();
const SegmentedOnesweepTuning& segmented_onesweep_tuning_for(const DeviceDescription& desc);

// What one sort runs: the 1-D onesweep's shape and switches (radix.onesweep, never portions; its
// to_defines build the kernel file), the rows' tiles and the histogram's chunks.
struct SegmentedOnesweepPolicy {
  const SegmentedOnesweepTuning* tuning = nullptr;
  RadixPolicy radix;
  std::uint64_t rows = 0, row_length = 0;
  std::uint64_t tiles_per_row = 0;
  std::uint64_t hist_chunks = 1, hist_span = 0;  // segmented_histogram: blocks per row, keys per block
  std::uint64_t tiles() const { return rows * tiles_per_row; }
};

// Whether the bin sorts this shape: a CUDA device, rows of min_row_length to kOnesweepMaxN keys, no
// run-time order, fewer than 2^32 tiles in all; argsort's positions of 4 or 8 bytes.
bool segmented_onesweep_takes_shape(const DeviceDescription& desc, key_type type, std::size_t value_bytes,
                                    std::uint64_t rows, std::uint64_t row_length, const SortOptions& options,
                                    bool positions = false);
bool segmented_onesweep_takes(const SegmentedJob& job);

// The policy for a shape the bin takes. Packed pairs (4-byte keys with 4-byte values, from the 1-D
// tuning row's n on) need rows of even length and 8-byte aligned buffers: unpacked asks for the
// policy without them.
SegmentedOnesweepPolicy choose_segmented_onesweep_policy(const DeviceDescription& desc, key_type type,
                                                         std::size_t value_bytes, std::uint64_t rows,
                                                         std::uint64_t row_length, const SortOptions& options,
                                                         bool unpacked = false);
// The -D list kernels/segmented_onesweep.cl is built with: packed_in for the passes that read packed
// pairs, packed_out for those that write them.
std::vector<std::string> segmented_onesweep_defines(const SegmentedOnesweepPolicy& p, bool packed_in = false,
                                                    std::uint32_t packed_out = 0);
// kernels/segmented_onesweep.cl built for radix's onesweep shape; immediate (in and out): the warp
// match's masks as immediates, cleared where ptxas refuses them and the program is built without.
rt::Program& segmented_onesweep_program(rt::Device& dev, RadixPolicy radix, bool packed_in, std::uint32_t packed_out,
                                       bool& immediate);
// Every -D list the sort of this shape builds the kernel file with (the packed passes' forms too;
// the NVRTC build test compiles each without a GPU).
std::vector<std::vector<std::string>> segmented_onesweep_program_defines(const DeviceDescription& desc, key_type type,
                                                                         std::size_t value_bytes, std::uint64_t rows,
                                                                         std::uint64_t row_length);

// Sorts every row of job (job.segments uniform, segmented_onesweep_takes(job)); its temporaries come
// from job.sort.temp(), requested before the first launch.
void segmented_onesweep_sort(SegmentedJob& job);

// The temporaries the sort asks for (the sum of temp_request_bytes of its requests).
std::uint64_t segmented_onesweep_temp_bytes(const SegmentedOnesweepPolicy& p);

// What the sort will run, one line each (gpusort plan).
std::vector<std::string> segmented_onesweep_plan_steps(const DeviceDescription& desc, key_type type,
                                                       std::size_t value_bytes, std::uint64_t rows,
                                                       std::uint64_t row_length, const SortOptions& options);

}  // namespace gpusort::algo
