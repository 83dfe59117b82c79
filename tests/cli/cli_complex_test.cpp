// complex64 keys in the gpusort command: '--type c64' on raw files and the '<c8' .npy dtype numpy
// writes, stable sorts with their values against the library's order on the host (numpy's complex
// order, gpusort/key_order.hpp), bit for bit; the generator's specials; verify; plan; a comparator
// refused.
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
using c64 = std::complex<float>;

std::pair<std::size_t, std::string> npy_header(const std::vector<unsigned char>& b) {
  if (b.size() < 10) return {0, ""};
  const std::size_t len = b[8] | (b[9] << 8);
  return {10 + len, std::string(b.begin() + 10, b.begin() + std::min(b.size(), 10 + len))};
}

// Parts from small integers (ties in the real part) and specials: NaNs of both signs and several
// payloads, both zeros, infinities, subnormals; either part or both.
std::vector<c64> complex_keys(std::size_t n, unsigned seed) {
  const std::uint32_t specials[] = {0x7FC00000u, 0x7FC00003u, 0xFFC00001u, 0x00000000u, 0x80000000u,
                                    0x7F800000u, 0xFF800000u, 0x00000001u, 0x80000001u};
  std::mt19937 rng(seed);
  auto part = [&] {
    const std::uint32_t r = rng();
    return r % 3 == 0 ? std::bit_cast<float>(specials[(r >> 8) % std::size(specials)]) : float(int(r >> 16) % 5 - 2);
  };
  std::vector<c64> v(n);
  for (auto& k : v) {
    const float re = part();
    k = c64(re, part());
  }
  return v;
}

std::vector<std::uint32_t> stable_order(const std::vector<c64>& keys, bool descending) {
  std::vector<std::uint32_t> ref(keys.size());
  std::iota(ref.begin(), ref.end(), 0u);
  const gpusort::key_less<c64> less{descending ? gpusort::order::descending : gpusort::order::ascending};
  std::stable_sort(ref.begin(), ref.end(), [&](std::uint32_t a, std::uint32_t b) { return less(keys[a], keys[b]); });
  return ref;
}

void expect_keys(const std::vector<c64>& got, const std::vector<c64>& keys, const std::vector<std::uint32_t>& ref) {
  ASSERT_EQ(got.size(), ref.size());
  for (std::size_t i = 0; i < ref.size(); ++i)
    ASSERT_EQ(std::memcmp(&got[i], &keys[ref[i]], sizeof(c64)), 0) << "key bits at " << i;
}

TEST(CliComplex, C8NpyPairsSortStablyInBothOrders) {
  const auto keys = complex_keys(20011, 3);
  TempDir d;
  std::vector<std::uint32_t> idx(keys.size());
  std::iota(idx.begin(), idx.end(), 0u);
  const std::string shape = "(" + std::to_string(keys.size()) + ",)";
  const auto kn = make_npy("<c8", shape, keys.data(), keys.size() * sizeof(c64));
  const auto vn = make_npy("<u4", shape, idx.data(), idx.size() * 4);
  write_bytes(d / "k.npy", kn.data(), kn.size());
  write_bytes(d / "v.npy", vn.data(), vn.size());
  for (bool descending : {false, true}) {
    std::vector<std::string> args = {"sort", (d / "k.npy").string(), "-o", (d / "ko.npy").string(), "--values",
                                     (d / "v.npy").string(), "--values-out", (d / "vo.npy").string(), "--stable"};
    if (descending) args.push_back("--descending");
    ASSERT_CLI_OK(run_cli(args));
    const auto [koff, kheader] = npy_header(read_bytes(d / "ko.npy"));
    EXPECT_NE(kheader.find("'descr': '<c8'"), std::string::npos) << kheader;
    const auto [voff, vheader] = npy_header(read_bytes(d / "vo.npy"));
    const auto ref = stable_order(keys, descending);
    ASSERT_EQ(read_vec<std::uint32_t>(d / "vo.npy", voff), ref) << (descending ? "descending" : "ascending");
    expect_keys(read_vec<c64>(d / "ko.npy", koff), keys, ref);
    std::vector<std::string> verify = {"verify", (d / "ko.npy").string()};
    if (descending) verify.push_back("--descending");
    EXPECT_CLI_OK(run_cli(verify));
  }
}

TEST(CliComplex, RawC64KeysByEveryAlgorithmFamily) {
  const auto keys = complex_keys(70001, 4);
  const auto ref = stable_order(keys, false);
  for (const char* algorithm : {"auto", "radix", "merge"}) {
    TempDir d;
    write_vec(d / "k.c64", keys);
    ASSERT_CLI_OK(run_cli({"sort", (d / "k.c64").string(), "-t", "c64", "-o", (d / "o.c64").string(), "--stable",
                           "--algorithm", algorithm}));
    expect_keys(read_vec<c64>(d / "o.c64", 0), keys, ref);
    EXPECT_CLI_OK(run_cli({"verify", (d / "o.c64").string(), "-t", "c64"}));
  }
}

TEST(CliComplex, GenSpecialsVerifyPlanAndNoComparator) {
  TempDir d;
  const auto in = (d / "in.npy").string(), out = (d / "out.npy").string();
  ASSERT_CLI_OK(run_cli({"gen", "-t", "c64", "-n", "20000", "--dist", "specials", "--seed", "2", "-o", in}));
  const auto [off, header] = npy_header(read_bytes(in));
  EXPECT_NE(header.find("'<c8'"), std::string::npos) << header;
  const auto keys = read_vec<c64>(in, off);
  auto count = [&](auto pred) { return std::count_if(keys.begin(), keys.end(), pred); };
  EXPECT_GT(count([](c64 k) { return std::isnan(k.real()) && !std::isnan(k.imag()); }), 0) << "no real NaN";
  EXPECT_GT(count([](c64 k) { return !std::isnan(k.real()) && std::isnan(k.imag()); }), 0) << "no imaginary NaN";
  EXPECT_GT(count([](c64 k) { return std::isnan(k.real()) && std::isnan(k.imag()); }), 0) << "no NaN in both";
  ASSERT_CLI_OK(run_cli({"sort", in, "-o", out}));
  EXPECT_CLI_OK(run_cli({"verify", out}));
  auto r = run_cli({"verify", out, "--descending"});
  EXPECT_EQ(r.code, 1) << describe(r);
  EXPECT_NE((r.out + r.err).find("j)"), std::string::npos) << describe(r);  // keys printed as (re+imj)
  r = run_cli({"plan", "-t", "c64", "-n", "1000000"});
  EXPECT_CLI_OK(r);
  EXPECT_NE(r.out.find("algorithm: "), std::string::npos) << describe(r);
  r = run_cli({"sort", in, "-o", out, "--algorithm", "merge", "--comparator", "return a < b;"});
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("complex"), std::string::npos) << describe(r);
}

}  // namespace
