// gpusort-records-bench: fixed-size records sorted by a key, gpusort's record sorts against CUB's
// forms of the same sort, in one process on the same records (docs/PERFORMANCE.md, "Records").
//  - gpusort, records in device memory (sort_records_device), both forms: out of place (from an
//    input buffer into an output buffer, as CUB's gather forms write theirs) and in place (each
//    repeat uploads a fresh copy first, not timed). Each call is timed whole (key making, the sort
//    passes, the gather, all on the device; the call returns when the records are sorted): wall
//    time, and SortReport::sort_ms (device time). Then out of place again with the key fields
//    written as a run-time comparator (SortOptions::comparator over two records), wall time.
//  - gpusort, records in host memory (sort_records): the whole call on a fresh host copy each time
//    (upload through pinned staging, the device sort, download), and its parts.
//  - CUB (libgpusort_cub_peer.so, when there is a CUDA device): device time on device-resident
//    records, both num_items types: the records themselves through DeviceMergeSort, and (key,
//    index) pairs through DeviceMergeSort or DeviceRadixSort followed by a gather, timed whole
//    (its sort call alone beside it). ratio = best CUB / gpusort out of place on device-resident
//    records (wall time of the call): above 1, gpusort is faster.
//  - Every output is checked against std::stable_sort of the records on the host (exit 1 if wrong).
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "bench_common.hpp"
#include "command_line.hpp"
#include "core/table_text.hpp"
#include "core/host_array.hpp"
#include "cub_loader.hpp"
#include "gpusort/gpusort.hpp"
#include "gpusort/records.hpp"
#include "record_sort.hpp"
#include "records_check.hpp"

namespace {

using bench::median_of;
using bench::ms_since;
using bench::clock_type;

struct Options {
  unsigned log_n = 24;
  std::size_t record_bytes = 100;
  std::string key = "0:bytes10";
  unsigned repeats = 5;
  std::string device, algorithm = "auto", cub_lib;
  bool few_unique = false, no_cub = false, no_comparator = false;
  std::uint64_t seed = 1;
  bool verbose = false;
};

// Returns the options, or the exit status when there is nothing to run (--help, a usage error).
std::variant<Options, int> parse(int argc, char** argv) {
  Options o;
  CLI::App app{"gpusort-records-bench: gpusort's record sorts against CUB's forms of the same sort, every output "
               "checked against std::stable_sort",
               "gpusort-records-bench"};
  bench::keep_last_values(app);
  app.add_option("--log-n", o.log_n, "2^N records")->check(bench::whole_number(1, 31))->capture_default_str();
  app.add_option("--record-size", o.record_bytes, "Bytes per record")
      ->check(bench::whole_number(1, gpusort::kMaxRecordBytes))->capture_default_str();
  app.add_option("--key", o.key, "OFFSET:TYPE[:desc][,...] as gpusort sort --key")->capture_default_str();
  app.add_option("--repeats", o.repeats, "Timed repeats, median reported after a warm-up")
      ->check(bench::whole_number(1, 1000))->capture_default_str();
  app.add_option("--device", o.device, "cuda:N or opencl:P:D (default: $GPUSORT_DEVICE or the best device)");
  app.add_option_function<std::string>(
         "--dist", [&o](const std::string& d) { o.few_unique = d == "few-unique"; },
         "uniform (default) or few-unique (key fields from 16 records: many ties)")
      ->check(CLI::IsMember({"uniform", "few-unique"}));
  app.add_option("--seed", o.seed, "Input seed")->check(bench::whole_number(0, UINT64_MAX))->capture_default_str();
  app.add_option("--algorithm", o.algorithm, "gpusort's algorithm for the passes")->capture_default_str();
  app.add_option("--cub-lib", o.cub_lib, "The CUB peer library (default: next to this executable)");
  app.add_flag("--no-cub", o.no_cub, "No CUB forms");
  app.add_flag("--no-comparator", o.no_comparator,
               "Skip the form ordered by the key fields written as a run-time comparator");
  app.add_flag("--verbose", o.verbose,
               "One more out-of-place call after the timed ones, printing its phases' device times");
  if (const auto rc = bench::parse_command_line(app, argc, argv)) return *rc;
  return o;
}

// One timed thing: a name, its median, optionally the median of its sort call alone, a check.
struct Line {
  std::string name;
  double ms = NAN, sort_ms = NAN;
  std::string status = "ok";
};

std::string cell(double v) {
  if (std::isnan(v)) return "";
  char b[32];
  std::snprintf(b, sizeof b, "%.4f", v);
  return b;
}

// CUB's forms of this sort; they take a single ascending bytesK field of 1 to 16 bytes.
struct CubForm {
  int form;
  const char* name;
};
constexpr CubForm kCubForms[] = {{0, "records_merge"}, {1, "pairs_merge_gather"}, {2, "pairs_radix_gather"}};
constexpr const char* kOffsets[] = {"int", "i64"};

}  // namespace

int main(int argc, char** argv) try {
  const auto parsed = parse(argc, argv);
  if (const int* rc = std::get_if<int>(&parsed)) return *rc;
  const Options& opt = std::get<Options>(parsed);
  const std::size_t n = std::size_t(1) << opt.log_n, rb = opt.record_bytes, bytes = n * rb;
  const std::vector<gpusort::RecordField> fields = gpusort::cli::parse_key_fields(opt.key, rb);
  gpusort::Context ctx(opt.device);
  const gpusort::DeviceDescription& desc = ctx.device();
  bench::CubPeer cub;
  if (opt.no_cub) cub.why_absent = "--no-cub";
  else cub.load(opt.cub_lib, desc.id.rfind("cuda:", 0) == 0 ? std::atoi(desc.id.c_str() + 5) : 0);

  std::printf("# gpusort-records-bench on %s (%s), version %s; CUB: %s\n", desc.id.c_str(), desc.name.c_str(),
              std::string(gpusort::version()).c_str(), cub.usable() ? cub.device_name.c_str() : ("absent: " + cub.why_absent).c_str());
  std::printf("# 2^%u = %zu records of %zu bytes (%.2f GB), key %s, %s, seed %llu; median of %u repeats after a warm-up\n",
              opt.log_n, n, rb, bytes / 1e9, opt.key.c_str(), opt.few_unique ? "few-unique" : "uniform",
              static_cast<unsigned long long>(opt.seed), opt.repeats);
  std::fflush(stdout);

  namespace rec = bench::records;
  gpusort::core::HostArray input = gpusort::core::make_host_array(bytes), work = gpusort::core::make_host_array(bytes);
  rec::make_records(input.get(), n, rb, fields, opt.few_unique, opt.seed);
  auto t0 = clock_type::now();
  const std::vector<std::uint32_t> order = rec::reference_order(input.get(), n, rb, fields);
  std::printf("# reference: std::stable_sort on the host, %zu threads, %.0f ms\n", rec::host_threads(), ms_since(t0));
  bool all_ok = true;

  gpusort::SortOptions so;
  so.algorithm = opt.algorithm;
  std::string algorithm;

  // gpusort, records in device memory, out of place (the input stays as it is): the calls after a
  // warm-up timed (wall time and SortReport::sort_ms), with --verbose one more printing its phases,
  // then the output checked. By the key fields, and by the same order written as a comparator.
  struct Timed {
    std::vector<double> wall, dev;
    std::string status;
  };
  auto out_of_place = [&](std::span<const gpusort::RecordField> by, const gpusort::SortOptions& o) {
    Timed t;
    gpusort::DeviceBuffer records(ctx, bytes), sorted(ctx, bytes);
    records.upload(input.get(), bytes);
    for (unsigned r = 0; r <= opt.repeats; ++r) {  // r = 0: warm-up (compiles or loads the programs)
      t0 = clock_type::now();
      const gpusort::SortReport rep = gpusort::sort_records_device(ctx, records, sorted, n, rb, by, o);
      const double ms = ms_since(t0);
      if (r == 0) continue;
      t.wall.push_back(ms);
      t.dev.push_back(rep.sort_ms);
    }
    if (opt.verbose) {
      gpusort::SortOptions vo = o;
      vo.verbose = true;
      gpusort::sort_records_device(ctx, records, sorted, n, rb, by, vo);
    }
    sorted.download(work.get(), bytes);
    const std::string bad = rec::check_sorted(work.get(), input.get(), rb, order);
    t.status = bad.empty() ? "ok" : "WRONG: " + bad;
    all_ok = all_ok && bad.empty();
    return t;
  };
  const Timed by_fields = out_of_place(fields, so);

  // In place: a fresh upload (not timed) before each call.
  std::vector<double> in_wall, in_dev;
  std::string in_status;
  {
    gpusort::DeviceBuffer records(ctx, bytes);
    for (unsigned r = 0; r <= opt.repeats; ++r) {
      records.upload(input.get(), bytes);
      t0 = clock_type::now();
      const gpusort::SortReport rep = gpusort::sort_records_device(ctx, records, n, rb, fields, so);
      const double ms = ms_since(t0);
      if (r == 0) continue;
      in_wall.push_back(ms);
      in_dev.push_back(rep.sort_ms);
    }
    records.download(work.get(), bytes);
    const std::string bad = rec::check_sorted(work.get(), input.get(), rb, order);
    in_status = bad.empty() ? "ok" : "WRONG: " + bad;
    all_ok = all_ok && bad.empty();
  }

  // The key fields written as a run-time comparator (the records' addresses sorted by it, then the
  // gather), when the algorithm takes one.
  const std::string comparator = opt.no_comparator ? "" : rec::comparator_for(fields);
  Timed by_comparator{{}, {}, opt.no_comparator ? "not run (--no-comparator)" : "not run (a float field)"};
  bool takes_comparator = opt.algorithm == "auto";
  for (const gpusort::AlgorithmInfo& a : gpusort::algorithms())
    if (a.name == opt.algorithm) takes_comparator = a.takes_comparator;
  if (!comparator.empty() && !takes_comparator)
    by_comparator.status = "not run (" + opt.algorithm + " takes no comparator)";
  if (!comparator.empty() && takes_comparator) {
    gpusort::SortOptions co = so;
    co.comparator = comparator;
    by_comparator = out_of_place({}, co);
  }

  // gpusort, records in host memory: the whole call on a fresh host copy each time.
  std::vector<double> e2e, dev, up, down;
  for (unsigned r = 0; r <= opt.repeats; ++r) {
    rec::parallel_copy(work.get(), input.get(), bytes);
    t0 = clock_type::now();
    const gpusort::SortReport rep = gpusort::sort_records(ctx, work.get(), n, rb, fields, so);
    const double ms = ms_since(t0);
    algorithm = rep.algorithm;
    if (r == 0) continue;
    e2e.push_back(ms);
    dev.push_back(rep.sort_ms);
    up.push_back(rep.upload_ms);
    down.push_back(rep.download_ms);
  }
  const std::string gpusort_bad = rec::check_sorted(work.get(), input.get(), rb, order);
  all_ok = all_ok && gpusort_bad.empty();
  const std::string gstatus = gpusort_bad.empty() ? "ok" : "WRONG: " + gpusort_bad;
  std::vector<Line> lines = {
      {"gpusort " + algorithm + ": device memory, out of place (call)", median_of(by_fields.wall),
       median_of(by_fields.dev), by_fields.status},
      {"gpusort " + algorithm + ": device memory, in place (call)", median_of(in_wall), median_of(in_dev), in_status},
      {"gpusort: device memory, out of place, run-time comparator", median_of(by_comparator.wall), NAN,
       by_comparator.status},
      {"gpusort " + algorithm + ": host memory in and out, end to end", median_of(e2e), NAN, gstatus},
      {"  of which upload (host time busy)", median_of(up), NAN, ""},
      {"  of which device sort (sort_ms)", median_of(dev), NAN, ""},
      {"  of which download (host time busy)", median_of(down), NAN, ""}};

  // CUB: every form with both num_items types, on device-resident records.
  const bool cub_key = fields.size() == 1 && fields[0].bytes >= 1 && fields[0].bytes <= 16 && !fields[0].descending;
  std::vector<Line> cub_lines;
  double floor_ms = NAN;
  Line best{"", NAN};
  if (cub.usable() && cub_key) {
    for (const CubForm& f : kCubForms)
      for (int off = 0; off < 2; ++off) {
        Line l{std::string("cub ") + f.name + "<" + kOffsets[off] + ">"};
        double sort_ms = NAN;
        const double ms = cub.sort_records(off, f.form, input.get(), n, rb, fields[0].offset, fields[0].bytes,
                                           int(opt.repeats), work.get(), &sort_ms);
        if (ms == -5) {
          l.status = "not this layout (compiled for 100-byte records, key 0:bytes10)";
        } else if (ms < 0) {
          l.status = "error: CUB peer code " + std::to_string(int(ms));
          all_ok = false;
        } else {
          l.ms = ms;
          if (f.form != 0) l.sort_ms = sort_ms;
          const std::string bad = rec::check_sorted(work.get(), input.get(), rb, order);
          if (!bad.empty()) l.status = "WRONG: " + bad, all_ok = false;
          else if (std::isnan(best.ms) || ms < best.ms) best = l;
        }
        cub_lines.push_back(l);
      }
    floor_ms = cub.copy_ms(bytes, int(opt.repeats));
    if (floor_ms < 0) floor_ms = NAN;
  } else if (cub.usable()) {
    std::printf("# CUB forms not run: they take one ascending bytesK field of 1 to 16 bytes\n");
  }
  lines.insert(lines.end(), cub_lines.begin(), cub_lines.end());
  if (!cub_lines.empty()) lines.push_back({"copy floor (cudaMemcpy device to device of the records)", floor_ms, NAN, ""});

  std::printf("# %-62s %10s %10s  %s\n", "what", "median_ms", "sort_ms", "check");
  for (const Line& l : lines)
    std::printf("  %-62s %10s %10s  %s\n", l.name.c_str(), cell(l.ms).c_str(), cell(l.sort_ms).c_str(), l.status.c_str());
  const double gout = median_of(by_fields.wall), ratio = best.ms / gout;
  if (!std::isnan(best.ms))
    std::printf("# best CUB: %s %.4f ms; best CUB / gpusort out of place in device memory = %.3f (above 1: "
                "gpusort faster; both from an input buffer into an output buffer, every step counted)\n",
                best.name.c_str(), best.ms, ratio);

  // One CSV line (grep '^csv,'): header, then values.
  std::string head =
      "csv,n,record_bytes,key,dist,gpusort_device_out_of_place_ms,gpusort_device_out_of_place_sort_ms,"
      "gpusort_device_in_place_ms,gpusort_device_in_place_sort_ms,gpusort_end_to_end_ms,gpusort_upload_ms,"
      "gpusort_host_memory_sort_ms,gpusort_download_ms,gpusort_comparator_out_of_place_ms";
  std::string row = "csv," + std::to_string(n) + "," + std::to_string(rb) + "," + gpusort::core::csv_field(opt.key) + "," +
                    (opt.few_unique ? "few-unique" : "uniform") + "," + cell(gout) + "," + cell(median_of(by_fields.dev)) +
                    "," + cell(median_of(in_wall)) + "," + cell(median_of(in_dev)) + "," + cell(median_of(e2e)) + "," + cell(median_of(up)) + "," + cell(median_of(dev)) + "," +
                    cell(median_of(down)) + "," + cell(median_of(by_comparator.wall));
  for (const CubForm& f : kCubForms)
    for (int off = 0; off < 2; ++off) {
      const std::string name = std::string("cub_") + f.name + "_" + kOffsets[off];
      const std::string label = std::string("cub ") + f.name + "<" + kOffsets[off] + ">";
      const Line* l = nullptr;
      for (const Line& c : cub_lines) if (c.name == label) l = &c;
      head += "," + name + "_ms" + (f.form ? "," + name + "_sort_ms" : "");
      row += "," + cell(l ? l->ms : NAN) + (f.form ? "," + cell(l ? l->sort_ms : NAN) : "");
    }
  head += ",best_cub,best_cub_ms,ratio_best_cub_to_gpusort_out_of_place,copy_floor_ms";
  row += "," + (best.name.empty() ? "" : best.name.substr(4)) + "," + cell(best.ms) + "," + cell(ratio) + "," + cell(floor_ms);
  std::printf("%s\n%s\n", head.c_str(), row.c_str());
  return all_ok ? 0 : 1;
} catch (const gpusort::Error& e) {
  std::fprintf(stderr, "gpusort-records-bench: %s\n", e.what());
  return e.code() == gpusort::errc::invalid_argument ? 2 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "gpusort-records-bench: %s\n", e.what());
  return 1;
}
