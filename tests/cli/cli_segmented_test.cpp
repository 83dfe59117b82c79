// gpusort sort of rows and segments, each sorted on its own: an n-D .npy along --axis (the last by
// default, others through a copy on the host, Fortran order too), a raw input cut by --row-length
// or --segments (empty segments included), values carried, --indices-out local to each segment,
// -c of every segment, the refusals, and gpusort plan --rows / --segments. Checked against
// std::stable_sort of every segment. Keys are f32 (alone or
// with int64 indices) and u32 with u32 values, so few kernel programs are built.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "cli_test_util.hpp"

namespace {

using namespace cli_test;

// A .npy written by the command: its header text and where its data start.
struct Npy {
  std::string header;
  std::size_t data_offset = 0;
};
Npy parse_npy(const std::vector<unsigned char>& b) {
  Npy p;
  if (b.size() < 10) return p;
  const std::size_t len = b[8] | (b[9] << 8);
  p.data_offset = 10 + len;
  p.header.assign(b.begin() + 10, b.begin() + std::min(b.size(), p.data_offset));
  return p;
}
template <class T>
std::vector<T> npy_data(const fs::path& path, const std::string& expected_header_part) {
  const auto b = read_bytes(path);
  const Npy p = parse_npy(b);
  EXPECT_NE(p.header.find(expected_header_part), std::string::npos) << p.header;
  return read_vec<T>(path, p.data_offset);
}

// Keys with many ties (so stability shows in the indices), in no order.
std::vector<float> tied_keys(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<float> v(n);
  for (auto& x : v) x = float(int(rng() % 13) - 6) * 0.5f;
  return v;
}

// The reference: each segment [offsets[s], offsets[s + 1]) stable-sorted on its own; `indices`
// receives each sorted key's position within its segment.
template <class K>
std::vector<K> reference(const std::vector<K>& keys, const std::vector<std::uint64_t>& offsets, bool descending,
                         std::vector<std::int64_t>* indices = nullptr) {
  std::vector<K> out(keys.size());
  if (indices) indices->assign(keys.size(), -1);
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s) {
    const std::size_t b = offsets[s], e = offsets[s + 1];
    std::vector<std::int64_t> order(e - b);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::int64_t x, std::int64_t y) {
      return descending ? keys[b + y] < keys[b + x] : keys[b + x] < keys[b + y];
    });
    for (std::size_t j = 0; j < order.size(); ++j) {
      out[b + j] = keys[b + order[j]];
      if (indices) (*indices)[b + j] = order[j];
    }
  }
  return out;
}

std::vector<std::uint64_t> uniform_offsets(std::size_t rows, std::size_t length) {
  std::vector<std::uint64_t> o;
  for (std::size_t r = 0; r <= rows; ++r) o.push_back(r * length);
  return o;
}

// An array of shape (a, b, c) in C order seen along one axis: element (i, j, k) at
// ((i * b) + j) * c + k. `along(axis)` lists, for every line along the axis (in a fixed order),
// the flat positions of its elements, so a reference can sort each line.
std::vector<std::vector<std::size_t>> lines_along(std::size_t a, std::size_t b, std::size_t c, int axis) {
  std::vector<std::vector<std::size_t>> lines;
  const std::size_t dims[3] = {a, b, c};
  const std::size_t stride[3] = {b * c, c, 1};
  const int o1 = axis == 0 ? 1 : 0, o2 = axis == 2 ? 1 : 2;
  for (std::size_t x = 0; x < dims[o1]; ++x)
    for (std::size_t y = 0; y < dims[o2]; ++y) {
      std::vector<std::size_t> line;
      for (std::size_t k = 0; k < dims[axis]; ++k) line.push_back(x * stride[o1] + y * stride[o2] + k * stride[axis]);
      lines.push_back(line);
    }
  return lines;
}

TEST(CliSegmented, NdNpyIsSortedAlongItsLastAxisByDefaultWithLocalIndices) {
  TempDir d;
  const std::size_t rows = 7, length = 33;
  const auto keys = tied_keys(rows * length, 1);
  const auto npy = make_npy("<f4", "(7, 33)", keys.data(), keys.size() * 4);
  write_bytes(d / "in.npy", npy.data(), npy.size());
  for (const bool descending : {false, true}) {
    std::vector<std::string> args = {"sort", (d / "in.npy").string(), "-o", (d / "out.npy").string(),
                                     "--indices-out", (d / "idx.npy").string()};
    if (descending) args.push_back("-r");
    ASSERT_CLI_OK(run_cli(args));
    std::vector<std::int64_t> want_idx;
    const auto want = reference(keys, uniform_offsets(rows, length), descending, &want_idx);
    EXPECT_EQ(npy_data<float>(d / "out.npy", "'shape': (7, 33)"), want) << "descending " << descending;
    EXPECT_EQ(npy_data<std::int64_t>(d / "idx.npy", "'shape': (7, 33)"), want_idx) << "descending " << descending;
  }
  EXPECT_EQ(read_bytes(d / "in.npy"), npy) << "input changed";
}

TEST(CliSegmented, ThreeDimensionalNpyAlongEveryAxis) {
  TempDir d;
  const std::size_t a = 4, b = 5, c = 6;
  const auto keys = tied_keys(a * b * c, 2);
  const auto npy = make_npy("<f4", "(4, 5, 6)", keys.data(), keys.size() * 4);
  write_bytes(d / "in.npy", npy.data(), npy.size());
  for (const std::string axis_arg : {"0", "1", "2", "-1", "-2", "-3"}) {
    const int axis = (std::stoi(axis_arg) + 3) % 3;
    ASSERT_CLI_OK(run_cli({"sort", (d / "in.npy").string(), "--axis", axis_arg, "-o", (d / "out.npy").string(),
                           "--indices-out", (d / "idx.npy").string()}));
    std::vector<float> want(keys.size());
    std::vector<std::int64_t> want_idx(keys.size());
    for (const auto& line : lines_along(a, b, c, axis)) {
      std::vector<float> k;
      for (std::size_t p : line) k.push_back(keys[p]);
      std::vector<std::int64_t> idx;
      const auto sorted = reference(k, {0, k.size()}, false, &idx);
      for (std::size_t j = 0; j < line.size(); ++j) {
        want[line[j]] = sorted[j];
        want_idx[line[j]] = idx[j];
      }
    }
    EXPECT_EQ(npy_data<float>(d / "out.npy", "'shape': (4, 5, 6)"), want) << "--axis " << axis_arg;
    EXPECT_EQ(npy_data<std::int64_t>(d / "idx.npy", "'shape': (4, 5, 6)"), want_idx) << "--axis " << axis_arg;
  }
}

// Fortran order: shape (3, 4) stored column by column; its last axis runs with stride 3 in memory.
TEST(CliSegmented, FortranOrderedNpyKeepsItsOrder) {
  TempDir d;
  const std::size_t rows = 3, cols = 4;
  const auto mem = tied_keys(rows * cols, 3);  // element (i, j) at j * rows + i
  std::vector<unsigned char> npy = make_npy("<f4", "(3, 4)", mem.data(), mem.size() * 4);
  const std::string c_order = "'fortran_order': False", f_order = "'fortran_order': True ";  // same length
  const auto at = std::search(npy.begin(), npy.end(), c_order.begin(), c_order.end());
  ASSERT_NE(at, npy.end());
  std::copy(f_order.begin(), f_order.end(), at);
  write_bytes(d / "in.npy", npy.data(), npy.size());
  ASSERT_CLI_OK(run_cli({"sort", (d / "in.npy").string(), "--axis", "1", "-o", (d / "out.npy").string()}));
  std::vector<float> want = mem;
  for (std::size_t i = 0; i < rows; ++i) {
    std::vector<float> row;
    for (std::size_t j = 0; j < cols; ++j) row.push_back(mem[j * rows + i]);
    std::stable_sort(row.begin(), row.end());
    for (std::size_t j = 0; j < cols; ++j) want[j * rows + i] = row[j];
  }
  const auto b = read_bytes(d / "out.npy");
  EXPECT_NE(parse_npy(b).header.find("'fortran_order': True"), std::string::npos) << parse_npy(b).header;
  EXPECT_EQ(npy_data<float>(d / "out.npy", "'shape': (3, 4)"), want);
}

TEST(CliSegmented, RawRowsWithValuesDescendingStable) {
  TempDir d;
  const std::size_t rows = 6, length = 50;
  std::mt19937 rng(4);
  std::vector<std::uint32_t> keys(rows * length), values(rows * length);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    keys[i] = rng() % 9;
    values[i] = static_cast<std::uint32_t>(i);
  }
  write_vec(d / "k.u32", keys);
  write_vec(d / "v.u32", values);
  ASSERT_CLI_OK(run_cli({"sort", (d / "k.u32").string(), "-t", "u32", "--row-length", "50", "-r", "--stable",
                         "--values", (d / "v.u32").string(), "--values-type", "u32", "-o", (d / "ko").string(),
                         "--values-out", (d / "vo").string()}));
  std::vector<std::int64_t> idx;
  const auto want = reference(keys, uniform_offsets(rows, length), true, &idx);
  EXPECT_EQ(read_vec<std::uint32_t>(d / "ko"), want);
  std::vector<std::uint32_t> want_values(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) want_values[i] = std::uint32_t(i / length * length + idx[i]);
  EXPECT_EQ(read_vec<std::uint32_t>(d / "vo"), want_values);
}

// Offsets with empty segments (first, middle and last), as raw u64 and as a .npy of uint32;
// values and indices together (the values gathered by the local indices).
TEST(CliSegmented, SegmentsByOffsetsWithEmptyOnesAndLocalIndices) {
  TempDir d;
  const std::vector<std::uint64_t> offsets = {0, 0, 3, 3, 10, 41, 41, 42, 77, 77};
  const auto keys = tied_keys(offsets.back(), 5);
  std::vector<std::uint32_t> values(keys.size());
  std::iota(values.begin(), values.end(), 1000u);
  write_vec(d / "k.f32", keys);
  write_vec(d / "v.u32", values);
  write_vec(d / "offsets.u64", offsets);
  const std::vector<std::uint32_t> narrow(offsets.begin(), offsets.end());
  const auto npy = make_npy("<u4", "(" + std::to_string(narrow.size()) + ",)", narrow.data(), narrow.size() * 4);
  write_bytes(d / "offsets.npy", npy.data(), npy.size());
  std::vector<std::int64_t> want_idx;
  const auto want = reference(keys, offsets, false, &want_idx);
  for (const std::string offsets_file : {"offsets.u64", "offsets.npy"}) {
    ASSERT_CLI_OK(run_cli({"sort", (d / "k.f32").string(), "-t", "f32", "--segments", (d / offsets_file).string(),
                           "-o", (d / "ko").string(), "--indices-out", (d / "io").string(), "--values",
                           (d / "v.u32").string(), "--values-type", "u32", "--values-out", (d / "vo").string()}));
    EXPECT_EQ(read_vec<float>(d / "ko"), want) << offsets_file;
    EXPECT_EQ(read_vec<std::int64_t>(d / "io"), want_idx) << offsets_file;
    std::vector<std::uint32_t> want_values(keys.size());
    for (std::size_t s = 0; s + 1 < offsets.size(); ++s)
      for (std::size_t j = offsets[s]; j < offsets[s + 1]; ++j) want_values[j] = values[offsets[s] + want_idx[j]];
    EXPECT_EQ(read_vec<std::uint32_t>(d / "vo"), want_values) << offsets_file;
  }
}

// -c checks every row or segment on its own; the disorder's index is the key's place in the file.
TEST(CliSegmented, CheckTakesEveryRowOnItsOwn) {
  TempDir d;
  // Two rows of 4, each ascending, the second starting below the first's end.
  const std::vector<float> rows = {1, 2, 5, 9, 0, 3, 3, 4};
  write_vec(d / "rows.f32", rows);
  const std::string f = (d / "rows.f32").string();
  EXPECT_CLI_OK(run_cli({"sort", "-c", f, "-t", "f32", "--row-length", "4"}));
  EXPECT_EQ(run_cli({"sort", "-c", f, "-t", "f32"}).code, 1) << "the whole file is not sorted";
  const auto unique = run_cli({"sort", "-c", "-u", f, "-t", "f32", "--row-length", "4"});
  EXPECT_EQ(unique.code, 1) << describe(unique);
  EXPECT_NE(unique.err.find(f + ":6: disorder: 3 (after 3)"), std::string::npos) << describe(unique);
  const std::vector<std::uint64_t> offsets = {0, 0, 4, 4, 6, 8};  // [1 2 5 9] [0 3] [3 4]: -u passes
  write_vec(d / "o.u64", offsets);
  EXPECT_CLI_OK(run_cli({"sort", "-c", "-u", f, "-t", "f32", "--segments", (d / "o.u64").string()}));
  const auto descending = run_cli({"sort", "-C", "-r", f, "-t", "f32", "--segments", (d / "o.u64").string()});
  EXPECT_EQ(descending.code, 1) << describe(descending);
  EXPECT_TRUE(descending.err.empty()) << describe(descending);

  // A (2, 3, 2) array, element (i, j, k) at i * 6 + j * 2 + k: along axis 1, (0, 1, 1) at file
  // position 3 is out of order; along axis 0 all ascend, with ties first at (1, 0, 1), position 7;
  // along the last axis all ascend. The positions differ from those in the axis-last copy.
  std::vector<float> cube = {0, 5, 1, 4, 2, 7, 3, 5, 4, 9, 5, 7};
  const auto npy = make_npy("<f4", "(2, 3, 2)", cube.data(), cube.size() * 4);
  write_bytes(d / "cube.npy", npy.data(), npy.size());
  const std::string c = (d / "cube.npy").string();
  const auto along1 = run_cli({"sort", "-c", c, "--axis", "1"});
  EXPECT_EQ(along1.code, 1) << describe(along1);
  EXPECT_NE(along1.err.find(c + ":3: disorder: 4 (after 5)"), std::string::npos) << describe(along1);
  EXPECT_CLI_OK(run_cli({"sort", "-c", c, "--axis", "0"}));
  const auto tie = run_cli({"sort", "-c", "-u", c, "--axis", "-3"});
  EXPECT_EQ(tie.code, 1) << describe(tie);
  EXPECT_NE(tie.err.find(c + ":7: disorder: 5 (after 5)"), std::string::npos) << describe(tie);
  EXPECT_CLI_OK(run_cli({"sort", "-c", c}));
}

// Every refusal: one error line, exit status 2, nothing written.
class CliSegmentedErrors : public ::testing::Test {
 protected:
  void SetUp() override {
    keys_ = tied_keys(17, 6);
    write_vec(dir_ / "k.f32", keys_);
    const auto npy = make_npy("<f4", "(17,)", keys_.data(), keys_.size() * 4);
    write_bytes(dir_ / "k.npy", npy.data(), npy.size());
    const auto npy2 = make_npy("<f4", "(2, 8)", keys_.data(), 16 * 4);
    write_bytes(dir_ / "k2.npy", npy2.data(), npy2.size());
    before_ = dir_.entries();
  }
  void offsets(const std::vector<std::uint64_t>& o) {
    write_vec(dir_ / "o.u64", o);
    before_ = dir_.entries();
  }
  // Runs `sort INPUT ARGS -o out` and expects a clean refusal mentioning `says`.
  void expect_refused(const std::string& input, const std::vector<std::string>& extra, const std::string& says) {
    std::vector<std::string> args = {"sort", (dir_ / input).string(), "-o", (dir_ / "out").string(),
                                     "--indices-out", (dir_ / "idx").string()};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto r = run_cli(args);
    expect_clean_error(r, 2);
    EXPECT_NE(r.err.find(says), std::string::npos) << describe(r);
    EXPECT_EQ(dir_.entries(), before_) << describe(r);
  }
  std::string o() const { return (dir_ / "o.u64").string(); }
  TempDir dir_;
  std::vector<float> keys_;
  std::vector<std::string> before_;
};

TEST_F(CliSegmentedErrors, RowLengthThatDoesNotDivide) {
  expect_refused("k.f32", {"-t", "f32", "--row-length", "5"}, "does not divide");
  expect_refused("k.f32", {"-t", "f32", "--row-length", "0"}, "--row-length");
}
TEST_F(CliSegmentedErrors, OffsetsNotStartingAtZero) {
  offsets({1, 5, 17});
  expect_refused("k.f32", {"-t", "f32", "--segments", o()}, "offset 0 is 1");
}
TEST_F(CliSegmentedErrors, OffsetsNotEndingAtTheKeyCount) {
  offsets({0, 5, 16});
  expect_refused("k.f32", {"-t", "f32", "--segments", o()}, "not the key count 17");
}
TEST_F(CliSegmentedErrors, DecreasingOffsets) {
  offsets({0, 9, 4, 17});
  expect_refused("k.f32", {"-t", "f32", "--segments", o()}, "offset 2 (4) is less than offset 1 (9)");
}
TEST_F(CliSegmentedErrors, OffsetsFileOfAnotherSize) {
  write_bytes(dir_ / "o.u64", "\0\0\0\0\0\0\0\0\1", 9);
  before_ = dir_.entries();
  expect_refused("k.f32", {"-t", "f32", "--segments", o()}, "not a multiple of 8");
}
TEST_F(CliSegmentedErrors, OptionsThatMakeNoSenseWithSegments) {
  offsets({0, 17});
  expect_refused("k.f32", {"-t", "f32", "--row-length", "17", "--segments", o()}, "exclude each other");
  expect_refused("k.f32", {"-t", "f32", "--row-length", "17", "-u"}, "-u");
  expect_refused("k.f32", {"-t", "f32", "--row-length", "17", "--record-size", "4"}, "--record-size");
  expect_refused("k.f32", {"-t", "f32", "--row-length", "17", "--device", "0,1"}, "one device");
  expect_refused("k2.npy", {"--row-length", "8"}, "along --axis");
  expect_refused("k.f32", {"-t", "f32", "--axis", "0"}, "raw");
  expect_refused("k2.npy", {"--axis", "2"}, "out of range");
  expect_refused("k2.npy", {"--axis", "-3"}, "out of range");
  const auto several = run_cli({"sort", (dir_ / "k.f32").string(), (dir_ / "k.f32").string(), "-t", "f32",
                                "--row-length", "17", "-o", (dir_ / "out").string()});
  expect_clean_error(several, 2);
  EXPECT_NE(several.err.find("one input"), std::string::npos) << describe(several);
  const auto twice = run_cli({"sort", "-", "-t", "f32", "--segments", "-", "-o", (dir_ / "out").string()},
                             "<" + shell_quote((dir_ / "k.f32").string()));
  expect_clean_error(twice, 2);
  EXPECT_NE(twice.err.find("once"), std::string::npos) << describe(twice);
  EXPECT_EQ(dir_.entries(), before_);
}

// Without --axis an n-D .npy is recognised from its header, which standard input does not offer
// before it is read: there the error says to give --axis, and with it the rows are sorted.
TEST_F(CliSegmentedErrors, NdNpyOnStandardInputNeedsAxis) {
  const std::string in = (dir_ / "k2.npy").string(), out = (dir_ / "out.npy").string();
  const auto r = run_cli({"sort", "-", "-o", out}, "<" + shell_quote(in));
  expect_clean_error(r, 2);
  EXPECT_NE(r.err.find("--axis"), std::string::npos) << describe(r);
  EXPECT_EQ(dir_.entries(), before_);
  ASSERT_CLI_OK(run_cli({"sort", "-", "--axis", "-1", "-o", out}, "<" + shell_quote(in)));
  const std::vector<float> k(keys_.begin(), keys_.begin() + 16);
  EXPECT_EQ(npy_data<float>(out, "'shape': (2, 8)"), reference(k, {0, 8, 16}, false));
}

}  // namespace

namespace {

using namespace cli_test;

// gpusort plan --rows / --segments: the segmented sort's plan, as gpusort sort asks for it (uniform
// rows for --axis and --row-length, u64 offsets for --segments).
TEST(CliSegmentedPlan, RowsOrSegmentsByOffsets) {
  const auto rows = run_cli({"plan", "-t", "f32", "-n", "4096", "--rows", "16", "--indices", "8", "-r"});
  ASSERT_EQ(rows.code, 0) << describe(rows);
  EXPECT_NE(rows.out.find("segments: 16 rows of 256"), std::string::npos) << describe(rows);
  const auto offsets = run_cli({"plan", "-t", "f32", "-n", "4096", "--segments", "100", "--values", "u32"});
  ASSERT_EQ(offsets.code, 0) << describe(offsets);
  EXPECT_NE(offsets.out.find("segments: 100 by offsets"), std::string::npos) << describe(offsets);
  // a CPU bins on the device (the long-segment kernel's fixed grid in the plan, nothing read back);
  // GPUs read one word back and take tiles or portable (the tuning rows, segmented_policy.cpp)
  const bool binned = offsets.out.find("bin: tiles-or-portable") == std::string::npos;
  for (const char* part : binned ? std::vector<const char*>{"bin: binned", "segmented_bin_long", "nothing read back",
                                                            "segmented_long_sort"}
                                 : std::vector<const char*>{"read back (one word)", "tiles: ", "else portable: "})
    EXPECT_NE(offsets.out.find(part), std::string::npos) << part << ": " << describe(offsets);
  if (offsets.out.find("device class: cpu") != std::string::npos) EXPECT_TRUE(binned) << describe(offsets);
  for (const std::vector<std::string>& refused :
       {std::vector<std::string>{"--rows", "3"}, {"--rows", "0"}, {"--rows", "4", "--segments", "4"},
        {"--rows", "4", "--ranks", "2"}, {"--segments", "4", "-S", "1G"}}) {
    std::vector<std::string> args = {"plan", "-t", "f32", "-n", "4096"};
    args.insert(args.end(), refused.begin(), refused.end());
    const auto r = run_cli(args);
    expect_clean_error(r, 2);
    EXPECT_TRUE(r.out.empty()) << describe(r);
  }
}

}  // namespace
