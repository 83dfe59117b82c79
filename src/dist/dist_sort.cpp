// The distributed sort (gpusort/dist.hpp): local sort, exact rank splits found by a distributed
// bisection, one all-to-all exchange, a local sort of the received runs. docs/DISTRIBUTED.md.
#include <algorithm>
#include <chrono>
#include <exception>
#include <cstring>
#include <limits>
#include <new>
#include <string>
#include <vector>

#include "api/option_checks.hpp"
#include "core/host_array.hpp"
#include "core/ordered_search.hpp"
#include "gpusort/dist.hpp"
#include "gpusort/key_order.hpp"

namespace gpusort::dist {
namespace {

using clock_type = std::chrono::steady_clock;
double ms_since(clock_type::time_point t0) {
  return std::chrono::duration<double, std::milli>(clock_type::now() - t0).count();
}

template <class K>
using okey_t = core::ordered_key_t<K>;

// cut[k * (p + 1) + j]: where rank j's sorted keys split for destination k (cut[.. + 0] = 0 and
// cut[.. + p] = n_j per rank are implied); here as a p x (p + 1) table, row = source rank j.
// The global stable order is (ordered key, rank, index); rank k receives global ranks
// [start_k, start_{k+1}) with start_k = the sum of the counts of ranks below k.
template <class K>
std::vector<std::uint64_t> exact_cuts(Communicator& comm, const K* keys, std::size_t n, order o,
                                      const std::vector<std::uint64_t>& counts) {
  using U = okey_t<K>;
  const int p = comm.size();
  std::vector<std::uint64_t> target(p + 1, 0);
  for (int k = 0; k < p; ++k) target[k + 1] = target[k] + counts[k];
  // Bisection over the ordered key values, every cut at once: the smallest v_k with at least
  // target_k elements <= v_k (one allreduce of p - 1 counts per step, at most 8 * sizeof(U) steps).
  const int cuts = p - 1;
  std::vector<U> lo(cuts, U(0)), hi(cuts, std::numeric_limits<U>::max());
  std::vector<std::uint64_t> le(cuts);
  for (;;) {
    bool done = true;
    for (int c = 0; c < cuts; ++c) done = done && lo[c] == hi[c];
    if (done) break;
    std::vector<U> mid(cuts);
    for (int c = 0; c < cuts; ++c) {
      mid[c] = U(lo[c] + U(hi[c] - lo[c]) / 2);
      le[c] = core::ordered_bound(keys, n, mid[c], o, true);
    }
    comm.allreduce_sum(le.data(), le.size());
    for (int c = 0; c < cuts; ++c) {
      if (lo[c] == hi[c]) continue;
      if (le[c] >= target[c + 1])
        hi[c] = mid[c];
      else
        lo[c] = U(mid[c] + 1);
    }
  }
  // Below v_k every rank gives all it has; keys equal to v_k go to the lowest ranks first.
  std::vector<std::uint64_t> mine(2 * std::size_t(cuts));  // (less, equal) per cut
  for (int c = 0; c < cuts; ++c) {
    const std::size_t lt = core::ordered_bound(keys, n, lo[c], o, false);
    mine[2 * c] = lt;
    mine[2 * c + 1] = core::ordered_bound(keys, n, lo[c], o, true) - lt;
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

std::vector<std::uint64_t> cuts_of(Communicator& comm, key_type type, const void* keys, std::size_t n, order o,
                                   const std::vector<std::uint64_t>& counts) {
  return visit_key_type(type, [&](auto tag) {
    return exact_cuts(comm, static_cast<const decltype(tag)*>(keys), n, o, counts);
  });
}

}  // namespace

DistReport sort_host(Context& ctx, Communicator& comm, key_type type, void* keys, std::size_t n, void* values,
                     std::size_t value_bytes, const SortOptions& options) {
  const auto t_all = clock_type::now();
  const int p = comm.size(), me = comm.rank();
  const std::size_t kb = key_size(type), vb = value_bytes;
  DistReport report;

  // Every rank's count, type and value size (a rank that differs would corrupt the exchange).
  std::uint64_t mine[3] = {n, std::uint64_t(type), vb};
  std::vector<std::uint64_t> gathered(3 * std::size_t(p));
  comm.allgather(mine, sizeof mine, gathered.data());
  std::vector<std::uint64_t> counts(p);
  for (int j = 0; j < p; ++j) {
    counts[j] = gathered[3 * j];
    report.total += counts[j];
  }
  // The request's checks, then the local sort (stable when asked: the global order is then
  // (key, rank, index)), each agreed on by all ranks.
  collectively(comm, [&] {
    for (int j = 0; j < p; ++j)
      if (gathered[3 * j + 1] != mine[1] || gathered[3 * j + 2] != mine[2])
        throw Error(errc::invalid_argument, "dist::sort: rank " + std::to_string(j) +
                                                " sorts another key type or value size than rank " + std::to_string(me));
    if (value_bytes != 0 && !is_supported_value_size(value_bytes))
      throw Error(errc::invalid_argument, "values of " + std::to_string(value_bytes) + " bytes are not supported (1, 2, 4, 8 or 16)");
    if ((value_bytes == 0 && values != nullptr) || (value_bytes != 0 && values == nullptr && n > 0))
      throw Error(errc::invalid_argument, "values and value size must be given together");
    if (n > 0 && !keys) throw Error(errc::invalid_argument, "keys is null");
    // Also on ranks with nothing to sort, so a bad option fails everywhere alike.
    detail::checked_algorithm(ctx.device(), std::max<std::uint64_t>(report.total, 2), options);
    const auto t = clock_type::now();
    if (n > 1) report.local_sort = gpusort::sort_host(ctx, type, keys, n, values, vb, options);
    report.local_sort_ms = ms_since(t);
  });
  if (p == 1) {
    report.total_ms = ms_since(t_all);
    return report;
  }

  // 2. Exact cuts for every destination.
  auto t = clock_type::now();
  const std::vector<std::uint64_t> cut = cuts_of(comm, type, keys, n, options.order, counts);
  report.split_ms = ms_since(t);

  // 3. Exchange: rank j sends rank k its slice [cut[j][k], cut[j][k + 1]); receives go end to end
  // in source-rank order.
  t = clock_type::now();
  auto row = [&](int j) { return &cut[std::size_t(j) * (p + 1)]; };
  std::vector<std::uint64_t> send_bytes(p), send_off(p), recv_bytes(p), recv_off(p);
  std::uint64_t at = 0;
  for (int k = 0; k < p; ++k) {
    send_off[k] = row(me)[k];
    send_bytes[k] = row(me)[k + 1] - row(me)[k];
    recv_off[k] = at;
    recv_bytes[k] = row(k)[me + 1] - row(k)[me];
    at += recv_bytes[k];
    if (k != me) report.sent_away += send_bytes[k];
  }
  // Every rank checks every rank's share (all hold the same table), so all throw together or none
  // does: a rank that stopped alone would leave the others waiting in the exchange.
  for (int m = 0; m < p; ++m) {
    std::uint64_t gets = 0;
    for (int k = 0; k < p; ++k) gets += row(k)[m + 1] - row(k)[m];
    if (gets != counts[m])
      throw Error(errc::device_error, "dist::sort: rank " + std::to_string(m) + " would receive " + std::to_string(gets) +
                                          " elements instead of " + std::to_string(counts[m]) + " (internal error)");
  }
  core::HostArray scratch;
  collectively(comm, [&] {
    try {
      scratch = core::make_host_array(std::max<std::size_t>(1, n * (kb + vb)));
    } catch (const std::bad_alloc&) {
      throw Error(errc::out_of_memory, "dist::sort: cannot allocate " + std::to_string(n * (kb + vb)) +
                                           " bytes of host memory for the exchange");
    }
  });
  auto scaled = [](std::vector<std::uint64_t> v, std::size_t by) {
    for (auto& x : v) x *= by;
    return v;
  };
  unsigned char* recv_keys = scratch.get();
  unsigned char* recv_values = scratch.get() + n * kb;
  comm.alltoallv(keys, scaled(send_bytes, kb).data(), scaled(send_off, kb).data(), recv_keys,
                 scaled(recv_bytes, kb).data(), scaled(recv_off, kb).data());
  if (vb)
    comm.alltoallv(values, scaled(send_bytes, vb).data(), scaled(send_off, vb).data(), recv_values,
                   scaled(recv_bytes, vb).data(), scaled(recv_off, vb).data());
  report.exchange_ms = ms_since(t);

  // 4. The received runs (in source-rank order) sorted again, stably, then into the caller's arrays.
  t = clock_type::now();
  collectively(comm, [&] {
    if (n > 1) report.final_sort = gpusort::sort_host(ctx, type, recv_keys, n, vb ? recv_values : nullptr, vb, options);
  });
  std::memcpy(keys, recv_keys, n * kb);
  if (vb) std::memcpy(values, recv_values, n * vb);
  report.final_sort_ms = ms_since(t);
  report.total_ms = ms_since(t_all);
  return report;
}

}  // namespace gpusort::dist
