// The radix tuning rows (radix_tuning.hpp). The H200's values were measured with uniform keys,
// 2026-11-21 to 2026-11-28 (docs/algorithms/radix.md; each measurement in lab/notes/radix-policy-history.md).
#include "algorithms/radix_tuning.hpp"

#include <cstring>
#include <iterator>

namespace gpusort::algo {
namespace {

constexpr std::uint64_t kAny = ~0ull;

// ---- the H200's tables (sm_90, 132 SMs, 227 KiB of shared memory per block) ----

constexpr OnesweepItemsRow kSm90OnesweepItems[] = {
    {4, 4, 4, 4, 1ull << 22, kAny, true, 24},       // 4+4-byte pairs packed, values in registers
    {4, 4, 4, 4, 1ull << 22, 1ull << 24, false, 24},  // 4+4-byte pairs unpacked: more tiles for the last wave
    {1, 4, 1, 4, 0, kAny, false, 32},                // pairs of keys and values of up to 4 bytes
    {1, 4, 0, 0, 0, kAny, false, 28},                // keys of up to 4 bytes alone
    {8, 8, 8, 8, 1ull << 26, kAny, false, 28},       // 8+8-byte pairs staged after the keys, 2 blocks per SM
    {1, 8, 1, 8, 1ull << 22, kAny, false, 24},       // other pairs with 8-byte keys or values, staged after the keys
    {8, 8, 0, 0, 1ull << 24, kAny, false, 24},       // 8-byte keys alone at 3 blocks per SM
    {1, 8, 0, 16, 0, kAny, false, 16},               // the rest: registers limit 64-bit keys and wide values
};

// Packed pairs pay from where the extra barrier per tile is amortised: integer keys from 2^22,
// float keys (a staged digit byte each) from 2^24.
constexpr PackedFromRow kSm90PackedFrom[] = {{false, 1ull << 22}, {true, 1ull << 24}};

// The network beats the radix single tile up to 4096 keys of up to 4 bytes, 2048 of 8 bytes, 512 pairs.
constexpr BitonicCapRow kSm90BitonicCaps[] = {{4, false, 12}, {8, false, 11}, {4, true, 9}};

// Segments pay from 2^28 keys of 4 bytes (rank first, atomics' first pass, 64 registers), 2^27 4+4-byte
// pairs (count first, interleaved by the last pass), 2^26 8-byte keys alone or with 8-byte values
// (count first, no register cap).
constexpr SegmentsFromRow kSm90SegmentsFrom[] = {{4, 0, 1ull << 28, true, 4, false},
                                                 {4, 4, 1ull << 27, false, 0, true},
                                                 {8, 0, 1ull << 26, false, 0, false},
                                                 {8, 8, 1ull << 26, false, 0, false}};

// The H200's row; the rows below that share its values say where they differ.
constexpr RadixTuning kH200{
    .name = "sm90-h200",
    .device_class = "cuda:sm_90:H200",
    .measured_on = "cuda:sm_90:H200",
    .note = "the H200's measured tables",
    .onesweep_items = kSm90OnesweepItems,
    .min_tiles_keys = 64,
    .min_tiles_pairs = 128,
    .packed_from = kSm90PackedFrom,
    .snapshot_keys8 = 4,
    .wide_pairs_beside_from = 1ull << 21,
    .wide_pairs_beside_below = 1ull << 24,
    .uniform_count_wide_pairs_from = 1ull << 24,
    .recompute_keys4_from = 1ull << 24,
    .hist_copies16_keys4_from = 1ull << 21,
    .hist_copies16_keys4_below = 1ull << 24,
    .no_skip_max_n = 1ull << 22,
    .match_immediate = 1,
    .opencl_unsplit_items = 24,
    .opencl_unsplit_min_blocks = 3,
    .bitonic_caps = kSm90BitonicCaps,
    .single_tile_max_keys4 = 8192,
    .segments_from = kSm90SegmentsFrom,
    .portable_group = 256,
    .portable_items = 8,
    .portable_groups_per_compute_unit = 8,
    .portable_group_digit_scan = true,
    .portable_onesweep = true,
    .lookback_window_keys = 4,
    .single_group_size = 256,
    .single_group_max_n = 4096,
};

constexpr RadixTuning with_name(RadixTuning row, const char* name, const char* device_class, const char* measured_on,
                                const char* note) {
  row.name = name, row.device_class = device_class, row.measured_on = measured_on, row.note = note;
  return row;
}

// A GPU nobody measured: the H200's shapes (they are fitted to the device's local memory and SMs
// anyway) without what needs sm_80 or later (cp.async: packed pairs, the look-back snapshot) and
// without the segments, whose thresholds are the H200's alone.
constexpr RadixTuning generic_gpu() {
  RadixTuning row = with_name(kH200, "gpu-generic", "", "cuda:sm_90:H200",
                              "the H200's shapes without packed pairs, look-back snapshot or segments");
  row.packed_from = {};
  row.snapshot_keys8 = 0;
  row.segments_from = {};
  return row;
}

// CPUs (PoCL): count + scan + scatter passes of 64 x 16 keys, 2 groups per core, single work-groups of 16.
constexpr RadixTuning cpu() {
  RadixTuning row = with_name(generic_gpu(), "cpu", "cpu", "cpu", "PoCL on the CPU: the portable passes, narrow groups");
  row.portable_group = 64;
  row.portable_items = 16;
  row.portable_groups_per_compute_unit = 2;
  row.portable_group_digit_scan = false;
  row.portable_onesweep = false;
  row.single_group_size = 16;
  return row;
}

// The first row whose class matches wins: measured devices, then the CPU, then the catch-all.
constexpr RadixTuning kRows[] = {
    kH200,
    with_name(kH200, "sm90-h100", "cuda:sm_90:H100", "cuda:sm_90:H200", "the H200's tables, not yet measured on the H100"),
    with_name(kH200, "sm90-nvidia-opencl", "opencl:nvidia:sm_90", "opencl:nvidia:sm_90",
              "NVIDIA's OpenCL on the H200: the CUDA tables fitted to OpenCL, its own shapes where pairs do not fit"),
    cpu(),
    generic_gpu(),
};

}  // namespace

std::span<const RadixTuning> radix_tuning_rows() { return kRows; }

bool tuning_class_matches(const char* pattern, const std::string& device_class) {
  const std::size_t len = std::strlen(pattern);
  return device_class.compare(0, len, pattern) == 0 && (len == 0 || device_class.size() == len || device_class[len] == ':');
}

const RadixTuning& radix_tuning_for(const DeviceDescription& desc) {
  return tuning_row_for(std::span<const RadixTuning>(kRows), desc);
}

}  // namespace gpusort::algo
