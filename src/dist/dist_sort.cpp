// The distributed sort (gpusort/dist.hpp): local sort, exact rank splits found by a distributed
// bisection, one all-to-all exchange, a local sort of the received runs. docs/DISTRIBUTED.md.
#include <algorithm>
#include <exception>
#include <cstring>
#include <limits>
#include <new>
#include <string>
#include <vector>

#include "algorithms/planner.hpp"
#include "algorithms/request_checks.hpp"
#include "api/host_sort.hpp"
#include "core/host_array.hpp"
#include "core/ordered_search.hpp"
#include "dist/dist_steps.hpp"
#include "dist/exact_cuts.hpp"
#include "gpusort/dist.hpp"
#include "gpusort/key_order.hpp"

namespace gpusort::dist {
namespace {

using detail::clock_type;
using detail::ms_since;

template <class K>
using okey_t = core::ordered_key_t<K>;

// The cuts of runs in host memory: host binary searches.
std::vector<std::uint64_t> cuts_of(Communicator& comm, key_type type, const void* keys, std::size_t n, order o,
                                   const std::vector<std::uint64_t>& counts) {
  std::exception_ptr failed;
  std::vector<std::uint64_t> cut = visit_key_type(type, [&](auto tag) {
    using K = decltype(tag);
    const K* run = static_cast<const K*>(keys);
    auto bounds = [&](const std::vector<std::uint64_t>& probes, std::vector<std::uint64_t>& below,
                      std::vector<std::uint64_t>& not_after) {
      for (std::size_t c = 0; c < probes.size(); ++c) {
        const auto v = okey_t<K>(probes[c]);
        below[c] = core::ordered_bound(run, n, v, o, false);
        not_after[c] = core::ordered_bound(run, n, v, o, true);
      }
    };
    return detail::exact_cuts<K>(comm, counts, bounds, failed);
  });
  if (failed) std::rethrow_exception(failed);  // host searches do not throw; kept for the contract
  return cut;
}

}  // namespace

DistReport sort_host(Context& ctx, Communicator& comm, key_type type, void* keys, std::size_t n, void* values,
                     std::size_t value_bytes, const SortOptions& options) {
  gpusort::detail::check_key_type(type);  // every rank passes the same type, so all refuse before any collective
  const auto t_all = clock_type::now();
  const int p = comm.size(), me = comm.rank();
  const std::size_t kb = key_size(type), vb = value_bytes;
  DistReport report;

  const detail::RankShares shares = detail::gather_shares(comm, type, n, vb);
  const std::vector<std::uint64_t>& counts = shares.counts;
  report.total = shares.total;
  // The request's checks and its one plan (the same on every rank, so a bad request fails
  // everywhere alike), then the local sort as planned (stable when asked: the global order is then
  // (key, rank, index)), each agreed on by all ranks.
  rt::Device& device = ctx.runtime_device();
  gpusort::algo::Plan local;
  detail::collectively(comm, [&] {
    detail::check_same_request(shares, me);
    if ((value_bytes == 0 && values != nullptr) || (value_bytes != 0 && values == nullptr && n > 0))
      throw Error(errc::invalid_argument, "values and value size must be given together");
    if (n > 0 && !keys) throw Error(errc::invalid_argument, "keys is null");
    const gpusort::algo::Plan plan = gpusort::algo::make_plan(
        {.type = type, .n = report.total, .value_bytes = vb, .ranks = std::uint32_t(p), .options = options}, device);
    if (me == 0) gpusort::algo::print_if_verbose(plan, device);
    local = gpusort::algo::share_plan(plan, n, device);
    const auto t = clock_type::now();
    report.local_sort = gpusort::detail::sort_host_with(device, local, keys, values);
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
  const detail::ExchangePlan plan = detail::plan_exchange(cut, counts, me, p);
  report.sent_away = plan.sent_away;
  core::HostArray scratch;
  detail::collectively(comm, [&] {
    try {
      scratch = core::make_host_array(std::max<std::size_t>(1, n * (kb + vb)));
    } catch (const std::bad_alloc&) {
      throw Error(errc::out_of_memory, "dist::sort: cannot allocate " + std::to_string(n * (kb + vb)) +
                                           " bytes of host memory for the exchange");
    }
  });
  unsigned char* recv_keys = scratch.get();
  unsigned char* recv_values = scratch.get() + n * kb;
  comm.alltoallv(keys, plan.bytes(plan.send_count, kb).data(), plan.bytes(plan.send_offset, kb).data(), recv_keys,
                 plan.bytes(plan.recv_count, kb).data(), plan.bytes(plan.recv_offset, kb).data());
  if (vb)
    comm.alltoallv(values, plan.bytes(plan.send_count, vb).data(), plan.bytes(plan.send_offset, vb).data(),
                   recv_values, plan.bytes(plan.recv_count, vb).data(), plan.bytes(plan.recv_offset, vb).data());
  report.exchange_ms = ms_since(t);

  // 4. The received runs (in source-rank order) sorted again, stably, then into the caller's arrays.
  t = clock_type::now();
  detail::collectively(comm, [&] {
    report.final_sort = gpusort::detail::sort_host_with(device, local, recv_keys, vb ? recv_values : nullptr);
  });
  std::memcpy(keys, recv_keys, n * kb);
  if (vb) std::memcpy(values, recv_values, n * vb);
  report.final_sort_ms = ms_since(t);
  report.total_ms = ms_since(t_all);
  return report;
}

}  // namespace gpusort::dist
