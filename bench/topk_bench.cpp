// gpusort-bench topk: the k largest keys of each row, gpusort's top-k beside CUB's (DeviceTopK,
// DeviceBatchedTopK) and one read of the keys, per shape (rows x length, or one row of 2^E keys), key
// distribution, k and form (f32 keys, with int32 or int64 positions). Method in the --help text below.
#include "topk_bench.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

#include "algorithms/topk/topk_policy.hpp"
#include "bench_common.hpp"
#include "build_commit.hpp"
#include "command_line.hpp"
#include "core/table_text.hpp"
#include "cub_loader.hpp"
#include "runtime/device.hpp"
#include "topk_ours.hpp"
#include "topk_shapes.hpp"

namespace bench {
namespace {

constexpr const char* kHelp =
    "gpusort-bench topk: the k largest keys of each row (issue 53's shapes), gpusort beside CUB's top-k and\n"
    "one read of the keys. Writes topk.csv and topk.json to --out and prints one line per (shape, dist, k,\n"
    "form, entry) and a summary.\n"
    "\n"
    "Shapes (--shapes): RxL is R rows of L keys, 1d:E one row of 2^E keys, small 3 rows of 5000 (for\n"
    "tests); each takes :K/K/... for its k (default: issue 53's, 50/1024 for 64x128256 and 4096x32768,\n"
    "10/1000/100000 for 1d:E, else 50). Keys (--dists): normal (as logits), uniform in [-1, 1) (a grid\n"
    "of 2^-23: many equal keys), bits (every finite f32 bit pattern); by default rows get normal and\n"
    "1d shapes all three. Forms (--forms): f32 (keys alone), f32/i32 and f32/i64 (the keys and their\n"
    "positions in the row, as torch.topk returns).\n"
    "\n"
    "Entries: gpusort::topk / topk_keys on DeviceArrays (each row's k sorted, ties to the lower\n"
    "position; --unsorted: the same k unordered), timed by the device events it reports; CUB's\n"
    "DeviceBatchedTopK (rows of 2^21 keys at most; the length and k at run time under a compile-time\n"
    "bound, with int32 and int64 sizes, and, for issue 53's rows, as compile-time constants) and\n"
    "DeviceTopK (one row; int32 and int64 num_items; a loop over the rows where the peer's CUB has no\n"
    "DeviceBatchedTopK), keys alone (MaxKeys) or with positions (MaxPairs, from a counting iterator),\n"
    "each asked for non-deterministic, unsorted results (their fastest). DeviceTopK needs CUB 3.3,\n"
    "DeviceBatchedTopK 3.5: build the peer with GPUSORT_CUB_PEER_CCCL_INCLUDE (bench/README.md).\n"
    "\n"
    "Method: every result is first checked against the tests' reference (each row stably sorted, its\n"
    "first k; exit status 1 on a mismatch, gpusort timed only when right): gpusort's exactly (the\n"
    "reference's positions, in its order when sorted, else as a set), CUB's as any k keys that no\n"
    "other key beats (the same keys as the reference's, each index naming its own key once). Then\n"
    "the median of --repeats calls after a warm-up; the keys stay on the device (a top-k only reads\n"
    "them), and in the cache where they fit (64x128256's 33 MB fit an H100's 50 MB L2), for every\n"
    "entry alike. 'read' is half a device-to-device copy of the keys (one read and one write),\n"
    "measured in the same run (the faster of gpusort's copy and cudaMemcpy): the floor of any top-k;\n"
    "'% read' is its time over the entry's. 'x CUB' is CUB's best entry for that case over the\n"
    "entry's time (above 1: faster).";

struct TopkBenchOptions {
  std::vector<TopkShape> shapes;
  std::vector<std::string> forms = {"f32", "f32/i32", "f32/i64"};
  std::vector<std::string> dists;  // empty: normal for rows, all three for 1d shapes
  bool unsorted = false;
  int repeats = 7;
  std::string out = "bench-out";
  std::string device;
  std::string cub_lib;
  bool no_cub = false;
  std::string topk_policy;  // algo::parse_topk_policy_override's form; empty: the planner's own
  std::string command_line;
};

std::size_t index_bytes_of(const std::string& form) { return form == "f32/i32" ? 4 : form == "f32/i64" ? 8 : 0; }

// a,b,... split at commas, empty items dropped.
std::vector<std::string> items(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  for (std::string t; std::getline(ss, t, ',');)
    if (!t.empty()) out.push_back(t);
  return out;
}

std::variant<TopkBenchOptions, int> parse(int argc, char** argv) {
  TopkBenchOptions o;
  o.command_line = "gpusort-bench";
  for (int i = 0; i < argc; ++i) o.command_line += " " + std::string(argv[i]);
  CLI::App app{kHelp, "gpusort-bench topk"};
  keep_last_values(app);
  app.add_option_function<std::string>(
      "--shapes",
      [&o](const std::string& text) {
        o.shapes.clear();
        for (const std::string& t : items(text)) {
          auto s = parse_topk_shape(t);
          if (!s)
            throw CLI::ValidationError(
                "--shapes", "'" + t + "' is not RxL, 1d:E or small (with :K/K/..., each k from 1 to the row length)");
          o.shapes.push_back(*s);
        }
      },
      "a,b,... : RxL, 1d:E, small, each with :K/K/... (default: 64x128256,256x131072,4096x32768,16384x1024,1d:28,"
      "1d:24)");
  app.add_option_function<std::string>(
      "--forms",
      [&o](const std::string& text) {
        o.forms.clear();
        for (const std::string& t : items(text)) {
          if (t != "f32" && t != "f32/i32" && t != "f32/i64")
            throw CLI::ValidationError("--forms", "'" + t + "' is not f32, f32/i32 or f32/i64");
          o.forms.push_back(t);
        }
      },
      "a,b,... : f32, f32/i32, f32/i64 (default all three)");
  app.add_option_function<std::string>(
      "--dists",
      [&o](const std::string& text) {
        o.dists.clear();
        for (const std::string& t : items(text)) {
          if (!is_topk_dist(t)) throw CLI::ValidationError("--dists", "'" + t + "' is not normal, uniform or bits");
          o.dists.push_back(t);
        }
      },
      "a,b,... : normal, uniform, bits, for every shape (default: normal for rows, all three for 1d:E)");
  app.add_flag("--unsorted", o.unsorted, "gpusort's k unordered instead of sorted (CUB's are unsorted)");
  app.add_option("--repeats", o.repeats, "Timed repeats per entry, median reported (default 7)")
      ->check(whole_number(1, 1000));
  app.add_option("--out", o.out, "Output folder: topk.csv and topk.json")->capture_default_str();
  app.add_option("--device", o.device, "cuda:N or opencl:P:D (default: $GPUSORT_DEVICE or the best device)");
  app.add_option("--cub-lib", o.cub_lib, "The CUB peer library (default: next to this executable)");
  app.add_flag("--no-cub", o.no_cub, "No CUB entries");
  app.add_option("--topk-policy", o.topk_policy,
                 "Replace the planner's choice for gpusort's entries, e.g. row_parts=0 or groups_per_row=8 "
                 "(src/algorithms/topk/topk_policy.hpp, TopkPolicyOverride)");
  if (const auto rc = parse_command_line(app, argc, argv)) return *rc;
  if (o.shapes.empty()) o.shapes = default_topk_shapes();
  if (o.forms.empty() || (o.dists.empty() && app.count("--dists"))) {
    std::fprintf(stderr, "gpusort-bench topk: error: --forms and --dists name at least one each (see --help)\n");
    return 2;
  }
  return o;
}

// One line of the output: one entry on one (shape, dist, k, form), or the read of the keys.
struct TopkRow {
  std::string shape, dist;
  std::uint64_t rows = 0, length = 0, k = 0;
  std::string form;
  std::string contender;  // gpusort, cub, read
  std::string entry;
  std::string variant;    // CUB: the size types and bounds; gpusort: sorted or unsorted
  std::string algorithm;  // gpusort: what it reports having run
  std::string library;    // "gpusort 0.x" or "CUB 3.6.0": what made the figure
  int repeats = 0;
  double median_ms = NAN, min_ms = NAN, keys_per_s = NAN, read_ms = NAN, frac_of_read = NAN, ratio_to_cub_best = NAN;
  std::string status = "ok";
  bool ok() const { return status == "ok" && std::isfinite(median_ms); }
};

// CUB's entries (cub_peer.h, cub_topk): entry number, offset kind, name, variant.
struct CubEntry {
  int entry, offset_kind;
  const char* name;
  const char* variant;
};
constexpr CubEntry kBatched[] = {{2, 0, "DeviceBatchedTopK", "constant<L,k>"},
                                 {1, 0, "DeviceBatchedTopK", "bounded<int32>"},
                                 {1, 1, "DeviceBatchedTopK", "bounded<int64>"}};
constexpr CubEntry kDevice[] = {{0, 0, "DeviceTopK", "int32"}, {0, 1, "DeviceTopK", "int64"}};

std::string number(double v, const char* format) {
  if (!std::isfinite(v)) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

std::string cub_error(double code) {
  switch (static_cast<int>(code)) {
    case -1:
      return "error: no CUDA device";
    case -2:
      return "error: out of device memory";
    case -5:
      return "skipped: not for this shape";
    default:
      return "error: CUDA code " + std::to_string(static_cast<int>(code));
  }
}

class TopkBench {
 public:
  explicit TopkBench(TopkBenchOptions o)
      : opt_(std::move(o)), ctx_(opt_.device), dev_(ctx_.runtime_device()), desc_(ctx_.device()) {
    if (opt_.no_cub) {
      cub_.why_absent = "--no-cub";
    } else {
      int cuda_index = 0;
      if (desc_.id.rfind("cuda:", 0) == 0) cuda_index = std::atoi(desc_.id.c_str() + 5);
      cub_.load(opt_.cub_lib, cuda_index);
      cub_copy_ = cub_.usable();
      if (cub_.usable()) {
        cub_entries_ = cub_.topk_entries();
        if (cub_entries_ == 0)
          cub_.why_absent = "CUB " + cub_.cub_version +
                            " has no top-k (DeviceTopK needs 3.3, DeviceBatchedTopK 3.5: build the peer with "
                            "GPUSORT_CUB_PEER_CCCL_INCLUDE)";
      }
    }
  }

  int run() {
    std::fprintf(
        stderr, "gpusort-bench topk (gpusort %s, commit %s) on %s (%s); CUB: %s\n",
        std::string(gpusort::version()).c_str(), build_commit(), desc_.id.c_str(), desc_.name.c_str(),
        cub_.usable() ? ("CUB " + cub_.cub_version + " on " + cub_.device_name).c_str() : cub_.why_absent.c_str());
    std::fprintf(stdout, "%-18s %-7s %6s %-7s %-7s %-26s %-14s %10s %10s %7s %7s  %s\n", "shape", "dist", "k", "form",
                 "who", "entry", "variant", "ms", "Mkey/s", "%read", "x CUB", "status");
    for (const TopkShape& s : opt_.shapes) {
      const std::vector<std::string> dists =
          !opt_.dists.empty() ? opt_.dists : s.one_d ? std::vector<std::string>{"normal", "uniform", "bits"}
                                                     : std::vector<std::string>{"normal"};
      for (const std::string& d : dists) run_case(s, d);
    }
    summary();
    write();
    for (const TopkRow& r : rows_)
      if (r.status.rfind("FAILED", 0) == 0 || (r.contender == "gpusort" && r.status.rfind("error", 0) == 0)) return 1;
    return 0;
  }

 private:
  void run_case(const TopkShape& shape, const std::string& dist) {
    const std::string name = shape.name();
    std::uint64_t seed = 0x70bc0ull;
    for (char c : name + "/" + dist) seed = mix64(seed ^ static_cast<unsigned char>(c));
    const std::uint64_t n = shape.n();
    std::fprintf(stderr, "== %s %s: %llu rows of %llu keys, k %s\n", name.c_str(), dist.c_str(),
                 (unsigned long long)shape.rows, (unsigned long long)shape.length, ks_text(shape).c_str());
    const std::vector<float> keys = make_topk_keys(n, dist, seed);
    const std::uint64_t ref_k = shape.max_k();
    const std::vector<std::uint64_t> reference = topk_reference_rows(keys, shape.rows, ref_k);

    void* cub_input = nullptr;
    std::string cub_absent = cub_.why_absent;
    if (cub_.usable()) {
      double status = 0;
      cub_input = cub_.topk_open(keys.data(), shape.rows, shape.length, &status);
      if (!cub_input) cub_absent = cub_error(status);
    }
    std::unique_ptr<OursTopk> ours;
    std::string ours_absent;
    try {
      ours = std::make_unique<OursTopk>(ctx_, keys, shape.rows);
    } catch (const gpusort::Error& e) {
      ours_absent = std::string("error: ") + e.what();
    }
    TopkRow base{.shape = name, .dist = dist, .rows = shape.rows, .length = shape.length};
    const TopkRow read = read_row(base, n * 4);

    for (const std::uint64_t k : shape.ks)
      for (const std::string& form : opt_.forms) {
        const std::size_t ib = index_bytes_of(form);
        const std::size_t first = rows_.size();
        TopkRow b = base;
        b.k = k;
        b.form = form;
        TopkRow rr = read;
        rr.k = k;
        rr.form = form;
        rows_.push_back(rr);
        std::vector<float> values;
        std::vector<unsigned char> indices;
        if (cub_input) {
          run_cub(b, cub_input, keys, reference, ref_k, ib);
        } else {
          TopkRow r = b;
          r.contender = "cub";
          r.entry = "*";
          r.status = "absent: " + cub_absent;
          rows_.push_back(r);
        }
        TopkRow r = b;
        r.contender = "gpusort";
        r.entry = OursTopk::entry();
        r.variant = opt_.unsorted ? "unsorted" : "sorted";
        r.library = "gpusort " + std::string(gpusort::version());
        if (!ours) {
          r.status = ours_absent;
        } else {
          try {
            ours->run_once(k, ib, !opt_.unsorted, values, indices);
            const std::string bad = check_topk(keys, shape.rows, reference, ref_k, k, values,
                                               ib ? indices.data() : nullptr, ib, true, !opt_.unsorted);
            if (!bad.empty()) {
              r.status = "FAILED check: " + bad;
            } else {
              const TopkRun t = ours->time(k, ib, !opt_.unsorted, opt_.repeats);
              r.repeats = t.repeats;
              r.median_ms = t.median_ms;
              r.min_ms = t.min_ms;
              r.algorithm = t.algorithm;
            }
          } catch (const gpusort::Error& e) {
            r.status =
                (e.code() == gpusort::errc::unsupported ? std::string("unsupported: ") : std::string("error: ")) +
                e.what();
          }
        }
        rows_.push_back(r);
        derive_and_print(first);
      }
    if (cub_input) cub_.topk_close(cub_input);
  }

  // CUB at its best: DeviceBatchedTopK's forms on rows; DeviceTopK on one row, or on each row in a
  // loop where the peer's CUB has no DeviceBatchedTopK.
  void run_cub(const TopkRow& b, void* input, const std::vector<float>& keys,
               const std::vector<std::uint64_t>& reference, std::uint64_t ref_k, std::size_t ib) {
    std::vector<const CubEntry*> entries;
    const bool batched = (cub_entries_ & 6) != 0;
    if (b.rows > 1 && batched)
      for (const CubEntry& e : kBatched) entries.push_back(&e);
    if ((b.rows == 1 || !batched) && (cub_entries_ & 1))
      for (const CubEntry& e : kDevice) entries.push_back(&e);
    std::vector<float> values(b.rows * b.k);
    std::vector<unsigned char> indices(b.rows * b.k * ib);
    for (const CubEntry* e : entries) {
      TopkRow r = b;
      r.contender = "cub";
      r.entry = std::string(e->name) + (e->entry == 0 && b.rows > 1 ? "(per row)" : "");
      r.variant = e->variant;
      r.library = "CUB " + cub_.cub_version;
      r.repeats = opt_.repeats;
      const double ms = cub_.topk(input, e->entry, e->offset_kind, ib == 0 ? 0 : ib == 4 ? 1 : 2, b.k, opt_.repeats,
                                  values.data(), ib ? indices.data() : nullptr);
      if (ms > 0) {
        r.median_ms = ms;
        const std::string bad =
            check_topk(keys, b.rows, reference, ref_k, b.k, values, ib ? indices.data() : nullptr, ib, false, false);
        if (!bad.empty()) r.status = "FAILED check: " + bad;
      } else {
        r.status = cub_error(ms);
      }
      rows_.push_back(r);
    }
  }

  // Half a device-to-device copy of the keys (a read and a write of `bytes`): the faster of gpusort's
  // copy and cudaMemcpy.
  TopkRow read_row(TopkRow r, std::size_t bytes) {
    r.contender = "read";
    r.entry = "one read of the keys";
    r.repeats = opt_.repeats;
    std::vector<double> t;
    try {
      auto a = dev_.alloc(bytes);
      auto b = dev_.alloc(bytes);
      dev_.fill_bytes(*a, 1, 0, bytes);
      dev_.finish();
      for (int i = -1; i < opt_.repeats; ++i) {
        auto e0 = dev_.record();
        dev_.copy(*a, 0, *b, 0, bytes);
        auto e1 = dev_.record();
        e1->wait();
        if (i >= 0) t.push_back(e1->elapsed_ms_since(*e0));
      }
      r.variant = "Device::copy / 2";
      r.median_ms = median_of(t) / 2;
    } catch (const gpusort::Error& e) {
      r.status = std::string("error: ") + e.what();
    }
    if (cub_copy_) {
      const double ms = cub_.copy_ms(bytes, opt_.repeats);
      if (ms > 0 && (!std::isfinite(r.median_ms) || ms / 2 < r.median_ms)) {
        r.median_ms = ms / 2;
        r.variant = "cudaMemcpy / 2";
        r.status = "ok";
      }
    }
    return r;
  }

  static std::string ks_text(const TopkShape& s) {
    std::string t;
    for (std::uint64_t k : s.ks) t += (t.empty() ? "" : "/") + std::to_string(k);
    return t;
  }

  // keys/s, the fraction of one read's time and the ratio to CUB's best, for rows_[first..].
  void derive_and_print(std::size_t first) {
    double read_ms = NAN, cub_best = NAN;
    for (std::size_t i = first; i < rows_.size(); ++i) {
      const TopkRow& r = rows_[i];
      if (!r.ok()) continue;
      if (r.contender == "read") read_ms = r.median_ms;
      if (r.contender == "cub" && !(r.median_ms >= cub_best)) cub_best = r.median_ms;
    }
    for (std::size_t i = first; i < rows_.size(); ++i) {
      TopkRow& r = rows_[i];
      r.read_ms = read_ms;
      if (r.ok()) {
        r.keys_per_s = double(r.rows * r.length) / (r.median_ms * 1e-3);
        r.frac_of_read = read_ms / r.median_ms;
        if (r.contender != "read") r.ratio_to_cub_best = cub_best / r.median_ms;
      }
      if (r.status.rfind("skipped", 0) == 0) continue;  // in the CSV only
      std::fprintf(stdout, "%-18s %-7s %6llu %-7s %-7s %-26s %-14s %10s %10s %7s %7s  %s%s%s\n", r.shape.c_str(),
                   r.dist.c_str(), (unsigned long long)r.k, r.form.c_str(), r.contender.c_str(), r.entry.c_str(),
                   r.variant.c_str(), number(r.median_ms, "%.4f").c_str(), number(r.keys_per_s / 1e6, "%.0f").c_str(),
                   number(100 * r.frac_of_read, "%.1f%%").c_str(), number(r.ratio_to_cub_best, "%.2f").c_str(),
                   r.status.c_str(), r.algorithm.empty() ? "" : " ran ", r.algorithm.c_str());
    }
    std::fflush(stdout);
  }

  // Per (shape, dist, k, form): one read, CUB's best entry, gpusort's time.
  void summary() {
    std::fprintf(stdout, "\nsummary (ms, median of %d; x CUB above 1 = gpusort faster than CUB's best entry)\n",
                 opt_.repeats);
    std::fprintf(stdout, "%-18s %-7s %6s %-7s %9s %9s  %-36s %9s %7s %7s\n", "shape", "dist", "k", "form", "read",
                 "CUB best", "(entry)", "gpusort", "x CUB", "%read");
    using Key = std::tuple<std::string, std::string, std::uint64_t, std::string>;
    std::map<Key, std::vector<const TopkRow*>> groups;
    std::vector<Key> order;
    for (const TopkRow& r : rows_) {
      const Key key{r.shape, r.dist, r.k, r.form};
      if (!groups.count(key)) order.push_back(key);
      groups[key].push_back(&r);
    }
    for (const Key& key : order) {
      const TopkRow *read = nullptr, *cub = nullptr, *ours = nullptr;
      for (const TopkRow* r : groups[key]) {
        if (!r->ok()) continue;
        if (r->contender == "read") read = r;
        if (r->contender == "cub" && (!cub || r->median_ms < cub->median_ms)) cub = r;
        if (r->contender == "gpusort") ours = r;
      }
      const std::string cub_entry = cub ? cub->entry + "<" + cub->variant + ">" : "-";
      std::fprintf(stdout, "%-18s %-7s %6llu %-7s %9s %9s  %-36s %9s %7s %7s\n", std::get<0>(key).c_str(),
                   std::get<1>(key).c_str(), (unsigned long long)std::get<2>(key), std::get<3>(key).c_str(),
                   number(read ? read->median_ms : NAN, "%.4f").c_str(),
                   number(cub ? cub->median_ms : NAN, "%.4f").c_str(), cub_entry.c_str(),
                   number(ours ? ours->median_ms : NAN, "%.4f").c_str(),
                   number(ours ? ours->ratio_to_cub_best : NAN, "%.2f").c_str(),
                   number(ours ? 100 * ours->frac_of_read : NAN, "%.1f%%").c_str());
    }
  }

  std::string meta_json() const {
    gpusort::core::JsonObject m = run_meta("topk", opt_.command_line, desc_);
    m.add("repeats", opt_.repeats)
        .add("sorted", !opt_.unsorted)
        .add("cub",
             cub_.usable() ? "CUB " + cub_.cub_version + " on " + cub_.device_name : "absent: " + cub_.why_absent)
        .add("seconds", ms_since(start_) / 1000);
    return m.str();
  }

  void write() {
    using gpusort::core::csv_field;
    using gpusort::core::csv_number;
    std::filesystem::create_directories(opt_.out);
    const std::string base = opt_.out + "/topk";
    const std::string version = csv_field(gpusort::version()), commit = csv_field(build_commit());
    {
      std::ofstream f(base + ".csv");
      // status stays the last column: scripts count measured rows with ",ok$".
      f << "shape,rows,length,dist,k,form,contender,entry,variant,algorithm,library,device,repeats,median_ms,min_ms,"
           "keys_per_s,read_ms,frac_of_read,ratio_to_cub_best,version,commit,status\n";
      for (const TopkRow& r : rows_)
        f << csv_field(r.shape) << ',' << r.rows << ',' << r.length << ',' << csv_field(r.dist) << ',' << r.k << ','
          << csv_field(r.form) << ',' << csv_field(r.contender) << ',' << csv_field(r.entry) << ','
          << csv_field(r.variant) << ',' << csv_field(r.algorithm) << ',' << csv_field(r.library) << ','
          << csv_field(desc_.id + " " + desc_.name) << ',' << r.repeats << ',' << csv_number(r.median_ms) << ','
          << csv_number(r.min_ms) << ',' << csv_number(r.keys_per_s) << ',' << csv_number(r.read_ms) << ','
          << csv_number(r.frac_of_read) << ',' << csv_number(r.ratio_to_cub_best) << ',' << version << ',' << commit
          << ',' << csv_field(r.status) << '\n';
      if (!f) throw gpusort::Error(gpusort::errc::io_error, "cannot write " + base + ".csv");
    }
    std::ofstream f(base + ".json");
    f << "{\n  \"meta\": " << meta_json() << ",\n  \"rows\": [\n";
    for (std::size_t i = 0; i < rows_.size(); ++i) {
      const TopkRow& r = rows_[i];
      gpusort::core::JsonObject o;
      o.add("shape", r.shape)
          .add("rows", r.rows)
          .add("length", r.length)
          .add("dist", r.dist)
          .add("k", r.k)
          .add("form", r.form)
          .add("contender", r.contender)
          .add("entry", r.entry)
          .add("variant", r.variant)
          .add("algorithm", r.algorithm)
          .add("library", r.library)
          .add("repeats", r.repeats)
          .add("median_ms", r.median_ms)
          .add("min_ms", r.min_ms)
          .add("keys_per_s", r.keys_per_s)
          .add("read_ms", r.read_ms)
          .add("frac_of_read", r.frac_of_read)
          .add("ratio_to_cub_best", r.ratio_to_cub_best)
          .add("status", r.status);
      f << "    " << o.str() << (i + 1 < rows_.size() ? "," : "") << "\n";
    }
    f << "  ]\n}\n";
    if (!f) throw gpusort::Error(gpusort::errc::io_error, "cannot write " + base + ".json");
    std::fprintf(stderr, "gpusort-bench topk: %zu rows in %.1f s -> %s.csv, %s.json\n", rows_.size(),
                 ms_since(start_) / 1000, base.c_str(), base.c_str());
  }

  TopkBenchOptions opt_;
  gpusort::Context ctx_;
  gpusort::rt::Device& dev_;
  gpusort::DeviceDescription desc_;
  CubPeer cub_;
  int cub_entries_ = 0;   // cub_topk_entries(): the top-k entries in the peer's CUB
  bool cub_copy_ = false;  // the peer's cudaMemcpy is there (with or without its top-k)
  std::vector<TopkRow> rows_;
  clock_type::time_point start_ = clock_type::now();
};

}  // namespace

int topk_main(int argc, char** argv) {
  auto parsed = parse(argc, argv);
  if (const int* rc = std::get_if<int>(&parsed)) return *rc;
  try {
    const TopkBenchOptions& opt = std::get<TopkBenchOptions>(parsed);
    if (!opt.topk_policy.empty())
      gpusort::algo::set_topk_policy_override(gpusort::algo::parse_topk_policy_override(opt.topk_policy));
    TopkBench b(std::get<TopkBenchOptions>(std::move(parsed)));
    return b.run();
  } catch (const gpusort::Error& e) {
    std::fprintf(stderr, "gpusort-bench: %s: %s\n", gpusort::to_string(e.code()), e.what());
    return 2;
  } catch (const std::exception& e) {  // host memory for the largest shapes, above all
    std::fprintf(stderr, "gpusort-bench: error: %s\n", e.what());
    return 2;
  }
}

}  // namespace bench
