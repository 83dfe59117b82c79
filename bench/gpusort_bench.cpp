// gpusort-bench: the seeds' tables (local kernels vs work-group size, merge passes) and a sweep of
// every algorithm against std::sort / std::stable_sort / CUB and the copy bandwidth, in one run.
//
//   gpusort-bench sweep  [--quick] [--out DIR] [--device ID] [--max-log2 N] [options]
//   gpusort-bench tables [--quick] [--out DIR] [--device ID] [options]
//   gpusort-bench segmented [--quick] [--shapes ...] [--forms ...] [options]   (segmented_bench.cpp)
//   gpusort-bench topk [--shapes ...] [--forms ...] [--dists ...] [options]     (topk_bench.cpp)
//
// Method (docs/PERFORMANCE.md): inputs are generated on the host per (key type, n, distribution)
// and uploaded once to a pristine device buffer; each repeat restores the work buffer from it
// with a device copy (outside the timed region) and times the sort alone with device events
// (SortReport::sort_ms). A warm-up sort (which compiles the kernels) precedes the timed repeats;
// the median is reported. The output of the last repeat is downloaded and verified.
#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "algorithms/algorithm.hpp"
#include "algorithms/merge_tuning.hpp"
#include "algorithms/radix_policy.hpp"
#include "bench_common.hpp"
#include "build_commit.hpp"
#include "command_line.hpp"
#include "core/table_text.hpp"
#include "cub_loader.hpp"
#include "local_kernels.hpp"
#include "runtime/device.hpp"
#include "segmented_bench.hpp"
#include "topk_bench.hpp"

namespace bench {
namespace {

struct None {};

// A benchmark-only algorithm name: merge with SortOptions::comparator "return a < b;", the
// built-in ascending order as a run-time order, to time what a comparator costs (the inputs have
// no NaNs, so both orders agree and the same check applies).
constexpr const char* kMergeComparator = "merge:comparator";

struct KV {
  const char* key;    // "u32", "u64", "f32", "f64", "f16", "bf16"
  const char* value;  // "", "u32", "u64"
};
inline constexpr KV all_kvs[] = {{"u32", ""}, {"u64", ""}, {"f32", ""}, {"u32", "u32"}, {"u64", "u64"}};

template <class F>
void with_types(const KV& kv, F&& f) {
  std::string k = kv.key, v = kv.value;
  if (k == "u32" && v.empty()) f.template operator()<std::uint32_t, None>();
  else if (k == "u64" && v.empty()) f.template operator()<std::uint64_t, None>();
  else if (k == "f32" && v.empty()) f.template operator()<float, None>();
  else if (k == "f64" && v.empty()) f.template operator()<double, None>();
  else if (k == "u32" && v == "u32") f.template operator()<std::uint32_t, std::uint32_t>();
  else if (k == "u64" && v == "u64") f.template operator()<std::uint64_t, std::uint64_t>();
  else if (k == "f32" && v == "u32") f.template operator()<float, std::uint32_t>();
  else if (k == "u64" && v == "u32") f.template operator()<std::uint64_t, std::uint32_t>();
  else if (k == "f64" && v == "u64") f.template operator()<double, std::uint64_t>();
  else if (k == "f16" && v.empty()) f.template operator()<gpusort::half_bits, None>();
  else if (k == "bf16" && v.empty()) f.template operator()<gpusort::bfloat16_bits, None>();
  else if (k == "f16" && v == "u32") f.template operator()<gpusort::half_bits, std::uint32_t>();
  else if (k == "bf16" && v == "u32") f.template operator()<gpusort::bfloat16_bits, std::uint32_t>();
  else throw gpusort::Error(gpusort::errc::invalid_argument, "unsupported type pair " + k + "/" + v);
}

bool parse_kv(const std::string& s, KV& out) {
  static const std::vector<std::pair<std::string, KV>> names = {
      {"u32", {"u32", ""}},         {"u64", {"u64", ""}},         {"f32", {"f32", ""}},
      {"u32/u32", {"u32", "u32"}}, {"u64/u64", {"u64", "u64"}}, {"f32/u32", {"f32", "u32"}},
      {"u64/u32", {"u64", "u32"}},  {"f64", {"f64", ""}},         {"f64/u64", {"f64", "u64"}},
      {"f16", {"f16", ""}},         {"bf16", {"bf16", ""}},       {"f16/u32", {"f16", "u32"}},
      {"bf16/u32", {"bf16", "u32"}}};
  for (const auto& [name, kv] : names)
    if (s == name) {
      out = kv;
      return true;
    }
  return false;
}
std::string kv_name(const KV& kv) { return std::string(kv.key) + (kv.value[0] ? std::string("/") + kv.value : ""); }
// The CUB peer's key kinds (cub_peer.h).
int key_kind(const std::string& k) {
  return k == "u32" ? 0 : k == "u64" ? 1 : k == "f32" ? 2 : k == "f64" ? 3 : k == "f16" ? 4 : 5;
}
int value_kind(const std::string& v) { return v.empty() ? 0 : v == "u32" ? 1 : 2; }

std::vector<std::string> split(const std::string& s, char sep = ',') {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, sep))
    if (!item.empty()) out.push_back(item);
  return out;
}

struct Options {
  std::string mode;
  bool quick = false;
  std::string out = "bench-out";
  std::string device;
  int min_log2 = 10;
  int max_log2 = -1;             // -1: 28 on a GPU, 20 on a CPU device; quick: 16
  int log2_step = -1;            // -1: 1 (quick: 3)
  std::vector<std::uint64_t> sizes;  // --sizes: these key counts instead of the powers of two
  int full_dists_max_log2 = -1;  // above it only uniform, entropy, sorted run; -1: no limit
  int std_max_log2 = -1;         // largest n for std::sort peers; -1: 22 (quick: 16)
  int host_max_log2 = -1;        // largest n for host algorithms (batcher-*); -1: 20 (quick: 14)
  int table_log2 = -1;           // tables array size; -1: 24 on a GPU, 20 on a CPU; quick: 16
  int repeats = -1;              // -1: 5 (quick: 3)
  double max_run_ms = -1;        // skip a cell whose projected single sort exceeds this
  double budget_s = -1;          // stop starting new cells after this many seconds (0 = none)
  std::vector<std::string> algorithms;  // empty: all + auto
  std::vector<KV> types;
  std::vector<dist> dists;
  std::vector<std::uint32_t> wgs;  // tables: work-group sizes; empty = powers of two to the limit
  std::string cub_lib;
  bool no_cub = false;
  bool pool_temporaries = false;    // sorts take their temporaries from the device pool, not caller storage
  bool caller_temporaries = false;  // caller storage also off CUDA
  bool verbose = false;
  std::string radix_policy;  // algo::parse_radix_policy_override's form; empty: the chooser's own
  std::string merge_policy;  // algo::parse_merge_policy_override's form; empty: the device's row
  std::size_t merge_items = 0;  // sweep: SortOptions::items_per_thread of the merge rows (0: default)
  std::string command_line;
};

// A comma-separated list option: each item read by `item`, which throws CLI::ValidationError.
template <class T, class F>
std::function<void(const std::string&)> list_into(std::vector<T>& out, F item) {
  return [&out, item](const std::string& text) {
    out.clear();
    for (const auto& t : split(text)) out.push_back(item(t));
  };
}

template <class T>
T positive_number(const std::string& flag, const std::string& t) {
  T n = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), n);
  if (ec != std::errc() || end != t.data() + t.size() || n == 0)
    throw CLI::ValidationError(flag, "takes numbers > 0, not '" + t + "'");
  return n;
}

// Returns the options, or the exit status when there is nothing to run (--help, a usage error).
std::variant<Options, int> parse(int argc, char** argv) {
  Options o;
  for (int i = 0; i < argc; ++i) o.command_line += (i ? " " : "") + std::string(argv[i]);
  CLI::App app{
      "gpusort-bench: every algorithm against std::sort, std::stable_sort, CUB and the copy bandwidth (sweep),\n"
      "or the seeds' work-group tables and merge passes (tables). Writes MODE.csv and MODE.json to --out.",
      "gpusort-bench"};
  keep_last_values(app);
  const auto nonneg = CLI::NonNegativeNumber;
  const auto log2 = whole_number(0, 40);
  app.add_option("mode", o.mode, "sweep or tables (or segmented or topk, given first: see their --help)")
      ->required()
      ->check(CLI::IsMember({"sweep", "tables"}));
  app.add_flag("--quick", o.quick, "Small sizes and few cases (CI smoke test; < 2 minutes on PoCL)");
  app.add_option("--out", o.out, "Output folder: sweep.csv/json or tables.csv/json")->capture_default_str();
  app.add_option("--device", o.device, "cuda:N or opencl:P:D (default: $GPUSORT_DEVICE or the best device)");

  const std::string sweep = "sweep";
  app.add_option("--min-log2", o.min_log2, "n = 2^min .. 2^max (default 10)")->check(log2)->group(sweep);
  app.add_option("--max-log2", o.max_log2, "Largest n = 2^N (default 28 on a GPU, 20 on a CPU; quick 16)")
      ->check(log2)->group(sweep);
  app.add_option("--log2-step", o.log2_step, "Every S-th power of two (default 1; quick 3)")
      ->check(whole_number(1, 40))->group(sweep);
  app.add_option_function<std::string>(
         "--sizes", list_into(o.sizes, [](const std::string& t) { return positive_number<std::uint64_t>("--sizes", t); }),
         "n,... : these key counts instead of the powers of two (any n, e.g. 12288,16384)")
      ->group(sweep);
  app.add_option("--full-dists-max-log2", o.full_dists_max_log2,
                 "Above 2^N run only uniform, entropy and sorted inputs")->check(log2)->group(sweep);
  app.add_option_function<std::string>(
         "--algorithms", [&o](const std::string& t) { o.algorithms = split(t); },
         "a,b,... : default every algorithm and auto; merge:comparator is merge with the comparator "
         "\"return a < b;\" (the cost of a run-time order)")
      ->group(sweep);
  app.add_option_function<std::string>("--types", list_into(o.types, [](const std::string& t) {
                                          KV kv;
                                          if (!parse_kv(t, kv)) throw CLI::ValidationError("--types", "unknown type '" + t + "'");
                                          return kv;
                                        }),
                                        "t,... : u32,u64,f32,u32/u32,u64/u64 (default all five); also f64, f32/u32, "
                                        "u64/u32, f64/u64")
      ->group(sweep);
  app.add_option_function<std::string>("--dists", list_into(o.dists, [](const std::string& t) {
                                          dist d;
                                          if (!parse_dist(t, d))
                                            throw CLI::ValidationError("--dists", "unknown distribution '" + t + "'");
                                          return d;
                                        }),
                                        "d,... : uniform,entropy,sorted,reverse,few-unique,all-equal (default all; "
                                        "quick uniform,sorted,few-unique)")
      ->group(sweep);
  app.add_option("--std-max-log2", o.std_max_log2,
                 "Largest n for std::sort / std::stable_sort (default 22; quick 16; 0: none)")->check(log2)->group(sweep);
  app.add_option("--host-max-log2", o.host_max_log2,
                 "Largest n for host algorithms (batcher-*; default 20; quick 14; 0: none)")->check(log2)->group(sweep);
  app.add_option("--max-run-ms", o.max_run_ms, "Skip sizes whose projected sort time exceeds MS (default 2000; quick 300)")
      ->check(nonneg)->group(sweep);
  app.add_option("--budget-s", o.budget_s, "Start no new measurement after S seconds (default none; quick 100)")
      ->check(nonneg)->group(sweep);
  app.add_option("--merge-items", o.merge_items,
                 "Merge rows' SortOptions::items_per_thread (default: the driver's own)")
      ->check(whole_number(0, 1 << 20))->group(sweep);

  const std::string tables = "tables";
  app.add_option("--table-log2", o.table_log2, "Keys per table cell, 2^N (default 24 on a GPU, 20 on a CPU; quick 16)")
      ->check(whole_number(1, 40))->group(tables);

  const std::string common = "sweep and tables";
  app.add_option_function<std::string>(
         "--wg", list_into(o.wgs, [](const std::string& t) { return positive_number<std::uint32_t>("--wg", t); }),
         "a,b,... : tables: work-group sizes (default: powers of two from 1 to the device limit); sweep: the merge "
         "rows' SortOptions::work_group_size")
      ->group(common);
  app.add_option("--repeats", o.repeats,
                 "Timed repeats per cell, median reported (default 5; quick 3; at most 3 above 2^25 keys)")
      ->check(whole_number(1, 1000))->group(common);
  app.add_option("--cub-lib", o.cub_lib, "The CUB peer library (default: next to this executable)")->group(common);
  app.add_flag("--no-cub", o.no_cub, "No CUB peer rows")->group(common);
  app.add_flag("--pool-temporaries", o.pool_temporaries,
               "Sorts take their temporaries from the device's pool, not from caller storage allocated outside the "
               "timing; the default off CUDA (NVIDIA's OpenCL runs kernels on sub-buffers of caller storage 25-55x "
               "slower), while CUDA gets caller storage, as the CUB peer does")
      ->group(common);
  app.add_flag("--caller-temporaries", o.caller_temporaries, "Caller storage on any device")->group(common);
  app.add_option("--radix-policy", o.radix_policy,
                 "k=v,... : radix tuning A/B, override fields of src/algorithms/radix_policy.hpp (RadixPolicyOverride), "
                 "e.g. items=24,min_blocks=3,packed_pairs=0")
      ->group(common);
  app.add_option("--merge-policy", o.merge_policy,
                 "k=v,... : merge tuning A/B, override fields of src/algorithms/merge_tuning.hpp (MergePolicyOverride), "
                 "e.g. blocked_value_batch=2")
      ->group(common);
  app.add_flag("--verbose", o.verbose, "Also print the cells skipped (the CSV has them either way)")->group(common);
  if (const auto rc = parse_command_line(app, argc, argv)) return *rc;
  return o;
}

// ---------------------------------------------------------------------------------------------
struct Bench {
  Options opt;
  gpusort::Context ctx;
  gpusort::rt::Device& dev;
  gpusort::DeviceDescription desc;
  std::string device_label;
  CubPeer cub;
  std::vector<Row> rows;
  double copy_gbs = 0;
  clock_type::time_point start = clock_type::now();
  bool budget_hit = false;
  int repeats = 5;

  explicit Bench(Options o)
      : opt(std::move(o)), ctx(opt.device), dev(ctx.runtime_device()), desc(ctx.device()) {
    device_label = desc.id + " " + desc.name;
    repeats = opt.repeats > 0 ? opt.repeats : opt.quick ? 3 : 5;
    if (!opt.no_cub) {
      int cuda_index = 0;
      if (desc.id.rfind("cuda:", 0) == 0) cuda_index = std::atoi(desc.id.c_str() + 5);
      cub.load(opt.cub_lib, cuda_index);
    } else {
      cub.why_absent = "--no-cub";
    }
  }

  bool over_budget() {
    if (opt.budget_s > 0 && ms_since(start) > opt.budget_s * 1000) {
      if (!budget_hit) std::fprintf(stderr, "gpusort-bench: time budget of %.0f s reached; stopping\n", opt.budget_s);
      budget_hit = true;
    }
    return budget_hit;
  }

  void emit(Row r) {
    r.device = r.device.empty() ? device_label : r.device;
    // n as 2^K where it is a power of two (--sizes may give any n)
    const bool pow2 = r.n != 0 && (r.n & (r.n - 1)) == 0;
    const std::string n_label = pow2 ? "2^" + std::to_string(std::countr_zero(r.n)) : std::to_string(r.n);
    std::fprintf(stdout, "%-10s %-16s %-12s %-8s n=%-7s %-10s wg=%-4u %10.4f ms %9.1f Mkey/s %7.2f GB/s  %s\n",
                 r.mode.c_str(), r.algorithm.c_str(), r.variant.c_str(),
                 (r.key_type + (r.value_type.empty() ? "" : "/" + r.value_type)).c_str(),
                 n_label.c_str(), r.distribution.c_str(), r.work_group_size, r.median_ms,
                 r.keys_per_s / 1e6, r.gb_per_s, r.status.c_str());
    std::fflush(stdout);
    rows.push_back(std::move(r));
  }

  static void set_rates(Row& r, std::size_t bytes_per_key) {
    if (std::isfinite(r.median_ms) && r.median_ms > 0) {
      r.keys_per_s = double(r.n) / (r.median_ms * 1e-3);
      r.gb_per_s = 2.0 * double(r.n) * double(bytes_per_key) / (r.median_ms * 1e-3) / 1e9;
    }
  }

  // --- copy bandwidth --------------------------------------------------------------------------
  void measure_copy() {
    std::size_t bytes = opt.quick || !desc.is_gpu ? (std::size_t(1) << 24) : (std::size_t(1) << 29);
    if (desc.global_memory_bytes) bytes = std::min<std::size_t>(bytes, desc.global_memory_bytes / 8);
    try {
      auto a = dev.alloc(bytes);
      auto b = dev.alloc(bytes);
      dev.fill_bytes(*a, 1, 0, bytes);
      dev.finish();
      std::vector<double> t;
      for (int r = -1; r < repeats; ++r) {
        auto e0 = dev.record();
        dev.copy(*a, 0, *b, 0, bytes);
        auto e1 = dev.record();
        e1->wait();
        double ms = e1->elapsed_ms_since(*e0);
        if (r >= 0) t.push_back(ms);
      }
      Row row{.mode = "peer", .algorithm = "copy", .variant = "Device::copy", .key_type = "bytes", .n = bytes};
      row.repeats = repeats;
      row.median_ms = median_of(t);
      row.min_ms = *std::min_element(t.begin(), t.end());
      row.gb_per_s = 2.0 * double(bytes) / (row.median_ms * 1e-3) / 1e9;
      copy_gbs = row.gb_per_s;
      emit(row);
    } catch (const gpusort::Error& e) {
      emit(Row{.mode = "peer", .algorithm = "copy", .variant = "Device::copy", .key_type = "bytes", .n = bytes,
               .status = std::string("error: ") + e.what()});
    }
    if (cub.usable()) {
      double ms = cub.copy_ms(bytes, repeats);
      Row row{.mode = "peer", .algorithm = "copy", .variant = "cudaMemcpy", .key_type = "bytes", .n = bytes,
              .device = "cuda " + cub.device_name};
      row.repeats = repeats;
      if (ms > 0) {
        row.median_ms = ms;
        row.gb_per_s = 2.0 * double(bytes) / (ms * 1e-3) / 1e9;
        copy_gbs = std::max(copy_gbs, row.gb_per_s);
      } else {
        row.status = "error: CUDA code " + std::to_string(int(ms));
      }
      emit(row);
    }
    std::fprintf(stderr, "gpusort-bench: copy bandwidth %.2f GB/s (read+write) is the floor for frac_of_copy_bw\n",
                 copy_gbs);
  }

  // --- sweep -----------------------------------------------------------------------------------
  struct Projection {
    std::uint64_t n = 0;
    double ms = 0;
    bool unsupported = false;
  };
  std::map<std::string, Projection> projections;  // (algorithm, types) -> last size measured

  // The algorithm's own properties (algo::Algorithm); "auto" and unknown names have none.
  bool quadratic(const std::string& name) {
    const auto* a = gpusort::algo::find(name);
    return a && a->complexity == gpusort::algo::Complexity::n_squared;
  }
  bool host_side(const std::string& name) {
    const auto* a = gpusort::algo::find(name);
    return a && a->runs_on == gpusort::algo::RunsOn::host;
  }

  // Returns a reason to skip, or "".
  std::string should_skip(const std::string& alg, const std::string& kvn, std::uint64_t n, double max_run_ms,
                          int host_max_log2) {
    if (host_side(alg) && n > (std::uint64_t(1) << host_max_log2))
      return "skipped: host algorithm above 2^" + std::to_string(host_max_log2);
    auto it = projections.find(alg + "|" + kvn);
    if (it == projections.end()) return "";
    const Projection& p = it->second;
    if (p.unsupported) return "skipped: unsupported at a smaller n";
    if (p.n == 0 || p.n >= n) return "";
    double ratio = double(n) / double(p.n);
    double projected = p.ms * (quadratic(alg) ? ratio * ratio : ratio * 1.15);
    if (projected > max_run_ms) {
      char buf[128];
      std::snprintf(buf, sizeof buf, "skipped: projected %.0f ms > %.0f ms", projected, max_run_ms);
      return buf;
    }
    return "";
  }

  void note_time(const std::string& alg, const std::string& kvn, std::uint64_t n, double ms) {
    auto& p = projections[alg + "|" + kvn];
    if (p.n != n) {
      p.n = n;
      p.ms = ms;
    } else {
      p.ms = std::max(p.ms, ms);
    }
  }

  template <class K, class V>
  void sweep_types(const KV& kv, std::uint64_t n, const std::vector<dist>& dists, const std::vector<std::string>& algs,
                   double max_run_ms, int host_max_log2, int std_max_log2) {
    constexpr bool pairs = !std::is_same_v<V, None>;
    const std::size_t kb = sizeof(K) * n, vb = pairs ? sizeof(V) * n : 0;
    const std::string kvn = kv_name(kv);
    const gpusort::key_type kt = *gpusort::parse_key_type(kv.key);
    if (desc.global_memory_bytes && 3 * (kb + vb) > desc.global_memory_bytes) {
      emit(Row{.mode = "sweep", .algorithm = "*", .key_type = kv.key, .value_type = kv.value, .n = n,
               .status = "skipped: larger than a third of device memory"});
      return;
    }
    gpusort::DeviceBuffer pristine_k(ctx, kb), work_k(ctx, kb);
    gpusort::DeviceBuffer pristine_v, work_v;
    if (pairs) {
      pristine_v = gpusort::DeviceBuffer(ctx, vb);
      work_v = gpusort::DeviceBuffer(ctx, vb);
    }
    std::set<std::string> warmed;
    gpusort::DeviceBuffer temp_storage;  // caller-supplied temporaries, reused across algorithms
    for (dist d : dists) {
      if (over_budget()) return;
      const std::uint64_t seed = 0x5eed0000ull + n * 131 + std::uint64_t(d) * 7 + key_kind(kv.key) * 3 + vb;
      std::vector<K> input = make_keys<K>(n, d, seed);
      std::vector<V> values;
      if constexpr (pairs) {
        values.resize(n);
        for (std::uint64_t i = 0; i < n; ++i) values[i] = static_cast<V>(i);
      }
      const std::uint64_t hash = multiset_hash(input);
      auto t0 = clock_type::now();
      pristine_k.upload(input.data(), kb);
      if constexpr (pairs) pristine_v.upload(values.data(), vb);
      const double upload_ms = ms_since(t0);
      std::vector<K> out_k(n);
      std::vector<V> out_v(pairs ? n : 0);

      for (const std::string& alg : algs) {
        if (over_budget()) return;
        Row row{.mode = "sweep", .algorithm = alg, .key_type = kv.key, .value_type = kv.value, .n = n,
                .distribution = dist_name(d)};
        row.upload_ms = upload_ms;
        if (std::string why = should_skip(alg, kvn, n, max_run_ms, host_max_log2); !why.empty()) {
          row.status = why;
          if (opt.verbose) emit(row);
          else rows.push_back(row);  // recorded, not printed
          continue;
        }
        gpusort::SortOptions so;
        so.algorithm = alg;
        if (alg == kMergeComparator) {  // the built-in order spelled as a run-time comparator
          so.algorithm = "merge";
          so.comparator = "return a < b;";
        }
        if (so.algorithm == "merge") {
          so.items_per_thread = opt.merge_items;
          if (!opt.wgs.empty()) so.work_group_size = row.work_group_size = opt.wgs.front();
        }
        std::vector<double> times;
        // Above 2^25 keys the median of 3 (the spread there is small; the time is not).
        const int reps = n > (std::uint64_t(1) << 25) ? std::min(repeats, 3) : repeats;
        try {
          // Temporary storage is allocated outside the timed region, as for the CUB peer: the sort
          // gets caller-supplied storage whenever the algorithm reports what it needs.
          std::size_t temp_bytes = 0;
          try {
            if (!opt.pool_temporaries) temp_bytes = gpusort::temporary_storage_bytes(ctx, kt, n, pairs ? sizeof(V) : 0, so);
          } catch (const gpusort::Error&) {
            temp_bytes = 0;  // the algorithm allocates its own
          }
          if (temp_bytes > temp_storage.bytes() || (temp_bytes == 0 && temp_storage.bytes() > 0)) {
            temp_storage = gpusort::DeviceBuffer();  // release before allocating the larger one
            if (temp_bytes > 0) temp_storage = gpusort::DeviceBuffer(ctx, temp_bytes);
          }
          const bool warm = warmed.insert(alg).second;  // first distribution of this (alg, types, n)
          for (int r = warm ? -1 : 0; r < reps; ++r) {
            dev.copy(pristine_k.runtime_buffer(), 0, work_k.runtime_buffer(), 0, kb);
            if constexpr (pairs) dev.copy(pristine_v.runtime_buffer(), 0, work_v.runtime_buffer(), 0, vb);
            dev.finish();
            auto rep = temp_bytes > 0
                           ? gpusort::sort_device(ctx, kt, work_k, n, pairs ? &work_v : nullptr, pairs ? sizeof(V) : 0,
                                                  so, temp_storage)
                           : gpusort::sort_device(ctx, kt, work_k, n, pairs ? &work_v : nullptr, pairs ? sizeof(V) : 0, so);
            if (r >= 0) times.push_back(rep.sort_ms);
            if (alg == "auto") row.variant = rep.algorithm;
            // A single run far over the limit: stop repeating (the median of fewer is still honest).
            if (r >= 0 && rep.sort_ms > 4 * max_run_ms) break;
          }
          work_k.download(out_k.data(), kb);
          if constexpr (pairs) work_v.download(out_v.data(), vb);
          row.repeats = static_cast<int>(times.size());
          row.median_ms = median_of(times);
          row.min_ms = *std::min_element(times.begin(), times.end());
          set_rates(row, sizeof(K) + (pairs ? sizeof(V) : 0));
          std::string bad = verify_sorted<K, V>(input, hash, out_k, pairs ? &out_v : nullptr);
          if (!bad.empty()) row.status = "FAILED verify: " + bad;
          note_time(alg, kvn, n, row.median_ms);
        } catch (const gpusort::Error& e) {
          if (e.code() == gpusort::errc::unsupported || e.code() == gpusort::errc::invalid_argument) {
            row.status = std::string("unsupported: ") + e.what();
            projections[alg + "|" + kvn].unsupported = true;
          } else {
            row.status = std::string("error (") + gpusort::to_string(e.code()) + "): " + e.what();
          }
        } catch (const std::exception& e) {
          row.status = std::string("error: ") + e.what();
        }
        emit(row);
      }

      // Peers: the C++ standard library on the host.
      if (n <= (std::uint64_t(1) << std_max_log2) && !over_budget()) {
        for (int stable = 0; stable < 2; ++stable) {
          Row row{.mode = "peer", .algorithm = stable ? "std::stable_sort" : "std::sort", .variant = "host",
                  .key_type = kv.key, .value_type = kv.value, .n = n, .distribution = dist_name(d),
                  .device = "host"};
          std::vector<double> times;
          gpusort::key_less<K> less{};
          if constexpr (pairs) {
            struct P {
              K k;
              V v;
            };
            std::vector<P> a(n);
            for (int r = 0; r < repeats; ++r) {
              for (std::uint64_t i = 0; i < n; ++i) a[i] = {input[i], values[i]};
              auto t = clock_type::now();
              auto cmp = [&](const P& x, const P& y) { return less(x.k, y.k); };
              if (stable) std::stable_sort(a.begin(), a.end(), cmp);
              else std::sort(a.begin(), a.end(), cmp);
              times.push_back(ms_since(t));
            }
            for (std::uint64_t i = 0; i < n; ++i) {
              out_k[i] = a[i].k;
              out_v[i] = a[i].v;
            }
          } else {
            for (int r = 0; r < repeats; ++r) {
              out_k = input;
              auto t = clock_type::now();
              if (stable) std::stable_sort(out_k.begin(), out_k.end(), less);
              else std::sort(out_k.begin(), out_k.end(), less);
              times.push_back(ms_since(t));
            }
          }
          row.repeats = repeats;
          row.median_ms = median_of(times);
          row.min_ms = *std::min_element(times.begin(), times.end());
          set_rates(row, sizeof(K) + (pairs ? sizeof(V) : 0));
          std::string bad = verify_sorted<K, V>(input, hash, out_k, pairs ? &out_v : nullptr);
          if (!bad.empty()) row.status = "FAILED verify: " + bad;
          emit(row);
        }
      }

      // Peers: CUB radix and merge sort (nvcc-built, loaded at run time), each with both integer
      // types of num_items (they select different kernel configurations); the ratios take the faster.
      if (cub.usable() && !over_budget()) {
        for (int radix = 1; radix >= 0; --radix) {
          for (int offset = 0; offset <= 1; ++offset) {
            static const char* const kVariants[2][2] = {{"DeviceMergeSort<int>", "DeviceMergeSort<int64_t>"},
                                                        {"DeviceRadixSort<int>", "DeviceRadixSort<int64_t>"}};
            Row row{.mode = "peer", .algorithm = radix ? "cub_radix" : "cub_merge",
                    .variant = kVariants[radix][offset], .key_type = kv.key,
                    .value_type = kv.value, .n = n, .distribution = dist_name(d), .device = "cuda " + cub.device_name};
            double ms;
            if constexpr (pairs)
              ms = (radix ? cub.radix_pairs : cub.merge_pairs)(offset, key_kind(kv.key), value_kind(kv.value),
                                                                input.data(), values.data(), n, repeats, out_k.data(),
                                                                out_v.data());
            else
              ms = (radix ? cub.radix_keys : cub.merge_keys)(offset, key_kind(kv.key), input.data(), n, repeats,
                                                              out_k.data());
            row.repeats = repeats;
            if (ms > 0) {
              row.median_ms = ms;
              set_rates(row, sizeof(K) + (pairs ? sizeof(V) : 0));
              std::string bad = verify_sorted<K, V>(input, hash, out_k, pairs ? &out_v : nullptr);
              if (!bad.empty()) row.status = "FAILED verify: " + bad;
            } else {
              row.status = "error: CUDA code " + std::to_string(int(ms));
            }
            emit(row);
          }
        }
      }
    }
  }

  void sweep() {
    const bool gpu = desc.is_gpu;
    int max_log2 = opt.max_log2 > 0 ? opt.max_log2 : opt.quick ? 16 : gpu ? 28 : 20;
    int min_log2 = opt.min_log2;
    // 0: none (n >= 2 everywhere); -1: the default
    int std_max = opt.std_max_log2 >= 0 ? opt.std_max_log2 : opt.quick ? 16 : 22;
    int host_max = opt.host_max_log2 >= 0 ? opt.host_max_log2 : opt.quick ? 14 : 20;
    double max_run_ms = opt.max_run_ms > 0 ? opt.max_run_ms : opt.quick ? 300 : 2000;
    if (opt.budget_s < 0) opt.budget_s = opt.quick ? 100 : 0;
    std::vector<std::string> algs = opt.algorithms;
    if (algs.empty()) {
      for (const auto& a : gpusort::algorithms()) algs.push_back(a.name);
      algs.push_back("auto");
    }
    std::vector<KV> types = opt.types;
    if (types.empty()) types.assign(std::begin(all_kvs), std::end(all_kvs));
    std::vector<dist> dists = opt.dists;
    if (dists.empty()) {
      if (opt.quick) dists = {dist::uniform, dist::sorted, dist::few_unique};
      else dists.assign(std::begin(all_dists), std::end(all_dists));
    }
    std::vector<std::uint64_t> sizes = opt.sizes;
    if (sizes.empty()) {
      const int step = opt.log2_step > 0 ? opt.log2_step : opt.quick ? 3 : 1;
      for (int l = min_log2; l <= max_log2; l += step) sizes.push_back(std::uint64_t(1) << l);
      if (!sizes.empty() && sizes.back() != std::uint64_t(1) << max_log2) sizes.push_back(std::uint64_t(1) << max_log2);
    }

    measure_copy();
    for (const std::uint64_t n : sizes) {
      std::vector<dist> ds = dists;
      if (opt.full_dists_max_log2 > 0 && n > std::uint64_t(1) << opt.full_dists_max_log2)
        std::erase_if(ds, [](dist d) { return d != dist::uniform && d != dist::entropy && d != dist::sorted; });
      for (const KV& kv : types) {
        if (over_budget()) break;
        with_types(kv, [&]<class K, class V>() { sweep_types<K, V>(kv, n, ds, algs, max_run_ms, host_max, std_max); });
      }
    }
  }

  // --- tables ------------------------------------------------------------------------------------
  template <class V>
  void local_table(const std::string& kernel, std::uint32_t wg, std::uint64_t n, gpusort::DeviceBuffer& pk,
                   gpusort::DeviceBuffer& pv, gpusort::DeviceBuffer& wk, gpusort::DeviceBuffer& wv,
                   const std::vector<std::uint32_t>& input, std::uint64_t hash) {
    constexpr bool pairs = !std::is_same_v<V, None>;
    const std::size_t kb = 4 * n, vb = pairs ? 4 * n : 0;
    Row row{.mode = "local", .algorithm = kernel, .variant = "tile", .key_type = "u32",
            .value_type = pairs ? "u32" : "", .n = n, .distribution = "uniform", .work_group_size = wg};
    try {
      std::vector<double> times;
      std::size_t tile = 0;
      for (int r = -1; r < repeats; ++r) {
        dev.copy(pk.runtime_buffer(), 0, wk.runtime_buffer(), 0, kb);
        if (pairs) dev.copy(pv.runtime_buffer(), 0, wv.runtime_buffer(), 0, vb);
        dev.finish();
        LocalRun lr = run_local_kernel(dev, kernel, wg, gpusort::key_type::u32, n, wk.runtime_buffer(),
                                       pairs ? &wv.runtime_buffer() : nullptr, pairs ? 4 : 0);
        tile = lr.tile;
        if (r >= 0) times.push_back(lr.ms);
      }
      std::vector<std::uint32_t> out_k(n), out_v(pairs ? n : 0);
      wk.download(out_k.data(), kb);
      if (pairs) wv.download(out_v.data(), vb);
      row.variant = "tile=" + std::to_string(tile);
      row.repeats = repeats;
      row.median_ms = median_of(times);
      row.min_ms = *std::min_element(times.begin(), times.end());
      set_rates(row, pairs ? 8 : 4);
      std::string bad = verify_sorted<std::uint32_t, std::uint32_t>(input, hash, out_k, pairs ? &out_v : nullptr, tile);
      if (!bad.empty()) row.status = "FAILED verify: " + bad;
    } catch (const gpusort::Error& e) {
      row.status = (e.code() == gpusort::errc::unsupported || e.code() == gpusort::errc::invalid_argument
                        ? std::string("unsupported: ")
                        : std::string("error: ")) +
                   e.what();
    }
    emit(row);
  }

  void merge_table(const std::string& variant, std::uint64_t n, gpusort::DeviceBuffer& pk, gpusort::DeviceBuffer& pv,
                   const std::vector<std::uint32_t>& input, std::uint64_t hash) {
    // Per pass: the input is sorted into tiles by the merge algorithm's default local sort, then
    // each pass (runs of width w -> runs of 2w) is timed on its own; one row per width.
    std::vector<MergePassRun> passes;
    auto verify = [&](gpusort::rt::Buffer& k, gpusort::rt::Buffer& v) {
      std::vector<std::uint32_t> ok(n), ov(n);
      dev.read(k, 0, ok.data(), 4 * n);
      dev.read(v, 0, ov.data(), 4 * n);
      return verify_sorted<std::uint32_t, std::uint32_t>(input, hash, ok, &ov);
    };
    try {
      passes = run_merge_passes(dev, variant, gpusort::key_type::u32, n, pk.runtime_buffer(), pv.runtime_buffer(), 4,
                                repeats, verify);
    } catch (const gpusort::Error& e) {
      emit(Row{.mode = "merge-pass", .algorithm = variant, .key_type = "u32", .value_type = "u32", .n = n,
               .distribution = "uniform", .status = std::string("error: ") + e.what()});
      return;
    }
    for (const auto& p : passes) {
      Row row{.mode = "merge-pass", .algorithm = variant, .variant = "width=" + std::to_string(p.width),
              .key_type = "u32", .value_type = "u32", .n = n, .distribution = "uniform"};
      row.work_group_size = p.group;
      row.repeats = repeats;
      row.median_ms = p.ms;
      row.status = p.status;
      set_rates(row, 8);
      emit(row);
    }
  }

  void tables() {
    const bool gpu = desc.is_gpu;
    int lg = opt.table_log2 > 0 ? opt.table_log2 : opt.quick ? 16 : gpu ? 24 : 20;
    if (opt.budget_s < 0) opt.budget_s = opt.quick ? 100 : 0;
    const std::uint64_t n = std::uint64_t(1) << lg;
    std::vector<std::uint32_t> wgs = opt.wgs;
    if (wgs.empty()) {
      if (opt.quick) wgs = {4, 32, 256};
      else
        for (std::uint32_t w = 1; w <= desc.max_work_group_size; w <<= 1) wgs.push_back(w);
    }
    std::erase_if(wgs, [&](std::uint32_t w) { return w == 0 || w > desc.max_work_group_size || (w & (w - 1)); });
    measure_copy();
    std::vector<std::uint32_t> input = make_keys<std::uint32_t>(n, dist::uniform, 0x7AB1E5ull);
    std::vector<std::uint32_t> values(n);
    for (std::uint64_t i = 0; i < n; ++i) values[i] = static_cast<std::uint32_t>(i);
    const std::uint64_t hash = multiset_hash(input);
    gpusort::DeviceBuffer pk(ctx, 4 * n), pv(ctx, 4 * n), wk(ctx, 4 * n), wv(ctx, 4 * n);
    pk.upload(input.data(), 4 * n);
    pv.upload(values.data(), 4 * n);
    for (const std::string& kernel : local_kernel_names()) {
      for (std::uint32_t wg : wgs) {
        if (over_budget()) break;
        local_table<std::uint32_t>(kernel, wg, n, pk, pv, wk, wv, input, hash);
        local_table<None>(kernel, wg, n, pk, pv, wk, wv, input, hash);
      }
    }
    for (const std::string& variant : merge_variant_names()) {
      if (over_budget()) break;
      merge_table(variant, n, pk, pv, input, hash);
    }
  }

  std::string meta_json() const {
    gpusort::core::JsonObject m = run_meta(opt.mode, opt.command_line, desc);
    m.add("copy_gb_per_s", copy_gbs)
        .add("repeats", repeats)
        .add("cub", cub.usable() ? cub.device_name : "absent: " + cub.why_absent)
        .add("budget_reached", budget_hit)
        .add("seconds", ms_since(start) / 1000);
    return m.str();
  }

  void write() {
    fill_derived(rows, copy_gbs);
    std::filesystem::create_directories(opt.out);
    std::string base = opt.out + "/" + opt.mode;
    write_csv(base + ".csv", rows, Provenance{std::string(gpusort::version()), build_commit()});
    write_json(base + ".json", rows, meta_json());
    std::size_t ok = 0, failed = 0;
    for (const auto& r : rows) {
      ok += r.status == "ok";
      failed += r.status.rfind("FAILED", 0) == 0 || r.status.rfind("error", 0) == 0;
    }
    std::fprintf(stderr, "gpusort-bench: %zu rows (%zu measured, %zu failed) in %.1f s -> %s.csv, %s.json\n",
                 rows.size(), ok, failed, ms_since(start) / 1000, base.c_str(), base.c_str());
  }
};

}  // namespace
}  // namespace bench

int main(int argc, char** argv) {
  using namespace bench;
  if (argc > 1 && std::string(argv[1]) == "segmented") return segmented_main(argc - 1, argv + 1);
  if (argc > 1 && std::string(argv[1]) == "topk") return topk_main(argc - 1, argv + 1);
  auto parsed = parse(argc, argv);
  if (const int* rc = std::get_if<int>(&parsed)) return *rc;
  Options& opt = std::get<Options>(parsed);
  try {
    gpusort::algo::set_radix_policy_override(gpusort::algo::parse_radix_policy_override(opt.radix_policy));
    gpusort::algo::set_merge_policy_override(gpusort::algo::parse_merge_policy_override(opt.merge_policy));
    Bench b(opt);
    if (!gpusort::rt::views_at_full_speed(b.desc) && !opt.caller_temporaries) b.opt.pool_temporaries = true;
    std::fprintf(stderr, "gpusort-bench %s (gpusort %s, commit %s) on %s (%s, %s); CUB: %s; temporaries: %s\n",
                 opt.mode.c_str(), std::string(gpusort::version()).c_str(), build_commit(),
                 b.desc.id.c_str(), b.desc.name.c_str(), b.desc.driver.c_str(),
                 b.cub.usable() ? b.cub.device_name.c_str() : b.cub.why_absent.c_str(),
                 b.opt.pool_temporaries ? "pool" : "caller storage");
    if (opt.mode == "sweep") b.sweep();
    else b.tables();
    b.write();
    for (const auto& r : b.rows)
      if (r.status.rfind("FAILED", 0) == 0) return 1;
    return 0;
  } catch (const gpusort::Error& e) {
    std::fprintf(stderr, "gpusort-bench: %s: %s\n", gpusort::to_string(e.code()), e.what());
    return 2;
  }
}
