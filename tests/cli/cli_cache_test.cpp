// gpusort cache info | clear on a private cache directory.
#include <gtest/gtest.h>

#include "cli_test_util.hpp"

namespace {

using namespace cli_test;

TEST(CliCache, InfoCountsAndClearEmpties) {
  TempDir d;
  const auto cache = d / "cache";
  const std::string env = "GPUSORT_CACHE_DIR=" + shell_quote(cache.string());
  std::vector<std::uint32_t> keys = {5, 3, 9, 1};
  write_vec(d / "k", keys);
  ASSERT_CLI_OK(run_cli({"sort", (d / "k").string(), "-t", "u32", "-o", (d / "o").string()}, env));
  auto r = run_cli({"cache", "info"}, env);
  ASSERT_CLI_OK(r);
  EXPECT_NE(r.out.find(cache.string()), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("entries:   0"), std::string::npos) << r.out;
  r = run_cli({"cache", "clear"}, env);
  ASSERT_CLI_OK(r);
  r = run_cli({"cache", "info"}, env);
  ASSERT_CLI_OK(r);
  EXPECT_NE(r.out.find("entries:   0"), std::string::npos) << r.out;
  // A cache directory others may write to is refused, with one warning, and the sort still works.
  fs::permissions(cache, fs::perms::all);
  r = run_cli({"sort", (d / "k").string(), "-t", "u32", "-o", (d / "o").string()}, env);
  ASSERT_CLI_OK(r);
  EXPECT_NE(r.err.find("warning"), std::string::npos) << r.err;
  EXPECT_EQ(read_vec<std::uint32_t>(d / "o"), (std::vector<std::uint32_t>{1, 3, 5, 9}));
}

// The --verbose note says whether the programs compiled on first use were cached.
TEST(CliCache, VerboseNoteSaysWhetherProgramsWereCached) {
  TempDir d;
  std::vector<std::uint32_t> keys = {5, 3, 9, 1, 7, 2};
  write_vec(d / "k", keys);
  const std::vector<std::string> sort = {"sort", (d / "k").string(), "-t", "u32", "-o", (d / "o").string(), "-v"};
  // A fresh cache: the program is compiled and stored.
  auto r = run_cli(sort, "GPUSORT_CACHE_DIR=" + shell_quote((d / "fresh").string()));
  ASSERT_CLI_OK(r);
  EXPECT_NE(r.err.find("they are cached now"), std::string::npos) << r.err;
  // A cache "directory" that is a file: nothing can be stored, and the note says so.
  write_vec(d / "not-a-dir", keys);
  r = run_cli(sort, "GPUSORT_CACHE_DIR=" + shell_quote((d / "not-a-dir").string()));
  ASSERT_CLI_OK(r);
  EXPECT_NE(r.err.find("could not be cached"), std::string::npos) << r.err;
  EXPECT_EQ(read_vec<std::uint32_t>(d / "o"), (std::vector<std::uint32_t>{1, 2, 3, 5, 7, 9}));
}

}  // namespace
