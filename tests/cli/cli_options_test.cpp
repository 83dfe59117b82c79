// Numeric options of the gpusort command: strictly parsed, range-checked with the valid range in
// the error, sizes with units; nothing wraps around or is silently ignored.
#include <gtest/gtest.h>

#include "cli_test_util.hpp"

namespace {

using namespace cli_test;

class CliOptions : public WithKeysFile {
 protected:
  RunResult sort_with(std::vector<std::string> extra) {
    std::vector<std::string> args = {"sort", keys_, "-t", "u32", "-o", (dir_ / "out").string()};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_cli(args);
  }
  void expect_refused(std::vector<std::string> extra, const std::string& must_mention) {
    const auto r = sort_with(extra);
    expect_clean_error(r, 2);
    EXPECT_NE(r.err.find(must_mention), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir_ / "out"));
  }
};

TEST_F(CliOptions, NegativeAndMalformedNumbersAreRefused) {
  expect_refused({"-a", "section-merge", "--items-per-thread", "-1"}, "0..");
  expect_refused({"-a", "hybrid", "--items-per-thread", "-1"}, "negative");
  expect_refused({"-a", "bitonic", "--wg", "-64"}, "--wg");
  expect_refused({"-a", "bitonic", "--wg", "64k"}, "whole number");
  expect_refused({"-a", "bitonic", "--wg", "18446744073709551616"}, "--wg");
  expect_refused({"-a", "hybrid", "--host-levels", "65"}, "-1..64");
  expect_refused({"--device-memory-limit", "-1"}, "negative");
  expect_refused({"--device-memory-limit", "4Q"}, "unit");
  expect_refused({"--device-memory-limit", "99999999999E"}, "too large");
  expect_refused({"--threads", "65"}, "0..64");
  expect_refused({"--threads", "-2"}, "negative");
}

TEST_F(CliOptions, ThreadsSetTheCopyThreads) {
  for (const char* t : {"0", "1", "3"}) EXPECT_CLI_OK(sort_with({"--threads", t})) << t;
}

TEST_F(CliOptions, SizesTakeUnits) {
  // Large limits are accepted (the sort fits in one piece); a byte count with a unit is parsed.
  for (const char* size : {"1048576", "1M", "1MiB", "64MB", "4GiB", "2G"})
    EXPECT_CLI_OK(sort_with({"--device-memory-limit", size})) << size;
}

TEST_F(CliOptions, MalformedDeviceIdIsAClearError) {
  const auto r = sort_with({"--device", "opencl:99999999999999999999:0"});
  expect_clean_error(r);
  EXPECT_EQ(r.err.find("stoi"), std::string::npos) << r.err;
}

TEST_F(CliOptions, GenCountBeyondMemoryIsAClearError) {
  const auto out = (dir_ / "g").string();
  auto r = run_cli({"gen", "-t", "u8", "-n", "2^63", "-o", out});
  expect_clean_error(r);
  EXPECT_EQ(r.err.find("_M_default_append"), std::string::npos) << r.err;
  expect_clean_error(run_cli({"gen", "-t", "u8", "-n", "-5", "-o", out}), 2);
  expect_clean_error(run_cli({"gen", "-t", "u8", "-n", "2^64", "-o", out}), 2);
  expect_clean_error(run_cli({"gen", "-t", "u8", "-n", "10", "--seed", "-1", "-o", out}), 2);
  EXPECT_FALSE(fs::exists(out));
}

TEST_F(CliOptions, LibraryErrorsSpeakOfFlags) {
  // An algorithm that cannot be stable: the library names SortOptions::stable, the CLI --stable.
  const auto r = sort_with({"-a", "bitonic", "--stable"});
  expect_clean_error(r, 2);
  EXPECT_EQ(r.err.find("SortOptions"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--stable"), std::string::npos) << r.err;
}

}  // namespace
