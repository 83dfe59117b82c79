// gpusort-bench segmented: gpusort's segmented sorts beside CUB's forms of one, and the copy of the
// same bytes, per shape (rows x length, or lengths that vary) and form (f32 keys, with int32 or int64
// indices). Method in the --help text below.
#include "segmented_bench.hpp"

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
#include <variant>
#include <vector>

#include "bench_common.hpp"
#include "build_commit.hpp"
#include "command_line.hpp"
#include "algorithms/segmented/segmented_policy.hpp"
#include "core/table_text.hpp"
#include "cub_loader.hpp"
#include "runtime/device.hpp"
#include "segmented_ours.hpp"
#include "segmented_shapes.hpp"

namespace bench {
namespace {

constexpr const char* kHelp =
    "gpusort-bench segmented: many sorts at once (issue 52's shapes), gpusort beside every CUB form and the\n"
    "copy bandwidth. Writes segmented.csv and segmented.json to --out and prints one line per (shape, form,\n"
    "entry) and a summary.\n"
    "\n"
    "Shapes (--shapes): RxL is R rows of L keys; powerlaw is 2^16 segments holding 2^26 keys, lengths from\n"
    "a power law (alpha 1.2), by offsets; tiny is 2^17 rows of 0-64 keys (lengths uniform), by offsets;\n"
    "powerlaw:S:N and tiny:R:MAX set the counts. Forms (--forms): f32 (keys alone), f32/i32 and f32/i64\n"
    "(the sorted keys and each key's index within its segment, as torch.sort(dim=-1) returns).\n"
    "\n"
    "Entries: gpusort's sort_segments_native / argsort_segments_native on device memory and a CUDA stream\n"
    "(off CUDA: sort_segments_device, and argsort_segments_host for indices), with the segments as rows\n"
    "and as int32 / int64 offsets in device memory; CUB's DeviceSegmentedSort (SortKeys/SortPairs and\n"
    "Stable*), DeviceSegmentedRadixSort, one DeviceRadixSort over 64-bit (segment << 32 | ordered key)\n"
    "keys, and a loop of DeviceRadixSort per segment (64 segments at most), each with int32 and int64\n"
    "offsets (num_items); every sort out of place. CUB's pair forms are timed with the kernel that makes\n"
    "the local indices they sort, as an argsort has to.\n"
    "\n"
    "Method: every result is first checked against a host sort of every segment (exit status 1 on a\n"
    "mismatch; gpusort is timed only when right), then the median of --repeats sorts after a warm-up,\n"
    "each from a fresh device copy of the keys (outside the timing), timed by device events on the\n"
    "stream the sort runs on; nothing comes back to the host between repeats. 'copy' is a device-to-\n"
    "device copy of the keys and indices measured in the same run (the faster of gpusort's and\n"
    "cudaMemcpy); '% copy' is its time over the entry's. 'x CUB' is CUB's best entry for that shape\n"
    "and form over the entry's time (above 1: faster than CUB at its best).";

struct SegOptions {
  std::vector<SegShape> shapes;
  std::vector<std::string> forms = {"f32", "f32/i32", "f32/i64"};
  bool quick = false;
  int repeats = -1;  // -1: 7 (quick: 3)
  std::string out = "bench-out";
  std::string device;
  std::string distribution = "normal";
  std::string cub_lib;
  bool no_cub = false;
  std::string segmented_policy;  // algo::parse_segmented_policy_override's form; empty: the planner's own
  std::string command_line;
};

std::size_t index_bytes_of(const std::string& form) { return form == "f32/i32" ? 4 : form == "f32/i64" ? 8 : 0; }

std::variant<SegOptions, int> parse(int argc, char** argv) {
  SegOptions o;
  o.command_line = "gpusort-bench";
  for (int i = 0; i < argc; ++i) o.command_line += " " + std::string(argv[i]);
  CLI::App app{kHelp, "gpusort-bench segmented"};
  keep_last_values(app);
  app.add_option_function<std::string>(
      "--shapes",
      [&o](const std::string& text) {
        o.shapes.clear();
        std::stringstream ss(text);
        for (std::string t; std::getline(ss, t, ',');) {
          if (t.empty()) continue;
          auto s = parse_seg_shape(t);
          if (!s) throw CLI::ValidationError("--shapes", "'" + t + "' is not RxL, powerlaw[:S:N] or tiny[:R:MAX]");
          o.shapes.push_back(*s);
        }
      },
      "a,b,... : RxL, powerlaw[:S:N], tiny[:R:MAX] (default: 32x131072,64x128256,256x131072,4096x32768,"
      "16384x1024,1048576x32,4x16777216,powerlaw,tiny)");
  app.add_flag("--quick", o.quick,
               "64x128256,16384x1024,tiny and 3 repeats (unless --shapes / --repeats say otherwise)");
  app.add_option_function<std::string>(
      "--forms",
      [&o](const std::string& text) {
        o.forms.clear();
        std::stringstream ss(text);
        for (std::string t; std::getline(ss, t, ',');) {
          if (t.empty()) continue;
          if (t != "f32" && t != "f32/i32" && t != "f32/i64")
            throw CLI::ValidationError("--forms", "'" + t + "' is not f32, f32/i32 or f32/i64");
          o.forms.push_back(t);
        }
      },
      "a,b,... : f32, f32/i32, f32/i64 (default all three)");
  app.add_option("--repeats", o.repeats, "Timed repeats per entry, median reported (default 7; quick 3)")
      ->check(whole_number(1, 1000));
  app.add_option("--dist", o.distribution, "Keys: normal (as logits; default) or uniform (every finite f32)")
      ->check(CLI::IsMember({"normal", "uniform"}));
  app.add_option("--out", o.out, "Output folder: segmented.csv and segmented.json")->capture_default_str();
  app.add_option("--device", o.device, "cuda:N or opencl:P:D (default: $GPUSORT_DEVICE or the best device)");
  app.add_option("--cub-lib", o.cub_lib, "The CUB peer library (default: next to this executable)");
  app.add_flag("--no-cub", o.no_cub, "No CUB entries");
  app.add_option("--segmented-policy", o.segmented_policy,
                 "Replace the planner's choice for gpusort's entries, e.g. bin=portable or block_min_row=0 "
                 "(src/algorithms/segmented/segmented_policy.hpp, SegmentedPolicyOverride)");
  if (const auto rc = parse_command_line(app, argc, argv)) return *rc;
  if (o.shapes.empty()) o.shapes = o.quick ? quick_seg_shapes() : default_seg_shapes();
  if (o.repeats < 0) o.repeats = o.quick ? 3 : 7;
  return o;
}

// One line of the output: one entry on one (shape, form), or the copy of the same bytes.
struct SegRow {
  std::string shape;
  std::uint64_t segments = 0, n = 0;
  std::string form;
  std::string contender;  // gpusort, cub, copy
  std::string entry;
  std::string variant;    // the segments' form (rows, offsets<u32>, ...), CUB's offset type
  std::string algorithm;  // gpusort: what it reports having run
  int repeats = 0;
  double median_ms = NAN, min_ms = NAN, keys_per_s = NAN, copy_ms = NAN, frac_of_copy_bw = NAN, ratio_to_cub_best = NAN;
  std::string status = "ok";
  bool ok() const { return status == "ok" && std::isfinite(median_ms); }
};

const char* const kCubEntries[] = {"DeviceSegmentedSort", "DeviceSegmentedSort::Stable", "DeviceSegmentedRadixSort",
                                   "DeviceRadixSort(packed)", "DeviceRadixSort(per segment)"};
constexpr bool kCubStable[] = {false, true, true, true, true};

// printf of one number, "-" for none (NaN).
std::string number(double v, const char* format) {
  if (!std::isfinite(v)) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

std::string cub_error(double code) {
  const int c = static_cast<int>(code);
  switch (c) {
    case -1:
      return "error: no CUDA device";
    case -2:
      return "error: out of device memory";
    case -5:
      return "skipped: not for this shape";
    default:
      return "error: CUDA code " + std::to_string(c);
  }
}

class SegBench {
 public:
  explicit SegBench(SegOptions o)
      : opt_(std::move(o)), ctx_(opt_.device), dev_(ctx_.runtime_device()), desc_(ctx_.device()) {
    if (opt_.no_cub) {
      cub_.why_absent = "--no-cub";
    } else {
      int cuda_index = 0;
      if (desc_.id.rfind("cuda:", 0) == 0) cuda_index = std::atoi(desc_.id.c_str() + 5);
      cub_.load(opt_.cub_lib, cuda_index);
    }
  }

  int run() {
    std::fprintf(
        stderr, "gpusort-bench segmented (gpusort %s, commit %s) on %s (%s); CUB: %s\n",
        std::string(gpusort::version()).c_str(), build_commit(), desc_.id.c_str(), desc_.name.c_str(),
        cub_.usable() ? ("CUB " + cub_.cub_version + " on " + cub_.device_name).c_str() : cub_.why_absent.c_str());
    std::fprintf(stdout, "%-24s %-7s %-7s %-38s %-12s %10s %12s %7s %7s  %s\n", "shape", "form", "who", "entry",
                 "variant", "ms", "Mkey/s", "%copy", "x CUB", "status");
    for (const SegShape& s : opt_.shapes) run_shape(s);
    summary();
    write();
    for (const SegRow& r : rows_)
      if (r.status.rfind("FAILED", 0) == 0 || (r.contender == "gpusort" && r.status.rfind("error", 0) == 0)) return 1;
    return 0;
  }

 private:
  void run_shape(const SegShape& shape) {
    const std::string name = shape.name();
    std::uint64_t seed = 0x5e65e6ull;
    for (char c : name) seed = mix64(seed ^ static_cast<unsigned char>(c));
    const std::vector<std::uint64_t> offsets = shape.offsets(seed);
    const std::uint64_t n = offsets.back();
    std::fprintf(stderr, "== %s: %llu segments, %llu keys\n", name.c_str(), (unsigned long long)shape.segments,
                 (unsigned long long)n);
    if (n == 0) return;
    const std::vector<float> keys = make_seg_keys(n, opt_.distribution, seed + 1);
    const std::vector<float> reference = host_sorted_segments(keys, offsets);
    const std::uint64_t row_length = shape.uniform() ? shape.length : 0;

    void* cub_input = nullptr;
    std::string cub_absent = cub_.why_absent;
    if (cub_.usable()) {
      double status = 0;
      cub_input = cub_.seg_open(keys.data(), n, offsets.data(), shape.segments, row_length, &status);
      if (!cub_input) cub_absent = cub_error(status);
    }
    std::unique_ptr<OursShape> ours;
    std::string ours_absent;
    try {
      ours = std::make_unique<OursShape>(ctx_, keys, offsets, row_length);
    } catch (const gpusort::Error& e) {
      ours_absent = std::string("error: ") + e.what();
    }

    for (const std::string& form : opt_.forms) {
      const std::size_t ib = index_bytes_of(form);
      const std::size_t first = rows_.size();
      SegRow base{.shape = name, .segments = shape.segments, .n = n, .form = form};
      rows_.push_back(copy_row(base, n * (4 + ib)));
      std::vector<float> out_k(n);
      std::vector<unsigned char> out_i(n * ib);
      // CUB at its best: every entry with both offset types.
      if (cub_input) {
        for (int e = 0; e < 5; ++e)
          for (int ok = 0; ok < 2; ++ok) {
            SegRow r = base;
            r.contender = "cub";
            r.entry = kCubEntries[e];
            r.variant = ok ? "int64" : "int32";
            r.repeats = opt_.repeats;
            const double ms = cub_.seg_sort(cub_input, e, ok,
                                            ib == 0   ? 0
                                            : ib == 4 ? 1
                                                      : 2,
                                            opt_.repeats, out_k.data(), ib ? out_i.data() : nullptr);
            if (ms > 0) {
              r.median_ms = ms;
              const std::string bad =
                  check_segmented(keys, offsets, reference, out_k, ib ? out_i.data() : nullptr, ib, kCubStable[e]);
              if (!bad.empty()) r.status = "FAILED check: " + bad;
            } else {
              r.status = cub_error(ms);
            }
            rows_.push_back(r);
          }
      } else {
        SegRow r = base;
        r.contender = "cub";
        r.entry = "*";
        r.status = "absent: " + cub_absent;
        rows_.push_back(r);
      }
      // gpusort: checked first, timed only when right.
      if (ours) {
        for (const std::string& variant : ours->variants()) {
          SegRow r = base;
          r.contender = "gpusort";
          r.entry = ours->entry(ib);
          r.variant = variant;
          try {
            ours->run_once(variant, ib, out_k, out_i);
            const std::string bad =
                check_segmented(keys, offsets, reference, out_k, ib ? out_i.data() : nullptr, ib, true);
            if (!bad.empty()) {
              r.status = "FAILED check: " + bad;
            } else {
              const OursRun t = ours->time(variant, ib, opt_.repeats);
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
          rows_.push_back(r);
        }
      } else {
        SegRow r = base;
        r.contender = "gpusort";
        r.entry = "*";
        r.status = ours_absent;
        rows_.push_back(r);
      }
      derive_and_print(first);
    }
    if (cub_input) cub_.seg_close(cub_input);
  }

  // The copy of `bytes` (keys and indices) on the device: the faster of gpusort's copy and cudaMemcpy.
  SegRow copy_row(SegRow r, std::size_t bytes) {
    r.contender = "copy";
    r.entry = "device-to-device copy";
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
      r.variant = "Device::copy";
      r.median_ms = median_of(t);
    } catch (const gpusort::Error& e) {
      r.status = std::string("error: ") + e.what();
    }
    if (cub_.usable()) {
      const double ms = cub_.copy_ms(bytes, opt_.repeats);
      if (ms > 0 && (!std::isfinite(r.median_ms) || ms < r.median_ms)) {
        r.median_ms = ms;
        r.variant = "cudaMemcpy";
        r.status = "ok";
      }
    }
    return r;
  }

  // keys/s, the fraction of the copy's bandwidth and the ratio to CUB's best, for rows_[first..].
  void derive_and_print(std::size_t first) {
    double copy_ms = NAN, cub_best = NAN;
    for (std::size_t i = first; i < rows_.size(); ++i) {
      const SegRow& r = rows_[i];
      if (!r.ok()) continue;
      if (r.contender == "copy") copy_ms = r.median_ms;
      if (r.contender == "cub" && !(r.median_ms >= cub_best)) cub_best = r.median_ms;
    }
    for (std::size_t i = first; i < rows_.size(); ++i) {
      SegRow& r = rows_[i];
      r.copy_ms = copy_ms;
      if (r.ok()) {
        r.keys_per_s = double(r.n) / (r.median_ms * 1e-3);
        r.frac_of_copy_bw = copy_ms / r.median_ms;
        if (r.contender != "copy") r.ratio_to_cub_best = cub_best / r.median_ms;
      }
      if (r.status.rfind("skipped", 0) == 0) continue;  // in the CSV only
      std::fprintf(stdout, "%-24s %-7s %-7s %-38s %-12s %10s %12s %7s %7s  %s%s%s\n", r.shape.c_str(), r.form.c_str(),
                   r.contender.c_str(), r.entry.c_str(), r.variant.c_str(), number(r.median_ms, "%.4f").c_str(),
                   number(r.keys_per_s / 1e6, "%.1f").c_str(), number(100 * r.frac_of_copy_bw, "%.1f%%").c_str(),
                   number(r.ratio_to_cub_best, "%.2f").c_str(), r.status.c_str(), r.algorithm.empty() ? "" : " ran ",
                   r.algorithm.c_str());
    }
    std::fflush(stdout);
  }

  // Per (shape, form): the copy, CUB's best entry, gpusort's best variant.
  void summary() {
    std::fprintf(stdout, "\nsummary (ms, median of %d; x CUB above 1 = gpusort faster than CUB's best entry)\n",
                 opt_.repeats);
    std::fprintf(stdout, "%-24s %-7s %9s %9s  %-42s %9s  %-13s %7s %7s\n", "shape", "form", "copy", "CUB best",
                 "(entry)", "gpusort", "(variant)", "x CUB", "%copy");
    std::map<std::pair<std::string, std::string>, std::vector<const SegRow*>> groups;
    std::vector<std::pair<std::string, std::string>> order;
    for (const SegRow& r : rows_) {
      auto key = std::pair{r.shape, r.form};
      if (!groups.count(key)) order.push_back(key);
      groups[key].push_back(&r);
    }
    for (const auto& key : order) {
      const SegRow *copy = nullptr, *cub = nullptr, *ours = nullptr;
      for (const SegRow* r : groups[key]) {
        if (!r->ok()) continue;
        if (r->contender == "copy") copy = r;
        if (r->contender == "cub" && (!cub || r->median_ms < cub->median_ms)) cub = r;
        if (r->contender == "gpusort" && (!ours || r->median_ms < ours->median_ms)) ours = r;
      }
      const std::string cub_entry = cub ? cub->entry + "<" + cub->variant + ">" : "-";
      std::fprintf(stdout, "%-24s %-7s %9s %9s  %-42s %9s  %-13s %7s %7s\n", key.first.c_str(), key.second.c_str(),
                   number(copy ? copy->median_ms : NAN, "%.4f").c_str(),
                   number(cub ? cub->median_ms : NAN, "%.4f").c_str(), cub_entry.c_str(),
                   number(ours ? ours->median_ms : NAN, "%.4f").c_str(), ours ? ours->variant.c_str() : "-",
                   number(ours ? ours->ratio_to_cub_best : NAN, "%.2f").c_str(),
                   number(ours ? 100 * ours->frac_of_copy_bw : NAN, "%.1f%%").c_str());
    }
  }

  std::string meta_json() const {
    gpusort::core::JsonObject m = run_meta("segmented", opt_.command_line, desc_);
    m.add("repeats", opt_.repeats)
        .add("distribution", opt_.distribution)
        .add("cub",
             cub_.usable() ? "CUB " + cub_.cub_version + " on " + cub_.device_name : "absent: " + cub_.why_absent)
        .add("seconds", ms_since(start_) / 1000);
    return m.str();
  }

  void write() {
    using gpusort::core::csv_field;
    using gpusort::core::csv_number;
    std::filesystem::create_directories(opt_.out);
    const std::string base = opt_.out + "/segmented";
    const std::string version = csv_field(gpusort::version()), commit = csv_field(build_commit());
    {
      std::ofstream f(base + ".csv");
      // status stays the last column: scripts count measured rows with ",ok$".
      f << "shape,segments,n,form,contender,entry,variant,algorithm,device,repeats,median_ms,min_ms,keys_per_s,"
           "copy_ms,frac_of_copy_bw,ratio_to_cub_best,version,commit,status\n";
      for (const SegRow& r : rows_)
        f << csv_field(r.shape) << ',' << r.segments << ',' << r.n << ',' << csv_field(r.form) << ','
          << csv_field(r.contender) << ',' << csv_field(r.entry) << ',' << csv_field(r.variant) << ','
          << csv_field(r.algorithm) << ',' << csv_field(desc_.id + " " + desc_.name) << ',' << r.repeats << ','
          << csv_number(r.median_ms) << ',' << csv_number(r.min_ms) << ',' << csv_number(r.keys_per_s) << ','
          << csv_number(r.copy_ms) << ',' << csv_number(r.frac_of_copy_bw) << ',' << csv_number(r.ratio_to_cub_best)
          << ',' << version << ',' << commit << ',' << csv_field(r.status) << '\n';
      if (!f) throw gpusort::Error(gpusort::errc::io_error, "cannot write " + base + ".csv");
    }
    std::ofstream f(base + ".json");
    f << "{\n  \"meta\": " << meta_json() << ",\n  \"rows\": [\n";
    for (std::size_t i = 0; i < rows_.size(); ++i) {
      const SegRow& r = rows_[i];
      gpusort::core::JsonObject o;
      o.add("shape", r.shape)
          .add("segments", r.segments)
          .add("n", r.n)
          .add("form", r.form)
          .add("contender", r.contender)
          .add("entry", r.entry)
          .add("variant", r.variant)
          .add("algorithm", r.algorithm)
          .add("repeats", r.repeats)
          .add("median_ms", r.median_ms)
          .add("min_ms", r.min_ms)
          .add("keys_per_s", r.keys_per_s)
          .add("copy_ms", r.copy_ms)
          .add("frac_of_copy_bw", r.frac_of_copy_bw)
          .add("ratio_to_cub_best", r.ratio_to_cub_best)
          .add("status", r.status);
      f << "    " << o.str() << (i + 1 < rows_.size() ? "," : "") << "\n";
    }
    f << "  ]\n}\n";
    if (!f) throw gpusort::Error(gpusort::errc::io_error, "cannot write " + base + ".json");
    std::fprintf(stderr, "gpusort-bench segmented: %zu rows in %.1f s -> %s.csv, %s.json\n", rows_.size(),
                 ms_since(start_) / 1000, base.c_str(), base.c_str());
  }

  SegOptions opt_;
  gpusort::Context ctx_;
  gpusort::rt::Device& dev_;
  gpusort::DeviceDescription desc_;
  CubPeer cub_;
  std::vector<SegRow> rows_;
  clock_type::time_point start_ = clock_type::now();
};

}  // namespace

int segmented_main(int argc, char** argv) {
  auto parsed = parse(argc, argv);
  if (const int* rc = std::get_if<int>(&parsed)) return *rc;
  try {
    const SegOptions& opt = std::get<SegOptions>(parsed);
    if (!opt.segmented_policy.empty())
      gpusort::algo::set_segmented_policy_override(gpusort::algo::parse_segmented_policy_override(opt.segmented_policy));
    SegBench b(std::get<SegOptions>(std::move(parsed)));
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
