// Host keys in any contiguous range, every integer spelling mapped by size and signedness (bool to
// the bool key), and device arrays that cannot be copied by accident.
#include <array>
#include <type_traits>

#include "support/test_support.hpp"

namespace gpusort::test {
namespace {

static_assert(key_type_of<long long>::value == key_type::i64);
static_assert(key_type_of<unsigned long long>::value == key_type::u64);
static_assert(key_type_of<long>::value == (sizeof(long) == 8 ? key_type::i64 : key_type::i32));
static_assert(key_type_of<signed char>::value == key_type::i8);
static_assert(key_type_of<char>::value == (std::is_signed_v<char> ? key_type::i8 : key_type::u8));
static_assert(key_type_of<bool>::value == key_type::b8);  // bool keys: false before true
static_assert(!std::is_copy_constructible_v<DeviceArray<int>> && std::is_move_constructible_v<DeviceArray<int>>);
static_assert(!std::is_copy_assignable_v<DeviceBuffer>);

TEST(HostRanges, VectorArrayCArrayAndStaticSpan) {
  Context& ctx = test_context();
  std::vector<long long> v = {5, -3, 9, 0, -3};
  sort(ctx, v);
  EXPECT_EQ(v, (std::vector<long long>{-3, -3, 0, 5, 9}));
  std::array<unsigned long long, 4> a = {7, 1, 3, 2};
  sort(ctx, a, {.order = order::descending});
  EXPECT_EQ(a, (std::array<unsigned long long, 4>{7, 3, 2, 1}));
  char c[5] = {'d', 'a', 'c', 'b', 'e'};
  sort(ctx, c);
  EXPECT_EQ(std::string(c, 5), "abcde");
  float f[3] = {2.5f, -1.0f, 0.0f};
  sort(ctx, std::span<float, 3>(f));
  EXPECT_EQ(f[0], -1.0f);
  EXPECT_EQ(f[2], 2.5f);
  std::vector<int> keys = {3, 1, 2};
  std::array<short, 3> values = {30, 10, 20};
  sort_pairs(ctx, keys, values, {.stable = true});
  EXPECT_EQ(keys, (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(values, (std::array<short, 3>{10, 20, 30}));
}

}  // namespace
}  // namespace gpusort::test
