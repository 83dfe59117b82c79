// complex128 keys (key_type::c128, std::complex<double>): the host order against numpy's documented
// rule (support/complex128_reference.hpp); the two 64-bit image words a record pass sorts by (host
// and device make the same); then sorts of host data and of a DeviceArray, on the device and
// through host passes, against std::stable_sort in that order, both orders, NaN payloads in either
// part and the sign of zero kept bit for bit; the plan names the two passes; the forms not taken yet
// (segments, top-k, distributed) are refused. Values and argsort: complex128_pairs_test.cpp.
#include <cmath>
#include <complex>
#include <numeric>

#include "algorithms/records/record_passes.hpp"
#include "gpusort/plan.hpp"
#include "support/complex128_reference.hpp"
#include "support/test_support.hpp"

namespace gpusort::test {
namespace {

TEST(Complex128Keys, HostOrderIsNumpys) {
  static_assert(key_type_of<c128>::value == key_type::c128 && sizeof(c128) == 16);
  EXPECT_EQ(key_size(key_type::c128), 16u);
  EXPECT_EQ(parse_key_type("c128"), key_type::c128);
  EXPECT_EQ(key_type_name(key_type::c128), "c128");
  EXPECT_TRUE(is_complex(key_type::c128) && !is_float(key_type::c128));
  const auto keys = special_keys();
  for (c128 a : keys)
    for (c128 b : keys) {
      ASSERT_EQ(key_less<c128>{}(a, b), numpy_less(a, b)) << a << " " << b;
      ASSERT_EQ(key_less<c128>{order::descending}(a, b), numpy_less(b, a)) << a << " " << b;
    }
}

// A c128 field is two u64 passes, the low word first; the words a pass makes from a record are the
// halves of the key's image.
TEST(Complex128Keys, RecordPassesSortTheImageWords) {
  const RecordField field{.offset = 8, .type = key_type::c128, .descending = true};
  const auto passes = detail::record_passes(std::span(&field, 1));
  ASSERT_EQ(passes.size(), 2u);
  EXPECT_EQ(passes[0].word, detail::complex128_word::low);
  EXPECT_EQ(passes[1].word, detail::complex128_word::high);
  for (const auto& p : passes) EXPECT_TRUE(p.type == key_type::u64 && p.offset == 8 && p.descending);
  unsigned char record[24] = {};
  for (c128 k : special_keys()) {
    std::memcpy(record + 8, &k, 16);
    std::uint64_t lo = 0, hi = 0;
    detail::record_key(passes[0], record, reinterpret_cast<unsigned char*>(&lo));
    detail::record_key(passes[1], record, reinterpret_cast<unsigned char*>(&hi));
    ASSERT_EQ((complex128_image_t(hi) << 64 | lo), ordered_bits(k)) << k;
  }
}

TEST(Complex128Keys, SpecialsSortStablyBitForBit) {
  const std::uint64_t seed = fresh_seed();
  const auto keys = shuffled_specials((1u << 16) + 5, seed);
  for (std::size_t n : {std::size_t(2), std::size_t(7), std::size_t(1000), keys.size()})
    for (const char* algorithm : {"auto", "radix", "merge"})
      for (order o : {order::ascending, order::descending}) {
        const std::vector<c128> input(keys.begin(), keys.begin() + n);
        GuardedHostArray<c128> k(input);
        sort(test_context(), k.span(), {.order = o, .algorithm = algorithm});
        ASSERT_TRUE(equals_reference(input, k.contents(), o)) << algorithm << " n=" << n << " seed=" << seed;
        ASSERT_TRUE(k.guards_intact());
      }
}

TEST(Complex128Keys, GeneratedKeysOnTheHostAndInADeviceArray) {
  for (dist d : {dist::uniform, dist::specials, dist::few_unique, dist::sorted})
    for (order o : {order::ascending, order::descending}) {
      const std::uint64_t seed = fresh_seed();
      const auto input = make_keys<c128>(70001, d, seed);
      std::vector<c128> host = input;
      sort(test_context(), std::span<c128>(host), {.order = o});
      ASSERT_TRUE(equals_reference(input, host, o)) << dist_name(d) << " seed=" << seed;
      DeviceArray<c128> device(test_context(), std::span<const c128>(input));
      sort(test_context(), device, {.order = o});
      std::vector<c128> got(input.size());
      device.download(got);
      ASSERT_TRUE(equals_reference(input, got, o)) << dist_name(d) << " (DeviceArray) seed=" << seed;
    }
}

// The planner plans complex128 keys as records: two passes; a budget of the keys alone sends them
// through host passes (keys made on the host, record_key), which must sort the same.
TEST(Complex128Keys, PlannedAsTwoPassesOnTheDeviceOrOnTheHost) {
  const std::size_t n = 20011;
  const auto input = shuffled_specials(n, fresh_seed());
  for (const bool host_passes : {false, true})
    for (order o : {order::ascending, order::descending}) {
      SortOptions opt{.order = o};
      if (host_passes) opt.device_memory_limit = n * 16;
      const SortPlan planned = plan(test_context(), {.type = key_type::c128, .n = n, .options = opt});
      EXPECT_EQ(planned.path.find("host passes") != std::string::npos, host_passes) << planned.text();
      for (const char* word : {"low word", "high word"})
        EXPECT_NE(planned.text().find(word), std::string::npos) << word << " missing:\n" << planned.text();
      std::vector<c128> keys = input;
      const SortReport report = sort(test_context(), std::span<c128>(keys), opt);
      EXPECT_EQ(report.algorithm, planned.algorithm);
      ASSERT_TRUE(equals_reference(input, keys, o)) << (host_passes ? "host passes" : "on the device");
    }
}

void expect_unsupported(const std::function<void()>& f, const char* what) {
  try {
    f();
    ADD_FAILURE() << what << " was taken";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), errc::unsupported) << what << ": " << e.what();
    EXPECT_NE(std::string(e.what()).find("complex128"), std::string::npos) << what << ": " << e.what();
  }
}

TEST(Complex128Keys, FormsNotTakenYetAreRefused) {
  expect_unsupported(
      [&] { plan(test_context(), {.type = key_type::c128, .n = 100, .rows = 10, .row_length = 10, .topk = true, .k = 3}); },
      "a top-k");
  expect_unsupported([&] { plan(test_context(), {.type = key_type::c128, .n = 100, .ranks = 2}); }, "a distributed sort");
}

}  // namespace
}  // namespace gpusort::test
