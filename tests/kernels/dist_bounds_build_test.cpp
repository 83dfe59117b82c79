// The distributed sort's bounds kernel (kernels/dist_bounds.cl) builds with NVRTC for sm_90 for
// every key type, here without a GPU (PoCL compiles and runs it in the dist tests).
#include <gtest/gtest.h>

#include "algorithms/algorithm.hpp"
#include "runtime/cuda/nvrtc_check.hpp"
#include "runtime/kernel_sources.hpp"
#include "support/key_types.hpp"

namespace gpusort {
namespace {

TEST(DistBoundsBuild, EveryKeyTypeCompilesForSm90) {
  std::string why;
  if (!rt::nvrtc_available(&why)) GTEST_SKIP() << why;
  const std::string source = rt::assemble_kernel_source("dist_bounds.cl");
  for (key_type type : test::kernel_key_types) {
    const auto defines = algo::key_defines_for(type, 0);
    EXPECT_EQ(rt::nvrtc_compile_check(source, rt::nvrtc_options(defines, "sm_90")), "") << key_type_name(type);
  }
}

}  // namespace
}  // namespace gpusort
