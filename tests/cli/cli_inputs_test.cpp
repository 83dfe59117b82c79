// How the gpusort command reads its inputs: to end of file whatever stat() says, text-looking raw
// data sorted with a warning (none with --format raw), .npy-looking raw data readable with --format raw.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>

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

// Exactly one stderr line, a warning about text with the conversion hint and how to silence it.
void expect_one_text_warning(const RunResult& r) {
  const auto lines = lines_of(r.err);
  ASSERT_EQ(lines.size(), 1u) << describe(r);
  EXPECT_EQ(lines[0].rfind("gpusort: warning: ", 0), 0u) << describe(r);
  EXPECT_NE(lines[0].find("written as text"), std::string::npos) << r.err;
  EXPECT_NE(lines[0].find("np.loadtxt"), std::string::npos) << r.err;
  EXPECT_NE(lines[0].find("--format raw"), std::string::npos) << r.err;
}

TEST(CliInputs, TextLookingInputIsSortedWithAWarning) {
  TempDir d;
  const auto text = (d / "t").string(), out = (d / "out").string();
  write_bytes(text, "3\n1\n2\n0\n", 8);
  // Its 8 bytes are two u32 keys: sorted as such, with a hint in case they were meant as text.
  RunResult r = run_cli({"sort", text, "-t", "u32", "-o", out});
  ASSERT_CLI_OK(r);
  expect_one_text_warning(r);
  EXPECT_EQ(fs::file_size(out), 8u);
  r = run_cli({"sort", text, "-t", "u32", "--format", "raw", "-o", out});
  ASSERT_CLI_OK(r);
  EXPECT_EQ(r.err, "");
  // Text that cannot be an array of the type: the size error carries the hint.
  write_bytes(text, "12 7 3\n", 7);
  r = run_cli({"sort", text, "-t", "u32", "-o", out});
  expect_clean_error(r, 2);
  EXPECT_NE(r.err.find("not a multiple of 4"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("np.loadtxt"), std::string::npos) << r.err;
}

// Valid binary arrays whose bytes happen to be printable with a digit and a space are sorted
// (they were refused as text): the warning says so once, and --format raw silences it.
template <typename T>
void expect_sorted_despite_text_look(const std::vector<T>& keys, const char* type) {
  TempDir d;
  const auto in = (d / "in").string(), out = (d / "out").string();
  write_vec(in, keys);
  std::vector<T> expected = keys;
  std::sort(expected.begin(), expected.end());
  RunResult r = run_cli({"sort", in, "-t", type, "-o", out, "--values", in, "--values-type", type, "--values-out",
                         (d / "values").string()});
  ASSERT_CLI_OK(r);
  ASSERT_EQ(lines_of(r.err).size(), 2u) << describe(r);  // the keys and the values input, once each
  EXPECT_EQ(read_vec<T>(out), expected) << type;
  r = run_cli({"sort", in, "-t", type, "-o", out});
  ASSERT_CLI_OK(r);
  expect_one_text_warning(r);
  EXPECT_EQ(read_vec<T>(out), expected) << type;
  r = run_cli({"sort", in, "-t", type, "-o", out, "--format", "raw"});
  ASSERT_CLI_OK(r);
  EXPECT_EQ(r.err, "") << type;
  EXPECT_EQ(read_vec<T>(out), expected) << type;
  EXPECT_CLI_OK(run_cli({"verify", out, "-t", type})) << type;
}

TEST(CliInputs, AllEqualI16KeysReadingAsTextAreSorted) {
  expect_sorted_despite_text_look(std::vector<std::int16_t>(5000, std::int16_t(0x2031)), "i16");  // bytes "1 "
}

TEST(CliInputs, FewUniqueI8KeysReadingAsTextAreSorted) {
  std::mt19937 rng(49);
  std::vector<std::int8_t> keys(5000);
  const char few[] = {'0', '7', ' ', 'a'};
  for (auto& k : keys) k = std::int8_t(few[rng() % 4]);
  expect_sorted_despite_text_look(keys, "i8");
}

TEST(CliInputs, PrintableU8DataIsSorted) {
  std::mt19937 rng(2);
  std::vector<std::uint8_t> bytes(3000);
  for (auto& b : bytes) b = std::uint8_t(0x20 + rng() % 95);  // printable ASCII: digits and spaces among them
  bytes[0] = '5', bytes[1] = ' ';
  expect_sorted_despite_text_look(bytes, "u8");
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
