// The 16-bit float and bool keys in the gpusort command: the .npy dtypes numpy writes for them
// ('<f2', '|b1', and '<V2' for an ml_dtypes.bfloat16 array), stable sorts with their values against
// the library's order on the host, the generator's specials, and verify's messages.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <random>

#include "cli_test_util.hpp"
#include "gpusort/key_order.hpp"
#include "gpusort/key_type.hpp"

namespace {

using namespace cli_test;
using gpusort::bfloat16_bits;
using gpusort::bool_byte;
using gpusort::half_bits;

// The data offset and header text of a .npy file the command wrote.
std::pair<std::size_t, std::string> npy_header(const std::vector<unsigned char>& b) {
  if (b.size() < 10) return {0, ""};
  const std::size_t len = b[8] | (b[9] << 8);
  return {10 + len, std::string(b.begin() + 10, b.begin() + std::min(b.size(), 10 + len))};
}

// Random bits with a third of the keys from `specials`, the same bits repeated so that equal keys
// (and -0 / +0, NaNs of different payloads) show whether the sort kept their input order.
template <class T>
std::vector<T> keys_with(const std::vector<std::uint16_t>& specials, std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<T> v(n);
  for (auto& k : v) {
    const std::uint32_t r = rng();
    std::uint16_t bits = r % 3 == 0 ? specials[(r >> 8) % specials.size()] : std::uint16_t(r >> 16);
    if (r % 5 == 1) bits &= 0x80FFu;  // small magnitudes: subnormals of f16, tiny bf16
    std::memcpy(&k, &bits, sizeof bits);
  }
  return v;
}

// Sorts keys (with their input positions as u32 values) through `descr` .npy files, stable, in both
// orders, and checks keys, values and the output's dtype against std::stable_sort in the library's order.
template <class T>
void expect_npy_pairs_sorted(const std::vector<T>& keys, const std::string& descr, const std::string& out_descr,
                             const std::vector<std::string>& extra = {}) {
  TempDir d;
  std::vector<std::uint32_t> idx(keys.size());
  std::iota(idx.begin(), idx.end(), 0u);
  const std::string shape = "(" + std::to_string(keys.size()) + ",)";
  const auto kn = make_npy(descr, shape, keys.data(), keys.size() * sizeof(T));
  const auto vn = make_npy("<u4", shape, idx.data(), idx.size() * 4);
  write_bytes(d / "k.npy", kn.data(), kn.size());
  write_bytes(d / "v.npy", vn.data(), vn.size());
  for (bool descending : {false, true}) {
    std::vector<std::string> args = {"sort", (d / "k.npy").string(), "-o", (d / "ko.npy").string(), "--values",
                                     (d / "v.npy").string(), "--values-out", (d / "vo.npy").string(), "--stable"};
    if (descending) args.push_back("--descending");
    args.insert(args.end(), extra.begin(), extra.end());
    ASSERT_CLI_OK(run_cli(args));
    const auto [koff, kheader] = npy_header(read_bytes(d / "ko.npy"));
    EXPECT_NE(kheader.find("'descr': '" + out_descr + "'"), std::string::npos) << kheader;
    const auto [voff, vheader] = npy_header(read_bytes(d / "vo.npy"));
    const auto got_keys = read_vec<T>(d / "ko.npy", koff);
    const auto got_values = read_vec<std::uint32_t>(d / "vo.npy", voff);
    std::vector<std::uint32_t> ref = idx;
    const gpusort::key_less<T> less{descending ? gpusort::order::descending : gpusort::order::ascending};
    std::stable_sort(ref.begin(), ref.end(), [&](std::uint32_t a, std::uint32_t b) { return less(keys[a], keys[b]); });
    ASSERT_EQ(got_values, ref) << descr << (descending ? " descending" : " ascending");
    for (std::size_t i = 0; i < keys.size(); ++i) {
      if constexpr (std::is_same_v<T, bool_byte>)  // CUDA's one-block sorts may write a true byte as 1
        ASSERT_EQ(got_keys[i].byte != 0, keys[ref[i]].byte != 0) << "key changed at " << i;
      else
        ASSERT_EQ(std::memcmp(&got_keys[i], &keys[ref[i]], sizeof(T)), 0) << "key bits changed at " << i;
    }
    std::vector<std::string> verify = {"verify", (d / "ko.npy").string()};
    if (descending) verify.push_back("--descending");
    verify.insert(verify.end(), extra.begin(), extra.end());
    EXPECT_CLI_OK(run_cli(verify));
  }
}

// NaNs with payloads of both signs, both zeros, both infinities, subnormals, max, 1 and -1.
const std::vector<std::uint16_t> f16_specials = {0x7E00, 0x7C01, 0xFE00, 0xFC05, 0x7FFF, 0x0000, 0x8000, 0x7C00,
                                                 0xFC00, 0x0001, 0x8001, 0x03FF, 0x7BFF, 0x3C00, 0xBC00};
const std::vector<std::uint16_t> bf16_specials = {0x7FC0, 0x7F81, 0xFFC0, 0xFF85, 0x7FFF, 0x0000, 0x8000, 0x7F80,
                                                  0xFF80, 0x0001, 0x8001, 0x007F, 0x7F7F, 0x3F80, 0xBF80};

TEST(CliHalfBool, F16NpyPairsSortStablyWithNaNsLastAndZerosInInputOrder) {
  expect_npy_pairs_sorted(keys_with<half_bits>(f16_specials, 6007, 5), "<f2", "<f2");
}

// np.save writes an ml_dtypes.bfloat16 array with descr '<V2'; gpusort reads it as bf16 and writes
// '<V2' back (np.load(f).view(ml_dtypes.bfloat16) restores the dtype).
TEST(CliHalfBool, Bf16AsMlDtypesSavesItIsReadFromV2) {
  expect_npy_pairs_sorted(keys_with<bfloat16_bits>(bf16_specials, 6007, 6), "<V2", "<V2");
}

// A 2-byte void has no type of its own: --type names another 2-byte type for it (the output keeps
// the input's dtype).
TEST(CliHalfBool, V2IsReadAsTheTwoByteTypeGiven) {
  std::vector<std::uint16_t> keys(3001);
  std::mt19937 rng(7);
  for (auto& k : keys) k = std::uint16_t(rng());
  expect_npy_pairs_sorted(keys, "<V2", "<V2", {"--type", "u16"});
}

// '|b1': false before true; any nonzero byte is true, and true keys of different bytes keep their
// input order (their values show it).
TEST(CliHalfBool, BoolNpyFalseBeforeTrueAnyNonzeroByteTrue) {
  std::vector<bool_byte> keys(5003);
  std::mt19937 rng(8);
  const std::uint8_t bytes[] = {0, 1, 1, 0, 2, 255};
  for (auto& k : keys) k.byte = bytes[rng() % 6];
  expect_npy_pairs_sorted(keys, "|b1", "|b1");
}

TEST(CliHalfBool, GenSpecialsHoldTheEdgesAndSortVerifies) {
  for (const char* type : {"f16", "bf16"}) {
    TempDir d;
    const auto in = (d / "in.npy").string(), out = (d / "out.npy").string();
    ASSERT_CLI_OK(run_cli({"gen", "-t", type, "-n", "20000", "--dist", "specials", "--seed", "2", "-o", in}));
    const auto [off, header] = npy_header(read_bytes(in));
    EXPECT_NE(header.find(std::string(type) == "f16" ? "'<f2'" : "'<V2'"), std::string::npos) << header;
    const auto keys = read_vec<std::uint16_t>(in, off);
    const std::uint16_t exp = std::string(type) == "f16" ? 0x7C00 : 0x7F80;
    auto count = [&](auto pred) { return std::count_if(keys.begin(), keys.end(), pred); };
    EXPECT_GT(count([&](std::uint16_t k) { return (k & 0x7FFF) > exp; }), 0) << type << ": no NaN";
    EXPECT_GT(count([&](std::uint16_t k) { return k == 0x8000; }), 0) << type << ": no -0";
    EXPECT_GT(count([&](std::uint16_t k) { return k == (0x8000 | exp); }), 0) << type << ": no -inf";
    EXPECT_GT(count([&](std::uint16_t k) { return k == 0x0001; }), 0) << type << ": no subnormal";
    ASSERT_CLI_OK(run_cli({"sort", in, "-o", out, "--stable"}));
    EXPECT_CLI_OK(run_cli({"verify", out}));
    EXPECT_EQ(run_cli({"verify", out, "--descending"}).code, 1);
  }
  TempDir d;
  const auto in = (d / "b.bin").string();
  ASSERT_CLI_OK(run_cli({"gen", "-t", "bool", "-n", "1000", "--dist", "uniform", "-o", in}));
  const auto bytes = read_bytes(in);
  EXPECT_TRUE(std::all_of(bytes.begin(), bytes.end(), [](unsigned char b) { return b <= 1; }));
  EXPECT_GT(std::count(bytes.begin(), bytes.end(), 1), 0);
  EXPECT_GT(std::count(bytes.begin(), bytes.end(), 0), 0);
}

// A run-time comparator sees 16-bit floats as floats (their exact values: subnormals, signs, the
// largest), bools as bools: `a > b` sorts finite keys in the library's descending order.
TEST(CliHalfBool, ComparatorSeesTheValues) {
  for (const char* type : {"f16", "bf16", "bool"}) {
    TempDir d;
    const auto in = (d / "in.npy").string(), out = (d / "out.npy").string();
    ASSERT_CLI_OK(run_cli({"gen", "-t", type, "-n", "3001", "--dist", "uniform", "--seed", "4", "-o", in}));
    ASSERT_CLI_OK(run_cli({"sort", in, "-o", out, "--algorithm", "merge", "--comparator", "return a > b;"}));
    EXPECT_CLI_OK(run_cli({"verify", out, "--descending"})) << type;
  }
}

// verify names the out-of-order keys as values: 16-bit floats with their digits, bools as words.
TEST(CliHalfBool, VerifyPrintsTheKeysAsValues) {
  TempDir d;
  const std::vector<std::uint16_t> f16 = {0x3C00, 0x3E00, 0x3D00};  // 1, 1.5, 1.25
  write_vec(d / "h.bin", f16);
  auto r = run_cli({"verify", (d / "h.bin").string(), "-t", "f16"});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE((r.out + r.err).find("1.25"), std::string::npos) << describe(r);
  EXPECT_NE((r.out + r.err).find("1.5"), std::string::npos) << describe(r);
  const std::vector<std::uint16_t> bf16 = {0xC040, 0x3F80, 0xBF80};  // -3, 1, -1
  write_vec(d / "b.bin", bf16);
  r = run_cli({"verify", (d / "b.bin").string(), "-t", "bf16"});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE((r.out + r.err).find("-1"), std::string::npos) << describe(r);
  const std::vector<std::uint8_t> bools = {0, 2, 0};
  write_vec(d / "t.bin", bools);
  r = run_cli({"verify", (d / "t.bin").string(), "-t", "bool"});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE((r.out + r.err).find("false"), std::string::npos) << describe(r);
  EXPECT_NE((r.out + r.err).find("true"), std::string::npos) << describe(r);
}

}  // namespace
