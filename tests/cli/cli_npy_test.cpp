// .npy input and output of the gpusort command.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "cli_test_util.hpp"

namespace {

using namespace cli_test;

struct ParsedNpy {
  std::string header;  // the dict text
  std::size_t data_offset = 0;
};

ParsedNpy parse(const std::vector<unsigned char>& b) {
  ParsedNpy p;
  EXPECT_GE(b.size(), 10u);
  if (b.size() < 10) return p;
  EXPECT_EQ(std::memcmp(b.data(), "\x93NUMPY", 6), 0);
  const std::size_t len = b[8] | (b[9] << 8);
  EXPECT_EQ(b[6], 1);
  p.data_offset = 10 + len;
  EXPECT_EQ(p.data_offset % 16, 0u) << "numpy aligns data to 16 (64 in new versions)";
  EXPECT_LE(p.data_offset, b.size());
  p.header.assign(b.begin() + 10, b.begin() + std::min(b.size(), p.data_offset));
  EXPECT_EQ(p.header.back(), '\n');
  return p;
}

TEST(CliNpy, SortsNpyAndWritesNpyWithSameDtype) {
  TempDir d;
  std::vector<std::int16_t> keys;
  for (int i = 0; i < 5000; ++i) keys.push_back(static_cast<std::int16_t>((i * 7919) % 65536 - 32768));
  const auto npy = make_npy("<i2", "(" + std::to_string(keys.size()) + ",)", keys.data(), keys.size() * 2);
  const auto in = d / "keys.npy", out = d / "sorted.npy";
  write_bytes(in, npy.data(), npy.size());
  ASSERT_CLI_OK(run_cli({"sort", in.string(), "-o", out.string()}));  // no --type: from the header
  const auto b = read_bytes(out);
  const auto p = parse(b);
  EXPECT_NE(p.header.find("'descr': '<i2'"), std::string::npos) << p.header;
  EXPECT_NE(p.header.find("'fortran_order': False"), std::string::npos) << p.header;
  EXPECT_NE(p.header.find("'shape': (5000,)"), std::string::npos) << p.header;
  auto expected = keys;
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(read_vec<std::int16_t>(out, p.data_offset), expected);
  EXPECT_EQ(read_bytes(in), npy) << "input changed";
  EXPECT_CLI_OK(run_cli({"verify", out.string()}));
}

TEST(CliNpy, OutputIsNpyWhateverItsNameAndVersion2HeadersAreRead) {
  TempDir d;
  std::vector<double> keys = {3.5, -1.0, 2.25, -0.0, 1e300, -7.0};
  const auto npy = make_npy("<f8", "(6,)", keys.data(), keys.size() * 8, /*version=*/2);
  write_bytes(d / "in.npy", npy.data(), npy.size());
  ASSERT_CLI_OK(run_cli({"sort", (d / "in.npy").string(), "-o", (d / "out.bin").string(), "--descending"}));
  const auto b = read_bytes(d / "out.bin");
  const auto p = parse(b);
  EXPECT_NE(p.header.find("'<f8'"), std::string::npos) << p.header;
  EXPECT_EQ(read_vec<double>(d / "out.bin", p.data_offset), (std::vector<double>{1e300, 3.5, 2.25, -0.0, -1.0, -7.0}));
}

TEST(CliNpy, UnsignedByteDtypeAndMatchingType) {
  TempDir d;
  std::vector<std::uint8_t> keys = {9, 3, 255, 0, 3, 128};
  const auto npy = make_npy("|u1", "(6,)", keys.data(), keys.size());
  write_bytes(d / "in.npy", npy.data(), npy.size());
  ASSERT_CLI_OK(run_cli({"sort", (d / "in.npy").string(), "-o", (d / "out.npy").string(), "--type", "u8"}));
  const auto b = read_bytes(d / "out.npy");
  const auto p = parse(b);
  EXPECT_NE(p.header.find("'|u1'"), std::string::npos) << p.header;
  EXPECT_EQ(read_vec<std::uint8_t>(d / "out.npy", p.data_offset), (std::vector<std::uint8_t>{0, 3, 3, 9, 128, 255}));
}

TEST(CliNpy, NpyValuesKeepTheirDtype) {
  TempDir d;
  std::vector<std::uint32_t> keys = {50, 10, 40, 20, 30};
  std::vector<float> vals = {5.f, 1.f, 4.f, 2.f, 3.f};
  const auto kn = make_npy("<u4", "(5,)", keys.data(), 20);
  const auto vn = make_npy("<f4", "(5,)", vals.data(), 20);
  write_bytes(d / "k.npy", kn.data(), kn.size());
  write_bytes(d / "v.npy", vn.data(), vn.size());
  ASSERT_CLI_OK(run_cli({"sort", (d / "k.npy").string(), "-o", (d / "ko.npy").string(), "--values",
                         (d / "v.npy").string(), "--values-out", (d / "vo.npy").string()}));
  const auto vb = read_bytes(d / "vo.npy");
  const auto vp = parse(vb);
  EXPECT_NE(vp.header.find("'<f4'"), std::string::npos) << vp.header;
  EXPECT_EQ(read_vec<float>(d / "vo.npy", vp.data_offset), (std::vector<float>{1.f, 2.f, 3.f, 4.f, 5.f}));
}

TEST(CliNpy, RawInputToNpyNamedOutput) {
  TempDir d;
  write_vec<std::uint64_t>(d / "in", {5, 1, 4});
  ASSERT_CLI_OK(run_cli({"sort", (d / "in").string(), "-o", (d / "out.npy").string(), "-t", "u64"}));
  const auto b = read_bytes(d / "out.npy");
  const auto p = parse(b);
  EXPECT_NE(p.header.find("'<u8'"), std::string::npos) << p.header;
  EXPECT_EQ(read_vec<std::uint64_t>(d / "out.npy", p.data_offset), (std::vector<std::uint64_t>{1, 4, 5}));
}

TEST(CliNpy, GenWritesNpy) {
  TempDir d;
  ASSERT_CLI_OK(run_cli({"gen", "-t", "f32", "-n", "1000", "--dist", "sorted", "-o", (d / "g.npy").string()}));
  const auto b = read_bytes(d / "g.npy");
  const auto p = parse(b);
  EXPECT_NE(p.header.find("'<f4'"), std::string::npos) << p.header;
  EXPECT_NE(p.header.find("(1000,)"), std::string::npos) << p.header;
  EXPECT_EQ(b.size(), p.data_offset + 4000);
  EXPECT_CLI_OK(run_cli({"verify", (d / "g.npy").string()}));
}

// Unusable .npy files: one clean error line, nothing written.
void expect_rejected(const std::string& descr, const std::string& shape, std::size_t bytes,
                     const std::vector<std::string>& extra = {}) {
  TempDir d;
  std::vector<unsigned char> payload(bytes, 1);
  const auto npy = make_npy(descr, shape, payload.data(), payload.size());
  write_bytes(d / "in.npy", npy.data(), npy.size());
  std::vector<std::string> args = {"sort", (d / "in.npy").string(), "-o", (d / "out.npy").string()};
  args.insert(args.end(), extra.begin(), extra.end());
  const auto r = run_cli(args);
  expect_clean_error(r, 2);
  EXPECT_FALSE(fs::exists(d / "out.npy"));
  EXPECT_EQ(d.entries(), std::vector<std::string>{"in.npy"});
}

TEST(CliNpy, RejectsBigEndian) { expect_rejected(">u4", "(4,)", 16); }
TEST(CliNpy, RejectsUnsupportedDtype) { expect_rejected("<c32", "(4,)", 128); }
TEST(CliNpy, RejectsZeroDimensional) { expect_rejected("<u4", "()", 4); }
TEST(CliNpy, RejectsTruncatedData) { expect_rejected("<u4", "(5,)", 16); }
TEST(CliNpy, RejectsTypeMismatch) { expect_rejected("<u4", "(4,)", 16, {"--type", "f32"}); }

TEST(CliNpy, BigEndianErrorSaysSo) {
  TempDir d;
  std::vector<unsigned char> payload(16, 1);
  const auto npy = make_npy(">f8", "(2,)", payload.data(), payload.size());
  write_bytes(d / "in.npy", npy.data(), npy.size());
  const auto r = run_cli({"sort", (d / "in.npy").string(), "-o", (d / "out.npy").string()});
  expect_clean_error(r, 2);
  EXPECT_NE(r.err.find("big-endian"), std::string::npos) << r.err;
}

}  // namespace
