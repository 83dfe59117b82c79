// The command on a machine without an OpenCL loader: it links no libOpenCL, starts, and says which
// loader is missing. $GPUSORT_OPENCL_LIBRARY names the loader the library opens, so a name that
// does not exist stands for a machine without one.
#include <gtest/gtest.h>

#include "cli_test_util.hpp"

namespace {

using namespace cli_test;

const std::string kNoLoader = "GPUSORT_OPENCL_LIBRARY=/nonexistent/libOpenCL.so.1";
const std::string kMissingLoaderMessage =
    "no OpenCL loader (/nonexistent/libOpenCL.so.1) found; install an ICD loader such as ocl-icd-libopencl1";

TEST(CliOpenclLoader, CommandDoesNotLinkTheLoader) {
  TempDir d;
  const auto listing = d / "ldd";
  const std::string cmd = "ldd " + shell_quote(cli_path()) + " >" + shell_quote(listing.string()) + " 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << read_text(listing);
  const std::string libraries = read_text(listing);
  EXPECT_EQ(libraries.find("libOpenCL"), std::string::npos) << libraries;
}

TEST(CliOpenclLoader, DevicesWithoutLoaderListsNoOpenclDevice) {
  const RunResult r = run_cli({"devices"}, kNoLoader);
  EXPECT_EQ(r.out.find("opencl:"), std::string::npos) << describe(r);
  if (r.out.empty()) {  // no CUDA device either: nothing to list, and the reason said
    EXPECT_EQ(r.code, 1) << describe(r);
    EXPECT_EQ(r.err, "gpusort: error: no devices found (no CUDA GPU; " + kMissingLoaderMessage + ")\n");
  } else {
    EXPECT_EQ(r.code, 0) << describe(r);
  }
}

TEST(CliOpenclLoader, OpenclDeviceWithoutLoaderNamesTheLoader) {
  TempDir d;
  const auto keys = d / "keys.u32";
  write_vec<std::uint32_t>(keys, {3, 1, 2});
  const RunResult r =
      run_cli({"sort", "--type", "u32", "--device", "opencl:0:0", keys.string(), "-o", (d / "out").string()}, kNoLoader);
  expect_clean_error(r);
  EXPECT_NE(r.err.find(kMissingLoaderMessage), std::string::npos) << describe(r);
}

// A library that is there but is no OpenCL loader: the functions it lacks are named.
TEST(CliOpenclLoader, LibraryWithoutOpenclFunctionsIsNamed) {
  TempDir d;
  const auto keys = d / "keys.u32";
  write_vec<std::uint32_t>(keys, {3, 1, 2});
  const RunResult r = run_cli(
      {"sort", "--type", "u32", "--device", "opencl:0:0", keys.string(), "-o", (d / "out").string()},
      "GPUSORT_OPENCL_LIBRARY=libm.so.6");
  expect_clean_error(r);
  EXPECT_NE(r.err.find("the OpenCL loader libm.so.6 lacks OpenCL 1.2 functions (clGetPlatformIDs,"), std::string::npos)
      << describe(r);
}

}  // namespace
