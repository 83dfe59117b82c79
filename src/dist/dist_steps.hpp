#pragma once
// What the host and device forms of the distributed sort share (gpusort/dist.hpp): every rank's
// share, agreeing on a rank-local step's outcome, and the exchange plan a cut table gives.
#include <chrono>
#include <cstdint>
#include <exception>
#include <string>
#include <vector>

#include "core/host_clock.hpp"
#include "gpusort/dist.hpp"

namespace gpusort::dist::detail {

using clock_type = core::host_clock;
using core::ms_since;

// Every rank's element count, key type and value size, gathered (the first collective call).
struct RankShares {
  std::vector<std::uint64_t> counts;
  std::uint64_t total = 0;
  std::vector<std::uint64_t> requests;  // (key type, value bytes) per rank
};
inline RankShares gather_shares(Communicator& comm, key_type type, std::uint64_t n, std::size_t value_bytes) {
  const std::uint64_t mine[3] = {n, std::uint64_t(type), value_bytes};
  std::vector<std::uint64_t> all(3 * std::size_t(comm.size()));
  comm.allgather(mine, sizeof mine, all.data());
  RankShares s;
  for (int j = 0; j < comm.size(); ++j) {
    s.counts.push_back(all[3 * j]);
    s.total += all[3 * j];
    s.requests.push_back(all[3 * j + 1]);
    s.requests.push_back(all[3 * j + 2]);
  }
  return s;
}
// A rank that sorts another key type or value size would corrupt the exchange.
inline void check_same_request(const RankShares& s, int me) {
  for (std::size_t j = 0; j < s.counts.size(); ++j)
    if (s.requests[2 * j] != s.requests[2 * me] || s.requests[2 * j + 1] != s.requests[2 * me + 1])
      throw Error(errc::invalid_argument, "dist::sort: rank " + std::to_string(j) +
                                              " sorts another key type or value size than rank " + std::to_string(me));
}

// Runs a rank-local step and agrees on its outcome: if it failed on any rank, every rank throws
// (its own error, or one naming the rank that failed), so none is left waiting in a collective.
template <class F>
void collectively(Communicator& comm, F&& step) {
  std::exception_ptr error;
  try {
    step();
  } catch (...) {
    error = std::current_exception();
  }
  std::vector<std::uint64_t> failed(std::size_t(comm.size()), 0);
  failed[std::size_t(comm.rank())] = error ? 1 : 0;
  comm.allreduce_sum(failed.data(), failed.size());
  if (error) std::rethrow_exception(error);
  for (std::size_t r = 0; r < failed.size(); ++r)
    if (failed[r]) throw Error(errc::device_error, "dist::sort: rank " + std::to_string(r) + " failed (see its error)");
}

// This rank's side of the all-to-all, in elements: it sends send_count[k] from send_offset[k] to
// rank k and receives recv_count[k] from rank k at recv_offset[k], in source-rank order; the
// elements of rank k's run for this rank then lie at [run_start[k], +run_count[k]). With an
// alignment A > 1 every copy starts at a multiple of A on both sides: a sender starts its slice at
// the multiple of A at or below it (sending up to A - 1 elements of its neighbour's slice first,
// which the receiver leaves in a gap), and the receiver lets each copy land at a multiple of A.
// NCCL copies between buffers whose ends are not so aligned at about half its rate.
struct ExchangePlan {
  std::vector<std::uint64_t> send_count, send_offset, recv_count, recv_offset, run_start, run_count;
  std::uint64_t sent_away = 0;    // elements for other ranks (of their runs: no lead-in)
  std::uint64_t recv_extent = 0;  // elements of the receive buffer in use, gaps included
  std::vector<std::uint64_t> bytes(const std::vector<std::uint64_t>& elements, std::size_t size) const {
    std::vector<std::uint64_t> b = elements;
    for (auto& x : b) x *= size;
    return b;
  }
};

// From the cut table (every rank holds the same one). Every rank checks every rank's share, so an
// inconsistency stops all ranks together.
inline ExchangePlan plan_exchange(const std::vector<std::uint64_t>& cut, const std::vector<std::uint64_t>& counts,
                                  int me, int p, std::uint64_t align = 1) {
  auto row = [&](int j) { return &cut[std::size_t(j) * (p + 1)]; };
  for (int m = 0; m < p; ++m) {
    std::uint64_t gets = 0;
    for (int k = 0; k < p; ++k) gets += row(k)[m + 1] - row(k)[m];
    if (gets != counts[m])
      throw Error(errc::device_error, "dist::sort: rank " + std::to_string(m) + " would receive " + std::to_string(gets) +
                                          " elements instead of " + std::to_string(counts[m]) + " (internal error)");
  }
  // Where a slice [first, end) of a sender's array starts its copy: a multiple of align, unless empty.
  auto copy_start = [&](std::uint64_t first, std::uint64_t end) { return end > first ? first / align * align : first; };
  ExchangePlan plan;
  for (auto* v : {&plan.send_count, &plan.send_offset, &plan.recv_count, &plan.recv_offset, &plan.run_start,
                  &plan.run_count})
    v->resize(std::size_t(p));
  std::uint64_t at = 0;
  for (int k = 0; k < p; ++k) {
    plan.send_offset[k] = copy_start(row(me)[k], row(me)[k + 1]);
    plan.send_count[k] = row(me)[k + 1] - plan.send_offset[k];
    const std::uint64_t first = row(k)[me], end = row(k)[me + 1];
    const std::uint64_t lead = first - copy_start(first, end);
    at = (at + align - 1) / align * align;
    plan.recv_offset[k] = at;
    plan.recv_count[k] = lead + (end - first);
    plan.run_start[k] = at + lead;
    plan.run_count[k] = end - first;
    at += plan.recv_count[k];
    if (k != me) plan.sent_away += row(me)[k + 1] - row(me)[k];
  }
  plan.recv_extent = at;
  return plan;
}

}  // namespace gpusort::dist::detail
