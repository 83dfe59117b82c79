#pragma once
// What every run of `gpusort sort` must satisfy, whatever its arguments and input:
//   - it exits by itself (no hang, no signal) with status 0, 1 or 2;
//   - on success the output exists (standard output without -o), is sorted in the requested order
//     and holds exactly the keys of the inputs, concatenated (with --values: the same key/value pairs,
//     and with --stable equal keys keep their order);
//   - on failure stderr holds one "gpusort: error:" line (more lines only with --verbose; before it,
//     "gpusort: warning:" lines, as for input that looks like text) and the outputs are exactly as
//     before: absent, or with their old bytes;
//   - the input is never changed (unless it is also the output of a successful run) and no
//     temporary file ".NAME.gpusort-tmp-*" is left behind.
// It returns a description of every broken rule, empty if there is none.
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "../cli_test_util.hpp"
#include "array_layout.hpp"
#include "run_with_timeout.hpp"

namespace cli_fuzz {

namespace fs = std::filesystem;

// The parts of a sort command line the checker needs, read from the arguments themselves.
struct SortArgsView {
  std::string input, output, type, values, values_out, format;  // input: the first of inputs
  std::vector<std::string> inputs;  // several are sorted as one, concatenated
  bool descending = false, stable = false, verbose = false;
};

inline SortArgsView view_sort_args(const std::vector<std::string>& args) {
  SortArgsView v;
  auto value_of = [&](std::size_t& i, const std::string& a, const char* long_name, const char* short_name,
                      std::string& into) {
    const std::string l = long_name;
    if (a == l || (short_name && a == short_name)) {
      if (i + 1 < args.size()) into = args[++i];
      return true;
    }
    if (a.rfind(l + "=", 0) == 0) {
      into = a.substr(l.size() + 1);
      return true;
    }
    return false;
  };
  // Options whose value the checker does not need, but must skip to find the input.
  static const char* const other_valued[][2] = {
      {"--algorithm", "-a"}, {"--device", nullptr}, {"--values-type", nullptr}, {"--wg", nullptr},
      {"--items-per-thread", nullptr}, {"--local", nullptr}, {"--merge", nullptr}, {"--host-levels", nullptr},
      {"--device-memory-limit", nullptr}};
  std::string ignored;
  for (std::size_t i = 1; i < args.size(); ++i) {  // args[0] is the subcommand
    const std::string& a = args[i];
    if (value_of(i, a, "--output", "-o", v.output) || value_of(i, a, "--type", "-t", v.type) ||
        value_of(i, a, "--values", nullptr, v.values) || value_of(i, a, "--values-out", nullptr, v.values_out) ||
        value_of(i, a, "--format", nullptr, v.format))
      continue;
    bool skipped = false;
    for (const auto& o : other_valued) skipped = skipped || value_of(i, a, o[0], o[1], ignored);
    if (skipped) continue;
    if (a == "-d" || a == "--descending" || a == "-r" || a == "--reverse") v.descending = true;
    else if (a == "-s" || a == "--stable") v.stable = true;
    else if (a == "-v" || a == "--verbose") v.verbose = true;
    else if (a.rfind("-", 0) != 0) v.inputs.push_back(a);
  }
  if (!v.inputs.empty()) v.input = v.inputs.front();
  return v;
}

struct FileState {
  bool exists = false;
  std::vector<unsigned char> bytes;
};

inline FileState file_state(const std::string& path) {
  FileState s;
  if (path.empty()) return s;
  std::error_code ec;
  s.exists = fs::exists(path, ec);
  if (s.exists && fs::is_regular_file(path, ec)) s.bytes = cli_test::read_bytes(path);
  return s;
}

// Everything a failed run must leave as it was, taken just before the run.
struct BeforeRun {
  FileState input, output, values, values_out;
  std::vector<std::string> entries;
  std::vector<FileState> inputs;  // every input, the first being `input`
};

inline BeforeRun snapshot(const SortArgsView& v, const cli_test::TempDir& dir) {
  BeforeRun b{file_state(v.input), file_state(v.output), file_state(v.values), file_state(v.values_out),
              dir.entries(), {}};
  for (const auto& p : v.inputs) b.inputs.push_back(file_state(p));
  return b;
}

struct Payload {
  std::vector<unsigned char> bytes;
  std::string descr;  // empty for a raw file
  std::optional<std::uint64_t> count;  // what a .npy header's shape claims
  std::string header;                  // a .npy's header text (empty for a raw file)
};

// The keys of a file: the payload of a .npy (with its header's dtype), or the whole raw file (also
// for a .npy read with --format raw, which sorts its header bytes as keys).
inline std::optional<Payload> payload_of(const std::vector<unsigned char>& b, std::string& problem,
                                         bool read_as_raw = false) {
  if (read_as_raw || !has_npy_magic(b)) return Payload{b, "", std::nullopt};
  const auto layout = npy_layout(b);
  if (!layout) {
    problem = "a .npy file whose header length runs past its end";
    return std::nullopt;
  }
  Payload p{std::vector<unsigned char>(b.begin() + static_cast<std::ptrdiff_t>(layout->data_offset), b.end()),
            header_descr(layout->header).value_or("?"), header_count(layout->header), layout->header};
  return p;
}

class SortInvariants {
 public:
  SortInvariants(const std::vector<std::string>& args, const cli_test::TempDir& dir)
      : view_(view_sort_args(args)), dir_(dir), before_(snapshot(view_, dir)) {}

  std::string check(const Outcome& o) {
    problems_.clear();
    if (o.timed_out) return "hang: still running after " + std::to_string(o.seconds) + " s (killed)";
    if (o.signal) return "killed by signal " + std::to_string(o.signal) + " (" + strsignal(o.signal) + ")";
    if (o.exit_code < 0) return o.err.empty() ? "did not run" : o.err;
    if (o.exit_code > 2) add("exit status " + std::to_string(o.exit_code) + " (expected 0, 1 or 2)");
    if (o.err.find("Sanitizer") != std::string::npos || o.err.find("runtime error:") != std::string::npos)
      add("sanitizer report on stderr");
    for (const auto& e : dir_.entries())
      if (e.find(".gpusort-tmp-") != std::string::npos) add("temporary file left behind: " + e);
    const bool wrote_over_input = o.exit_code == 0 && same_path(view_.input, view_.output);
    if (!wrote_over_input && file_state(view_.input).bytes != before_.input.bytes) add("the input file changed");
    if (o.exit_code == 0)
      check_success(o);
    else
      check_failure(o);
    std::string all;
    for (const auto& p : problems_) all += (all.empty() ? "" : "; ") + p;
    return all;
  }

 private:
  void add(std::string p) { problems_.push_back(std::move(p)); }

  static bool same_path(const std::string& a, const std::string& b) {
    std::error_code ec;
    return !a.empty() && !b.empty() && fs::equivalent(a, b, ec);
  }

  void check_failure(const Outcome& o) {
    auto lines = cli_test::lines_of(o.err);
    while (!lines.empty() && lines.front().rfind("gpusort: warning: ", 0) == 0) lines.erase(lines.begin());
    if (lines.empty() || lines[0].rfind("gpusort: error: ", 0) != 0)
      add("failure without a first stderr line \"gpusort: error: ...\"");
    else if (!view_.verbose && lines.size() != 1)
      add("failure printed " + std::to_string(lines.size()) + " stderr lines (expected one)");
    if (file_state(view_.output).bytes != before_.output.bytes || fs::exists(view_.output) != before_.output.exists)
      add("failed run changed or created the output");
    if (!view_.values_out.empty() && (file_state(view_.values_out).bytes != before_.values_out.bytes ||
                                      fs::exists(view_.values_out) != before_.values_out.exists))
      add("failed run changed or created the values output");
    if (dir_.entries() != before_.entries) add("failed run left new files in the directory");
  }

  // The inputs' payloads one after another, with the first one's dtype (several inputs are sorted as
  // one array).
  std::optional<Payload> inputs_payload(std::string& problem) const {
    std::optional<Payload> all;
    for (const auto& f : before_.inputs) {
      const auto p = payload_of(f.bytes, problem, view_.format == "raw");
      if (!p) return std::nullopt;
      if (!all) all = p;
      else all->bytes.insert(all->bytes.end(), p->bytes.begin(), p->bytes.end());
    }
    return all;
  }

  void check_success(const Outcome& o) {
    std::string problem;
    // Without -o (or with -o -) the keys are on standard output.
    const bool to_stdout = view_.output.empty() || view_.output == "-";
    if (!to_stdout && !fs::is_regular_file(view_.output)) return add("exit 0 but no output file");
    const auto in = inputs_payload(problem);
    if (!in) return add("exit 0 for " + problem);
    const auto out = payload_of(to_stdout ? std::vector<unsigned char>(o.out.begin(), o.out.end())
                                          : cli_test::read_bytes(view_.output),
                                problem);
    if (!out) return add("output is " + problem);
    // The dtype: the output header's, else the --type given, else the input header's.
    std::string descr = out->descr;
    if (descr.empty()) descr = descr_of_type_name(view_.type).value_or(in->descr);
    const auto kind = key_kind_of_descr(descr);
    if (!kind) return add("exit 0 with keys of dtype '" + descr + "' that the test cannot compare");
    if (in->bytes.size() != out->bytes.size())
      return add("output holds " + std::to_string(out->bytes.size()) + " payload bytes, the input " +
                 std::to_string(in->bytes.size()));
    if (in->bytes.size() % kind->size != 0) return add("payload is not a whole number of keys");
    const std::size_t n = in->bytes.size() / kind->size;
    if (!out->descr.empty() && out->count != n) return add("output header's shape does not match its payload");
    std::vector<std::uint64_t> keys_in(n), keys_out(n);
    for (std::size_t i = 0; i < n; ++i) {
      keys_in[i] = key_bits(in->bytes.data(), i, kind->size, kind->kind);
      keys_out[i] = key_bits(out->bytes.data(), i, kind->size, kind->kind);
    }
    // An n-D .npy is sorted along its last axis: every line on its own (the output keeps the shape).
    lines_ = lines_of_header(out->header, n);
    for (std::size_t l = 0; l < lines_.count; ++l) {
      for (std::size_t j = 1; j < lines_.length; ++j) {
        const std::size_t i = lines_.at(l, j), before = lines_.at(l, j - 1);
        const bool wrong = view_.descending ? key_less(*kind, keys_out[before], keys_out[i])
                                            : key_less(*kind, keys_out[i], keys_out[before]);
        if (wrong) return add("output not sorted at index " + std::to_string(i));
      }
      std::vector<std::uint64_t> a, b;
      for (std::size_t j = 0; j < lines_.length; ++j) {
        a.push_back(keys_in[lines_.at(l, j)]);
        b.push_back(keys_out[lines_.at(l, j)]);
      }
      std::sort(a.begin(), a.end());
      std::sort(b.begin(), b.end());
      if (a != b) return add("output keys are not a permutation of the input keys (line " + std::to_string(l) + ")");
    }
    if (!view_.values.empty()) check_values(*kind, keys_in, keys_out);
  }

  void check_values(KeyKind kind, const std::vector<std::uint64_t>& keys_in, const std::vector<std::uint64_t>& keys_out) {
    std::string problem;
    if (!fs::is_regular_file(view_.values_out)) return add("exit 0 but no values output");
    const auto vin = payload_of(before_.values.bytes, problem, view_.format == "raw");
    const auto vout = payload_of(cli_test::read_bytes(view_.values_out), problem);
    if (!vin || !vout) return add("values file is " + problem);
    const std::size_t n = keys_in.size();
    if (vin->bytes.size() != vout->bytes.size()) return add("values output size differs from the values input");
    if (n == 0) return;
    if (vin->bytes.size() % n != 0) return add("exit 0 with a values file that is not n values");
    const std::size_t w = vin->bytes.size() / n;
    using Pair = std::pair<std::uint64_t, std::string>;
    std::vector<Pair> in, out;
    for (std::size_t i = 0; i < n; ++i) {
      in.emplace_back(keys_in[i], std::string(vin->bytes.begin() + i * w, vin->bytes.begin() + (i + 1) * w));
      out.emplace_back(keys_out[i], std::string(vout->bytes.begin() + i * w, vout->bytes.begin() + (i + 1) * w));
    }
    // The fuzz writes value i as the index i (little-endian): with --stable, equal keys keep
    // increasing indices, as far as the value width can tell indices apart.
    if (view_.stable && (w >= 8 || n <= (std::size_t(1) << (8 * w))))
      for (std::size_t l = 0; l < lines_.count; ++l)
        for (std::size_t j = 1; j < lines_.length; ++j) {
          const std::size_t i = lines_.at(l, j), before = lines_.at(l, j - 1);
          const bool equal =
              !key_less(kind, keys_out[before], keys_out[i]) && !key_less(kind, keys_out[i], keys_out[before]);
          if (equal && index_of(out[before].second) > index_of(out[i].second))
            return add("--stable but equal keys changed order at index " + std::to_string(i));
        }
    std::sort(in.begin(), in.end());
    std::sort(out.begin(), out.end());
    if (in != out) add("output key/value pairs are not a permutation of the input pairs");
  }

  static std::uint64_t index_of(const std::string& value) {
    std::uint64_t v = 0;
    std::memcpy(&v, value.data(), std::min<std::size_t>(value.size(), 8));
    return v;
  }

  SortArgsView view_;
  Lines lines_;  // the runs the sort orders on their own (check_success)
  const cli_test::TempDir& dir_;
  BeforeRun before_;
  std::vector<std::string> problems_;
};

}  // namespace cli_fuzz
