// The distributed sort of device-resident data (gpusort/dist.hpp, sort_device): local sort on the
// device, exact cuts with a bounds kernel per bisection step (kernels/dist_bounds.cl), the
// exchange through a DeviceExchange, a merge of the received runs (algorithms/merge_uneven_runs.hpp).
// docs/DISTRIBUTED.md.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "algorithms/algorithm.hpp"
#include "algorithms/merge_uneven_runs.hpp"
#include "algorithms/planner.hpp"
#include "algorithms/request_checks.hpp"
#include "api/device_run.hpp"
#include "core/host_array.hpp"
#include "dist/dist_policy.hpp"
#include "dist/dist_steps.hpp"
#include "dist/exact_cuts.hpp"
#include "gpusort/dist.hpp"
#include "runtime/device.hpp"

namespace gpusort::dist {
namespace {

using detail::clock_type;
using detail::ms_since;

// Counts below / not after each probe in the sorted run on the device: one launch, P - 1 probes.
class DeviceBounds {
 public:
  DeviceBounds(rt::Device& device, key_type type, rt::Buffer& run, std::uint64_t n, order o, std::size_t probes)
      : device_(device), type_(type), run_(run), n_(n), o_(o), count_(std::max<std::size_t>(1, probes)) {
    probes_ = device.alloc(count_ * 8);
    counts_ = device.alloc(count_ * 16);  // below, then not after: one read back per step
    kernel_ = &device.program("dist_bounds.cl", algo::key_defines_for(type, 0)).kernel("dist_bounds");
  }
  void operator()(const std::vector<std::uint64_t>& probes, std::vector<std::uint64_t>& below,
                  std::vector<std::uint64_t>& not_after) {
    if (probes.empty()) return;
    device_.write(*probes_, 0, probes.data(), probes.size() * 8);
    const std::uint32_t count = static_cast<std::uint32_t>(probes.size());
    const bool desc = o_ == order::descending;
    rt::Arg flip = key_size(type_) == 8 ? rt::Arg(desc ? ~std::uint64_t(0) : std::uint64_t(0))
                                        : rt::Arg(desc ? ~std::uint32_t(0) : std::uint32_t(0));
    const std::uint32_t group = 64;
    device_.launch(*kernel_, {(count + group - 1) / group, group}, {run_, n_, *probes_, count, flip, *counts_});
    std::vector<std::uint64_t> both(2 * probes.size());
    device_.read(*counts_, 0, both.data(), both.size() * 8);
    std::copy(both.begin(), both.begin() + probes.size(), below.begin());
    std::copy(both.begin() + probes.size(), both.end(), not_after.begin());
  }

 private:
  rt::Device& device_;
  key_type type_;
  rt::Buffer& run_;
  std::uint64_t n_;
  order o_;
  std::size_t count_;
  rt::BufferPtr probes_, counts_;
  rt::Kernel* kernel_ = nullptr;
};

class StagedExchange final : public DeviceExchange {
 public:
  explicit StagedExchange(Communicator& comm) : comm_(comm) {}
  void alltoallv(const DeviceBuffer& send, const std::uint64_t* send_bytes, const std::uint64_t* send_offsets,
                 DeviceBuffer& recv, const std::uint64_t* recv_bytes, const std::uint64_t* recv_offsets) override {
    std::uint64_t out = 0, in = 0;
    for (int r = 0; r < comm_.size(); ++r) {
      out = std::max(out, send_offsets[r] + send_bytes[r]);
      in = std::max(in, recv_offsets[r] + recv_bytes[r]);
    }
    // Not zero-filled (core/host_array.hpp): every byte is written by the download or the exchange.
    core::HostArray host_send = core::make_host_array(std::max<std::uint64_t>(1, out));
    core::HostArray host_recv = core::make_host_array(std::max<std::uint64_t>(1, in));
    if (out) send.download(host_send.get(), out);
    comm_.alltoallv(host_send.get(), send_bytes, send_offsets, host_recv.get(), recv_bytes, recv_offsets);
    if (in) recv.upload(host_recv.get(), in);
  }

 private:
  Communicator& comm_;
};

std::uint64_t recv_align() { return dist_policy_override().recv_align.value_or(kRecvAlign); }

// One rank's temporary storage: the receive buffers for keys and values, then one region that the
// local sort and, after the exchange, the merge use in turn. Every part starts 4096-aligned.
struct TempLayout {
  std::uint64_t recv_keys = 0, recv_values = 0, shared = 0;  // bytes of each part
  bool local_sort_in_shared = true;  // false: the local sort's algorithm takes its own temporaries
  std::uint64_t total() const { return recv_keys + recv_values + shared; }
};

// The plan of a distributed sort of keys (and values) in device memory (the same on every rank).
algo::Plan plan_of(rt::Device& device, key_type type, std::uint64_t total, std::size_t vb, int ranks,
                   const SortOptions& options) {
  return algo::make_plan({.type = type, .n = total, .value_bytes = vb, .where = data_location::device,
                          .ranks = std::uint32_t(ranks), .options = options},
                         device);
}

// `local`: this rank's share as planned. `own_local_ok`: an algorithm that cannot report its
// temporaries then takes its own (the allocating form) instead of failing.
TempLayout temp_layout(Context& ctx, const algo::Plan& local, int ranks, bool own_local_ok) {
  const key_type type = local.request.type;
  const std::uint64_t n = local.request.n;
  const std::size_t vb = local.request.value_bytes;
  TempLayout l;
  std::uint64_t local_bytes = 0;
  if (n > 1) {
    if (local.algorithm->temp_bytes)
      local_bytes = gpusort::detail::needed_temp_bytes(local, ctx.runtime_device());
    else if (own_local_ok)
      l.local_sort_in_shared = false;
    else
      gpusort::detail::needed_temp_bytes(local, ctx.runtime_device());  // Error(unsupported) naming the algorithm
  }
  std::uint64_t merge = 0;
  if (ranks > 1) {
    const std::uint64_t extent = n + 2 * recv_align() * std::uint64_t(ranks);  // room for leads and gaps
    l.recv_keys = algo::temp_request_bytes(extent * key_size(type));
    l.recv_values = vb ? algo::temp_request_bytes(extent * vb) : 0;
    merge = algo::merge_uneven_runs_temp_bytes(ctx.runtime_device(), type, vb, n, std::size_t(ranks));
  }
  l.shared = algo::temp_request_bytes(std::max(local_bytes, merge));
  return l;
}

// Both forms of sort_device: temporary_storage is the caller's, or nullptr (the call allocates).
DistReport sort_device_with(Context& ctx, Communicator& comm, DeviceExchange& exchange, key_type type,
                            DeviceBuffer& keys, std::size_t n, DeviceBuffer* values, std::size_t value_bytes,
                            const SortOptions& options, DeviceBuffer* temporary_storage) {
  gpusort::detail::check_key_type(type);  // every rank passes the same type, so all refuse before any collective
  const auto t_all = clock_type::now();
  const int p = comm.size(), me = comm.rank();
  const std::size_t kb = key_size(type), vb = value_bytes;
  DistReport report;
  const detail::RankShares shares = detail::gather_shares(comm, type, n, vb);
  const std::vector<std::uint64_t>& counts = shares.counts;
  report.total = shares.total;

  // 1. Checks and the temporaries (timed in total_ms only), then the local sort, each agreed by all ranks.
  TempLayout layout;
  rt::Device& device = ctx.runtime_device();
  algo::Plan local;  // this rank's share, as the one plan of the request says
  DeviceBuffer own_storage, shared, recv_keys, recv_values;
  DeviceBuffer* storage = nullptr;
  // Views of one allocation where views run at full speed, or wherever the caller supplies the
  // storage; elsewhere buffers of their own.
  const bool carve = temporary_storage != nullptr || rt::views_at_full_speed(ctx.device());
  detail::collectively(comm, [&] {
    detail::check_same_request(shares, me);
    if ((vb == 0) != (values == nullptr))
      throw Error(errc::invalid_argument, "values and value size must be given together");
    if (n * kb > keys.bytes() || (values && n * vb > values->bytes()))
      throw Error(errc::invalid_argument, "dist::sort_device: the buffers hold fewer than n elements");
    const algo::Plan plan = plan_of(device, type, report.total, vb, p, options);
    if (me == 0) algo::print_if_verbose(plan, device);
    local = algo::share_plan(plan, n, device);
    layout = temp_layout(ctx, local, p, temporary_storage == nullptr);
    if (temporary_storage && temporary_storage->bytes() < layout.total())
      throw Error(errc::invalid_argument, "dist::sort_device: the temporary storage holds " +
                                              std::to_string(temporary_storage->bytes()) + " bytes, " +
                                              std::to_string(layout.total()) +
                                              " needed (dist::sort_device_temporary_bytes)");
    if (carve) {
      if (!temporary_storage) own_storage = DeviceBuffer(ctx, layout.total());  // the call's one allocation
      storage = temporary_storage ? temporary_storage : &own_storage;
      shared = storage->view(layout.recv_keys + layout.recv_values, layout.shared);
      if (p > 1) recv_keys = storage->view(0, layout.recv_keys);
      if (p > 1 && vb) recv_values = storage->view(layout.recv_keys, layout.recv_values);
    } else if (p > 1) {  // receive buffers of their own; the sorts take pool temporaries
      recv_keys = DeviceBuffer(ctx, layout.recv_keys);
      if (vb) recv_values = DeviceBuffer(ctx, layout.recv_values);
    }
  });
  // Only once every rank has its temporaries: a rank that has none leaves every rank's data as it was.
  detail::collectively(comm, [&] {
    const auto t = clock_type::now();
    report.local_sort.algorithm = local.algorithm->name;
    report.local_sort.device = device.description().id;
    if (n > 1) {
      rt::Buffer* temp = carve && layout.local_sort_in_shared ? &shared.runtime_buffer() : nullptr;
      const gpusort::detail::DeviceRun run = gpusort::detail::run_on_device(
          device, local, keys.runtime_buffer(), values ? &values->runtime_buffer() : nullptr, temp);
      report.local_sort.sort_ms = run.ms;
      report.local_sort.programs_compiled = run.compiled;
    }
    report.local_sort_ms = ms_since(t);
  });
  if (p == 1) {
    report.total_ms = ms_since(t_all);
    return report;
  }

  // 2. Exact cuts: the bisection's counts come from the bounds kernel.
  auto t = clock_type::now();
  std::exception_ptr failed;
  std::vector<std::uint64_t> cut = visit_key_type(type, [&](auto tag) {
    using K = decltype(tag);
    std::unique_ptr<DeviceBounds> bounds;
    try {
      bounds = std::make_unique<DeviceBounds>(device, type, keys.runtime_buffer(), n, options.order, std::size_t(p - 1));
    } catch (...) {
      failed = std::current_exception();
    }
    auto call = [&](const std::vector<std::uint64_t>& probes, std::vector<std::uint64_t>& below,
                    std::vector<std::uint64_t>& not_after) {
      if (!bounds) throw Error(errc::device_error, "no bounds kernel");
      (*bounds)(probes, below, not_after);
    };
    return detail::exact_cuts<K>(comm, counts, call, failed);
  });
  detail::collectively(comm, [&] {
    if (failed) std::rethrow_exception(failed);
  });
  report.split_ms = ms_since(t);

  // 3. Exchange into the receive buffers (made in step 1), in source-rank order.
  t = clock_type::now();
  const detail::ExchangePlan plan = detail::plan_exchange(cut, counts, me, p, recv_align());
  report.sent_away = plan.sent_away;
  exchange.alltoallv(keys, plan.bytes(plan.send_count, kb).data(), plan.bytes(plan.send_offset, kb).data(), recv_keys,
                     plan.bytes(plan.recv_count, kb).data(), plan.bytes(plan.recv_offset, kb).data());
  if (vb)
    exchange.alltoallv(*values, plan.bytes(plan.send_count, vb).data(), plan.bytes(plan.send_offset, vb).data(),
                       recv_values, plan.bytes(plan.recv_count, vb).data(), plan.bytes(plan.recv_offset, vb).data());
  report.exchange_ms = ms_since(t);

  // 4. The received runs (one per source rank, in rank order) merged into the caller's buffers:
  //    ceil(log2 P) merge passes instead of a whole sort; stable, since ties keep rank order.
  t = clock_type::now();
  detail::collectively(comm, [&] {
    if (n == 0) return;
    std::vector<algo::SourceRun> runs;
    for (int k = 0; k < p; ++k) runs.push_back({plan.run_start[k], plan.run_count[k]});
    algo::SortJob job{device, type, n, vb, recv_keys.runtime_buffer(), vb ? &recv_values.runtime_buffer() : nullptr,
                      options, carve ? &shared.runtime_buffer() : nullptr};
    algo::merge_uneven_runs(job, runs, keys.runtime_buffer(),
                            vb ? values->runtime_buffer() : keys.runtime_buffer());
    device.finish();
  });
  report.final_sort_ms = ms_since(t);
  report.total_ms = ms_since(t_all);
  return report;
}

}  // namespace

std::unique_ptr<DeviceExchange> staged_exchange(Communicator& comm) { return std::make_unique<StagedExchange>(comm); }

std::size_t sort_device_temporary_bytes(Context& ctx, key_type type, std::size_t n, std::size_t value_bytes, int ranks,
                                        const SortOptions& options) {
  if (ranks < 1) throw Error(errc::invalid_argument, "dist::sort_device_temporary_bytes: ranks must be at least 1");
  // This rank's n as a share of a sort planned for ranks shares of n (each rank asks for its own).
  rt::Device& device = ctx.runtime_device();
  const algo::Plan plan = plan_of(device, type, std::uint64_t(n) * std::uint64_t(ranks), value_bytes, ranks, options);
  return std::size_t(temp_layout(ctx, algo::share_plan(plan, n, device), ranks, false).total());
}

DistReport sort_device(Context& ctx, Communicator& comm, DeviceExchange& exchange, key_type type, DeviceBuffer& keys,
                       std::size_t n, DeviceBuffer* values, std::size_t value_bytes, const SortOptions& options) {
  return sort_device_with(ctx, comm, exchange, type, keys, n, values, value_bytes, options, nullptr);
}

DistReport sort_device(Context& ctx, Communicator& comm, DeviceExchange& exchange, key_type type, DeviceBuffer& keys,
                       std::size_t n, DeviceBuffer* values, std::size_t value_bytes, const SortOptions& options,
                       DeviceBuffer& temporary_storage) {
  return sort_device_with(ctx, comm, exchange, type, keys, n, values, value_bytes, options, &temporary_storage);
}

}  // namespace gpusort::dist
