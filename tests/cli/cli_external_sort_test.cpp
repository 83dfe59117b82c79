// gpusort sort --memory-limit: inputs larger than the limit are sorted externally through runs in
// the temporary directory (external_sort.hpp). Each output must be byte for byte the in-memory
// sort's (stable where asked), whatever the runs and duplicates, and nothing may be left behind.
#include <gtest/gtest.h>

#include <fstream>

#include "cli_test_util.hpp"

namespace {

using namespace cli_test;

class CliExternalSort : public ::testing::Test {
 protected:
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  void gen(const std::string& type, std::size_t n, const std::string& dist, const std::string& seed,
           const std::string& out) {
    ASSERT_CLI_OK(run_cli({"gen", "-t", type, "-n", std::to_string(n), "--dist", dist, "--seed", seed, "-o", path(out)}));
  }
  // The in-memory sort and the external one (limit bytes, runs in tmp/) of the same input agree.
  void expect_same_as_in_memory(std::vector<std::string> common, const std::string& limit, bool pairs) {
    std::vector<std::string> ref = common, ext = common;
    ref.insert(ref.end(), {"-o", path("ref")});
    ext.insert(ext.end(), {"-o", path("ext"), "-S", limit, "-T", (dir_ / "tmp").string(), "-v"});
    if (pairs) {
      ref.insert(ref.end(), {"--values-out", path("ref.values")});
      ext.insert(ext.end(), {"--values-out", path("ext.values")});
    }
    ASSERT_CLI_OK(run_cli(ref));
    const RunResult r = run_cli(ext);
    ASSERT_CLI_OK(r);
    EXPECT_NE(r.err.find("external sort of"), std::string::npos) << r.err;
    EXPECT_EQ(read_text(dir_ / "ext"), read_text(dir_ / "ref"));
    if (pairs) EXPECT_EQ(read_text(dir_ / "ext.values"), read_text(dir_ / "ref.values"));
    EXPECT_TRUE(fs::is_empty(dir_ / "tmp")) << "runs left behind";
  }
  void SetUp() override { fs::create_directory(dir_ / "tmp"); }
  TempDir dir_;
};

TEST_F(CliExternalSort, KeysManyRunsBothOrders) {
  gen("u32", 300001, "uniform", "3", "k");
  expect_same_as_in_memory({"sort", path("k"), "-t", "u32"}, "64K", false);
  expect_same_as_in_memory({"sort", path("k"), "-t", "u32", "--descending"}, "100000", false);
}

TEST_F(CliExternalSort, FloatsWithSpecials) {
  gen("f64", 70001, "specials", "4", "k");
  expect_same_as_in_memory({"sort", path("k"), "-t", "f64"}, "96K", false);
}

TEST_F(CliExternalSort, StablePairsWithHeavyDuplicates) {
  for (const char* dist : {"few-unique", "all-equal"}) {
    gen("u16", 200003, dist, "5", "k");
    gen("u32", 200003, "uniform", "6", "v");
    expect_same_as_in_memory({"sort", path("k"), "-t", "u16", "--stable", "--values", path("v"), "--values-type", "u32"},
                             "60K", true);
  }
}

TEST_F(CliExternalSort, NpyOutputHeader) {
  gen("i32", 50000, "uniform", "7", "k");
  ASSERT_CLI_OK(run_cli({"sort", path("k"), "-t", "i32", "-o", path("ref.npy")}));
  ASSERT_CLI_OK(run_cli({"sort", path("k"), "-t", "i32", "-o", path("ext.npy"), "-S", "32K", "-T", path("tmp")}));
  EXPECT_EQ(read_text(dir_ / "ext.npy"), read_text(dir_ / "ref.npy"));
}

TEST_F(CliExternalSort, InputsWithinTheLimitSortInMemory) {
  gen("u32", 1000, "uniform", "8", "k");
  const RunResult r = run_cli({"sort", path("k"), "-t", "u32", "-o", path("o"), "-S", "1M", "-v"});
  ASSERT_CLI_OK(r);
  EXPECT_EQ(r.err.find("external sort"), std::string::npos) << r.err;
}

TEST_F(CliExternalSort, ClearErrors) {
  gen("u32", 20000, "uniform", "9", "k");
  // A limit below two runs of 1024 keys (a run takes half the limit).
  RunResult r = run_cli({"sort", path("k"), "-t", "u32", "-o", path("o"), "-S", "8000"});
  expect_clean_error(r);
  EXPECT_NE(r.err.find("--memory-limit must be at least 8192"), std::string::npos) << r.err;
  // A temporary directory that does not exist.
  r = run_cli({"sort", path("k"), "-t", "u32", "-o", path("o"), "-S", "16K", "-T", path("nowhere")});
  expect_clean_error(r);
  EXPECT_NE(r.err.find("--temporary-directory"), std::string::npos) << r.err;
  // -T without -S, and contradicting progress flags.
  expect_clean_error(run_cli({"sort", path("k"), "-t", "u32", "-o", path("o"), "-T", path("tmp")}), 2);
  expect_clean_error(run_cli({"sort", path("k"), "-t", "u32", "-o", path("o"), "--progress", "--no-progress"}), 2);
  // A .npy input above the limit.
  ASSERT_CLI_OK(run_cli({"sort", path("k"), "-t", "u32", "-o", path("k.npy")}));
  r = run_cli({"sort", path("k.npy"), "-o", path("o"), "-S", "16K"});
  expect_clean_error(r);
  EXPECT_NE(r.err.find("raw files only"), std::string::npos) << r.err;
  // Numbers written as text, above the limit, of a size no u32 array has: refused with the hint,
  // as the in-memory path refuses them.
  {
    std::ofstream text(path("t.txt"));
    for (int i = 0; i < 20000; ++i) text << i << "\n";
  }
  r = run_cli({"sort", path("t.txt"), "-t", "u32", "-o", path("o"), "-S", "16K"});
  expect_clean_error(r);
  EXPECT_NE(r.err.find("text"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "o"));
  EXPECT_TRUE(fs::is_empty(dir_ / "tmp"));
}

// Bytes that look like text but make a valid array are sorted externally as the in-memory path
// sorts them: with one warning (none with --format raw).
TEST_F(CliExternalSort, TextLookingInputIsSortedWithAWarning) {
  {
    std::ofstream text(path("t.txt"));
    for (int i = 0; i < 20000; ++i) text << std::string(7 - std::to_string(i).size(), '0') << i << "\n";  // 8 bytes
  }
  ASSERT_CLI_OK(run_cli({"sort", path("t.txt"), "-t", "u32", "-o", path("ref"), "--format", "raw"}));
  const RunResult r = run_cli({"sort", path("t.txt"), "-t", "u32", "-o", path("ext"), "-S", "16K", "-T", path("tmp")});
  ASSERT_CLI_OK(r);
  const auto lines = lines_of(r.err);
  ASSERT_EQ(lines.size(), 1u) << describe(r);
  EXPECT_EQ(lines[0].rfind("gpusort: warning: ", 0), 0u) << r.err;
  EXPECT_NE(lines[0].find("--format raw"), std::string::npos) << r.err;
  EXPECT_EQ(read_text(dir_ / "ext"), read_text(dir_ / "ref"));
  EXPECT_TRUE(fs::is_empty(dir_ / "tmp")) << "runs left behind";
}

}  // namespace
