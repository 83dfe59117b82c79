#pragma once
// The shapes of `gpusort-bench segmented` (issue 52's table and two mixes of lengths), their keys and
// offsets, and the host reference a result is checked against.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace bench {

struct SegShape {
  enum class kind { rows, powerlaw, tiny };
  kind form = kind::rows;
  std::uint64_t segments = 0;
  std::uint64_t length = 0;  // rows: each row's length; powerlaw: keys in all; tiny: the longest row
  std::string name() const;  // as --shapes spells it: "64x128256", "powerlaw:65536:67108864", "tiny:131072:64"
  bool uniform() const { return form == kind::rows; }
  // Segment lengths, drawn from `seed` where they vary: count + 1 offsets from 0 to n.
  std::vector<std::uint64_t> offsets(std::uint64_t seed) const;
};

// "RxL" (R rows of L keys), "powerlaw" (2^16 segments, 2^26 keys in all, lengths from a power law),
// "powerlaw:S:N", "tiny" (2^17 rows of 0-64 keys, lengths uniform), "tiny:R:MAX". Nothing for text
// that is none of these.
std::optional<SegShape> parse_seg_shape(const std::string& text);
std::vector<SegShape> default_seg_shapes();  // issue 52's table, powerlaw, tiny
std::vector<SegShape> quick_seg_shapes();    // 64x128256, 16384x1024, tiny

// n f32 keys: "normal" (standard normal, as logits look) or "uniform" (every finite bit pattern equally
// likely, as the sweep's keys). Deterministic in seed.
std::vector<float> make_seg_keys(std::uint64_t n, const std::string& distribution, std::uint64_t seed);

// keys with every segment sorted ascending on the host (gpusort's key order), the reference results
// are compared with.
std::vector<float> host_sorted_segments(const std::vector<float>& keys, const std::vector<std::uint64_t>& offsets);

// "" when `keys` (and, with index_bytes 4 or 8, `indices`) are a right segmented sort (argsort) of
// `input`: the keys those of `reference`; each index within its segment, naming a key equal in bits to
// the one beside it, and each position of the segment named once; with `stable`, equal keys in
// ascending index order. Otherwise the first thing found wrong.
std::string check_segmented(const std::vector<float>& input, const std::vector<std::uint64_t>& offsets,
                            const std::vector<float>& reference, const std::vector<float>& keys, const void* indices,
                            std::size_t index_bytes, bool stable);

}  // namespace bench
