// gpusort gen and gpusort verify.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <set>

#include "gpusort/key_order.hpp"
#include "cli_test_util.hpp"

namespace {

using namespace cli_test;

// The library's order (gpusort/key_order.hpp) with a descending flag.
template <class T>
bool key_before(T a, T b, bool descending) {
  return gpusort::key_less<T>{descending ? gpusort::order::descending : gpusort::order::ascending}(a, b);
}

TEST(CliGen, DistributionsHaveTheirShape) {
  TempDir d;
  const auto f = (d / "g").string();
  auto gen = [&](const std::string& type, const std::string& dist, const std::string& n = "2000") {
    const auto r = run_cli({"gen", "-t", type, "-n", n, "--dist", dist, "--seed", "5", "-o", f});
    EXPECT_CLI_OK(r);
  };
  gen("u32", "sorted");
  EXPECT_CLI_OK(run_cli({"verify", f, "-t", "u32"}));
  gen("i16", "reverse");
  EXPECT_CLI_OK(run_cli({"verify", f, "-t", "i16", "--descending"}));
  EXPECT_EQ(run_cli({"verify", f, "-t", "i16"}).code, 1);

  gen("u64", "all-equal");
  {
    const auto v = read_vec<std::uint64_t>(f);
    ASSERT_EQ(v.size(), 2000u);
    EXPECT_EQ(std::set<std::uint64_t>(v.begin(), v.end()).size(), 1u);
  }
  gen("u32", "few-unique");
  {
    const auto v = read_vec<std::uint32_t>(f);
    const auto distinct = std::set<std::uint32_t>(v.begin(), v.end()).size();
    EXPECT_GE(distinct, 8u);
    EXPECT_LE(distinct, 16u);
  }
  gen("u32", "uniform");
  const auto uniform = read_vec<std::uint32_t>(f);
  gen("u32", "entropy-4");
  const auto low = read_vec<std::uint32_t>(f);
  auto bits = [](const std::vector<std::uint32_t>& v) {
    double s = 0;
    for (auto x : v) s += std::popcount(x);
    return s / v.size();
  };
  EXPECT_NEAR(bits(uniform), 16.0, 1.0);
  EXPECT_NEAR(bits(low), 2.0, 0.5);  // AND of 4 words: each bit set with probability 1/16
  gen("i32", "organ-pipe");
  EXPECT_EQ(read_vec<std::int32_t>(f).size(), 2000u);
  gen("u8", "uniform", "0");
  EXPECT_EQ(fs::file_size(f), 0u);
}

TEST(CliGen, SameSeedSameData) {
  TempDir d;
  ASSERT_CLI_OK(run_cli({"gen", "-t", "f64", "-n", "500", "--seed", "9", "-o", (d / "a").string()}));
  ASSERT_CLI_OK(run_cli({"gen", "-t", "f64", "-n", "500", "--seed", "9", "-o", (d / "b").string()}));
  ASSERT_CLI_OK(run_cli({"gen", "-t", "f64", "-n", "500", "--seed", "10", "-o", (d / "c").string()}));
  EXPECT_EQ(read_bytes(d / "a"), read_bytes(d / "b"));
  EXPECT_NE(read_bytes(d / "a"), read_bytes(d / "c"));
}

TEST(CliGen, UniformFloatsAreFiniteAndSpreadOverSignsAndMagnitudes) {
  TempDir d;
  ASSERT_CLI_OK(run_cli({"gen", "-t", "f32", "-n", "20000", "--dist", "uniform", "-o", (d / "f").string()}));
  const auto v = read_vec<float>(d / "f");
  ASSERT_EQ(v.size(), 20000u);
  std::size_t negative = 0, tiny = 0, huge = 0;
  for (float x : v) {
    ASSERT_TRUE(std::isfinite(x));
    negative += std::signbit(x);
    tiny += std::fabs(x) < 1e-30f;
    huge += std::fabs(x) > 1e30f;
  }
  EXPECT_GT(negative, 8000u);
  EXPECT_GT(tiny, 1000u);
  EXPECT_GT(huge, 1000u);
}

TEST(CliGen, HelpDocumentsDistributions) {
  const auto r = run_cli({"gen", "--help"});
  ASSERT_CLI_OK(r);
  for (const char* word : {"uniform", "sorted", "reverse", "few-unique", "all-equal", "entropy-K", "finite"})
    EXPECT_NE(r.out.find(word), std::string::npos) << word << "\n" << r.out;
}

TEST(CliVerify, NamesFirstUnsortedIndex) {
  TempDir d;
  write_vec<std::int32_t>(d / "k", {1, 2, 2, 5, 3, 4, 0});
  const auto r = run_cli({"verify", (d / "k").string(), "--type", "i32"});
  EXPECT_EQ(r.code, 1) << describe(r);
  EXPECT_NE(r.out.find("index 4"), std::string::npos) << describe(r);
  const auto q = run_cli({"verify", (d / "k").string(), "--type", "i32", "--quiet"});
  EXPECT_EQ(q.code, 1);
  EXPECT_TRUE(q.out.empty());
}

TEST(CliVerify, FloatOrderRules) {
  TempDir d;
  const float nan = std::bit_cast<float>(0x7fc00123u);
  // -0 and +0 equal (in either order), NaN after everything ascending, first descending.
  write_vec<float>(d / "asc", {-INFINITY, -1.f, 0.f, -0.f, 0.f, 1e-45f, INFINITY, nan, nan});
  EXPECT_CLI_OK(run_cli({"verify", (d / "asc").string(), "-t", "f32"}));
  EXPECT_EQ(run_cli({"verify", (d / "asc").string(), "-t", "f32", "-d"}).code, 1);
  write_vec<float>(d / "desc", {nan, INFINITY, 2.f, -0.f, 0.f, -0.f, -3.f});
  EXPECT_CLI_OK(run_cli({"verify", (d / "desc").string(), "-t", "f32", "-d"}));
  write_vec<float>(d / "bad", {1.f, nan, 2.f});
  const auto r = run_cli({"verify", (d / "bad").string(), "-t", "f32"});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("index 2"), std::string::npos) << r.out;
}

TEST(CliVerify, OrderedKeyMatchesLibraryRules) {
  EXPECT_FALSE(key_before(-0.0, 0.0, false));
  EXPECT_FALSE(key_before(0.0, -0.0, false));
  EXPECT_TRUE(key_before(1e308, std::nan(""), false));
  EXPECT_TRUE(key_before(std::nan(""), -1e308, true));
  EXPECT_TRUE(key_before(-1.0, -0.5, false));
  EXPECT_TRUE(key_before(std::int8_t(-128), std::int8_t(127), false));
  EXPECT_TRUE(key_before(std::uint64_t(1) << 63, std::uint64_t(1), true));
}

}  // namespace
