// Conformance: every algorithm that gpusort::algorithms() lists, on one small common matrix, against
// std::stable_sort with gpusort::key_less. An algorithm added to the registry is tested here with
// no edit. The matrix is broad in data (every distribution, both orders, sizes from empty to a few
// thousand) and narrow in key types, to keep kernel compiles on PoCL few: the per-algorithm suites
// cover every key type and option.
//   host keys:    RepresentativeKeyTypeList (u32, f32), default options
//   host pairs:   u32 keys, u32 values = index, stable whenever the algorithm can be
//   device pairs: the same through sort_device with caller temporary storage, not stable
// Every buffer the sort is given has a guard zone (support/guard_zones.hpp).
#include <cctype>

#include "support/guard_zones.hpp"
#include "support/key_types.hpp"
#include "support/test_support.hpp"

namespace gpusort::test {
namespace {

// 3 and 4099 are odd, 257 and 4099 just above common tile sizes (256, 4096). All stay below the
// smallest size limit in the registry (the O(n^2) algorithms' 2^16), which AlgorithmInfo does not
// report.
const std::size_t kSizes[] = {0, 1, 2, 3, 257, 4099};

struct Case {
  std::size_t n;
  dist d;
  order o;
  std::uint64_t seed;
};

// Calls f(Case) for every size x distribution x order, each with a fresh seed, up to the first case
// that fails (f's ASSERTs): one failing case, with its seed, says more than a page of them.
template <class F>
void for_each_case(F&& f) {
  const bool failed_before = ::testing::Test::HasFatalFailure();
  for (order o : {order::ascending, order::descending})
    for (std::size_t n : kSizes)
      for (dist d : all_dists) {
        f(Case{n, d, o, fresh_seed()});
        if (!failed_before && ::testing::Test::HasFatalFailure()) return;
      }
}

std::string describe(const SortOptions& opt, key_type t, const char* values, const Case& c) {
  return "algorithm=" + opt.algorithm + " keys=" + std::string(key_type_name(t)) + " values=" + values +
         " n=" + std::to_string(c.n) + " dist=" + dist_name(c.d) +
         " order=" + (c.o == order::ascending ? "asc" : "desc") + " stable=" + (opt.stable ? "yes" : "no") +
         " seed=" + std::to_string(c.seed);
}

SortOptions options_for(const std::string& algorithm, const Case& c, bool stable) {
  return {.order = c.o, .stable = stable, .algorithm = algorithm};
}

// The parameter is an algorithm's name (it names the test); the rest of its AlgorithmInfo is
// looked up.
class Conformance : public ::testing::TestWithParam<std::string> {
 protected:
  const std::string& algorithm() const { return GetParam(); }
  bool can_be_stable() const {
    for (const auto& a : algorithms())
      if (a.name == GetParam()) return a.can_be_stable;
    return false;
  }
};

template <class T>
void check_host_keys(const std::string& algorithm) {
  for_each_case([&](const Case& c) {
    const SortOptions opt = options_for(algorithm, c, false);
    const std::string what = describe(opt, key_type_of<T>::value, "none", c);
    const std::vector<T> input = make_keys<T>(c.n, c.d, c.seed);
    GuardedHostArray<T> keys(input);
    sort(test_context(), keys.span(), opt);
    ASSERT_TRUE(keys_sorted_like_reference(input, keys.contents(), c.o, opt.stable)) << what;
    ASSERT_TRUE(keys.guards_intact()) << what;
  });
}

TEST_P(Conformance, HostKeys) {
  RepresentativeKeyTypeList::for_each([&](auto tag) { check_host_keys<decltype(tag)>(algorithm()); });
}

TEST_P(Conformance, HostPairs) {
  for_each_case([&](const Case& c) {
    const SortOptions opt = options_for(algorithm(), c, can_be_stable());
    const std::string what = describe(opt, key_type::u32, "u32 index", c);
    const auto input = make_keys<std::uint32_t>(c.n, c.d, c.seed);
    GuardedHostArray<std::uint32_t> keys(input), values(index_values<std::uint32_t>(c.n));
    sort_pairs(test_context(), keys.span(), values.span(), opt);
    ASSERT_TRUE(pairs_sorted_like_reference(input, keys.contents(), values.contents(), c.o, opt.stable)) << what;
    ASSERT_TRUE(keys.guards_intact()) << "keys: " << what;
    ASSERT_TRUE(values.guards_intact()) << "values: " << what;
  });
}

TEST_P(Conformance, DevicePairsWithCallerTemporaryStorage) {
  Context& ctx = test_context();
  for_each_case([&](const Case& c) {
    const SortOptions opt = options_for(algorithm(), c, false);
    const std::string what = describe(opt, key_type::u32, "u32 index", c);
    const auto input = make_keys<std::uint32_t>(c.n, c.d, c.seed);
    DeviceBufferWithGuard keys(ctx, input), values(ctx, index_values<std::uint32_t>(c.n));
    // Every algorithm reports its needs (TempStorage.EveryRegisteredAlgorithmReportsItsNeeds).
    const std::size_t temp_bytes = temporary_storage_bytes(ctx, key_type::u32, c.n, 4, opt);
    DeviceBufferWithGuard temp(ctx, temp_bytes);
    sort_device(ctx, key_type::u32, keys.buffer(), c.n, &values.buffer(), 4, opt, temp.buffer());
    ASSERT_TRUE(pairs_sorted_like_reference(input, keys.contents<std::uint32_t>(), values.contents<std::uint32_t>(),
                                            c.o, opt.stable))
        << what;
    ASSERT_TRUE(keys.guard_intact("keys")) << what;
    ASSERT_TRUE(values.guard_intact("values")) << what;
    ASSERT_TRUE(temp.guard_intact(std::to_string(temp_bytes) + " bytes of temporary storage asked for")) << what;
  });
}

std::vector<std::string> algorithm_names() {
  std::vector<std::string> names;
  for (const auto& a : algorithms()) names.push_back(a.name);
  return names;
}

std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(EveryAlgorithm, Conformance, ::testing::ValuesIn(algorithm_names()), test_name);

}  // namespace
}  // namespace gpusort::test
