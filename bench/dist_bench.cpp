// gpusort-dist-bench: the distributed sort of device-resident data (gpusort::dist::sort_device)
// across the ranks of an MPI job, with each phase's time (the slowest rank's), and the raw
// all-to-all rate of the same exchange beside it (docs/PERFORMANCE.md, "Distributed").
//
//   mpirun -np P gpusort-dist-bench [--log-n 30 | --total-log-n 32] [--type u32|u64] [--pairs]
//                                  [--dist uniform|few] [--gpu-per-rank | --device ID]
//                                  [--exchange nccl|staged] [--repeats 5] [--stable] [--allocate]
//                                  [--dist-policy recv_align=E]
//
// --gpu-per-rank: rank r of a host uses that host's r-th CUDA device (one rank per GPU, as NCCL
// needs; the exchange defaults to nccl); otherwise every rank uses --device (or $GPUSORT_DEVICE, or
// the best device) and the exchange defaults to staged (through host memory over MPI).
// --dist-policy: override the distributed sort's tuning (src/dist/dist_policy.hpp), for A/B runs.
// --allocate: the allocating form of sort_device (one allocation per call) instead of temporaries
// supplied once (dist::sort_device_temporary_bytes).
// Every rank's input is fresh random data from its own seed; the first repeat (kernel compiles,
// NCCL connections) is reported apart and left out of the medians. The last repeat's result is
// checked: each rank's range sorted, the ranges in order across ranks, the same multiset of keys
// (and of (key, value) pairs) as the input, every rank holding as many elements as it gave, and
// with --stable, equal keys in input order. Exit status 1 when a check fails.
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "bench_common.hpp"
#include "command_line.hpp"
#include "core/host_array.hpp"
#include "core/parallel_for.hpp"
#include "dist/dist_policy.hpp"
#include "gpusort/dist_mpi.hpp"
#include "gpusort/dist_nccl.hpp"
#include "gpusort/gpusort.hpp"

namespace {

using bench::median_of;
using bench::ms_since;
using clock_type = bench::clock_type;
// splitmix64: the state step, then bench_common's finaliser
std::uint64_t splitmix(std::uint64_t x) { return bench::mix64(x + 0x9e3779b97f4a7c15ull); }

struct Args {
  int log_n = 26, total_log_n = -1, repeats = 5;
  std::string type = "u32", dist = "uniform", exchange, device;
  bool pairs = false, stable = false, gpu_per_rank = false;
  bool allocate = false;  // the allocating form of sort_device instead of temporaries supplied once
  std::string dist_policy;  // dist::parse_dist_policy_override's form; empty: the defaults
};

// Returns the arguments, or the exit status when there is nothing to run (--help, a usage error).
// Every rank parses the same command line; only rank 0 prints.
std::variant<Args, int> parse(int argc, char** argv, bool print) {
  Args a;
  CLI::App app{"gpusort-dist-bench: the distributed sort of device-resident data across the ranks of an MPI job "
               "(mpirun -np P gpusort-dist-bench ...)",
               "gpusort-dist-bench"};
  bench::keep_last_values(app);
  app.add_option("--log-n", a.log_n, "2^N keys per rank (weak scaling)")
      ->check(bench::whole_number(1, 40))->capture_default_str();
  app.add_option("--total-log-n", a.total_log_n, "2^N keys over all ranks (strong scaling; instead of --log-n)")
      ->check(bench::whole_number(1, 48));
  app.add_option("--repeats", a.repeats, "Timed repeats after the first call, median reported")
      ->check(bench::whole_number(1, 1000))->capture_default_str();
  app.add_option("--type", a.type, "Key type")->check(CLI::IsMember({"u32", "u64"}))->capture_default_str();
  app.add_option("--dist", a.dist, "uniform, or few (16 distinct keys)")
      ->check(CLI::IsMember({"uniform", "few"}))->capture_default_str();
  app.add_option("--exchange", a.exchange, "nccl or staged (default: nccl with --gpu-per-rank, else staged)")
      ->check(CLI::IsMember({"nccl", "staged"}));
  app.add_option("--device", a.device, "The device of every rank (default: $GPUSORT_DEVICE or the best device)");
  app.add_flag("--pairs", a.pairs, "u32 values carried with the keys");
  app.add_flag("--stable", a.stable, "A stable sort (checked: equal keys keep their input order)");
  app.add_flag("--allocate", a.allocate,
               "The allocating form of sort_device instead of temporaries supplied once");
  app.add_flag("--gpu-per-rank", a.gpu_per_rank,
               "Rank r of a host uses that host's r-th CUDA device (one rank per GPU, as NCCL needs)");
  app.add_option("--dist-policy", a.dist_policy,
                 "k=v,... : the distributed sort's tuning A/B (src/dist/dist_policy.hpp), e.g. recv_align=12");
  app.callback([&a] {
    if (a.gpu_per_rank && !a.device.empty())
      throw CLI::ValidationError("--gpu-per-rank", "takes no --device (one or the other)");
  });
  if (const auto rc = bench::parse_command_line(app, argc, argv, print)) return *rc;
  if (a.exchange.empty()) a.exchange = a.gpu_per_rank ? "nccl" : "staged";
  try {
    gpusort::dist::set_dist_policy_override(gpusort::dist::parse_dist_policy_override(a.dist_policy));
  } catch (const gpusort::Error& e) {
    if (print) std::fprintf(stderr, "gpusort-dist-bench: error: --dist-policy: %s (see gpusort-dist-bench --help)\n", e.what());
    return 2;
  }
  return a;
}

int local_rank() {
  MPI_Comm local;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local);
  int r = 0;
  MPI_Comm_rank(local, &r);
  MPI_Comm_free(&local);
  return r;
}

double max_over_ranks(double v) {
  double m = 0;
  MPI_Allreduce(&v, &m, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return m;
}
std::uint64_t sum_over_ranks(std::uint64_t v) {
  std::uint64_t s = 0;
  MPI_Allreduce(&v, &s, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  return s;
}

std::size_t host_threads() {
  int local_size = 1;
  MPI_Comm local;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local);
  MPI_Comm_size(local, &local_size);
  MPI_Comm_free(&local);
  return std::max<std::size_t>(1, std::thread::hardware_concurrency() / std::size_t(local_size));
}

// Order-independent fingerprint of a multiset of (key, value) pairs: a sum of hashes.
template <class K>
std::uint64_t fingerprint(const K* keys, const std::uint32_t* values, std::size_t n, std::size_t threads) {
  std::vector<std::uint64_t> part(threads, 0);
  gpusort::core::parallel_for(n, threads, [&](std::size_t t, std::size_t b, std::size_t e) {
    std::uint64_t s = 0;
    for (std::size_t i = b; i < e; ++i)
      s += splitmix(std::uint64_t(keys[i]) ^ (values ? splitmix(values[i] + 0x51ull) : 0));
    part[t] += s;
  });
  std::uint64_t s = 0;
  for (auto v : part) s += v;
  return s;
}

template <class K>
int run(const Args& a) {
  int me = 0, p = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  const std::size_t n = a.total_log_n >= 0 ? (std::size_t(1) << a.total_log_n) / std::size_t(p) : std::size_t(1) << a.log_n;
  if (a.pairs && std::uint64_t(n) * std::uint64_t(p) > (std::uint64_t(1) << 32))
    throw std::runtime_error("--pairs carries u32 global indices: at most 2^32 elements in all");
  const std::size_t threads = host_threads();
  const std::string device = a.gpu_per_rank ? "cuda:" + std::to_string(local_rank()) : a.device;
  gpusort::Context ctx(device);
  auto comm = gpusort::dist::mpi_communicator(MPI_COMM_WORLD);
  std::unique_ptr<gpusort::dist::DeviceExchange> exchange =
      a.exchange == "nccl" ? gpusort::dist::nccl_exchange(ctx, *comm) : gpusort::dist::staged_exchange(*comm);

  // This rank's input, kept on the host to refill the device before each repeat. Values are the
  // elements' global indices (rank-major), so stability can be checked after the sort.
  gpusort::core::HostArray input_bytes = gpusort::core::make_host_array(std::max<std::size_t>(1, n * sizeof(K)));
  K* input = reinterpret_cast<K*>(input_bytes.get());
  std::vector<std::uint32_t> index(a.pairs ? n : 0);
  const std::uint64_t seed = splitmix(0x9d5a7 + std::uint64_t(me) * 7919);
  gpusort::core::parallel_for(n, threads, [&](std::size_t, std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) {
      const std::uint64_t r = splitmix(seed + i);
      input[i] = a.dist == "few" ? K(r % 16) : K(r);
      if (a.pairs) index[i] = std::uint32_t(std::uint64_t(me) * n + i);
    }
  });
  const std::uint64_t before = sum_over_ranks(fingerprint(input, a.pairs ? index.data() : nullptr, n, threads));

  gpusort::DeviceBuffer keys(ctx, std::max<std::size_t>(1, n * sizeof(K)));
  gpusort::DeviceBuffer values(ctx, std::max<std::size_t>(1, a.pairs ? n * 4 : 1));
  const gpusort::key_type type = gpusort::key_type_of<K>::value;
  const gpusort::SortOptions options{.stable = a.stable};
  // Temporaries supplied once (CUB style, as gpusort-bench and the CUB peer run), unless --allocate.
  gpusort::DeviceBuffer temp;
  if (!a.allocate)
    temp = gpusort::DeviceBuffer(
        ctx, gpusort::dist::sort_device_temporary_bytes(ctx, type, n, a.pairs ? 4 : 0, p, options));
  std::vector<double> total, local, split, exch, final_sort, rate;
  double first_ms = 0;
  std::uint64_t sent = 0;
  for (int rep = 0; rep <= a.repeats; ++rep) {
    if (n) keys.upload(input, n * sizeof(K));
    if (a.pairs && n) values.upload(index.data(), n * 4);
    MPI_Barrier(MPI_COMM_WORLD);
    const gpusort::dist::DistReport r =
        a.allocate ? gpusort::dist::sort_device(ctx, *comm, *exchange, type, keys, n, a.pairs ? &values : nullptr,
                                                a.pairs ? 4 : 0, options)
                   : gpusort::dist::sort_device(ctx, *comm, *exchange, type, keys, n, a.pairs ? &values : nullptr,
                                                a.pairs ? 4 : 0, options, temp);
    const double t = max_over_ranks(r.total_ms);
    const double l = max_over_ranks(r.local_sort_ms), s = max_over_ranks(r.split_ms);
    const double x = max_over_ranks(r.exchange_ms), f = max_over_ranks(r.final_sort_ms);
    sent = sum_over_ranks(r.sent_away);
    if (rep == 0) {
      first_ms = t;
      continue;
    }
    total.push_back(t), local.push_back(l), split.push_back(s), exch.push_back(x), final_sort.push_back(f);
    // GB/s per rank of the data that crossed between ranks (keys and values).
    rate.push_back(x > 0 ? double(sent) / p * (sizeof(K) + (a.pairs ? 4 : 0)) / (x * 1e6) : 0);
  }

  // The check, on the last result.
  gpusort::core::HostArray out_bytes = gpusort::core::make_host_array(std::max<std::size_t>(1, n * sizeof(K)));
  K* out = reinterpret_cast<K*>(out_bytes.get());
  std::vector<std::uint32_t> out_values(a.pairs ? n : 0);
  if (n) keys.download(out, n * sizeof(K));
  if (a.pairs && n) values.download(out_values.data(), n * 4);
  std::uint64_t bad = 0;
  for (std::size_t i = 1; i < n; ++i) {
    if (out[i] < out[i - 1]) ++bad;
    else if (a.stable && a.pairs && out[i] == out[i - 1] && out_values[i] < out_values[i - 1]) ++bad;
  }
  const std::uint64_t after = sum_over_ranks(fingerprint(out, a.pairs ? out_values.data() : nullptr, n, threads));
  struct Edge {
    std::uint64_t count, first, last, first_value, last_value;
  };
  Edge mine{n, n ? std::uint64_t(out[0]) : 0, n ? std::uint64_t(out[n - 1]) : 0,
            a.pairs && n ? out_values[0] : 0, a.pairs && n ? out_values[n - 1] : 0};
  std::vector<Edge> edges(std::size_t(p), Edge{});
  MPI_Allgather(&mine, sizeof mine, MPI_BYTE, edges.data(), sizeof mine, MPI_BYTE, MPI_COMM_WORLD);
  bad = sum_over_ranks(bad);
  std::uint64_t seam_bad = 0, prev_last = 0, prev_value = 0;
  bool seen = false;
  for (const Edge& e : edges) {
    if (!e.count) continue;
    if (seen && (e.first < prev_last || (a.stable && a.pairs && e.first == prev_last && e.first_value < prev_value)))
      ++seam_bad;
    prev_last = e.last, prev_value = e.last_value, seen = true;
  }
  const bool ok = bad == 0 && seam_bad == 0 && before == after;

  if (me == 0) {
    const double gkeys = double(n) * p / (median_of(total) * 1e6);
    std::printf("ranks %d, %zu %s%s per rank (%s), exchange %s, temporaries %s, %d repeats: total %.2f ms (%.2f Gkeys/s), "
                "local sort %.2f, cuts %.2f, exchange %.2f (%.1f GB/s per rank), final merge %.2f; first call %.1f ms; "
                "sent between ranks %.1f%%; check %s\n",
                p, n, a.type.c_str(), a.pairs ? "/u32 pairs" : " keys", a.dist.c_str(), a.exchange.c_str(),
                a.allocate ? "allocated per call" : "supplied", a.repeats, median_of(total), gkeys, median_of(local),
                median_of(split), median_of(exch), median_of(rate),
                median_of(final_sort), first_ms, 100.0 * double(sent) / double(std::max<std::uint64_t>(1, n * p)),
                ok ? "ok" : "FAILED");
    if (!ok)
      std::printf("  unsorted pairs %llu, out-of-order rank seams %llu, fingerprint %s\n", (unsigned long long)bad,
                  (unsigned long long)seam_bad, before == after ? "equal" : "differs");
  }

  // The exchange alone: every rank sends an equal slice of its keys to every rank (itself too),
  // the all-to-all pattern the sort's exchange has on uniform data, aligned as the slices are.
  // Then the same with every received slice one element off the sender's alignment, as the sort's
  // slices fall when nothing aligns them (each starts where the previous one ends).
  if (p > 1 && n >= std::size_t(p)) {
    gpusort::DeviceBuffer recv(ctx, (n + std::size_t(p)) * sizeof(K));
    std::vector<std::uint64_t> bytes(static_cast<std::size_t>(p)), offsets(static_cast<std::size_t>(p)),
        shifted(static_cast<std::size_t>(p));
    const std::uint64_t slice = n / std::size_t(p) * sizeof(K);
    for (int r = 0; r < p; ++r)
      bytes[r] = slice, offsets[r] = std::uint64_t(r) * slice, shifted[r] = offsets[r] + (r + 1) * sizeof(K);
    for (const bool misaligned : {false, true}) {
      std::vector<double> raw;
      for (int rep = 0; rep <= a.repeats; ++rep) {
        MPI_Barrier(MPI_COMM_WORLD);
        const auto t0 = clock_type::now();
        exchange->alltoallv(keys, bytes.data(), offsets.data(), recv, bytes.data(),
                            misaligned ? shifted.data() : offsets.data());
        const double t = max_over_ranks(ms_since(t0));
        if (rep) raw.push_back(t);
      }
      const double gbs = double(slice) * (p - 1) / (median_of(raw) * 1e6);
      if (me == 0)
        std::printf("  exchange alone (%s, %.0f MiB to each other rank%s): %.2f ms, %.1f GB/s per rank out\n",
                    a.exchange.c_str(), double(slice) / 1048576.0, misaligned ? ", received misaligned" : "",
                    median_of(raw), gbs);
    }
  }
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rc = 0;
  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  std::optional<Args> a;
  // A usage error: every rank sees the same one and exits with 2 below.
  if (auto parsed = parse(argc, argv, me == 0); const int* status = std::get_if<int>(&parsed)) rc = *status;
  else a = std::get<Args>(parsed);
  if (a) try {
      rc = a->type == "u32" ? run<std::uint32_t>(*a) : run<std::uint64_t>(*a);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "gpusort-dist-bench: %s\n", e.what());
      // The other ranks may wait in a collective this rank never reaches (NCCL's set-up, the sort's
      // exchange): end them all rather than leave them hanging.
      int ranks = 1;
      MPI_Comm_size(MPI_COMM_WORLD, &ranks);
      if (ranks > 1) MPI_Abort(MPI_COMM_WORLD, 2);
      rc = 2;
    }
  int worst = 0;
  MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return worst;
}
