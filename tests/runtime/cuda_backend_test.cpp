// CUDA backend: behaviour without a GPU (enumeration, errors) and NVRTC compilation of every kernel
// file, which needs only libnvrtc, so kernel-dialect errors show up on CI machines without a GPU.
// Tests that need a device skip when there is none; scripts/device-check runs them on a GPU.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "gpusort/errors.hpp"
#include "runtime/cuda/cuda_backend.hpp"
#include "runtime/cuda/nvrtc_check.hpp"
#include "runtime/kernel_sources.hpp"

namespace gpusort::rt {
namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string define_name(const std::string& d) { return d.substr(0, d.find('=')); }

// Defines a kernel file asks for in `// NVRTC-CHECK-DEFINES: A=1 B=2` lines (all such lines).
std::vector<std::string> documented_defines(const std::string& text) {
  static const std::string tag = "NVRTC-CHECK-DEFINES:";
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    auto pos = line.find(tag);
    if (pos == std::string::npos || line.find("//") == std::string::npos) continue;
    std::istringstream words(line.substr(pos + tag.size()));
    std::string w;
    while (words >> w) out.push_back(w);
  }
  return out;
}

// base, with the file's own defines replacing those of the same name.
std::vector<std::string> merge_defines(const std::vector<std::string>& base, const std::vector<std::string>& extra) {
  std::map<std::string, std::string> by_name;
  std::vector<std::string> order;
  for (const auto* list : {&base, &extra})
    for (const auto& d : *list) {
      const std::string name = define_name(d);
      if (!by_name.count(name)) order.push_back(name);
      by_name[name] = d;
    }
  std::vector<std::string> out;
  for (const auto& n : order) out.push_back(by_name[n]);
  return out;
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : " ") + x;
  return s;
}

const std::vector<std::vector<std::string>> kRepresentativeDefines = {
    {"KEY_BITS=32", "KEY_KIND=2", "VALUE_BYTES=4"},
    {"KEY_BITS=64", "KEY_KIND=1", "VALUE_BYTES=16"},
    {"KEY_BITS=8", "KEY_KIND=0", "VALUE_BYTES=0"},
};

TEST(CudaBackend, EnumerationNeverThrows) {
  std::vector<DeviceDescription> devices;
  EXPECT_NO_THROW(devices = cuda_enumerate_devices());
  std::string reason;
  EXPECT_NO_THROW(reason = cuda_unavailable_reason());
  if (devices.empty()) {
    EXPECT_FALSE(reason.empty()) << "no CUDA device listed, so the reason must be said";
  } else {
    EXPECT_EQ(reason, "");
    for (std::size_t i = 0; i < devices.size(); ++i) {
      const auto& d = devices[i];
      EXPECT_EQ(d.id, "cuda:" + std::to_string(i));
      EXPECT_EQ(d.backend, "cuda");
      EXPECT_FALSE(d.name.empty());
      EXPECT_NE(d.driver.find("CUDA driver"), std::string::npos) << d.driver;
      EXPECT_NE(d.driver.find("NVRTC"), std::string::npos) << d.driver;
      EXPECT_GT(d.global_memory_bytes, 0u);
      EXPECT_GE(d.local_memory_bytes, 48u * 1024);
      EXPECT_GE(d.max_work_group_size, 256u);
      EXPECT_GT(d.compute_units, 0u);
      EXPECT_TRUE(d.is_gpu);
    }
  }
}

TEST(CudaBackend, OpeningWithoutCudaSaysWhy) {
  if (!cuda_enumerate_devices().empty()) GTEST_SKIP() << "a CUDA device is present";
  const std::string reason = cuda_unavailable_reason();
  try {
    cuda_open_device(0);
    FAIL() << "cuda_open_device(0) succeeded without a CUDA device";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), errc::unsupported);
    EXPECT_NE(std::string(e.what()).find(reason), std::string::npos)
        << "message: " << e.what() << "\nreason: " << reason;
  }
}

TEST(CudaBackend, OrdinalOutOfRangeIsUnsupported) {
  const int n = static_cast<int>(cuda_enumerate_devices().size());
  for (int ordinal : {-1, n, n + 7}) {
    try {
      cuda_open_device(ordinal);
      FAIL() << "cuda_open_device(" << ordinal << ") succeeded";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), errc::unsupported) << e.what();
    }
  }
}

TEST(CudaNvrtc, TargetsTheDeviceArchitecture) {
  std::string why;
  if (!nvrtc_available(&why)) GTEST_SKIP() << why;
  EXPECT_NE(nvrtc_version_string().find("NVRTC "), std::string::npos);
  NvrtcTarget t = nvrtc_target_for(90);
  EXPECT_EQ(t.arch, "sm_90");
  EXPECT_TRUE(t.cubin);
  EXPECT_EQ(t.sm, 90);  // programmatic launches only for kernels built for sm_90 or newer
  auto options = nvrtc_options({"A=1", "B"}, "sm_90");
  EXPECT_EQ(join(options), "-DA=1 -DB -arch=sm_90 -std=c++17");
}

TEST(CudaNvrtc, CompileErrorsCarryTheLog) {
  std::string why;
  if (!nvrtc_available(&why)) GTEST_SKIP() << why;
  const std::string bad = "extern \"C\" __global__ void k(int* p) { p[0] = undeclared_name_xyz; }\n";
  std::string log = nvrtc_compile_check(bad, nvrtc_options({}, "sm_90"));
  EXPECT_NE(log.find("undeclared_name_xyz"), std::string::npos) << log;
  try {
    nvrtc_compile(bad, "bad.cl", nvrtc_options({}, "sm_90"), true);
    FAIL() << "a broken source compiled";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), errc::build_error);
    EXPECT_NE(std::string(e.what()).find("undeclared_name_xyz"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("bad.cl"), std::string::npos) << e.what();
  }
  const std::string good = "extern \"C\" __global__ void k(int* p) { p[threadIdx.x] = 1; }\n";
  EXPECT_EQ(nvrtc_compile_check(good, nvrtc_options({}, "sm_90")), "");
  EXPECT_FALSE(nvrtc_compile(good, "good.cl", nvrtc_options({}, "sm_90"), true).empty());
}

// The dialect headers on their own, so the check means something even before any .cl exists.
TEST(CudaNvrtc, PreludeAndKeysCompile) {
  std::string why;
  if (!nvrtc_available(&why)) GTEST_SKIP() << why;
  std::string source = "#include \"keys.h\"\n"
                       "KERNEL gs_nvrtc_probe(GLOBAL u32* out, u32 n GS_DYNAMIC_LOCAL) {\n"
                       "  GS_DECLARE_DYNAMIC_LOCAL(u32, scratch);\n"
                       "  scratch[LOCAL_ID()] = (u32)GLOBAL_ID();\n"
                       "  BARRIER();\n"
                       "  if (GLOBAL_ID() < n) out[GLOBAL_ID()] = scratch[LOCAL_ID()];\n"
                       "}\n";
  // Inline the embedded headers as assemble_kernel_source does.
  std::string full = assemble_kernel_source("keys.h") + source.substr(source.find('\n') + 1);
  for (const auto& defines : kRepresentativeDefines) {
    std::string log = nvrtc_compile_check(full, nvrtc_options(defines, "sm_90"));
    EXPECT_EQ(log, "") << "prelude.h/keys.h with " << join(defines);
  }
}

TEST(CudaNvrtc, EveryKernelFileCompilesForSm90) {
  std::string why;
  if (!nvrtc_available(&why)) GTEST_SKIP() << why;
  int checked = 0;
  for (const auto& file : embedded_kernel_files()) {
    const std::string name = file.name;
    if (!ends_with(name, ".cl")) continue;
    const std::string source = assemble_kernel_source(name);
    const auto extra = documented_defines(file.text);
    for (const auto& base : kRepresentativeDefines) {
      const auto defines = merge_defines(base, extra);
      std::string log = nvrtc_compile_check(source, nvrtc_options(defines, "sm_90"));
      EXPECT_EQ(log, "") << name << " with " << join(defines) << " failed to compile under NVRTC ("
                         << nvrtc_version_string() << ")";
      ++checked;
    }
  }
  if (checked == 0) GTEST_SKIP() << "no kernels/*.cl files yet";
  RecordProperty("programs_checked", checked);
}

// Complex keys (KEY_KIND 4) in every program they may run in: all but the one-block radix sorts (and
// the segmented rows that run them), which move images a complex key cannot be read back from (the
// radix policy never gives them those: ComplexKeys.CudaNeverTakesTheOneBlockSorts).
TEST(CudaNvrtc, ComplexKeysCompileInTheirPrograms) {
  std::string why;
  if (!nvrtc_available(&why)) GTEST_SKIP() << why;
  for (const auto& file : embedded_kernel_files()) {
    const std::string name = file.name;
    if (!ends_with(name, ".cl") || name == "radix_single_tile.cl" || name == "radix_segments.cl" ||
        name == "segmented_rows_block.cl")
      continue;
    const auto defines = merge_defines({"KEY_BITS=64", "KEY_KIND=4", "VALUE_BYTES=8"}, documented_defines(file.text));
    EXPECT_EQ(nvrtc_compile_check(assemble_kernel_source(name), nvrtc_options(defines, "sm_90")), "")
        << name << " with " << join(defines);
  }
}

// ---- on a CUDA device (skipped without one) ------------------------------------------------------

DevicePtr open_or_skip() {
  if (cuda_enumerate_devices().empty()) return nullptr;
  return cuda_open_device(0);
}

TEST(CudaDevice, CopiesFillsAndEvents) {
  DevicePtr dev = open_or_skip();
  if (!dev) GTEST_SKIP() << cuda_unavailable_reason();
  const std::size_t n = 1 << 20;
  std::vector<unsigned char> host(n), back(n, 0);
  for (std::size_t i = 0; i < n; ++i) host[i] = static_cast<unsigned char>(i * 131 + 7);
  auto a = dev->alloc(n), b = dev->alloc(n);
  EXPECT_EQ(a->bytes(), n);
  auto start = dev->record();
  dev->write(*a, 0, host.data(), n);
  dev->copy(*a, 0, *b, 0, n);
  dev->fill_bytes(*b, 0xAB, 16, 32);
  auto end = dev->record();
  dev->read(*b, 0, back.data(), n);
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned char want = (i >= 16 && i < 48) ? 0xAB : host[i];
    ASSERT_EQ(back[i], want) << "byte " << i;
  }
  EXPECT_GE(end->elapsed_ms_since(*start), 0.0);

  // Pinned memory and an asynchronous round trip on a second queue.
  auto q = dev->create_queue();
  auto pinned = dev->alloc_host(n);
  ASSERT_NE(pinned->data(), nullptr);
  std::memcpy(pinned->data(), host.data(), n);
  dev->write(*b, 0, pinned->data(), n, q.get(), true);
  q->finish();  // the pinned source must stay untouched until the asynchronous copy is done
  std::memset(pinned->data(), 0, n);
  dev->read(*b, 0, pinned->data(), n, q.get(), true);
  dev->finish(q.get());
  EXPECT_EQ(std::memcmp(pinned->data(), host.data(), n), 0);

  // Zero sizes are fine; out-of-range copies are the caller's error.
  auto empty = dev->alloc(0);
  EXPECT_EQ(empty->bytes(), 0u);
  dev->write(*empty, 0, host.data(), 0);
  try {
    dev->read(*a, n - 4, back.data(), 8);
    FAIL() << "an out-of-range read succeeded";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), errc::invalid_argument) << e.what();
  }
}

TEST(CudaDevice, HugeAllocationIsOutOfMemory) {
  DevicePtr dev = open_or_skip();
  if (!dev) GTEST_SKIP() << cuda_unavailable_reason();
  try {
    dev->alloc(dev->description().global_memory_bytes * 4);
    FAIL() << "allocating four times the device memory succeeded";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), errc::out_of_memory) << e.what();
  }
  auto still_fine = dev->alloc(1024);  // the failure is not sticky
  EXPECT_EQ(still_fine->bytes(), 1024u);
}

TEST(CudaDevice, ProgramsAreBuiltOnceAndKernelsLookedUp) {
  DevicePtr dev = open_or_skip();
  if (!dev) GTEST_SKIP() << cuda_unavailable_reason();
  int built = 0;
  for (const auto& file : embedded_kernel_files()) {
    const std::string name = file.name;
    if (!ends_with(name, ".cl")) continue;
    const auto defines = merge_defines(kRepresentativeDefines[0], documented_defines(file.text));
    Program& p = dev->program(name, defines);
    EXPECT_EQ(&p, &dev->program(name, defines)) << "the second request must come from memory";
    try {
      p.kernel("gs_no_such_kernel");
      FAIL() << "a missing kernel was found";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), errc::device_error) << e.what();
    }
    ++built;
  }
  if (built == 0) GTEST_SKIP() << "no kernels/*.cl files yet";
}

}  // namespace
}  // namespace gpusort::rt
