// The progress line: silent for the first second and when turned off; then phase, bytes and rate.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "progress.hpp"

namespace gpusort::cli {
namespace {

TEST(ProgressLine, SilentForTheFirstSecondThenDrawn) {
  ::testing::internal::CaptureStderr();
  {
    Progress p(ProgressMode::on);
    p.phase("sorting runs", 4u << 20);
    p.advance(1u << 20);
    EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
    ::testing::internal::CaptureStderr();
    std::this_thread::sleep_for(std::chrono::milliseconds(1050));
    p.phase("sorting buckets", 4u << 20);
    p.advance(2u << 20);
  }
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("gpusort: sorting buckets: "), std::string::npos) << err;
  EXPECT_NE(err.find(" of 4.0 MiB"), std::string::npos) << err;
  EXPECT_NE(err.find("/s"), std::string::npos) << err;
  EXPECT_EQ(err.back(), '\n') << "the line is ended when the work is";
}

TEST(ProgressLine, OffDrawsNothing) {
  ::testing::internal::CaptureStderr();
  {
    Progress p(ProgressMode::off);
    std::this_thread::sleep_for(std::chrono::milliseconds(1050));
    p.phase("reading", 100);
    p.advance(100);
  }
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
}

}  // namespace
}  // namespace gpusort::cli
