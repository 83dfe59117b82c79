// The sampled threshold before the rounds (topk_sample.hpp).
#include "algorithms/topk/topk_sample.hpp"

#include <algorithm>

#include "runtime/buffer_pool.hpp"

namespace gpusort::algo {
namespace {

constexpr std::uint64_t kTileItems = 16;  // the kernel's TKS_ITEMS

std::uint64_t tiles_per_row(const Plan& plan) {
  return ceil_div(plan.request.row_length, std::uint64_t(plan.topk.group) * kTileItems);
}

// The sample, the thresholds, the stage's counters, keys and positions, the tiles' counts and first
// slots, in bytes.
struct SampleTemps {
  std::uint64_t sample, thresholds, staged, stage_keys, stage_pos, tile_count, tile_first;
};
SampleTemps sample_temps(const Plan& plan) {
  const SortRequest& r = plan.request;
  const TopkChoice& c = plan.topk;
  const std::uint64_t key = key_size(r.type), tiles = r.rows * tiles_per_row(plan);
  return {r.rows * c.sample_keys * key, r.rows * key, r.rows * 4, r.rows * c.sample_cap * key,
          r.rows * c.sample_cap * 4, tiles * 4, tiles * 4};
}

// The sample's rank (0-based, ascending in the ordered key as topk_partition_rows counts) of its
// key of rank sample_rank in the top-k's order.
std::uint64_t sample_kth(const TopkChoice& c, bool largest) {
  return largest ? c.sample_keys - c.sample_rank : c.sample_rank - 1;
}

}  // namespace

void topk_sample_candidates(const Plan& plan, rt::Device& dev, rt::Buffer& keys, const TopkSplitState& split,
                            bool largest) {
  const SortRequest& r = plan.request;
  const TopkChoice& c = plan.topk;
  const SampleTemps bytes = sample_temps(plan);
  rt::BufferPool& pool = dev.temp_pool();
  const rt::BufferPtr sample = pool.get(bytes.sample), thresholds = pool.get(bytes.thresholds),
                      staged = pool.get(bytes.staged), stage_keys = pool.get(bytes.stage_keys),
                      stage_pos = pool.get(bytes.stage_pos), tile_count = pool.get(bytes.tile_count),
                      tile_first = pool.get(bytes.tile_first);
  rt::Program& program = topk_program(dev, r.type, c, "topk_sample.cl");
  const std::uint64_t tiles = tiles_per_row(plan);
  const std::uint64_t items = std::max(r.rows * c.sample_keys, r.rows);
  dev.launch(program.kernel("topk_sample_keys"), {ceil_div(items, c.group), c.group, 0},
             {keys, *sample, *staged, r.rows, r.row_length, c.sample_keys});
  // the sample's key of rank j, one group a row (numpy's select_kth; no positions written)
  dev.launch(topk_program(dev, r.type, c).kernel("topk_partition_rows"), {r.rows, c.group, 0},
             {*sample, *thresholds, *thresholds, r.rows, c.sample_keys, sample_kth(c, largest), std::uint32_t(1),
              std::uint32_t(0), std::uint32_t(1), std::uint32_t(1), c.hist_copies});
  dev.launch(program.kernel("topk_sample_filter"), {r.rows * tiles, c.group, 0},
             {keys, *thresholds, *stage_keys, *stage_pos, *staged, *tile_count, *tile_first, r.row_length, tiles,
              c.sample_cap, topk_flip_arg(r.type, largest)});
  dev.launch(program.kernel("topk_sample_place"), {r.rows, c.group, 0},
             {*split.state, *staged, *tile_count, tiles, r.k, c.sample_cap});
  dev.launch(program.kernel("topk_sample_gather"), {r.rows * c.groups_per_row, c.group, 0},
             {*split.state, *stage_keys, *stage_pos, *staged, *tile_count, *tile_first, *split.cand_keys,
              *split.cand_pos, r.rows, tiles, c.sample_cap, c.candidate_cap, c.groups_per_row});
}

std::uint64_t topk_sample_temp_bytes(const Plan& plan) {
  if (plan.topk.sample_keys == 0) return 0;
  const SampleTemps t = sample_temps(plan);
  std::uint64_t bytes = 0;
  for (std::uint64_t b : {t.sample, t.thresholds, t.staged, t.stage_keys, t.stage_pos, t.tile_count, t.tile_first})
    bytes += temp_request_bytes(b);
  return bytes;
}

std::vector<std::string> topk_sample_steps(const Plan& plan) {
  const SortRequest& r = plan.request;
  const TopkChoice& c = plan.topk;
  const std::string first = plan.options().order == order::descending ? "largest" : "smallest";
  const std::string rows = r.rows == 1 ? "the row" : "each of " + std::to_string(r.rows) + " rows";
  return {"topk_sample.cl topk_sample_keys: a sample of " + std::to_string(c.sample_keys) + " keys of " + rows +
              ", one from each of " + std::to_string(c.sample_keys) + " equal blocks",
          "topk_select.cl topk_partition_rows (the key of rank kth alone): the sample's key of rank " +
              std::to_string(c.sample_rank) + " (" + first + " first), the row's threshold (about " + std::to_string(ceil_div(c.sample_rank * r.row_length, c.sample_keys)) +
              " keys at or before it, k = " + std::to_string(r.k) + ")",
          "topk_sample.cl topk_sample_filter: " + std::to_string(tiles_per_row(plan)) + " groups of " +
              std::to_string(c.group) + " work-items per row, " + std::to_string(c.group * kTileItems) +
              " keys each: the keys at or before the threshold kept in one read (at most " +
              std::to_string(c.sample_cap) + " a row)",
          "topk_sample.cl topk_sample_place + topk_sample_gather: the kept keys put in position order as the "
          "rounds' candidates, where they number k to " + std::to_string(c.sample_cap) +
              " (else the rounds read the row itself)"};
}

}  // namespace gpusort::algo
