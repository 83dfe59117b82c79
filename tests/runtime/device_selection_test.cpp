// Device ids, default choice and the GPUSORT_DEVICE override.
#include <cstdlib>

#include "runtime/device.hpp"
#include "support/test_support.hpp"

namespace gpusort::test {
namespace {

TEST(DeviceSelection, ListsAtLeastOneDevice) {
  auto devices = list_devices();
  ASSERT_FALSE(devices.empty());
  for (const auto& d : devices) {
    EXPECT_TRUE(d.id.rfind("cuda:", 0) == 0 || d.id.rfind("opencl:", 0) == 0) << d.id;
    EXPECT_FALSE(d.name.empty());
    EXPECT_GT(d.global_memory_bytes, 0u);
    EXPECT_GT(d.max_work_group_size, 0u);
  }
}

TEST(DeviceSelection, EveryListedIdOpens) {
  for (const auto& d : list_devices()) {
    Context ctx(d.id);
    EXPECT_EQ(ctx.device().id, d.id);
  }
}

TEST(DeviceSelection, DefaultPrefersCudaThenGpu) {
  auto devices = list_devices();
  Context ctx;  // may be overridden by GPUSORT_DEVICE
  if (const char* env = std::getenv("GPUSORT_DEVICE"); env && *env) {
    EXPECT_EQ(ctx.device().id, env);
    return;
  }
  bool any_cuda = false, any_gpu = false;
  for (const auto& d : devices) {
    any_cuda |= d.backend == "cuda";
    any_gpu |= d.is_gpu;
  }
  if (any_cuda) EXPECT_EQ(ctx.device().backend, "cuda");
  else if (any_gpu) EXPECT_TRUE(ctx.device().is_gpu);
}

TEST(DeviceSelection, EnvironmentOverridesDefault) {
  auto devices = list_devices();
  const std::string last = devices.back().id;
  const char* old = std::getenv("GPUSORT_DEVICE");
  std::string saved = old ? old : "";
  setenv("GPUSORT_DEVICE", last.c_str(), 1);
  Context ctx;
  EXPECT_EQ(ctx.device().id, last);
  if (old) setenv("GPUSORT_DEVICE", saved.c_str(), 1); else unsetenv("GPUSORT_DEVICE");
}

TEST(DeviceSelection, BadIdsAreClearErrors) {
  for (const char* id : {"bogus", "opencl:", "opencl:x:0", "cuda:abc"}) {
    try {
      Context ctx(id);
      FAIL() << id << " opened";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), errc::invalid_argument) << id << ": " << e.what();
    }
  }
  for (const char* id : {"opencl:99:0", "opencl:0:99", "cuda:99"}) {
    try {
      Context ctx(id);
      FAIL() << id << " opened";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), errc::unsupported) << id << ": " << e.what();
    }
  }
}

}  // namespace
}  // namespace gpusort::test
