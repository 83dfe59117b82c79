// gpusort sort -c / -C / -u: the check's exit status and message, the first of equal keys kept,
// each against GNU sort on the same numbers written as text where GNU sort applies.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "cli_test_util.hpp"
#include "gpusort/key_order.hpp"

namespace {

using namespace cli_test;

// GNU sort from coreutils, in the C locale (its numeric order then matches the keys').
bool have_gnu_sort() { return std::system("sort --version 2>/dev/null | grep -q 'GNU coreutils'") == 0; }

template <class T>
void write_text(const fs::path& p, const std::vector<T>& v) {
  std::string s;
  for (T x : v) s += std::to_string(x) + "\n";
  write_bytes(p, s.data(), s.size());
}

struct GnuCheck {
  int code;
  std::size_t line;  // 1-based line GNU names after "disorder"; 0 if none
};

// `sort -c -n [-u] [-r]` on the text file: its exit status and the line it names.
GnuCheck gnu_check(const fs::path& text, const std::string& flags) {
  const RunResult r = [&] {
    TempDir capture;
    const std::string cmd = "LC_ALL=C sort -c -n " + flags + " " + shell_quote(text.string()) + " 2>" +
                            shell_quote((capture / "err").string());
    const int status = std::system(cmd.c_str());
    RunResult out;
    out.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    out.err = read_text(capture / "err");
    return out;
  }();
  GnuCheck g{r.code, 0};
  // "sort: FILE:LINE: disorder: TEXT"
  const auto at = r.err.find(":", r.err.find(text.filename().string()));
  if (r.code == 1 && at != std::string::npos) g.line = std::stoul(r.err.substr(at + 1));
  return g;
}

// gpusort's "gpusort: FILE:INDEX: disorder: ..." index, or npos when the line is not there.
std::size_t disorder_index(const std::string& err, const std::string& file) {
  const std::string prefix = "gpusort: " + file + ":";
  const auto at = err.find(prefix);
  if (at == std::string::npos || err.find(": disorder: ", at) == std::string::npos) return std::string::npos;
  return std::stoul(err.substr(at + prefix.size()));
}

TEST(CliCheck, ExitStatusAndFirstDisorderAgreeWithGnuSort) {
  if (!have_gnu_sort()) GTEST_SKIP() << "GNU sort not found";
  TempDir d;
  std::mt19937 rng(5);
  int sorted = 0, unsorted = 0;
  for (int trial = 0; trial < 24; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    const bool descending = trial % 3 == 1, unique = trial % 4 == 3;
    std::vector<std::int32_t> v(1 + rng() % 40);
    for (auto& x : v) x = std::int32_t(rng() % 21) - 10;
    // Mostly sorted inputs, so that the first disorder falls anywhere.
    std::sort(v.begin(), v.end());
    if (descending) std::reverse(v.begin(), v.end());
    if (trial % 2 == 0 && v.size() > 1) std::swap(v[rng() % v.size()], v[rng() % v.size()]);
    const auto bin = d / ("k" + std::to_string(trial) + ".i32"), text = d / ("k" + std::to_string(trial) + ".txt");
    write_vec(bin, v);
    write_text(text, v);
    std::vector<std::string> args = {"sort", "-c", bin.string(), "-t", "i32"};
    std::string flags;
    if (descending) args.push_back("-r"), flags += " -r";
    if (unique) args.push_back("-u"), flags += " -u";
    const RunResult r = run_cli(args);
    const GnuCheck g = gnu_check(text, flags);
    ASSERT_EQ(r.code, g.code) << describe(r);
    ++(g.code == 0 ? sorted : unsorted);
    if (g.code == 0) {
      EXPECT_TRUE(r.err.empty()) << describe(r);
    } else {
      EXPECT_EQ(disorder_index(r.err, bin.string()) + 1, g.line) << describe(r);
      EXPECT_EQ(lines_of(r.err).size(), 1u) << describe(r);
    }
    EXPECT_TRUE(r.out.empty());
  }
  EXPECT_GT(sorted, 3);  // both outcomes were compared
  EXPECT_GT(unsorted, 3);
}

TEST(CliCheck, QuietCheckPrintsNothing) {
  TempDir d;
  const auto f = (d / "k.u32").string();
  write_vec<std::uint32_t>(f, {1, 3, 2});
  const RunResult r = run_cli({"sort", "-C", f, "-t", "u32"});
  EXPECT_EQ(r.code, 1) << describe(r);
  EXPECT_TRUE(r.err.empty() && r.out.empty()) << describe(r);
  write_vec<std::uint32_t>(f, {1, 2, 2});
  EXPECT_CLI_OK(run_cli({"sort", "-C", f, "-t", "u32"}));
}

// Regular files are checked a block at a time (-S bounds the block): a disorder at a block's first
// key, against the previous block's last, is found as one inside a block is.
TEST(CliCheck, DisorderAcrossBlocksAndFiles) {
  TempDir d;
  const auto f = (d / "k.u32").string(), g = (d / "g.u32").string();
  std::vector<std::uint32_t> v(1000);
  for (std::uint32_t i = 0; i < v.size(); ++i) v[i] = 2 * i;
  write_vec(f, v);
  EXPECT_CLI_OK(run_cli({"sort", "-c", f, "-t", "u32", "-S", "1K"}));  // 256 keys a block
  for (std::size_t at : {std::size_t(256), std::size_t(300), std::size_t(512), std::size_t(999)}) {
    auto w = v;
    w[at] = w[at - 1] - 1;
    write_vec(f, w);
    const RunResult r = run_cli({"sort", "-c", f, "-t", "u32", "-S", "1K"});
    EXPECT_EQ(r.code, 1) << describe(r);
    EXPECT_EQ(disorder_index(r.err, f), at) << describe(r);
  }
  // Several inputs are checked as one: the second file's first key against the first file's last.
  write_vec(f, v);
  write_vec<std::uint32_t>(g, {1998, 1999, 5});
  RunResult r = run_cli({"sort", "-c", f, g, "-t", "u32"});
  EXPECT_EQ(r.code, 1) << describe(r);
  EXPECT_EQ(disorder_index(r.err, g), 2u) << describe(r);
  write_vec<std::uint32_t>(g, {1997});
  r = run_cli({"sort", "-c", f, g, "-t", "u32"});
  EXPECT_EQ(disorder_index(r.err, g), 0u) << describe(r);
  // .npy and standard input.
  const auto npy = make_npy("<u4", "(3,)", std::vector<std::uint32_t>{4, 4, 3}.data(), 12);
  write_bytes(d / "k.npy", npy.data(), npy.size());
  r = run_cli({"sort", "-c", (d / "k.npy").string()});
  EXPECT_EQ(disorder_index(r.err, (d / "k.npy").string()), 2u) << describe(r);
  r = run_cli({"sort", "-c", "-"}, "cat " + shell_quote((d / "k.npy").string()) + " |");
  EXPECT_EQ(disorder_index(r.err, "-"), 2u) << describe(r);
}

TEST(CliCheck, FloatsInTheLibrarysOrder) {
  TempDir d;
  const auto f = (d / "k.f32").string();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  write_vec<float>(f, {-1.0f, -0.0f, 0.0f, -0.0f, 2.0f, nan, nan});
  EXPECT_CLI_OK(run_cli({"sort", "-c", f, "-t", "f32"}));
  const RunResult r = run_cli({"sort", "-cu", f, "-t", "f32"});  // -0 == +0
  EXPECT_EQ(disorder_index(r.err, f), 2u) << describe(r);
  write_vec<float>(f, {nan, 2.0f, 0.0f, -0.0f});
  EXPECT_CLI_OK(run_cli({"sort", "-c", "-r", f, "-t", "f32"}));
}

TEST(CliCheck, RefusesWhatOnlyASortUses) {
  TempDir d;
  const auto f = (d / "k.u32").string(), out = (d / "out").string();
  write_vec<std::uint32_t>(f, {1, 2});
  for (const auto& extra : std::vector<std::vector<std::string>>{{"-o", out},
                                                                 {"--values", f, "--values-type", "u32"},
                                                                 {"--values-out", out},
                                                                 {"--indices-out", out},
                                                                 {"--comparator", "return a < b;"},
                                                                 {"--record-size", "4"}}) {
    std::vector<std::string> args = {"sort", "-c", f, "-t", "u32"};
    args.insert(args.end(), extra.begin(), extra.end());
    const RunResult r = run_cli(args);
    expect_clean_error(r, 2);
    EXPECT_NE(r.err.find("--check"), std::string::npos) << describe(r);
  }
  EXPECT_FALSE(fs::exists(out));
  expect_clean_error(run_cli({"sort", "-c", (d / "missing").string(), "-t", "u32"}), 2);
  expect_clean_error(run_cli({"sort", "-c", f}), 2);  // raw needs --type
}

TEST(CliUnique, IntegersAgreeWithGnuSortU) {
  if (!have_gnu_sort()) GTEST_SKIP() << "GNU sort not found";
  TempDir d;
  std::mt19937 rng(9);
  std::vector<std::int32_t> v(5000);
  for (auto& x : v) x = std::int32_t(rng() % 1500) - 700;
  write_vec(d / "k.i32", v);
  write_text(d / "k.txt", v);
  for (const bool descending : {false, true}) {
    std::vector<std::string> args = {"sort", "-u", (d / "k.i32").string(), "-t", "i32", "-o", (d / "u.i32").string()};
    if (descending) args.push_back("-r");
    ASSERT_CLI_OK(run_cli(args));
    const std::string cmd = std::string("LC_ALL=C sort -n -u ") + (descending ? "-r " : "") +
                            shell_quote((d / "k.txt").string()) + " >" + shell_quote((d / "gnu.txt").string());
    ASSERT_EQ(std::system(cmd.c_str()), 0);
    std::vector<std::int32_t> gnu;
    for (const auto& line : lines_of(read_text(d / "gnu.txt"))) gnu.push_back(std::stoi(line));
    EXPECT_EQ(read_vec<std::int32_t>(d / "u.i32"), gnu) << (descending ? "descending" : "ascending");
  }
}

// The first of equal keys is the first in the input: -0.0 and +0.0 are equal, and so are NaNs of
// any payload; the values (and indices) kept are that element's.
TEST(CliUnique, KeepsTheFirstOfEqualKeysWithItsValue) {
  TempDir d;
  const float nan1 = std::bit_cast<float>(0x7fc00001u), nan2 = std::bit_cast<float>(0xffc00002u);
  const std::vector<float> keys = {0.0f, 1.0f, -0.0f, nan1, -2.0f, nan2, 1.0f, -0.0f, 0.0f};
  std::vector<std::uint16_t> values(keys.size());
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = std::uint16_t(100 + i);
  write_vec(d / "k.f32", keys);
  write_vec(d / "v.u16", values);
  for (const bool descending : {false, true}) {
    std::vector<std::string> args = {"sort", "-u", (d / "k.f32").string(), "-t", "f32", "-o", (d / "o.f32").string(),
                                     "--values", (d / "v.u16").string(), "--values-type", "u16", "--values-out",
                                     (d / "o.u16").string(), "--indices-out", (d / "o.i64").string()};
    if (descending) args.push_back("-d");
    ASSERT_CLI_OK(run_cli(args));
    // The host reference: a stable sort, then the first of each run of equal ordered bits.
    const auto ord = descending ? gpusort::order::descending : gpusort::order::ascending;
    std::vector<std::size_t> idx(keys.size());
    for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
    std::stable_sort(idx.begin(), idx.end(),
                     [&](std::size_t a, std::size_t b) { return gpusort::key_less<float>{ord}(keys[a], keys[b]); });
    std::vector<std::uint32_t> want_keys;
    std::vector<std::uint16_t> want_values;
    std::vector<std::int64_t> want_indices;
    for (std::size_t j = 0; j < idx.size(); ++j) {
      if (j > 0 && gpusort::ordered_bits(keys[idx[j]]) == gpusort::ordered_bits(keys[idx[j - 1]])) continue;
      want_keys.push_back(std::bit_cast<std::uint32_t>(keys[idx[j]]));
      want_values.push_back(values[idx[j]]);
      want_indices.push_back(std::int64_t(idx[j]));
    }
    ASSERT_EQ(want_keys.size(), 4u);  // -2, +-0, 1, NaN
    EXPECT_EQ(read_vec<std::uint32_t>(d / "o.f32"), want_keys);
    EXPECT_EQ(read_vec<std::uint16_t>(d / "o.u16"), want_values);
    EXPECT_EQ(read_vec<std::int64_t>(d / "o.i64"), want_indices);
  }
}

TEST(CliUnique, WithValuesAlone) {
  TempDir d;
  write_vec<std::uint64_t>(d / "k.u64", {7, 3, 7, 3, 1});
  write_vec<std::uint32_t>(d / "v.u32", {0, 1, 2, 3, 4});
  ASSERT_CLI_OK(run_cli({"sort", "-u", (d / "k.u64").string(), "-t", "u64", "-o", (d / "o.u64").string(), "--values",
                         (d / "v.u32").string(), "--values-type", "u32", "--values-out", (d / "o.u32").string()}));
  EXPECT_EQ(read_vec<std::uint64_t>(d / "o.u64"), (std::vector<std::uint64_t>{1, 3, 7}));
  EXPECT_EQ(read_vec<std::uint32_t>(d / "o.u32"), (std::vector<std::uint32_t>{4, 1, 0}));
}

TEST(CliUnique, RefusalsLeaveOutputsAlone) {
  TempDir d;
  const auto f = (d / "k.u32").string(), out = (d / "out").string();
  write_vec<std::uint32_t>(f, {3, 1, 2, 1});
  write_bytes(out, "keep", 4);
  expect_clean_error(run_cli({"sort", "-u", f, "-t", "u32", "-o", out, "--comparator", "return a < b;"}), 2);
  expect_clean_error(run_cli({"sort", "-u", f, "-o", out, "--record-size", "4", "--key", "0:u32"}), 2);
  // Beyond --memory-limit -u cannot take the external path: refused, not sorted in full.
  expect_clean_error(run_cli({"sort", "-u", f, "-t", "u32", "-o", out, "-S", "8"}), 1);
  expect_clean_error(run_cli({"sort", f, "-t", "u32", "-o", out, "-S", "8", "--indices-out", (d / "i").string()}), 1);
  expect_clean_error(run_cli({"sort", f, f, "-t", "u32", "-o", out, "-S", "24"}), 1);
  EXPECT_EQ(read_text(out), "keep");
  EXPECT_EQ(d.entries(), (std::vector<std::string>{"k.u32", "out"}));
  ASSERT_CLI_OK(run_cli({"sort", "-u", f, "-t", "u32", "-o", out, "-S", "16"}));
  EXPECT_EQ(read_vec<std::uint32_t>(out), (std::vector<std::uint32_t>{1, 2, 3}));
}

}  // namespace
