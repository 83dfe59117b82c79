// gpusort sort --comparator: a run-time order given on the command line (or @FILE), against
// std::stable_sort with the same order; a comparator that does not compile shows its own line,
// and the paths that cannot take it say so.
#include <gtest/gtest.h>

#include <fstream>
#include <random>

#include "cli_test_util.hpp"

namespace {

using namespace cli_test;

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

}  // namespace
