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

// A record sort's plan: the algorithm of every pass, the path and each pass; what gpusort sort
// --record-size would refuse, refused alike.
TEST(CliPlan, RecordsPlanTheirPasses) {
  const auto r = run_cli({"plan", "--record-size", "100", "--key", "8:i32:desc,0:bytes10", "-n", "20000"});
  ASSERT_EQ(r.code, 0) << describe(r);
  for (const char* line : {"algorithm: ", "path: records in one piece", "3 sort passes", "records_make_keys",
                           "(i32 at byte 8, descending)", "(2 bytes at byte 8 as u16, ascending)", "records_gather",
                           "temporary bytes: "})
    EXPECT_NE(r.out.find(line), std::string::npos) << line << " missing:\n" << describe(r);
  const auto host = run_cli({"plan", "--record-size", "100", "--key", "0:bytes10", "-n", "20001",
                             "--device-memory-limit", "2000100"});
  ASSERT_EQ(host.code, 0) << describe(host);
  EXPECT_NE(host.out.find("path: host passes"), std::string::npos) << describe(host);
  EXPECT_NE(host.out.find("pass 2 (8 bytes at byte 0 as u64, ascending; 4-byte indices as values)"), std::string::npos)
      << describe(host);
  const auto device = run_cli({"plan", "--record-size", "16", "--key", "0:u64", "-n", "1000", "--where", "device",
                               "-a", "merge"});
  ASSERT_EQ(device.code, 0) << describe(device);
  EXPECT_NE(device.out.find("algorithm: merge"), std::string::npos) << describe(device);
  EXPECT_NE(device.out.find("the records as its values"), std::string::npos) << describe(device);
  expect_clean_error(run_cli({"plan", "--record-size", "100", "--key", "0:bytes10", "-n", "10", "-a", "bitonic"}), 2);
  expect_clean_error(run_cli({"plan", "--record-size", "8", "--key", "4:u64", "-n", "10"}), 2);
  expect_clean_error(run_cli({"plan", "--record-size", "8", "--key", "0:u32", "-t", "u32", "-n", "10"}), 2);
  expect_clean_error(run_cli({"plan", "--key", "0:u32", "-t", "u32", "-n", "10"}), 2);
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
