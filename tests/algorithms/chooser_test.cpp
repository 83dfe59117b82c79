// The "auto" choice (algorithms/chooser.hpp) by device: radix where CUDA runs it (onesweep) and on
// CPUs, on NVIDIA's GPUs under OpenCL from 2^20 to 2^30 - 1 keys (CUDA's onesweep pass there), the
// merge sort on other GPUs without CUDA (radix has only its portable paths there); an explicit name is
// taken as given; a run-time order takes the merge sort everywhere.
#include <gtest/gtest.h>

#include "algorithms/chooser.hpp"

namespace gpusort::algo {
namespace {

DeviceDescription device(const char* backend, bool gpu) {
  DeviceDescription d;
  d.backend = backend;
  d.is_gpu = gpu;
  return d;
}

TEST(Chooser, AutoByDevice) {
  for (bool stable : {false, true}) {
    const SortOptions o{.stable = stable};
    EXPECT_EQ(choose(device("cuda", true), o).name, "radix");
    EXPECT_EQ(choose(device("opencl", false), o).name, "radix");
    EXPECT_EQ(choose(device("opencl", true), o).name, "merge");
    EXPECT_EQ(choose(device("opencl", true), o, 1 << 24).name, "merge");
    DeviceDescription nvidia = device("opencl", true);
    nvidia.vendor = "NVIDIA Corporation";
    EXPECT_EQ(choose(nvidia, o).name, "merge");  // size not known
    EXPECT_EQ(choose(nvidia, o, (1 << 20) - 1).name, "merge");
    EXPECT_EQ(choose(nvidia, o, 1 << 20).name, "radix");
    EXPECT_EQ(choose(nvidia, o, (1ull << 30) - 1).name, "radix");
    EXPECT_EQ(choose(nvidia, o, 1ull << 30).name, "merge");
    EXPECT_EQ(choose(device("cuda", true), o, 1 << 10).name, "radix");
  }
}

TEST(Chooser, NamesAndComparatorsWhateverTheDevice) {
  EXPECT_EQ(choose(device("opencl", true), {.algorithm = "radix"}).name, "radix");
  EXPECT_EQ(choose(device("cuda", true), {.algorithm = "bitonic"}).name, "bitonic");
  EXPECT_EQ(choose(device("cuda", true), {.comparator = "return a < b;"}).name, "merge");
  EXPECT_THROW(choose(device("cuda", true), {.algorithm = "no-such"}), Error);
}

}  // namespace
}  // namespace gpusort::algo
