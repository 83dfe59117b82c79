// gpusort-bench output: CSV and JSON writers, and the columns derived from other rows.
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <tuple>

#include "bench_common.hpp"

namespace bench {

bool parse_dist(const std::string& s, dist& out) {
  for (dist d : all_dists)
    if (s == dist_name(d)) {
      out = d;
      return true;
    }
  return false;
}

namespace {

std::string num(double v) {
  if (!std::isfinite(v)) return "";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string csv_text(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c == '\n' ? ' ' : c;
  }
  return out + "\"";
}

std::string json_text(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      out += ' ';
      continue;
    }
    out += c;
  }
  return out + "\"";
}

std::string json_num(double v) { return std::isfinite(v) ? num(v) : "null"; }

}  // namespace

void write_csv(const std::string& path, const std::vector<Row>& rows) {
  std::ofstream f(path);
  f << "mode,algorithm,variant,key_type,value_type,n,distribution,device,work_group_size,repeats,median_ms,min_ms,"
       "keys_per_s,gb_per_s,frac_of_copy_bw,ratio_to_cub_radix,ratio_to_cub_merge,upload_ms,status\n";
  for (const Row& r : rows)
    f << csv_text(r.mode) << ',' << csv_text(r.algorithm) << ',' << csv_text(r.variant) << ',' << r.key_type << ','
      << r.value_type << ',' << r.n << ',' << r.distribution << ',' << csv_text(r.device) << ',' << r.work_group_size
      << ',' << r.repeats << ',' << num(r.median_ms) << ',' << num(r.min_ms) << ',' << num(r.keys_per_s) << ','
      << num(r.gb_per_s) << ',' << num(r.frac_of_copy_bw) << ',' << num(r.ratio_to_cub_radix) << ','
      << num(r.ratio_to_cub_merge) << ',' << num(r.upload_ms) << ',' << csv_text(r.status) << '\n';
  if (!f) throw gpusort::Error(gpusort::errc::io_error, "cannot write " + path);
}

void write_json(const std::string& path, const std::vector<Row>& rows, const std::string& meta_json) {
  std::ofstream f(path);
  f << "{\n  \"meta\": " << meta_json << ",\n  \"rows\": [\n";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    f << "    {\"mode\": " << json_text(r.mode) << ", \"algorithm\": " << json_text(r.algorithm)
      << ", \"variant\": " << json_text(r.variant) << ", \"key_type\": " << json_text(r.key_type)
      << ", \"value_type\": " << json_text(r.value_type) << ", \"n\": " << r.n
      << ", \"distribution\": " << json_text(r.distribution) << ", \"device\": " << json_text(r.device)
      << ", \"work_group_size\": " << r.work_group_size << ", \"repeats\": " << r.repeats
      << ", \"median_ms\": " << json_num(r.median_ms) << ", \"min_ms\": " << json_num(r.min_ms)
      << ", \"keys_per_s\": " << json_num(r.keys_per_s) << ", \"gb_per_s\": " << json_num(r.gb_per_s)
      << ", \"frac_of_copy_bw\": " << json_num(r.frac_of_copy_bw)
      << ", \"ratio_to_cub_radix\": " << json_num(r.ratio_to_cub_radix)
      << ", \"ratio_to_cub_merge\": " << json_num(r.ratio_to_cub_merge) << ", \"upload_ms\": " << json_num(r.upload_ms)
      << ", \"status\": " << json_text(r.status) << "}" << (i + 1 < rows.size() ? "," : "") << "\n";
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

}  // namespace bench
