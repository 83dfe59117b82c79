// gpusort-bench output: CSV and JSON writers, and the columns derived from other rows.
#include <cstdio>
#include <ctime>
#include <fstream>
#include <map>
#include <sstream>
#include <tuple>

#include "bench_common.hpp"
#include "build_commit.hpp"
#include "core/table_text.hpp"

namespace bench {

bool parse_dist(const std::string& s, dist& out) {
  for (dist d : all_dists)
    if (s == dist_name(d)) {
      out = d;
      return true;
    }
  return false;
}

using gpusort::core::csv_field;
using gpusort::core::csv_number;

void write_csv(const std::string& path, const std::vector<Row>& rows, const Provenance& from) {
  std::ofstream f(path);
  // status stays the last column: scripts count measured rows with ",ok$".
  f << "mode,algorithm,variant,key_type,value_type,n,distribution,device,work_group_size,repeats,median_ms,min_ms,"
       "keys_per_s,gb_per_s,frac_of_copy_bw,ratio_to_cub_radix,ratio_to_cub_merge,upload_ms,version,commit,status\n";
  const std::string version = csv_field(from.version), commit = csv_field(from.commit);
  for (const Row& r : rows)
    f << csv_field(r.mode) << ',' << csv_field(r.algorithm) << ',' << csv_field(r.variant) << ','
      << csv_field(r.key_type) << ',' << csv_field(r.value_type) << ',' << r.n << ',' << csv_field(r.distribution)
      << ',' << csv_field(r.device) << ',' << r.work_group_size << ',' << r.repeats << ',' << csv_number(r.median_ms)
      << ',' << csv_number(r.min_ms) << ',' << csv_number(r.keys_per_s) << ',' << csv_number(r.gb_per_s) << ','
      << csv_number(r.frac_of_copy_bw) << ',' << csv_number(r.ratio_to_cub_radix) << ','
      << csv_number(r.ratio_to_cub_merge) << ',' << csv_number(r.upload_ms) << ',' << version << ',' << commit << ','
      << csv_field(r.status) << '\n';
  if (!f) throw gpusort::Error(gpusort::errc::io_error, "cannot write " + path);
}

void write_json(const std::string& path, const std::vector<Row>& rows, const std::string& meta_json) {
  std::ofstream f(path);
  f << "{\n  \"meta\": " << meta_json << ",\n  \"rows\": [\n";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    gpusort::core::JsonObject o;
    o.add("mode", r.mode)
        .add("algorithm", r.algorithm)
        .add("variant", r.variant)
        .add("key_type", r.key_type)
        .add("value_type", r.value_type)
        .add("n", r.n)
        .add("distribution", r.distribution)
        .add("device", r.device)
        .add("work_group_size", r.work_group_size)
        .add("repeats", r.repeats)
        .add("median_ms", r.median_ms)
        .add("min_ms", r.min_ms)
        .add("keys_per_s", r.keys_per_s)
        .add("gb_per_s", r.gb_per_s)
        .add("frac_of_copy_bw", r.frac_of_copy_bw)
        .add("ratio_to_cub_radix", r.ratio_to_cub_radix)
        .add("ratio_to_cub_merge", r.ratio_to_cub_merge)
        .add("upload_ms", r.upload_ms)
        .add("status", r.status);
    f << "    " << o.str() << (i + 1 < rows.size() ? "," : "") << "\n";
  }
  f << "  ]\n}\n";
  if (!f) throw gpusort::Error(gpusort::errc::io_error, "cannot write " + path);
}

void fill_derived(std::vector<Row>& rows, double copy_gb_per_s) {
  using Key = std::tuple<std::string, std::string, std::uint64_t, std::string>;
  std::map<Key, double> radix, merge;
  for (const Row& r : rows) {
    if (r.status != "ok" || !std::isfinite(r.median_ms)) continue;
    Key k{r.key_type, r.value_type, r.n, r.distribution};
    // A peer at its best: the faster of its variants (num_items as int or int64_t) in this run.
    auto keep_best = [&](std::map<Key, double>& m) {
      auto [it, fresh] = m.emplace(k, r.median_ms);
      if (!fresh) it->second = std::min(it->second, r.median_ms);
    };
    if (r.algorithm == "cub_radix") keep_best(radix);
    if (r.algorithm == "cub_merge") keep_best(merge);
  }
  for (Row& r : rows) {
    if (std::isfinite(r.gb_per_s) && copy_gb_per_s > 0 && r.algorithm != "copy")
      r.frac_of_copy_bw = r.gb_per_s / copy_gb_per_s;
    if (r.mode == "sweep" || r.mode == "peer") {
      Key k{r.key_type, r.value_type, r.n, r.distribution};
      if (auto it = radix.find(k); it != radix.end() && r.median_ms > 0) r.ratio_to_cub_radix = it->second / r.median_ms;
      if (auto it = merge.find(k); it != merge.end() && r.median_ms > 0) r.ratio_to_cub_merge = it->second / r.median_ms;
    }
  }
}

gpusort::core::JsonObject run_meta(const std::string& mode, const std::string& command_line,
                                   const gpusort::DeviceDescription& device) {
  char date[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  gpusort::core::JsonObject m;
  m.add("mode", mode)
      .add("command", command_line)
      .add("date", date)
      .add("version", gpusort::version())
      .add("commit", build_commit())
      .add("device_id", device.id)
      .add("device_name", device.name)
      .add("driver", device.driver)
      .add("is_gpu", device.is_gpu);
  return m;
}

}  // namespace bench
