#pragma once
// What the host and device forms of the distributed sort share (gpusort/dist.hpp): every rank's
// share, agreeing on a rank-local step's outcome, and the exchange plan a cut table gives.
#include <chrono>
#include <cstdint>
#include <exception>
#include <string>
#include <vector>

#include "gpusort/dist.hpp"

namespace gpusort::dist::detail {

using clock_type = std::chrono::steady_clock;
inline double ms_since(clock_type::time_point t0) {
  return std::chrono::duration<double, std::milli>(clock_type::now() - t0).count();
}

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
// What a distributed sort cannot take: a run-time order (the cuts bisect by the natural order).
inline void check_dist_options(const SortOptions& options) {
  if (!options.comparator.empty())
    throw Error(errc::unsupported, "dist::sort: SortOptions::comparator is not supported (the cuts use the natural order)");
}

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
// rank k and receives recv_count[k] from rank k at recv_offset[k] (source-rank order; with an
// alignment A > 1, each run starts where its offset is congruent modulo A to the sender's, leaving
// gaps of fewer than A elements: copies whose ends share their alignment run at full speed).
struct ExchangePlan {
  std::vector<std::uint64_t> send_count, send_offset, recv_count, recv_offset;
  std::uint64_t sent_away = 0;   // elements for other ranks
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
  ExchangePlan plan;
  plan.send_count.resize(p), plan.send_offset.resize(p), plan.recv_count.resize(p), plan.recv_offset.resize(p);
  std::uint64_t at = 0;
  for (int k = 0; k < p; ++k) {
    plan.send_offset[k] = row(me)[k];
    plan.send_count[k] = row(me)[k + 1] - row(me)[k];
    plan.recv_count[k] = row(k)[me + 1] - row(k)[me];
    at += (row(k)[me] % align + align - at % align) % align;  // the sender's offset, modulo align
    plan.recv_offset[k] = at;
    at += plan.recv_count[k];
    if (k != me) plan.sent_away += plan.send_count[k];
  }
  plan.recv_extent = at;
  return plan;
}

}  // namespace gpusort::dist::detail
