#pragma once
// The exact cuts of a distributed sort (gpusort/dist.hpp), for local runs held anywhere: the
// caller gives `bounds(probes, below, not_after)`, which counts, for each probe (an ordered key
// value, ordered_bits(., order)), the local keys strictly before it and not after it.
//
// Rank k must receive the global ranks [s_k, s_k + n_k), s_k = the counts of the ranks below k.
// For all P - 1 cuts at once, a bisection over the ordered key values finds the smallest v_k with
// at least s_k keys <= v_k (one allreduce of P - 1 counts per step, 8 x key bytes steps); then one
// allgather of (keys < v_k, keys == v_k) per cut and rank gives every rank the whole table: below
// v_k every rank gives all it has, and keys equal to v_k go to the lowest ranks first (the (rank,
// index) tie-break). Returns the table cut[j * (P + 1) + k]: where rank j's run splits for
// destination k (cut[j][0] = 0, cut[j][P] = n_j).
//
// If `bounds` throws on this rank, the protocol still runs to its end (with zero counts) so that
// no rank is left waiting, and the error comes back in `failed`.
#include <algorithm>
#include <cstdint>
#include <exception>
#include <limits>
#include <vector>

#include "core/ordered_search.hpp"
#include "gpusort/dist.hpp"

namespace gpusort::dist::detail {

template <class K, class Bounds>
std::vector<std::uint64_t> exact_cuts(Communicator& comm, const std::vector<std::uint64_t>& counts, Bounds&& bounds,
                                      std::exception_ptr& failed) {
  using U = core::ordered_key_t<K>;
  const int p = comm.size();
  std::vector<std::uint64_t> target(p + 1, 0);
  for (int k = 0; k < p; ++k) target[k + 1] = target[k] + counts[k];
  const int cuts = p - 1;
  auto local = [&](const std::vector<std::uint64_t>& probes, std::vector<std::uint64_t>& below,
                   std::vector<std::uint64_t>& not_after) {
    below.assign(probes.size(), 0);
    not_after.assign(probes.size(), 0);
    if (failed) return;
    try {
      bounds(probes, below, not_after);
    } catch (...) {
      failed = std::current_exception();
      below.assign(probes.size(), 0);
      not_after.assign(probes.size(), 0);
    }
  };
  std::vector<U> lo(cuts, U(0)), hi(cuts, std::numeric_limits<U>::max());
  std::vector<std::uint64_t> probes(cuts), below, le;
  for (;;) {
    bool done = true;
    for (int c = 0; c < cuts; ++c) done = done && lo[c] == hi[c];
    if (done) break;
    for (int c = 0; c < cuts; ++c) probes[c] = std::uint64_t(U(lo[c] + U(hi[c] - lo[c]) / 2));
    local(probes, below, le);
    comm.allreduce_sum(le.data(), le.size());
    for (int c = 0; c < cuts; ++c) {
      if (lo[c] == hi[c]) continue;
      if (le[c] >= target[c + 1])
        hi[c] = U(probes[c]);
      else
        lo[c] = U(U(probes[c]) + 1);
    }
  }
  for (int c = 0; c < cuts; ++c) probes[c] = std::uint64_t(lo[c]);
  local(probes, below, le);
  std::vector<std::uint64_t> mine(2 * std::size_t(cuts));  // (less, equal) per cut
  for (int c = 0; c < cuts; ++c) {
    mine[2 * c] = below[c];
    mine[2 * c + 1] = le[c] - below[c];
  }
  std::vector<std::uint64_t> all(std::size_t(p) * mine.size());
  if (cuts > 0) comm.allgather(mine.data(), mine.size() * sizeof(std::uint64_t), all.data());
  std::vector<std::uint64_t> cut(std::size_t(p) * (p + 1));
  for (int j = 0; j < p; ++j) {
    cut[j * (p + 1)] = 0;
    cut[j * (p + 1) + p] = counts[j];
  }
  for (int c = 0; c < cuts; ++c) {
    std::uint64_t less = 0;
    for (int j = 0; j < p; ++j) less += all[j * mine.size() + 2 * c];
    std::uint64_t need = target[c + 1] - std::min(target[c + 1], less);  // equal keys still to place
    for (int j = 0; j < p; ++j) {
      const std::uint64_t lt = all[j * mine.size() + 2 * c], eq = all[j * mine.size() + 2 * c + 1];
      const std::uint64_t take = std::min(eq, need);
      need -= take;
      cut[j * (p + 1) + c + 1] = lt + take;
    }
  }
  return cut;
}

}  // namespace gpusort::dist::detail
