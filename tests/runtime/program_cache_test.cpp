// The on-disk program cache: a second process compiles nothing; build errors carry the log.
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "runtime/device.hpp"
#include "runtime/program_cache.hpp"
#include "support/test_support.hpp"

namespace gpusort::test {
namespace {

// Runs in a child process (see TwoProcesses): builds one program, writes the counters to a file.
TEST(ProgramCacheChild, BuildOneProgram) {
  const char* out = std::getenv("GPUSORT_CACHE_CHILD_OUT");
  if (!out) GTEST_SKIP() << "only runs as the child of ProgramCache.SecondProcessCompilesNothing";
  test_context().runtime_device().program("bitonic.cl", {"KEY_BITS=16", "KEY_KIND=1", "VALUE_BYTES=2", "GROUP_SIZE=8"});
  auto stats = rt::program_cache_stats();
  std::ofstream(out) << stats.compiled << " " << stats.loaded << "\n";
}

std::pair<int, int> run_child(const std::filesystem::path& cache, const std::filesystem::path& out) {
  std::string exe = std::filesystem::read_symlink("/proc/self/exe").string();
  std::string cmd = "GPUSORT_CACHE_DIR='" + cache.string() + "' GPUSORT_CACHE_CHILD_OUT='" + out.string() + "' '" + exe +
        "' --gtest_filter=ProgramCacheChild.* > /dev/null 2>&1";
  int rc = std::system(cmd.c_str());
  EXPECT_EQ(rc, 0) << cmd;
  int compiled = -1, loaded = -1;
  std::ifstream(out) >> compiled >> loaded;
  return {compiled, loaded};
}

TEST(ProgramCache, SecondProcessCompilesNothing) {
  auto dir = std::filesystem::temp_directory_path() / ("gpusort-cache-test-" + std::to_string(fresh_seed()));
  std::filesystem::create_directories(dir);
  auto [c1, l1] = run_child(dir / "cache", dir / "first.txt");
  EXPECT_EQ(c1, 1);
  EXPECT_EQ(l1, 0);
  auto [c2, l2] = run_child(dir / "cache", dir / "second.txt");
  EXPECT_EQ(c2, 0) << "the second process compiled again";
  EXPECT_EQ(l2, 1);
  // The cache holds complete entries only: no temporary files left behind.
  for (auto& e : std::filesystem::directory_iterator(dir / "cache"))
    EXPECT_EQ(e.path().extension(), ".bin") << e.path();
  std::filesystem::remove_all(dir);
}

TEST(ProgramCache, KeyDependsOnEveryPart) {
  auto base = rt::program_cache_key("opencl", "dev", "drv", "src", "-DA");
  EXPECT_NE(base, rt::program_cache_key("cuda", "dev", "drv", "src", "-DA"));
  EXPECT_NE(base, rt::program_cache_key("opencl", "dev2", "drv", "src", "-DA"));
  EXPECT_NE(base, rt::program_cache_key("opencl", "dev", "drv2", "src", "-DA"));
  EXPECT_NE(base, rt::program_cache_key("opencl", "dev", "drv", "src2", "-DA"));
  EXPECT_NE(base, rt::program_cache_key("opencl", "dev", "drv", "src", "-DB"));
  EXPECT_EQ(base, rt::program_cache_key("opencl", "dev", "drv", "src", "-DA"));
}

TEST(ProgramBuild, ErrorCarriesTheCompilerLog) {
  try {
    // bitonic.cl refuses to compile without GROUP_SIZE (#error)
    test_context().runtime_device().program("bitonic.cl", {"KEY_BITS=32", "KEY_KIND=0", "VALUE_BYTES=0"});
    FAIL() << "built without GROUP_SIZE";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), errc::build_error);
    EXPECT_NE(std::string(e.what()).find("GROUP_SIZE"), std::string::npos) << e.what();
  }
}

TEST(ProgramBuild, UnknownKernelFileIsAnError) {
  EXPECT_THROW(test_context().runtime_device().program("no_such_file.cl", {}), Error);
}

}  // namespace
}  // namespace gpusort::test
