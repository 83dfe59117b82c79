// The table of algorithms. Each driver lives in its own file of this folder and is declared in
// drivers.hpp; adding an algorithm = one driver file + one line here.
#include "algorithms/algorithm.hpp"
#include "algorithms/drivers.hpp"

namespace gpusort::algo {

const std::vector<Algorithm>& registry() {
  static const std::vector<Algorithm> table = {
      {"bitonic", "Batcher's bitonic network: local-memory tile sort, then global stage/sub-stage merges (not stable)",
       false, 0, "", bitonic_sort, no_temp_bytes},
      {"merge", "Local tile sort then global merge passes; --local merge|bitonic|rank|odd-even|bubble, --merge path|rank|half|cached|hashed (stable)", true, 0, "", merge_sort, merge_temp_bytes},
      {"radix", "LSD radix sort, 8-bit digits of the order-preserving key: all-digit histogram, trivial passes skipped; CUDA: onesweep (decoupled look-back); stable", true, 0, "", radix_sort, radix_temp_bytes},
      {"rank", "Parallel selection / counting sort: each key counts the keys before it, O(n^2) (stable on request)", true, 1u << 16, "merge --local rank", rank_sort, rank_temp_bytes},
      {"odd-even", "Odd-even transposition (assembly lane), block-wise with a sliding local window, O(n^2) (stable)", true, 1u << 16, "merge --local odd-even", odd_even_sort, no_temp_bytes},
      {"naive-merge", "Local odd-even tiles, then one work-item per pair of runs merges sequentially (stable; baseline)", true, 0, "", naive_merge_sort, naive_merge_temp_bytes},
      {"section-merge", "Per-thread section insertion sort, then scatter-address merges by binary rank (stable)", true, 0, "", section_merge_sort, section_merge_temp_bytes},
      {"hybrid", "Section-merge on the device, top merge levels on host threads with merge-path splits (stable)", true, 0, "", hybrid_sort, hybrid_temp_bytes},
      {"batcher-recursive", "Batcher's odd-even merge network on the host, recursive shuffle/unshuffle form (not stable)", false, 0, "", batcher_recursive_sort, no_temp_bytes},
      {"batcher-iterative", "Batcher's odd-even merge network on the host, iterative p/k/j loops (not stable)", false, 0, "", batcher_iterative_sort, no_temp_bytes},
  };
  return table;
}

}  // namespace gpusort::algo
