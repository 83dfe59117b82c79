// complex128 keys in the gpusort command: '--type c128' on raw files and the '<c16' .npy dtype numpy
// writes, sorted in both orders against the library's order on the host (numpy's complex order,
// gpusort/key_order.hpp), bit for bit and stable; the generator's specials; verify; the plan's two
// passes; values and --indices-out carried in the same stable order.
#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <cstring>
#include <numeric>
#include <random>

#include "cli_test_util.hpp"
#include "gpusort/key_order.hpp"
#include "gpusort/key_type.hpp"

namespace {

using namespace cli_test;
using c128 = std::complex<double>;

std::pair<std::size_t, std::string> npy_header(const std::vector<unsigned char>& b) {
  if (b.size() < 10) return {0, ""};
  const std::size_t len = b[8] | (b[9] << 8);
  return {10 + len, std::string(b.begin() + 10, b.begin() + std::min(b.size(), 10 + len))};
}

// Parts from small integers (ties in the real part) and specials: NaNs of both signs and several
// payloads, both zeros, infinities, subnormals; either part or both.
std::vector<c128> complex_keys(std::size_t n, unsigned seed) {
  const std::uint64_t specials[] = {0x7FF8000000000000ull, 0x7FF8000000000003ull, 0xFFF8000000000001ull, 0,
                                    0x8000000000000000ull, 0x7FF0000000000000ull, 0xFFF0000000000000ull, 1,
                                    0x8000000000000001ull};
  std::mt19937 rng(seed);
  auto part = [&] {
    const std::uint32_t r = rng();
    return r % 3 == 0 ? std::bit_cast<double>(specials[(r >> 8) % std::size(specials)]) : double(int(r >> 16) % 5 - 2);
  };
  std::vector<c128> v(n);
  for (auto& k : v) {
    const double re = part();
    k = c128(re, part());
  }
  return v;
}

// The keys in the stable order, bit for bit.
std::vector<c128> stable_sorted(std::vector<c128> keys, bool descending) {
  std::stable_sort(keys.begin(), keys.end(),
                   gpusort::key_less<c128>{descending ? gpusort::order::descending : gpusort::order::ascending});
  return keys;
}

void expect_same_bits(const std::vector<c128>& got, const std::vector<c128>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i)
    ASSERT_EQ(std::memcmp(&got[i], &want[i], sizeof(c128)), 0) << "key bits at " << i << ": " << got[i] << " " << want[i];
}

TEST(CliComplex128, C16NpySortsStablyInBothOrders) {
  const auto keys = complex_keys(20011, 3);
  TempDir d;
  const auto kn = make_npy("<c16", "(" + std::to_string(keys.size()) + ",)", keys.data(), keys.size() * sizeof(c128));
  write_bytes(d / "k.npy", kn.data(), kn.size());
  for (bool descending : {false, true}) {
    std::vector<std::string> args = {"sort", (d / "k.npy").string(), "-o", (d / "ko.npy").string()};
    if (descending) args.push_back("--descending");
    ASSERT_CLI_OK(run_cli(args));
    const auto [off, header] = npy_header(read_bytes(d / "ko.npy"));
    EXPECT_NE(header.find("'descr': '<c16'"), std::string::npos) << header;
    expect_same_bits(read_vec<c128>(d / "ko.npy", off), stable_sorted(keys, descending));
    std::vector<std::string> verify = {"verify", (d / "ko.npy").string()};
    if (descending) verify.push_back("--descending");
    EXPECT_CLI_OK(run_cli(verify));
  }
}

TEST(CliComplex128, RawC128KeysByEveryAlgorithmFamily) {
  const auto keys = complex_keys(70001, 4);
  const auto want = stable_sorted(keys, false);
  for (const char* algorithm : {"auto", "radix", "merge"}) {
    TempDir d;
    write_vec(d / "k.c128", keys);
    ASSERT_CLI_OK(run_cli({"sort", (d / "k.c128").string(), "-t", "c128", "-o", (d / "o.c128").string(),
                           "--algorithm", algorithm}));
    expect_same_bits(read_vec<c128>(d / "o.c128", 0), want);
    EXPECT_CLI_OK(run_cli({"verify", (d / "o.c128").string(), "-t", "c128"}));
  }
}

TEST(CliComplex128, GenSpecialsVerifyPlanValuesAndIndices) {
  TempDir d;
  const auto in = (d / "in.npy").string(), out = (d / "out.npy").string();
  ASSERT_CLI_OK(run_cli({"gen", "-t", "c128", "-n", "20000", "--dist", "specials", "--seed", "2", "-o", in}));
  const auto [off, header] = npy_header(read_bytes(in));
  EXPECT_NE(header.find("'<c16'"), std::string::npos) << header;
  const auto keys = read_vec<c128>(in, off);
  auto count = [&](auto pred) { return std::count_if(keys.begin(), keys.end(), pred); };
  EXPECT_GT(count([](c128 k) { return std::isnan(k.real()) && !std::isnan(k.imag()); }), 0) << "no real NaN";
  EXPECT_GT(count([](c128 k) { return !std::isnan(k.real()) && std::isnan(k.imag()); }), 0) << "no imaginary NaN";
  EXPECT_GT(count([](c128 k) { return std::isnan(k.real()) && std::isnan(k.imag()); }), 0) << "no NaN in both";
  ASSERT_CLI_OK(run_cli({"sort", in, "-o", out}));
  EXPECT_CLI_OK(run_cli({"verify", out}));
  auto r = run_cli({"verify", out, "--descending"});
  EXPECT_EQ(r.code, 1) << describe(r);
  EXPECT_NE((r.out + r.err).find("j)"), std::string::npos) << describe(r);  // keys printed as (re+imj)
  r = run_cli({"plan", "-t", "c128", "-n", "1000000"});
  EXPECT_CLI_OK(r);
  EXPECT_NE(r.out.find("low word"), std::string::npos) << describe(r);
  EXPECT_NE(r.out.find("high word"), std::string::npos) << describe(r);
  std::vector<std::uint32_t> idx(keys.size());
  std::iota(idx.begin(), idx.end(), 0u);
  write_vec(d / "v.u32", idx);
  // the values and argsort's indices: the stable permutation, in both orders
  for (bool descending : {false, true}) {
    std::vector<std::uint32_t> order(keys.size());
    std::iota(order.begin(), order.end(), 0u);
    const gpusort::key_less<c128> less{descending ? gpusort::order::descending : gpusort::order::ascending};
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return less(keys[a], keys[b]); });
    std::vector<std::string> args = {"sort",        in, "-o", out, "--values", (d / "v.u32").string(), "--values-type",
                                     "u32", "--values-out", (d / "vo.u32").string()};
    if (descending) args.push_back("--descending");
    ASSERT_CLI_OK(run_cli(args));
    EXPECT_EQ(read_vec<std::uint32_t>(d / "vo.u32", 0), order) << (descending ? "descending" : "ascending");
    args = {"sort", in, "--indices-out", (d / "i.npy").string()};
    if (descending) args.push_back("--descending");
    ASSERT_CLI_OK(run_cli(args));
    const auto indices = read_vec<std::int64_t>(d / "i.npy", npy_header(read_bytes(d / "i.npy")).first);
    EXPECT_TRUE(std::equal(indices.begin(), indices.end(), order.begin(), order.end())) << (descending ? "descending" : "ascending");
  }
}

}  // namespace
