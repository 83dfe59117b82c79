// gpusort sort --record-size N --key ...: raw records sorted by fields, against std::stable_sort of
// the same records on the host, and clear errors for keys that do not fit or options that do not
// apply.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "cli_test_util.hpp"

namespace {

using namespace cli_test;

class CliRecords : public ::testing::Test {
 protected:
  // n records of rb bytes from {0, 1, 255} (many ties).
  std::vector<unsigned char> make(std::size_t n, std::size_t rb, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<unsigned char> v(n * rb);
    const unsigned char alphabet[3] = {0, 1, 255};
    for (auto& b : v) b = alphabet[rng() % 3];
    write_vec(dir_ / "in.bin", v);
    return v;
  }
  template <class Less>
  std::vector<unsigned char> reference(const std::vector<unsigned char>& in, std::size_t rb, Less less) {
    const std::size_t n = in.size() / rb;
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return less(&in[a * rb], &in[b * rb]); });
    std::vector<unsigned char> out;
    for (std::size_t i : order) out.insert(out.end(), in.begin() + i * rb, in.begin() + (i + 1) * rb);
    return out;
  }
  RunResult sort(std::vector<std::string> extra) {
    std::vector<std::string> args = {"sort", (dir_ / "in.bin").string(), "-o", (dir_ / "out.bin").string()};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_cli(args);
  }
  TempDir dir_;
};

TEST_F(CliRecords, HundredByteRecordsByATenByteKey) {
  const auto in = make(20000, 100, 21);
  ASSERT_CLI_OK(sort({"--record-size", "100", "--key", "0:bytes10"}));
  const auto ref = reference(in, 100, [](const unsigned char* a, const unsigned char* b) { return std::memcmp(a, b, 10) < 0; });
  EXPECT_TRUE(read_vec<unsigned char>(dir_ / "out.bin") == ref);
}

TEST_F(CliRecords, AnI32DescendingThenFourBytes) {
  const auto in = make(15000, 100, 22);
  ASSERT_CLI_OK(sort({"--record-size", "100", "--key", "8:i32:desc,0:bytes4"}));
  const auto ref = reference(in, 100, [](const unsigned char* a, const unsigned char* b) {
    std::int32_t x, y;
    std::memcpy(&x, a + 8, 4);
    std::memcpy(&y, b + 8, 4);
    if (x != y) return x > y;
    return std::memcmp(a, b, 4) < 0;
  });
  EXPECT_TRUE(read_vec<unsigned char>(dir_ / "out.bin") == ref);
}

TEST_F(CliRecords, OddRecordSizeWithAU16AtTheEnd) {
  const auto in = make(9999, 7, 23);
  ASSERT_CLI_OK(sort({"--record-size", "7", "--key", "5:u16"}));
  const auto ref = reference(in, 7, [](const unsigned char* a, const unsigned char* b) {
    std::uint16_t x, y;
    std::memcpy(&x, a + 5, 2);
    std::memcpy(&y, b + 5, 2);
    return x < y;
  });
  EXPECT_TRUE(read_vec<unsigned char>(dir_ / "out.bin") == ref);
}

TEST_F(CliRecords, AComparatorInsteadOfKeyFieldsDescending) {
  // the order of AnI32DescendingThenFourBytes as a comparator, reversed by --descending
  const auto in = make(3001, 13, 25);
  ASSERT_CLI_OK(sort({"--record-size", "13", "--descending", "--comparator",
                      "int x = gs_i32(a, 8), y = gs_i32(b, 8);\nif (x != y) return x > y;\n"
                      "return gs_bytes_cmp(a, b, 0, 4) < 0;"}));
  const auto ref = reference(in, 13, [](const unsigned char* a, const unsigned char* b) {
    std::int32_t x, y;
    std::memcpy(&x, b + 8, 4);  // descending: b before a in the comparator's order
    std::memcpy(&y, a + 8, 4);
    if (x != y) return x > y;
    return std::memcmp(b, a, 4) < 0;
  });
  EXPECT_TRUE(read_vec<unsigned char>(dir_ / "out.bin") == ref);
}

TEST_F(CliRecords, ClearErrors) {
  make(100, 10, 24);
  auto expect_error = [&](std::vector<std::string> extra, const std::string& mention) {
    const RunResult r = sort(extra);
    expect_clean_error(r, 2);
    EXPECT_NE(r.err.find(mention), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir_ / "out.bin"));
  };
  expect_error({"--record-size", "10", "--key", "4:u64"}, "do not fit");
  expect_error({"--record-size", "10", "--key", "0:u33"}, "unknown type");
  expect_error({"--record-size", "10", "--key", "0:u8:down"}, "desc or asc");
  expect_error({"--record-size", "10"}, "--key");
  expect_error({"--key", "0:u8"}, "--record-size");
  expect_error({"--record-size", "3", "--key", "0:u8"}, "not a multiple");
  expect_error({"--record-size", "1025", "--key", "0:u8"}, "--record-size");
  expect_error({"--record-size", "10", "--key", "0:u8", "--type", "u32"}, "--type");
  expect_error({"--record-size", "10", "--key", "0:u8", "--comparator", "return false;"}, "not both");
  const RunResult broken = sort({"--record-size", "10", "--comparator", "int x = gs_u8(a, 0);\nreturn x <;"});
  EXPECT_NE(broken.code, 0);
  EXPECT_NE(broken.err.find("comparator:2"), std::string::npos) << broken.err;  // the user's own line
  EXPECT_FALSE(fs::exists(dir_ / "out.bin"));
}

}  // namespace
