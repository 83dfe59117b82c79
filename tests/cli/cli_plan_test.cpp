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

TEST(CliPlan, TheExternalAndDistributedPathsPlanTheirPieces) {
  // 2^24 u32 pairs are 128 MiB: under -S 16M a file is sorted through runs of 1M elements (on a CPU
  // device; a GPU it fits streams it), each run planned as a host sort of its own.
  const auto external = run_cli({"plan", "-t", "u32", "-n", "2^24", "--values", "u32", "-S", "16M", "--device",
                                 "opencl:0:0"});
  ASSERT_EQ(external.code, 0) << describe(external);
  EXPECT_NE(external.out.find("path: external"), std::string::npos) << describe(external);
  EXPECT_NE(external.out.find("16 runs of up to 1048576 elements"), std::string::npos) << describe(external);
  EXPECT_NE(external.out.find("  algorithm: "), std::string::npos) << "the run's own plan, indented:\n"
                                                                   << describe(external);
  const auto ranks = run_cli({"plan", "-t", "u64", "-n", "1000000", "--ranks", "4"});
  ASSERT_EQ(ranks.code, 0) << describe(ranks);
  EXPECT_NE(ranks.out.find("distributed over 4 ranks"), std::string::npos) << describe(ranks);
  EXPECT_NE(ranks.out.find("share of up to 250000 elements"), std::string::npos) << describe(ranks);
  expect_clean_error(run_cli({"plan", "-t", "u32", "-n", "2^24", "-S", "1K"}), 2);
  expect_clean_error(run_cli({"plan", "-t", "u32", "-n", "10", "--ranks", "0"}), 2);
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
