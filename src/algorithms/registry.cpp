// The table of algorithms. Each driver lives in its own file of this folder and is declared in
// drivers.hpp; adding an algorithm = one driver file + one line here.
#include "algorithms/algorithm.hpp"
#include "algorithms/drivers.hpp"

namespace gpusort::algo {
namespace {

// Which SortOptions fields each driver reads (OptionUse); the ranges of items_per_thread are what
// the drivers can run:
//  - merge: tile = work-group size x items, both powers of two (merge_sort.cpp, check_items);
//  - radix: keys per work-item per tile, 1..64 (both the portable and the onesweep kernels);
//  - rank: RANK_ITEMS, keys ranked per pass, 1..16 (kernels/rank_sort.cl's register array);
//  - section-merge, hybrid: the section length S, sorted by insertion sort in one work-item
//    (O(S^2) each): beyond 1024 the section sort alone outweighs the merges it saves.
// The comparison sorts on the device take a run-time order (SortOptions::comparator); radix orders
// by the keys' bits and hybrid's host merge levels by the natural order, so they do not.
constexpr OptionUse kGroupAndComparator{.work_group_size = true, .comparator = true};
constexpr OptionUse kBitonicOptions{.work_group_size = true, .local_variant = true, .comparator = true};
constexpr OptionUse kMergeOptions{.work_group_size = true, .items_per_thread = true, .local_variant = true,
                                  .merge_variant = true, .comparator = true, .max_items_per_thread = 64,
                                  .items_power_of_two = true};
constexpr OptionUse kRadixOptions{.work_group_size = true, .items_per_thread = true, .max_items_per_thread = 64};
constexpr OptionUse kRankOptions{.work_group_size = true, .items_per_thread = true, .local_variant = true,
                                 .comparator = true, .max_items_per_thread = 16};
constexpr OptionUse kSectionMergeOptions{.work_group_size = true, .items_per_thread = true, .comparator = true,
                                         .max_items_per_thread = 1024};
constexpr OptionUse kHybridOptions{.work_group_size = true, .items_per_thread = true, .merge_variant = true,
                                   .host_merge_levels = true, .max_items_per_thread = 1024};
constexpr OptionUse kNoOptions{};  // host-side networks: no device launch shape to tune

}  // namespace

const std::vector<Algorithm>& registry() {
  static const std::vector<Algorithm> table = {
      {"bitonic", "Batcher's bitonic network: local-memory tile sort, then global stage/sub-stage merges (not stable)",
       Complexity::n_log2_n, RunsOn::device, false, 0, "", bitonic_sort, no_temp_bytes, kBitonicOptions, bitonic_check_variants},
      {"merge", "Local tile sort then global merge passes; SortOptions::local_variant blocked|merge|bitonic|rank|odd-even|bubble, SortOptions::merge_variant blocked|path|rank|half|cached|hashed (stable)", Complexity::n_log_n, RunsOn::device, true, 0, "", merge_sort, merge_temp_bytes, kMergeOptions, merge_check_variants, false, false, merge_plan_steps},
      {"radix", "LSD radix sort, 8-bit digits of the order-preserving key: all-digit histogram, trivial passes skipped; NVIDIA GPUs (CUDA, OpenCL): onesweep (decoupled look-back); stable", Complexity::n_k, RunsOn::device, true, 0, "", radix_sort, radix_temp_bytes, kRadixOptions, nullptr, /*reads_input_apart=*/true, /*makes_positions=*/true, radix_plan_steps},
      {"rank", "Parallel selection / counting sort: each key counts the keys before it, O(n^2) (stable on request)", Complexity::n_squared, RunsOn::device, true, 1u << 16, "algorithm 'merge' with SortOptions::local_variant 'rank'", rank_sort, rank_temp_bytes, kRankOptions, rank_check_variants},
      {"odd-even", "Odd-even transposition (assembly lane), block-wise with a sliding local window, O(n^2) (stable)", Complexity::n_squared, RunsOn::device, true, 1u << 16, "algorithm 'merge' with SortOptions::local_variant 'odd-even'", odd_even_sort, no_temp_bytes, kGroupAndComparator},
      {"naive-merge", "Local odd-even tiles, then one work-item per pair of runs merges sequentially (stable; baseline)", Complexity::n_log_n, RunsOn::device, true, 0, "", naive_merge_sort, naive_merge_temp_bytes, kGroupAndComparator},
      {"section-merge", "Per-thread section insertion sort, then scatter-address merges by binary rank (stable)", Complexity::n_log_n, RunsOn::device, true, 0, "", section_merge_sort, section_merge_temp_bytes, kSectionMergeOptions},
      {"hybrid", "Section-merge on the device, top merge levels on host threads with merge-path splits (stable)", Complexity::n_log_n, RunsOn::device_and_host, true, 0, "", hybrid_sort, hybrid_temp_bytes, kHybridOptions, hybrid_check_variants},
      {"batcher-recursive", "Batcher's odd-even merge network on the host, recursive shuffle/unshuffle form (not stable)", Complexity::n_log2_n, RunsOn::host, false, 0, "", batcher_recursive_sort, no_temp_bytes, kNoOptions},
      {"batcher-iterative", "Batcher's odd-even merge network on the host, iterative p/k/j loops (not stable)", Complexity::n_log2_n, RunsOn::host, false, 0, "", batcher_iterative_sort, no_temp_bytes, kNoOptions},
  };
  return table;
}

}  // namespace gpusort::algo
