// The onesweep program (kernels/radix_onesweep.cl) in the form NVIDIA's OpenCL builds, for every
// define set the radix policy gives an NVIDIA GPU under OpenCL (every key type and value width, small
// and large n). No NVIDIA OpenCL here, so clang compiles it as OpenCL C 1.2 to NVPTX: that catches
// what the dialect must get right without a GPU (address spaces, the inline PTX's operands, CUDA-only
// code leaking out of its #if; -Werror=pedantic for what clang allows and NVIDIA's compiler refuses,
// such as variadic macros), not what NVIDIA's compiler or ptxas may add. Skipped without clang
// ($GPUSORT_CLANG or clang on PATH; scripts/install-deps installs it).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include <unistd.h>

#include "algorithms/radix_policy.hpp"
#include "runtime/kernel_sources.hpp"
#include "support/key_types.hpp"

namespace gpusort {
namespace {

std::string clang_command() {
  if (const char* c = std::getenv("GPUSORT_CLANG"); c && *c) return c;
  return std::system("command -v clang > /dev/null 2>&1") == 0 ? "clang" : "";
}

DeviceDescription nvidia_opencl_gpu() {
  DeviceDescription d;
  d.backend = "opencl", d.vendor = "NVIDIA Corporation", d.is_gpu = true, d.architecture = "sm_90";
  d.local_memory_bytes = 48 * 1024, d.max_work_group_size = 1024, d.compute_units = 132;
  return d;
}

TEST(RadixOnesweepBuild, NvidiaOpenclFormCompilesWithClang) {
  const std::string clang = clang_command();
  if (clang.empty()) GTEST_SKIP() << "no clang (set GPUSORT_CLANG or put clang on PATH)";
  const auto dir = std::filesystem::temp_directory_path() / ("gpusort-onesweep-cl-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto source = dir / "radix_onesweep.cl";
  std::ofstream(source) << rt::assemble_kernel_source("radix_onesweep.cl");
  std::set<std::string> built;
  for (key_type type : test::kernel_key_types)
    for (std::size_t vb : {std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(4), std::size_t(8), std::size_t(16)})
      for (std::uint64_t n : {std::uint64_t(5000), std::uint64_t(1) << 22, std::uint64_t(1) << 28}) {
        const algo::RadixPolicy p = algo::choose_radix_policy(nvidia_opencl_gpu(), type, vb, n, {}, {});
        ASSERT_EQ(p.path, algo::RadixPath::onesweep) << key_type_name(type) << "/" << vb << " n " << n;
        std::string defines;
        for (const std::string& d : algo::to_defines(p, p.path)) defines += " -D" + d;
        if (!built.insert(defines).second) continue;
        const auto log = dir / "log.txt";
        const std::string cmd = clang + " -x cl -cl-std=CL1.2 -target nvptx64-nvidia-nvcl -march=sm_70" +
                                " -Xclang -target-feature -Xclang +ptx70 -Xclang -cl-ext=+cl_khr_int64_base_atomics" +
                                " -Xclang -finclude-default-header -O1 -Wno-unknown-pragmas -Werror=pedantic" + defines + " -S " +
                                source.string() + " -o " + (dir / "out.ptx").string() + " > " + log.string() + " 2>&1";
        const int rc = std::system(cmd.c_str());
        std::ifstream in(log);
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        EXPECT_EQ(rc, 0) << key_type_name(type) << "/" << vb << " n " << n << ":" << defines << "\n" << text;
      }
  std::filesystem::remove_all(dir);
  EXPECT_GE(built.size(), 40u);
}

}  // namespace
}  // namespace gpusort
