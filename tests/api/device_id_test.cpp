// Device ids given to Context: parsed strictly (digits only, any length), malformed ones are
// Error(invalid_argument), well-formed ones naming a device this machine lacks Error(unsupported)
// saying which index is out of range and what the machine has.
#include "support/test_support.hpp"

namespace gpusort::test {
namespace {

void expect_open_error(const std::string& id, errc code, const std::vector<std::string>& parts) {
  try {
    Context ctx(id);
    ADD_FAILURE() << "'" << id << "' opened " << ctx.device().id;
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), code) << id << ": " << e.what();
    for (const auto& p : parts)
      EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << id << ": '" << p << "' missing from: " << e.what();
  }
}

TEST(DeviceIds, MalformedIds) {
  for (const char* id : {"bogus", "cuda:", "cuda:-1", "cuda:+1", "cuda: 1", "cuda:1 ", "cuda:1e3", "cuda:0x1",
                         "opencl:", "opencl:0", "opencl:0:", "opencl::0", "opencl:-1:0", "opencl:0:-1",
                         "opencl:0:0:0", "OpenCL:0:0", "opencl:x:0", " opencl:0:0"})
    expect_open_error(id, errc::invalid_argument,
                      {"malformed device id '" + std::string(id) + "'", "expected cuda:N or opencl:P:D"});
}

TEST(DeviceIds, HugeIndicesAreOutOfRangeNotCrashes) {
  std::size_t platforms = 0;
  for (const auto& d : list_devices())
    if (d.backend == "opencl") platforms = std::max<std::size_t>(platforms, std::stoul(d.id.substr(7)) + 1);
  const std::string huge = "99999999999999999999";  // more than 64 bits
  expect_open_error("opencl:" + huge + ":0", errc::unsupported,
                    {"device id 'opencl:" + huge + ":0'", "platform index out of range", "OpenCL platform"});
  expect_open_error("opencl:4294967296:0", errc::unsupported, {"platform index out of range"});
  expect_open_error("opencl:2147483648:0", errc::unsupported, {"platform index out of range"});
  expect_open_error("cuda:" + huge, errc::unsupported,
                    {"device id 'cuda:" + huge + "'", "device index out of range", "CUDA device"});
  if (platforms > 0) {
    expect_open_error("opencl:0:" + huge, errc::unsupported,
                      {"device id 'opencl:0:" + huge + "'", "device index out of range", "OpenCL platform 0 has "});
    expect_open_error("opencl:" + std::to_string(platforms + 5) + ":0", errc::unsupported,
                      {"platform index out of range (this machine has"});
  }
}

TEST(DeviceIds, LeadingZerosAreDigitsToo) {
  for (const auto& d : list_devices()) {
    if (d.backend != "opencl") continue;
    const std::string padded = "opencl:00" + d.id.substr(7);  // "opencl:00P:D"
    Context ctx(padded);
    EXPECT_EQ(ctx.device().id, d.id);
    return;
  }
  GTEST_SKIP() << "no OpenCL device";
}

}  // namespace
}  // namespace gpusort::test
