#pragma once
// The shapes of `gpusort-bench topk` (issue 53's table), their keys, the host reference (the tests'
// own: a stable sort of each row, its first k) and the checks of a result against it.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace bench {

struct TopkShape {
  std::uint64_t rows = 1, length = 0;
  bool one_d = false;              // named "1d:E": one row of 2^E keys
  std::vector<std::uint64_t> ks;   // the k timed, each at most length
  std::string name() const;        // as --shapes spells it without the k: "64x128256", "1d:28", "small"
  std::string label;               // a short name ("small") when it has one
  std::uint64_t n() const { return rows * length; }
  std::uint64_t max_k() const;
};

// "RxL" (R rows of L keys), "1d:E" (2^E keys in one row), "small" (3x5000, for tests), each with an
// optional ":K/K/..." giving the k (default: issue 53's for its shapes, else 50). Nothing for text that
// is none of these, or a k of 0 or above the row length.
std::optional<TopkShape> parse_topk_shape(const std::string& text);
std::vector<TopkShape> default_topk_shapes();  // issue 53's table and 1d:24

// The key distributions: "normal" (standard normal, as logits look), "uniform" (uniform in [-1, 1) on
// a grid of 2^-23, as torch.rand(...) * 2 - 1 makes them: many equal keys), "bits" (every finite
// f32 bit pattern equally likely; the non-finite ones become +0). Deterministic in seed.
bool is_topk_dist(const std::string& name);
std::vector<float> make_topk_keys(std::uint64_t n, const std::string& distribution, std::uint64_t seed);

// Each row's first `k` positions in the stable descending order (gpusort::test::topk_reference, on
// the keys that are not after the row's k-th: the same positions, without sorting the whole row):
// rows x k positions within the row.
std::vector<std::uint64_t> topk_reference_rows(const std::vector<float>& keys, std::uint64_t rows, std::uint64_t k);

// "" when `values` (and `indices`, index_bytes 4 or 8; none with 0) are a right top-k of each row for
// k: `reference` holds ref_k >= k positions per row, of which the first k are the answer.
// exact: gpusort's contract (ties to the lower position): sorted, the reference's positions in its
// order; unsorted, the same positions as a set. Not exact (CUB's contract): any k keys no key outside
// them beats, as a multiset of keys equal to the reference's, each index naming its own key once.
// Otherwise the first thing found wrong.
std::string check_topk(const std::vector<float>& keys, std::uint64_t rows, const std::vector<std::uint64_t>& reference,
                       std::uint64_t ref_k, std::uint64_t k, const std::vector<float>& values, const void* indices,
                       std::size_t index_bytes, bool exact, bool sorted);

}  // namespace bench
