// Installs this build tree into a temporary prefix, then builds and runs the downstream example in
// examples/consumer against it, as CMake users build it (find_package) and as everyone else does
// (pkg-config): the installed package must be usable both ways.
#include <gtest/gtest.h>

#include <cstdlib>

#include "cli_test_util.hpp"

namespace {

using namespace cli_test;

int run_shell(const std::string& cmd, const fs::path& log) {
  const std::string full = "(" + cmd + ") >" + shell_quote(log.string()) + " 2>&1";
  const int status = std::system(full.c_str());
  return (status != -1 && WIFEXITED(status)) ? WEXITSTATUS(status) : -1;
}

TEST(InstallConsumer, FindPackageBuildAndRun) {
  // A carried build on a machine without the build's toolchain and packages cannot reinstall itself.
  if (std::getenv("GPUSORT_SKIP_INSTALL_TEST")) GTEST_SKIP() << "GPUSORT_SKIP_INSTALL_TEST is set";
  TempDir d;
  const auto prefix = d / "prefix";
  const auto build = d / "consumer-build";
  const auto log = d / "log";
  const std::string cmake = "cmake";

  ASSERT_EQ(run_shell(cmake + " --install " + shell_quote(GPUSORT_BINARY_DIR) + " --prefix " + shell_quote(prefix.string()),
                      log),
            0)
      << read_text(log);
  for (const fs::path& header : fs::directory_iterator(fs::path(GPUSORT_SOURCE_DIR) / "include" / "gpusort"))
    EXPECT_TRUE(fs::exists(prefix / "include" / "gpusort" / header.filename())) << header << " is installed";
  EXPECT_TRUE(fs::exists(prefix / "bin" / "gpusort")) << "the gpusort command is installed";

  const std::string source = std::string(GPUSORT_SOURCE_DIR) + "/examples/consumer";
  ASSERT_EQ(run_shell(cmake + " -S " + shell_quote(source) + " -B " + shell_quote(build.string()) +
                          " -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=" + shell_quote(prefix.string()),
                      log),
            0)
      << read_text(log);
  ASSERT_EQ(run_shell(cmake + " --build " + shell_quote(build.string()) + " -j2", log), 0) << read_text(log);
  ASSERT_EQ(run_shell(shell_quote((build / "gpusort-consumer").string()), log), 0) << read_text(log);
  EXPECT_EQ(read_text(log), "-7 -7 0 3 8 19 42 100\n");

  // The installed command works too.
  const auto r = run_shell(shell_quote((prefix / "bin" / "gpusort").string()) + " algorithms", log);
  EXPECT_EQ(r, 0) << read_text(log);
}

// The README's form: c++ main.cpp $(pkg-config --cflags --libs gpusort), with no --static, against
// the default (static) library, which needs its thread and dl libraries named on the link; not
// OpenCL's loader, which the library opens at run time, so the program does not link it.
TEST(InstallConsumer, PkgConfigBuildAndRun) {
  if (std::getenv("GPUSORT_SKIP_INSTALL_TEST")) GTEST_SKIP() << "GPUSORT_SKIP_INSTALL_TEST is set";
  TempDir d;
  const auto prefix = d / "prefix";
  const auto log = d / "log";
  ASSERT_EQ(run_shell("pkg-config --version", log), 0)
      << "pkg-config is needed to test the installed gpusort.pc (scripts/install-deps installs it): " << read_text(log);
  ASSERT_EQ(run_shell("cmake --install " + shell_quote(GPUSORT_BINARY_DIR) + " --prefix " + shell_quote(prefix.string()),
                      log),
            0)
      << read_text(log);
  fs::path pc_dir;
  for (const auto& entry : fs::recursive_directory_iterator(prefix))
    if (entry.path().filename() == "gpusort.pc") pc_dir = entry.path().parent_path();
  ASSERT_FALSE(pc_dir.empty()) << "gpusort.pc is installed under " << prefix;

  // The .pc file finds its own prefix: it was installed to a --prefix other than the configured one.
  const std::string pkg_config = "PKG_CONFIG_PATH=" + shell_quote(pc_dir.string()) + " pkg-config";
  ASSERT_EQ(run_shell(pkg_config + " --variable=includedir gpusort", log), 0) << read_text(log);
  std::string includedir = read_text(log);
  while (!includedir.empty() && (includedir.back() == '\n' || includedir.back() == ' ')) includedir.pop_back();
  EXPECT_TRUE(fs::equivalent(includedir, prefix / "include")) << includedir;

  const auto program = d / "gpusort-consumer";
  const std::string source = std::string(GPUSORT_SOURCE_DIR) + "/examples/consumer/main.cpp";
  ASSERT_EQ(run_shell("${CXX:-c++} " + shell_quote(source) + " -o " + shell_quote(program.string()) + " $(" + pkg_config +
                          " --cflags --libs gpusort)",
                      log),
            0)
      << read_text(log);
  ASSERT_EQ(run_shell(shell_quote(program.string()), log), 0) << read_text(log);
  EXPECT_EQ(read_text(log), "-7 -7 0 3 8 19 42 100\n");

  ASSERT_EQ(run_shell(pkg_config + " --libs --static gpusort", log), 0) << read_text(log);
  EXPECT_EQ(read_text(log).find("OpenCL"), std::string::npos) << read_text(log);
  ASSERT_EQ(run_shell("ldd " + shell_quote(program.string()), log), 0) << read_text(log);
  EXPECT_EQ(read_text(log).find("libOpenCL"), std::string::npos) << read_text(log);
}

}  // namespace
