// gpusort sort --comparator: a run-time order given on the command line (or @FILE), against
// std::stable_sort with the same order; a comparator that does not compile shows its own line,
// and the paths that cannot take it say so.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <random>

#include "cli_test_util.hpp"

namespace {

using namespace cli_test;

constexpr std::size_t kMaxBodyForTest = 16 * 1024;  // gpusort::kMaxComparatorBytes

class CliComparator : public ::testing::Test {
 protected:
  std::vector<std::uint32_t> make(std::size_t n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<std::uint32_t> v(n);
    for (auto& x : v) x = static_cast<std::uint32_t>(rng());
    write_vec(dir_ / "in.u32", v);
    return v;
  }
  RunResult sort(std::vector<std::string> extra) {
    std::vector<std::string> args = {"sort", (dir_ / "in.u32").string(), "-o", (dir_ / "out.u32").string(), "-t", "u32"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_cli(args);
  }
  TempDir dir_;
};

TEST_F(CliComparator, TextAndFileStableBothOrders) {
  auto in = make(30000, 31);
  ASSERT_CLI_OK(sort({"--comparator", "return (a & 255u) < (b & 255u);", "--stable"}));
  auto ref = in;
  std::stable_sort(ref.begin(), ref.end(), [](std::uint32_t a, std::uint32_t b) { return (a & 255u) < (b & 255u); });
  EXPECT_TRUE(read_vec<std::uint32_t>(dir_ / "out.u32") == ref);

  std::ofstream(dir_ / "order.txt") << "// by the high byte\nconst unsigned int x = a >> 24, y = b >> 24;\nreturn x < y;\n";
  ASSERT_CLI_OK(sort({"--comparator", "@" + (dir_ / "order.txt").string(), "--stable", "--descending"}));
  ref = in;
  std::stable_sort(ref.begin(), ref.end(), [](std::uint32_t a, std::uint32_t b) { return (b >> 24) < (a >> 24); });
  EXPECT_TRUE(read_vec<std::uint32_t>(dir_ / "out.u32") == ref);
}

TEST_F(CliComparator, ErrorsNameTheProblem) {
  make(1000, 32);
  RunResult r = sort({"--comparator", "int x = a;\nreturn a < ;"});
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("comparator:2"), std::string::npos) << r.err;  // the user's own line
  EXPECT_FALSE(fs::exists(dir_ / "out.u32"));
  r = sort({"--comparator", "return a < b;", "--algorithm", "radix"});
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("--comparator"), std::string::npos) << r.err;
  r = sort({"--comparator", "@" + (dir_ / "missing.txt").string()});
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("missing.txt"), std::string::npos) << r.err;
  r = sort({"--comparator", "return a < b;", "--memory-limit", "1K"});  // 4000 bytes: an external sort
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("--memory-limit"), std::string::npos) << r.err;
}

// f32 keys with ties and about one NaN in eight, written as in.f32.
std::vector<float> nan_floats(const TempDir& dir, std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<float> v(n);
  for (auto& x : v) x = rng() % 8 == 0 ? std::nanf("") : float(int(rng() % 801) - 400) / 4.0f;
  write_vec(dir / "in.f32", v);
  return v;
}

std::vector<std::uint32_t> sorted_bits(const std::vector<float>& v) {
  std::vector<std::uint32_t> bits(v.size());
  std::memcpy(bits.data(), v.data(), v.size() * 4);
  std::sort(bits.begin(), bits.end());
  return bits;
}

TEST_F(CliComparator, AnOrderThatIsNoStrictWeakOrderFailsAndLeavesTheOutput) {
  // `a < b` over NaN (the natural way to write it) made the default merge sort lose most distinct
  // values with exit 0, and `rank` with `return 1;` or `a <= b` crash. Now: sorted with nothing lost,
  // or one error line naming the cause, the exit status of a bad input and the old output intact.
  const auto in = nan_floats(dir_, 20001, 33);
  const std::vector<std::uint32_t> old_output = {1, 2, 3};
  for (std::vector<std::string> extra : {std::vector<std::string>{"--comparator", "return a < b;"},
                                         {"--comparator", "return a <= b;", "--algorithm", "rank"},
                                         {"--comparator", "return 1;", "--algorithm", "rank"}}) {
    write_vec(dir_ / "out.f32", old_output);
    std::vector<std::string> args = {"sort", (dir_ / "in.f32").string(), "-o", (dir_ / "out.f32").string(), "-t", "f32"};
    args.insert(args.end(), extra.begin(), extra.end());
    const RunResult r = run_cli(args);
    const std::string what = extra[1] + (extra.size() > 2 ? " " + extra[3] : "");
    if (r.code == 0) {  // allowed only as a correct result: every key kept, none out of the order
      const auto out = read_vec<float>(dir_ / "out.f32");
      EXPECT_EQ(sorted_bits(out), sorted_bits(in)) << what;
      continue;
    }
    EXPECT_EQ(r.code, 2) << what << ": " << r.err;  // as other errors in the input
    EXPECT_EQ(r.err.rfind("gpusort: error: the comparator is not a strict weak order", 0), 0u) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find("isnan"), std::string::npos) << r.err;  // the remedy
    EXPECT_EQ(read_vec<std::uint32_t>(dir_ / "out.f32"), old_output) << what;
    EXPECT_EQ(dir_.entries(), (std::vector<std::string>{"in.f32", "out.f32"})) << what;  // no temporary left
  }
}

TEST_F(CliComparator, NaNAwareOrderSortsNaNLast) {
  // the README's example
  const auto in = nan_floats(dir_, 20001, 34);
  ASSERT_CLI_OK(run_cli({"sort", (dir_ / "in.f32").string(), "-o", (dir_ / "out.f32").string(), "-t", "f32",
                         "--comparator", "return isnan(b) ? !isnan(a) : a < b;"}));
  const auto out = read_vec<float>(dir_ / "out.f32");
  EXPECT_EQ(sorted_bits(out), sorted_bits(in));
  std::size_t wrong = 0;
  for (std::size_t i = 1; i < out.size(); ++i) wrong += std::isnan(out[i - 1]) ? !std::isnan(out[i]) : out[i] < out[i - 1];
  EXPECT_EQ(wrong, 0u);
  EXPECT_TRUE(std::isnan(out.back()));
}

TEST_F(CliComparator, LongAndDeeplyNestedBodies) {
  make(1000, 35);
  // a body over the limit is refused with its size, before anything is compiled or written
  std::ofstream(dir_ / "long.txt") << "return a < b" << std::string(kMaxBodyForTest, ' ') << ";";
  RunResult r = sort({"--comparator", "@" + (dir_ / "long.txt").string()});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("at most 16384"), std::string::npos) << r.err;
  EXPECT_EQ(dir_.entries(), (std::vector<std::string>{"in.u32", "long.txt"}));
  // a body nested 4000 levels deep (4 KB) overflowed the compiler's stack: the process crashed
  // (a constant of its own per run: compiled, not loaded from gpusort's or the driver's kernel cache)
  std::ofstream(dir_ / "deep.txt") << "const unsigned int run = " << std::random_device{}() << "u;\n(void)run;\nreturn "
                                   << std::string(4000, '!') << "(a < b);";
  r = sort({"--comparator", "@" + (dir_ / "deep.txt").string(), "--algorithm", "odd-even"});
  ASSERT_EQ(r.code, 0) << r.err;
  auto out = read_vec<std::uint32_t>(dir_ / "out.u32");
  EXPECT_TRUE(std::is_sorted(out.begin(), out.end()));
}

}  // namespace
