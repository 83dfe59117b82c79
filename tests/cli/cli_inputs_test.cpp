// How the gpusort command reads its inputs: to end of file whatever stat() says, text refused
// unless --format raw, .npy-looking raw data readable with --format raw.
#include <gtest/gtest.h>

#include <algorithm>

#include "cli_test_util.hpp"

namespace {

using namespace cli_test;

TEST(CliInputs, ProcFileIsReadToTheEnd) {
  // /proc files report size 0; they used to be read as empty.
  TempDir d;
  const auto out = (d / "out").string();
  ASSERT_CLI_OK(run_cli({"sort", "/proc/self/mountinfo", "-t", "u8", "--format", "raw", "-o", out}));
  EXPECT_GT(fs::file_size(out), 0u);
  EXPECT_CLI_OK(run_cli({"verify", out, "-t", "u8", "--format", "raw"}));
}

TEST(CliInputs, TextIsRefusedWithAHint) {
  TempDir d;
  const auto text = (d / "t").string(), out = (d / "out").string();
  write_bytes(text, "3\n1\n2\n0\n", 8);
  const auto r = run_cli({"sort", text, "-t", "u32", "-o", out});
  expect_clean_error(r, 2);
  EXPECT_NE(r.err.find("text"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--format raw"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out));
  // Forced: its 8 bytes are two u32 keys.
  ASSERT_CLI_OK(run_cli({"sort", text, "-t", "u32", "--format", "raw", "-o", out}));
  EXPECT_EQ(fs::file_size(out), 8u);
}

TEST(CliInputs, BinaryKeysAreNotMistakenForText) {
  TempDir d;
  const auto in = (d / "in").string(), out = (d / "out").string();
  for (const char* type : {"u8", "u32", "f64"}) {
    ASSERT_CLI_OK(run_cli({"gen", "-t", type, "-n", "5000", "-o", in}));
    EXPECT_CLI_OK(run_cli({"sort", in, "-t", type, "-o", out})) << type;
  }
}

TEST(CliInputs, RawDataWithNpyMagicSortsAsRaw) {
  TempDir d;
  const auto in = (d / "in").string(), out = (d / "out").string();
  // 16 bytes that start like a .npy file but are four u32 keys.
  const unsigned char bytes[16] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, 200, 0, 0, 0, 7, 0, 0, 0};
  write_bytes(in, bytes, sizeof bytes);
  expect_clean_error(run_cli({"sort", in, "-t", "u32", "-o", out}), 2);  // not a valid .npy
  ASSERT_CLI_OK(run_cli({"sort", in, "-t", "u32", "--format", "raw", "-o", out}));
  const auto got = read_vec<std::uint32_t>(out);
  ASSERT_EQ(got.size(), 4u);
  EXPECT_TRUE(std::is_sorted(got.begin(), got.end()));
  // --format npy on a raw file is an error.
  write_bytes(in, "\x01\x02\x03\x04", 4);
  expect_clean_error(run_cli({"sort", in, "-t", "u32", "--format", "npy", "-o", out}), 2);
  expect_clean_error(run_cli({"sort", in, "-t", "u32", "--format", "csv", "-o", out}), 2);
}

TEST(CliInputs, BothInputsFromStandardInputIsRefused) {
  TempDir d;
  expect_clean_error(run_cli({"sort", "-", "-t", "u32", "--values", "-", "--values-type", "u32", "-o",
                              (d / "o").string(), "--values-out", (d / "v").string()},
                             "true | "),
                     2);
}

}  // namespace
