// gpusort sort --top K: the K smallest (-r: largest) keys of a raw input or of each --row-length row,
// and of each row of an n-D .npy along --axis (its shape kept, the axis's length K), in order, with
// --indices-out their int64 positions in the row; the refusals. Checked against std::stable_sort of
// each row, its first K. f32 keys with int64 indices, so one selection and one sort program are built.
// gpusort sort --partition KTH: raw rows and an .npy along an axis against a stable three-way split.
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

std::vector<float> tied_keys(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<float> v(n);
  for (auto& x : v) x = float(int(rng() % 13) - 6) * 0.5f;
  return v;
}

// Each row's first k positions of its stable order (descending: the exact reverse order, ties by position).
std::vector<std::int64_t> reference(const std::vector<float>& keys, std::size_t length, std::size_t k, bool largest) {
  std::vector<std::int64_t> out;
  for (std::size_t b = 0; b < keys.size(); b += length) {
    std::vector<std::int64_t> p(length);
    std::iota(p.begin(), p.end(), 0);
    std::stable_sort(p.begin(), p.end(), [&](std::int64_t x, std::int64_t y) {
      return largest ? keys[b + y] < keys[b + x] : keys[b + x] < keys[b + y];
    });
    out.insert(out.end(), p.begin(), p.begin() + k);
  }
  return out;
}

std::vector<float> values_at(const std::vector<float>& keys, std::size_t length, const std::vector<std::int64_t>& idx,
                             std::size_t k) {
  std::vector<float> v(idx.size());
  for (std::size_t j = 0; j < idx.size(); ++j) v[j] = keys[(j / k) * length + idx[j]];
  return v;
}

// Each row's positions as a partition around rank kth lays them out: the keys less than the key of
// rank kth (by the row's stable sort), the equal ones, the greater, each in position order.
std::vector<std::int64_t> partition_reference(const std::vector<float>& keys, std::size_t length, std::size_t kth) {
  std::vector<std::int64_t> out;
  for (std::size_t b = 0; b < keys.size(); b += length) {
    std::vector<float> row(keys.begin() + b, keys.begin() + b + length);
    std::stable_sort(row.begin(), row.end());
    const float pivot = row[kth];
    for (int part = 0; part < 3; ++part)
      for (std::size_t i = 0; i < length; ++i) {
        const float v = keys[b + i];
        if ((part == 0 && v < pivot) || (part == 1 && v == pivot) || (part == 2 && v > pivot)) out.push_back(i);
      }
  }
  return out;
}

TEST(CliTopk, RawRowsBothOrders) {
  TempDir d;
  const std::size_t rows = 4, length = 300, k = 17;
  const auto keys = tied_keys(rows * length, 3);
  write_bytes(d / "in.bin", keys.data(), keys.size() * 4);
  for (const bool largest : {false, true}) {
    std::vector<std::string> args = {"sort", (d / "in.bin").string(), "-t", "f32", "--row-length",
                                     std::to_string(length), "--top", std::to_string(k), "-o",
                                     (d / "out.bin").string(), "--indices-out", (d / "idx.bin").string()};
    if (largest) args.push_back("-r");
    ASSERT_CLI_OK(run_cli(args));
    const auto want = reference(keys, length, k, largest);
    EXPECT_EQ(read_vec<std::int64_t>(d / "idx.bin"), want) << "largest " << largest;
    EXPECT_EQ(read_vec<float>(d / "out.bin"), values_at(keys, length, want, k)) << "largest " << largest;
  }
  // the whole input as one row
  ASSERT_CLI_OK(run_cli({"sort", (d / "in.bin").string(), "-t", "f32", "--top", "5", "-o", (d / "one.bin").string()}));
  const auto want = reference(keys, keys.size(), 5, false);
  EXPECT_EQ(read_vec<float>(d / "one.bin"), values_at(keys, keys.size(), want, 5));
}

TEST(CliTopk, NpyAlongAnAxisKeepsItsShape) {
  TempDir d;
  const std::size_t a = 3, b = 40;
  const auto keys = tied_keys(a * b, 4);
  const auto npy = make_npy("<f4", "(3, 40)", keys.data(), keys.size() * 4);
  write_bytes(d / "in.npy", npy.data(), npy.size());
  ASSERT_CLI_OK(run_cli({"sort", (d / "in.npy").string(), "--top", "6", "-r", "-o", (d / "out.npy").string(),
                         "--indices-out", (d / "idx.npy").string()}));
  const auto want = reference(keys, b, 6, true);
  const auto idx = read_bytes(d / "idx.npy");
  EXPECT_NE(std::string(idx.begin(), idx.begin() + 80).find("'shape': (3, 6)"), std::string::npos);
  const std::size_t offset = 10 + (idx[8] | (idx[9] << 8));
  EXPECT_EQ(read_vec<std::int64_t>(d / "idx.npy", offset), want);
  // along axis 0: the 2 smallest of each column, shape (2, 40)
  ASSERT_CLI_OK(run_cli({"sort", (d / "in.npy").string(), "--top", "2", "--axis", "0", "-o", (d / "col.npy").string()}));
  const auto col = read_bytes(d / "col.npy");
  EXPECT_NE(std::string(col.begin(), col.begin() + 80).find("'shape': (2, 40)"), std::string::npos);
  const auto got = read_vec<float>(d / "col.npy", 10 + (col[8] | (col[9] << 8)));
  ASSERT_EQ(got.size(), 2 * b);
  for (std::size_t c = 0; c < b; ++c) {
    std::vector<float> column = {keys[c], keys[b + c], keys[2 * b + c]};
    std::stable_sort(column.begin(), column.end());
    EXPECT_EQ(got[c], column[0]) << c;
    EXPECT_EQ(got[b + c], column[1]) << c;
  }
}

TEST(CliTopk, Refusals) {
  TempDir d;
  const auto keys = tied_keys(100, 5);
  write_bytes(d / "in.bin", keys.data(), keys.size() * 4);
  const std::string in = (d / "in.bin").string(), out = (d / "out.bin").string();
  expect_clean_error(run_cli({"sort", in, "-t", "f32", "--top", "101", "-o", out}));
  expect_clean_error(run_cli({"sort", in, "-t", "f32", "--top", "3", "-u", "-o", out}));
  expect_clean_error(run_cli({"sort", in, "-t", "f32", "--top", "3", "--row-length", "7", "-o", out}));
  EXPECT_FALSE(fs::exists(d / "out.bin"));
  // gpusort plan --top prints the selection
  const auto r = run_cli({"plan", "-t", "f32", "-n", "1000", "--rows", "10", "--top", "5", "-r"});
  ASSERT_CLI_OK(r);
  EXPECT_NE(r.out.find("top-k: the 5 largest of 10 rows of 100, sorted"), std::string::npos) << r.out;
  // gpusort plan --partition prints the selection and the scatter
  const auto p = run_cli({"plan", "-t", "u32", "-n", "1000", "--rows", "10", "--partition", "99", "--indices", "8"});
  ASSERT_CLI_OK(p);
  EXPECT_NE(p.out.find("partition: 10 rows of 100 around the key of rank kth = 99"), std::string::npos) << p.out;
  EXPECT_NE(p.out.find("topk_partition_rows"), std::string::npos) << p.out;
  expect_clean_error(run_cli({"plan", "-t", "u32", "-n", "1000", "--rows", "10", "--partition", "100"}));
  expect_clean_error(run_cli({"plan", "-t", "u32", "-n", "1000", "--partition", "3", "--top", "5"}));
}

// gpusort sort --partition KTH: each row (or the input) partitioned as numpy.partition does, the
// outputs of the input's shape; the refusals.
TEST(CliPartition, RowsNpyAxisAndRefusals) {
  TempDir d;
  const std::size_t rows = 4, length = 300;
  const auto keys = tied_keys(rows * length, 6);
  write_bytes(d / "in.bin", keys.data(), keys.size() * 4);
  const std::string in = (d / "in.bin").string(), out = (d / "out.bin").string(), idx = (d / "idx.bin").string();
  for (const std::string kth : {"0", "100", "-1"}) {
    ASSERT_CLI_OK(run_cli({"sort", in, "-t", "f32", "--row-length", std::to_string(length), "--partition", kth, "-o",
                           out, "--indices-out", idx}));
    const auto want = partition_reference(keys, length, kth == "-1" ? length - 1 : std::stoul(kth));
    EXPECT_EQ(read_vec<std::int64_t>(d / "idx.bin"), want) << kth;
    EXPECT_EQ(read_vec<float>(d / "out.bin"), values_at(keys, length, want, length)) << kth;
  }
  // an n-D .npy along axis 0 keeps its shape: each column of 3 partitioned around rank 1
  const std::size_t a = 3, b = 40;
  const auto small = tied_keys(a * b, 7);
  const auto npy = make_npy("<f4", "(3, 40)", small.data(), small.size() * 4);
  write_bytes(d / "in.npy", npy.data(), npy.size());
  ASSERT_CLI_OK(run_cli({"sort", (d / "in.npy").string(), "--partition", "1", "--axis", "0", "-o",
                         (d / "col.npy").string()}));
  const auto col = read_bytes(d / "col.npy");
  EXPECT_NE(std::string(col.begin(), col.begin() + 80).find("'shape': (3, 40)"), std::string::npos);
  const auto got = read_vec<float>(d / "col.npy", 10 + (col[8] | (col[9] << 8)));
  ASSERT_EQ(got.size(), a * b);
  for (std::size_t c = 0; c < b; ++c) {
    const std::vector<float> column = {small[c], small[b + c], small[2 * b + c]};
    const auto want = partition_reference(column, a, 1);
    for (std::size_t r = 0; r < a; ++r) EXPECT_EQ(got[r * b + c], column[want[r]]) << c;
  }
  expect_clean_error(run_cli({"sort", in, "-t", "f32", "--row-length", "300", "--partition", "300", "-o", out}));
  expect_clean_error(run_cli({"sort", in, "-t", "f32", "--partition", "3", "-r", "-o", out}));
  expect_clean_error(run_cli({"sort", in, "-t", "f32", "--partition", "3", "--top", "3", "-o", out}));
}

}  // namespace
