// gpusort plan: what a sort would run, printed without sorting; and --verbose printing the same
// plan before a sort.
#include <gtest/gtest.h>

#include "cli_test_util.hpp"

namespace {

using namespace cli_test;

TEST(CliPlan, PrintsTheAlgorithmPathStepsAndTemporaries) {
  const auto r = run_cli({"plan", "--type", "u32", "--count", "2^20", "--values", "u32"});
  ASSERT_EQ(r.code, 0) << describe(r);
  for (const char* line : {"device: ", "device class: ", "algorithm: radix", "path: one piece", "step 1: ",
                           "temporary bytes: "})
    EXPECT_NE(r.out.find(line), std::string::npos) << line << " missing:\n" << describe(r);
  EXPECT_TRUE(r.err.empty()) << describe(r);
}

TEST(CliPlan, TakesTheSortOptions) {
  const auto r = run_cli({"plan", "-t", "f64", "-n", "1000000", "--indices", "8", "-a", "merge", "--descending",
                          "--stable", "--device-memory-limit", "4M"});
  ASSERT_EQ(r.code, 0) << describe(r);
  EXPECT_NE(r.out.find("algorithm: merge"), std::string::npos) << describe(r);
  EXPECT_NE(r.out.find("chunks"), std::string::npos) << describe(r);
  EXPECT_NE(r.out.find("positions"), std::string::npos) << describe(r);
}

TEST(CliPlan, RefusesWhatASortWouldRefuse) {
  expect_clean_error(run_cli({"plan", "-t", "u32", "-n", "abc"}), 2);
  expect_clean_error(run_cli({"plan", "-t", "u33", "-n", "10"}), 2);
  expect_clean_error(run_cli({"plan", "-t", "u32", "-n", "10", "--where", "device", "--threads", "2"}), 2);
  expect_clean_error(run_cli({"plan", "-t", "u32", "-n", "10", "-a", "bitonic", "--stable"}), 2);
  expect_clean_error(run_cli({"plan", "-t", "u32", "-n", "10", "--indices", "8", "--values", "u32"}), 2);
}

TEST(CliPlan, VerboseSortPrintsThePlanFirst) {
  TempDir dir;
  std::vector<std::uint32_t> keys(5000);
  for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = std::uint32_t((i * 2654435761u) >> 7);
  write_bytes(dir / "k", keys.data(), keys.size() * 4);
  const auto r = run_cli({"sort", (dir / "k").string(), "-t", "u32", "-o", (dir / "o").string(), "--verbose"});
  ASSERT_EQ(r.code, 0) << describe(r);
  const auto plan_at = r.err.find("gpusort: plan: algorithm: ");
  EXPECT_NE(plan_at, std::string::npos) << describe(r);
  EXPECT_NE(r.err.find("gpusort: plan: step 1: "), std::string::npos) << describe(r);
}

}  // namespace
