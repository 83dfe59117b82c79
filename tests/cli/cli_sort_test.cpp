// gpusort sort: round trips through gen/sort/verify, floats with NaN and -0, pairs, stability.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <set>

#include "gpusort/key_order.hpp"
#include "cli_test_util.hpp"
#include "gpusort/context.hpp"
#include "gpusort/key_type.hpp"
#include "gpusort/sort.hpp"

namespace {

using namespace cli_test;
// The library's order (gpusort/key_order.hpp) with a descending flag.
template <class T>
bool key_before(T a, T b, bool descending) {
  return gpusort::key_less<T>{descending ? gpusort::order::descending : gpusort::order::ascending}(a, b);
}

// The reference: std::stable_sort in the library's order. Only comparable bit for bit where the
// order is total on the data (integers); floats are checked by order + multiset instead.
template <class T>
std::vector<T> reference_sorted(std::vector<T> v, bool descending) {
  std::stable_sort(v.begin(), v.end(), gpusort::key_less<T>{descending ? gpusort::order::descending : gpusort::order::ascending});
  return v;
}

template <class T>
void expect_ordered(const std::vector<T>& v, bool descending) {
  for (std::size_t i = 1; i < v.size(); ++i)
    ASSERT_FALSE(key_before(v[i], v[i - 1], descending)) << "unsorted at index " << i;
}

template <class T>
std::multiset<std::string> bit_multiset(const std::vector<T>& v) {
  std::multiset<std::string> s;
  for (const T& x : v) s.insert(std::string(reinterpret_cast<const char*>(&x), sizeof(T)));
  return s;
}

TEST(CliSort, GenSortVerifyU32) {
  TempDir d;
  const auto in = (d / "in.u32").string(), out = (d / "out.u32").string();
  ASSERT_CLI_OK(run_cli({"gen", "--type", "u32", "--count", "50000", "--dist", "uniform", "--seed", "7", "-o", in}));
  const auto input = read_vec<std::uint32_t>(in);
  ASSERT_EQ(input.size(), 50000u);
  const auto before = read_bytes(in);
  ASSERT_CLI_OK(run_cli({"sort", in, "-o", out, "--type", "u32"}));
  EXPECT_EQ(read_vec<std::uint32_t>(out), reference_sorted(input, false));
  EXPECT_EQ(read_bytes(in), before) << "input changed";
  EXPECT_CLI_OK(run_cli({"verify", out, "--type", "u32"}));
  const auto r = run_cli({"verify", in, "--type", "u32"});
  EXPECT_EQ(r.code, 1) << describe(r);
}

TEST(CliSort, GenSortVerifyI64Descending) {
  TempDir d;
  const auto in = (d / "in.i64").string(), out = (d / "out.i64").string();
  ASSERT_CLI_OK(run_cli({"gen", "-t", "i64", "-n", "20000", "--dist", "entropy-2", "-o", in}));
  const auto input = read_vec<std::int64_t>(in);
  ASSERT_CLI_OK(run_cli({"sort", in, "-o", out, "-t", "i64", "--descending"}));
  EXPECT_EQ(read_vec<std::int64_t>(out), reference_sorted(input, true));
  EXPECT_CLI_OK(run_cli({"verify", out, "-t", "i64", "--descending"}));
  EXPECT_EQ(run_cli({"verify", out, "-t", "i64"}).code, 1);
}

TEST(CliSort, GenSortVerifyU8FewUnique) {
  TempDir d;
  const auto in = (d / "in.u8").string(), out = (d / "out.u8").string();
  ASSERT_CLI_OK(run_cli({"gen", "-t", "u8", "-n", "30001", "--dist", "few-unique", "-o", in}));
  const auto input = read_vec<std::uint8_t>(in);
  ASSERT_EQ(input.size(), 30001u);
  ASSERT_CLI_OK(run_cli({"sort", in, "-o", out, "-t", "u8"}));
  EXPECT_EQ(read_vec<std::uint8_t>(out), reference_sorted(input, false));
  EXPECT_CLI_OK(run_cli({"verify", out, "-t", "u8"}));
}

// Every key type, both orders, through gen -> sort -> verify and against the reference.
class CliSortTypes : public ::testing::TestWithParam<std::tuple<gpusort::key_type, bool>> {};

TEST_P(CliSortTypes, MatchesReference) {
  const auto [type, descending] = GetParam();
  const std::string name(gpusort::key_type_name(type));
  TempDir d;
  const auto in = (d / "in").string(), out = (d / "out").string();
  ASSERT_CLI_OK(run_cli({"gen", "-t", name, "-n", "4099", "--dist", "uniform", "--seed", "3", "-o", in}));
  std::vector<std::string> args = {"sort", in, "-o", out, "-t", name};
  if (descending) args.push_back("--descending");
  ASSERT_CLI_OK(run_cli(args));
  std::vector<std::string> verify = {"verify", out, "-t", name};
  if (descending) verify.push_back("--descending");
  EXPECT_CLI_OK(run_cli(verify));
  gpusort::visit_key_type(type, [&](auto tag) {
    using T = decltype(tag);
    const auto input = read_vec<T>(in), output = read_vec<T>(out);
    ASSERT_EQ(output.size(), input.size());
    expect_ordered(output, descending);
    EXPECT_EQ(bit_multiset(output), bit_multiset(input));
  });
}

INSTANTIATE_TEST_SUITE_P(AllTypes, CliSortTypes,
                         ::testing::Combine(::testing::ValuesIn(gpusort::all_key_types), ::testing::Bool()),
                         [](const auto& info) {
                           return std::string(gpusort::key_type_name(std::get<0>(info.param))) +
                                  (std::get<1>(info.param) ? "_desc" : "_asc");
                         });

// NaNs (several payloads, both signs), both zeros, infinities, subnormals and ordinary values.
std::vector<float> tricky_floats() {
  const std::uint32_t specials[] = {0x7fc00000u, 0x7fc00001u, 0xffc00000u, 0x7f800001u, 0xfff00abcu,
                                    0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x00000001u,
                                    0x80000001u, 0x007fffffu, 0x3f800000u, 0xbf800000u};
  std::vector<float> v;
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> dist(-1000.f, 1000.f);
  for (int rep = 0; rep < 40; ++rep) {
    for (auto b : specials) v.push_back(std::bit_cast<float>(b));
    for (int i = 0; i < 30; ++i) v.push_back(dist(rng));
  }
  return v;
}

void check_tricky_floats(bool descending) {
  TempDir d;
  const auto in = (d / "in.f32").string(), out = (d / "out.f32").string();
  const auto input = tricky_floats();
  write_vec(in, input);
  std::vector<std::string> args = {"sort", in, "-o", out, "--type", "f32"};
  if (descending) args.push_back("--descending");
  ASSERT_CLI_OK(run_cli(args));
  const auto output = read_vec<float>(out);
  ASSERT_EQ(output.size(), input.size());
  expect_ordered(output, descending);
  EXPECT_EQ(bit_multiset(output), bit_multiset(input)) << "keys lost, duplicated or NaN payloads changed";
  const std::size_t nans = std::count_if(input.begin(), input.end(), [](float f) { return std::isnan(f); });
  ASSERT_GT(nans, 0u);
  for (std::size_t i = 0; i < nans; ++i) {
    const std::size_t at = descending ? i : output.size() - 1 - i;
    EXPECT_TRUE(std::isnan(output[at])) << "NaNs belong " << (descending ? "first" : "last") << "; index " << at;
  }
  // -0.0 and +0.0 are one key: they form one contiguous run.
  std::size_t first_zero = output.size(), last_zero = 0;
  for (std::size_t i = 0; i < output.size(); ++i)
    if (output[i] == 0.0f) first_zero = std::min(first_zero, i), last_zero = i;
  for (std::size_t i = first_zero; i <= last_zero; ++i) EXPECT_EQ(output[i], 0.0f) << i;
  std::vector<std::string> verify = {"verify", out, "-t", "f32"};
  if (descending) verify.push_back("-d");
  EXPECT_CLI_OK(run_cli(verify));
}

TEST(CliSort, FloatsWithNaNAndSignedZeroAscending) { check_tricky_floats(false); }
TEST(CliSort, FloatsWithNaNAndSignedZeroDescending) { check_tricky_floats(true); }

TEST(CliSort, InPlaceWhenOutputIsInput) {
  TempDir d;
  const auto f = (d / "keys.i32").string();
  ASSERT_CLI_OK(run_cli({"gen", "-t", "i32", "-n", "1000", "--dist", "reverse", "-o", f}));
  const auto input = read_vec<std::int32_t>(f);
  ASSERT_CLI_OK(run_cli({"sort", f, "-o", f, "-t", "i32"}));
  EXPECT_EQ(read_vec<std::int32_t>(f), reference_sorted(input, false));
  EXPECT_EQ(d.entries(), std::vector<std::string>{"keys.i32"}) << "temporary files left behind";
}

TEST(CliSort, EmptyAndSingleElement) {
  TempDir d;
  write_bytes(d / "empty", "", 0);
  ASSERT_CLI_OK(run_cli({"sort", (d / "empty").string(), "-o", (d / "empty.out").string(), "-t", "u64"}));
  EXPECT_TRUE(fs::exists(d / "empty.out"));
  EXPECT_EQ(fs::file_size(d / "empty.out"), 0u);
  write_vec<double>(d / "one", {3.5});
  ASSERT_CLI_OK(run_cli({"sort", (d / "one").string(), "-o", (d / "one.out").string(), "-t", "f64"}));
  EXPECT_EQ(read_vec<double>(d / "one.out"), std::vector<double>{3.5});
}

TEST(CliSort, VerbosePrintsReport) {
  TempDir d;
  const auto in = (d / "in").string(), out = (d / "out").string();
  ASSERT_CLI_OK(run_cli({"gen", "-t", "u32", "-n", "5000", "-o", in}));
  const auto r = run_cli({"sort", in, "-o", out, "-t", "u32", "--verbose"});
  ASSERT_CLI_OK(r);
  EXPECT_NE(r.err.find("algorithm"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("keys/s"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("sort"), std::string::npos) << r.err;
  EXPECT_CLI_OK(run_cli({"verify", out, "-t", "u32", "-q"}));
}

TEST(CliSort, WorkGroupSizeOption) {
  TempDir d;
  const auto in = (d / "in").string(), out = (d / "out").string();
  ASSERT_CLI_OK(run_cli({"gen", "-t", "u32", "-n", "10000", "-o", in}));
  const auto input = read_vec<std::uint32_t>(in);
  ASSERT_CLI_OK(run_cli({"sort", in, "-o", out, "-t", "u32", "-a", "merge", "--wg", "64"}));
  EXPECT_EQ(read_vec<std::uint32_t>(out), reference_sorted(input, false));
}

// Pairs: values are the original indices, so the output proves it is a permutation that moved
// each value with its key.
template <class K>
void check_pairs(const std::vector<K>& keys, const std::vector<std::uint32_t>& out_idx, const std::vector<K>& out_keys,
                 bool descending, bool stable) {
  ASSERT_EQ(out_idx.size(), keys.size());
  ASSERT_EQ(out_keys.size(), keys.size());
  std::vector<char> seen(keys.size(), 0);
  for (std::size_t i = 0; i < out_idx.size(); ++i) {
    ASSERT_LT(out_idx[i], keys.size()) << i;
    ASSERT_FALSE(seen[out_idx[i]]) << "value " << out_idx[i] << " twice";
    seen[out_idx[i]] = 1;
    ASSERT_EQ(std::memcmp(&out_keys[i], &keys[out_idx[i]], sizeof(K)), 0) << "value not moved with its key at " << i;
    if (i > 0) {
      ASSERT_FALSE(key_before(out_keys[i], out_keys[i - 1], descending)) << "keys unsorted at " << i;
      if (stable && !key_before(out_keys[i - 1], out_keys[i], descending))
        ASSERT_LT(out_idx[i - 1], out_idx[i]) << "equal keys out of input order at " << i;
    }
  }
}

TEST(CliSort, PairsWithU32Values) {
  TempDir d;
  const auto keys_in = (d / "k").string(), vals_in = (d / "v").string();
  ASSERT_CLI_OK(run_cli({"gen", "-t", "u16", "-n", "20000", "--dist", "few-unique", "-o", keys_in}));
  const auto keys = read_vec<std::uint16_t>(keys_in);
  std::vector<std::uint32_t> idx(keys.size());
  for (std::uint32_t i = 0; i < idx.size(); ++i) idx[i] = i;
  write_vec(vals_in, idx);
  for (bool descending : {false, true}) {
    std::vector<std::string> args = {"sort",     keys_in, "-o", (d / "ko").string(), "-t", "u16", "--values",
                                     vals_in, "--values-type", "u32", "--values-out", (d / "vo").string()};
    if (descending) args.push_back("--descending");
    ASSERT_CLI_OK(run_cli(args));
    check_pairs(keys, read_vec<std::uint32_t>(d / "vo"), read_vec<std::uint16_t>(d / "ko"), descending, false);
  }
}

TEST(CliSort, PairsWithBytes16Values) {
  TempDir d;
  const auto keys_in = (d / "k").string(), vals_in = (d / "v").string();
  ASSERT_CLI_OK(run_cli({"gen", "-t", "f64", "-n", "3000", "--dist", "uniform", "-o", keys_in}));
  const auto keys = read_vec<double>(keys_in);
  struct V16 {
    std::uint32_t idx, a, b, c;
  };
  std::vector<V16> vals(keys.size());
  for (std::uint32_t i = 0; i < vals.size(); ++i) vals[i] = {i, ~i, i * 3u, 0xABCD0000u + i};
  write_vec(vals_in, vals);
  ASSERT_CLI_OK(run_cli({"sort", keys_in, "-o", (d / "ko").string(), "-t", "f64", "--values", vals_in,
                         "--values-type", "bytes16", "--values-out", (d / "vo").string()}));
  const auto out_vals = read_vec<V16>(d / "vo");
  ASSERT_EQ(out_vals.size(), vals.size());
  std::vector<std::uint32_t> idx;
  for (const auto& v : out_vals) {
    ASSERT_LT(v.idx, vals.size());
    ASSERT_EQ(std::memcmp(&v, &vals[v.idx], sizeof(V16)), 0) << "16-byte value torn";
    idx.push_back(v.idx);
  }
  check_pairs(keys, idx, read_vec<double>(d / "ko"), false, false);
}

TEST(CliSort, AlgorithmsCommandListsLibraryAlgorithms) {
  const auto r = run_cli({"algorithms"});
  ASSERT_CLI_OK(r);
  const auto lines = lines_of(r.out);
  const auto algos = gpusort::algorithms();
  ASSERT_EQ(lines.size(), algos.size()) << r.out;
  for (std::size_t i = 0; i < algos.size(); ++i) {
    EXPECT_EQ(lines[i].rfind(algos[i].name + " ", 0), 0u) << lines[i];
    EXPECT_NE(lines[i].find(algos[i].description), std::string::npos) << lines[i];
  }
}

TEST(CliSort, DevicesCommandListsDevices) {
  const auto devices = gpusort::list_devices();
  const auto r = run_cli({"devices"});
  if (devices.empty()) {
    expect_clean_error(r, 1);
    return;
  }
  ASSERT_CLI_OK(r);
  const auto lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), devices.size()) << r.out;
  for (std::size_t i = 0; i < devices.size(); ++i) {
    EXPECT_EQ(lines[i].rfind(devices[i].id + " ", 0), 0u) << lines[i];
    EXPECT_NE(lines[i].find(devices[i].backend), std::string::npos) << lines[i];
    EXPECT_NE(lines[i].find("iB"), std::string::npos) << lines[i];
    EXPECT_NE(lines[i].find("  " + gpusort::device_class(devices[i])), std::string::npos) << lines[i];  // tuning class
  }
  // Every listed id is accepted by --device.
  TempDir d;
  ASSERT_CLI_OK(run_cli({"gen", "-t", "u32", "-n", "100", "-o", (d / "in").string()}));
  for (const auto& dev : devices) {
    ASSERT_CLI_OK(run_cli({"sort", (d / "in").string(), "-o", (d / "out").string(), "-t", "u32", "--device", dev.id}));
    EXPECT_CLI_OK(run_cli({"verify", (d / "out").string(), "-t", "u32"}));
  }
}

// Pairs with values = index, sorted with --stable by `algorithm` in both orders; checks stability.
// Returns the failed run if the sort was refused.
std::optional<RunResult> stable_pairs_run(const std::string& algorithm) {
  TempDir d;
  const auto keys_in = (d / "k").string(), vals_in = (d / "v").string();
  const auto keys_out = (d / "ko").string(), vals_out = (d / "vo").string();
  const auto g = run_cli({"gen", "-t", "i32", "-n", "30000", "--dist", "few-unique", "-o", keys_in});
  EXPECT_CLI_OK(g);
  const auto keys = read_vec<std::int32_t>(keys_in);
  std::vector<std::uint32_t> idx(keys.size());
  for (std::uint32_t i = 0; i < idx.size(); ++i) idx[i] = i;
  write_vec(vals_in, idx);
  for (bool descending : {false, true}) {
    std::vector<std::string> args = {"sort", keys_in, "-o", keys_out, "-t", "i32", "--stable", "--algorithm", algorithm,
                                     "--values", vals_in, "--values-type", "u32", "--values-out", vals_out};
    if (descending) args.push_back("--descending");
    const auto r = run_cli(args);
    if (r.code != 0) {
      EXPECT_FALSE(fs::exists(keys_out));
      EXPECT_FALSE(fs::exists(vals_out));
      return r;
    }
    check_pairs(keys, read_vec<std::uint32_t>(vals_out), read_vec<std::int32_t>(keys_out), descending, true);
  }
  return std::nullopt;
}

// --stable with the default algorithm: when it succeeds the result must be stable; when the
// library has no stable algorithm (for auto) it must be one clean error line.
TEST(CliSort, StablePairsWithAutoAlgorithm) {
  const auto algos = gpusort::algorithms();
  const bool any_stable = std::any_of(algos.begin(), algos.end(), [](const auto& a) { return a.can_be_stable; });
  const auto failed = stable_pairs_run("auto");
  if (failed) {
    expect_clean_error(*failed);
    EXPECT_NE(failed->err.find("stable"), std::string::npos) << failed->err;
    if (any_stable)
      std::printf("note: auto refused --stable although an algorithm can be stable: %s", failed->err.c_str());
  }
}

// Every algorithm that says it can be stable is stable when asked.
TEST(CliSort, StablePairsWithEveryStableAlgorithm) {
  int tested = 0;
  for (const auto& a : gpusort::algorithms()) {
    if (!a.can_be_stable) continue;
    SCOPED_TRACE(a.name);
    const auto failed = stable_pairs_run(a.name);
    EXPECT_FALSE(failed) << describe(*failed);
    ++tested;
  }
  if (tested == 0) GTEST_SKIP() << "no algorithm can be stable yet";
}

}  // namespace

// The algorithm-specific options reach the library: merge variants and hybrid's host levels.
TEST(CliSort, VariantOptionsPassThrough) {
  TempDir d;
  const auto in = (d / "in.u32").string(), out = (d / "out.u32").string();
  ASSERT_CLI_OK(run_cli({"gen", "--type", "u32", "--count", "20001", "--dist", "few-unique", "--seed", "5", "-o", in}));
  const auto input = read_vec<std::uint32_t>(in);
  for (std::vector<std::string> extra : {std::vector<std::string>{"--algorithm", "merge", "--local", "bubble", "--merge", "hashed"},
                                         std::vector<std::string>{"--algorithm", "hybrid", "--host-levels", "2"}}) {
    std::vector<std::string> args = {"sort", in, "-o", out, "--type", "u32", "--stable"};
    args.insert(args.end(), extra.begin(), extra.end());
    ASSERT_CLI_OK(run_cli(args));
    EXPECT_EQ(read_vec<std::uint32_t>(out), reference_sorted(input, false)) << extra[1];
  }
  expect_clean_error(run_cli({"sort", in, "-o", out, "--type", "u32", "--algorithm", "merge", "--local", "nope"}));
  expect_clean_error(run_cli({"sort", in, "-o", out, "--type", "u32", "--host-levels", "-5"}));
}

// --device a,b sorts on several devices at once (here: the same device twice).
TEST(CliSort, SeveralDevices) {
  TempDir d;
  const auto in = (d / "in.f32").string(), out = (d / "out.f32").string();
  ASSERT_CLI_OK(run_cli({"gen", "--type", "f32", "--count", "30000", "--seed", "9", "-o", in}));
  const auto input = read_vec<float>(in);
  const std::string dev = gpusort::list_devices().front().id;
  ASSERT_CLI_OK(run_cli({"sort", in, "-o", out, "--type", "f32", "--descending", "--device", dev + "," + dev}));
  EXPECT_CLI_OK(run_cli({"verify", out, "--type", "f32", "--descending"}));
  EXPECT_EQ(read_vec<float>(out).size(), input.size());
  expect_clean_error(run_cli({"sort", in, "-o", out, "--type", "f32", "--device", dev + ",nope"}));
}
