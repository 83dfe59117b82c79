// merge algorithm, global variant "half": Locicero's half-parallel merge. One work-item per key of
// each LEFT run only: it finds its rank p(i) in the right run B (lower bound) and writes itself, then
// writes the keys of B that fall between its predecessor A[i-1] and itself, walking down from
// B[p(i)-1] while the key is not before A[i-1] (those are B[p(i-1) .. p(i)), each at pair start +
// j + i). Item 0 also writes B's keys before A[0]; the last item those after A[last]. Half the
// binary searches of the full-parallel merge, but the walk is sequential: a skewed merge (e.g.
// already sorted input) leaves one work-item copying a whole run, O(width) depth; kept as the study
// describes it. A pair without a right run is copied through.
// NVRTC-CHECK-DEFINES: GROUP_SIZE=256
#include "merge_runs.h"
#include "rank_search.h"

KERNEL merge_pass(MERGE_PASS_ARGS) {
  const u64 g = GLOBAL_ID();
  const u64 i = g & (width - 1);
  const u64 a0 = (g - i) * 2;  // pair index (g / width) times 2*width
  const u64 a_len = run_length(a0, width, n);
  if (i >= a_len) return;  // no barriers in this kernel
  const u64 b0 = a0 + width;
  const u64 b_len = run_length(b0, width, n);
  GLOBAL const key_t* b = src_keys + b0;
  const key_t key = src_keys[a0 + i];
  const u64 p = rank_search_global(b, b_len, order_key(key, flip), RANK_LOWER, flip);
  merge_move(dst_keys, dst_values, a0 + i + p, key, src_values, a0 + i);
  u64 j = p;
  if (i == 0) {
    while (j > 0) {
      --j;
      merge_move(dst_keys, dst_values, a0 + j, b[j], src_values, b0 + j);
    }
  } else {
    const order_t prev = order_key(src_keys[a0 + i - 1], flip);
    while (j > 0 && !rank_probe_before(order_key(b[j - 1], flip), prev, 0)) {
      --j;
      merge_move(dst_keys, dst_values, a0 + i + j, b[j], src_values, b0 + j);
    }
  }
  if (i == a_len - 1)
    for (u64 k = p; k < b_len; ++k) merge_move(dst_keys, dst_values, a0 + a_len + k, b[k], src_values, b0 + k);
}
