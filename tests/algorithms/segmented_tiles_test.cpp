// The tile bin of segmented sorts (algorithms/segmented/segmented_tiles.hpp, kernels/segmented_tiles.cl)
// called directly: uniform rows of 1 .. capacity keys, 1 to many rows, keys alone, pairs and argsort
// within rows, both orders, checked row by row against std::stable_sort (exact bits: stability, NaN
// payloads, the sign of zero), with the outputs poisoned first and the inputs of out-of-place sorts
// checked untouched. Few define sets: one program per key type and value width.
#include <cstring>
#include <string>

#include "algorithms/segmented/segmented_tiles.hpp"
#include "support/test_support.hpp"

namespace gpusort::test {
namespace {

enum class mode { keys, pairs, argsort };
const char* mode_name(mode m) { return m == mode::keys ? "keys" : m == mode::pairs ? "pairs" : "argsort"; }

std::uint64_t capacity(key_type type, std::size_t value_bytes, bool positions = false) {
  return algo::segmented_tiles_capacity(test_context().runtime_device(), type, value_bytes, positions);
}

struct Case {
  std::uint64_t rows, length;
  mode m;
  order o;
  bool out_of_place;
  dist d;
};

std::string describe(const Case& c, std::uint64_t seed) {
  return std::to_string(c.rows) + " rows of " + std::to_string(c.length) + ", " + mode_name(c.m) + ", " +
         (c.o == order::ascending ? "asc" : "desc") + (c.out_of_place ? ", out of place" : ", in place") +
         ", dist " + dist_name(c.d) + ", seed " + std::to_string(seed);
}

template <class T>
std::vector<unsigned char> bytes_of(const std::vector<T>& v) {
  std::vector<unsigned char> b(v.size() * sizeof(T));
  if (!b.empty()) std::memcpy(b.data(), v.data(), b.size());
  return b;
}

// Sorts one case with keys of K and values (or indices) of V, and checks every row.
template <class K, class V = std::uint32_t>
void check_rows(const Case& c) {
  SCOPED_TRACE(describe(c, 0));
  Context& ctx = test_context();
  rt::Device& dev = ctx.runtime_device();
  const std::uint64_t seed = fresh_seed();
  const std::size_t n = c.rows * c.length;
  const std::vector<K> keys = make_keys<K>(n, c.d, seed);
  const std::vector<V> values = index_values<V>(n);  // the low bytes of each key's global position
  const std::size_t vb = c.m == mode::keys ? 0 : sizeof(V);

  DeviceBuffer keys_out(ctx, n * sizeof(K)), values_out(ctx, std::max<std::size_t>(1, n * sizeof(V)));
  DeviceBuffer keys_in(ctx, n * sizeof(K)), values_in(ctx, n * sizeof(V));
  dev.fill_bytes(values_out.runtime_buffer(), 0xA5, 0, values_out.bytes());  // poison: every output is written
  if (c.out_of_place) {
    dev.fill_bytes(keys_out.runtime_buffer(), 0xA5, 0, keys_out.bytes());
    keys_in.upload(keys.data(), n * sizeof(K));
    values_in.upload(values.data(), n * sizeof(V));
  } else {
    keys_out.upload(keys.data(), n * sizeof(K));
    if (c.m == mode::pairs) values_out.upload(values.data(), n * sizeof(V));
  }

  const SortOptions options{.order = c.o, .stable = true};
  algo::SortJob job{dev, key_type_of<K>::value, n, vb, keys_out.runtime_buffer(),
                    vb ? &values_out.runtime_buffer() : nullptr, options};
  if (c.out_of_place) {
    job.keys_in = &keys_in.runtime_buffer();
    if (c.m == mode::pairs) job.values_in = &values_in.runtime_buffer();
  }
  job.values_are_positions = c.m == mode::argsort;
  algo::SegmentedJob seg{job, {.count = c.rows, .row_length = c.length}};
  algo::segmented_tiles_sort(seg);
  EXPECT_FALSE(job.values_are_positions) << "the bin makes the positions and says so";

  std::vector<K> got_keys(n);
  std::vector<V> got_values(n);
  keys_out.download(got_keys.data(), n * sizeof(K));
  if (vb) values_out.download(got_values.data(), n * sizeof(V));

  const key_less<K> less{c.o};
  std::vector<std::size_t> ref(c.length);
  for (std::uint64_t r = 0; r < c.rows; ++r) {
    const std::size_t base = r * c.length;
    std::iota(ref.begin(), ref.end(), base);
    std::stable_sort(ref.begin(), ref.end(), [&](std::size_t a, std::size_t b) { return less(keys[a], keys[b]); });
    for (std::size_t i = 0; i < c.length; ++i) {
      const std::size_t at = base + i, from = ref[i];
      ASSERT_TRUE(same_bits(got_keys[at], keys[from]))
          << "key at row " << r << " position " << i << " differs from the stable reference (" << describe(c, seed) << ")";
      if (c.m == mode::pairs)
        ASSERT_TRUE(same_bits(got_values[at], values[from]))
            << "value at row " << r << " position " << i << " differs (" << describe(c, seed) << ")";
      if (c.m == mode::argsort)
        ASSERT_EQ(value_index(got_values[at]), from - base)
            << "index at row " << r << " position " << i << " (" << describe(c, seed) << ")";
    }
  }
  if (c.out_of_place) {  // the inputs are only read
    std::vector<K> in_keys(n);
    std::vector<V> in_values(n);
    keys_in.download(in_keys.data(), n * sizeof(K));
    values_in.download(in_values.data(), n * sizeof(V));
    EXPECT_EQ(bytes_of(in_keys), bytes_of(keys)) << "keys_in written (" << describe(c, seed) << ")";
    EXPECT_EQ(bytes_of(in_values), bytes_of(values)) << "values_in written (" << describe(c, seed) << ")";
  }
}

// Row lengths the kernel's chunking and digit passes meet: 1 (no passes), 2, around 32, 1023, and
// the capacity (one row per group) and just below it.
std::vector<std::uint64_t> lengths(std::uint64_t cap) {
  std::vector<std::uint64_t> l = {1, 2, 31, 32, 33, 1023, cap - 1, cap};
  std::sort(l.begin(), l.end());
  l.erase(std::unique(l.begin(), l.end()), l.end());
  while (!l.empty() && l.back() > cap) l.pop_back();
  return l;
}
// Row counts: one, a few (fewer than the groups the shape spreads them over), and many (whole tiles,
// more than sixteen rows per tile, so that the row passes take two digits, and a last tile partly full).
std::vector<std::uint64_t> row_counts(std::uint64_t length, std::uint64_t cap) {
  const std::uint64_t per_tile = cap / length;
  const std::uint64_t many = std::min<std::uint64_t>(std::max<std::uint64_t>(40, 3 * per_tile + 5), 100000 / length + 7);
  return {1, 7, many};
}

TEST(SegmentedTiles, CapacityAndShape) {
  const DeviceDescription& desc = test_context().runtime_device().description();
  const std::uint64_t cap = capacity(key_type::f32, 4);
  ASSERT_GE(cap, 1023u) << "the tile bin should take rows of a thousand keys with values";
  EXPECT_LE(cap, 65536u);
  EXPECT_GE(capacity(key_type::f32, 4, true), cap) << "indices made in the kernel take no local memory";
  EXPECT_GE(capacity(key_type::u8, 0), capacity(key_type::u64, 16));
  for (std::uint64_t length : std::vector<std::uint64_t>{1, 33, 1023, cap}) {
    const auto s = algo::segmented_tiles_shape(desc, key_type::f32, 4, false, 100000, length);
    ASSERT_GE(s.rows_per_group, 1u) << length;
    EXPECT_LE(s.rows_per_group * length, cap) << length;
    EXPECT_EQ(s.groups, (100000 + s.rows_per_group - 1) / s.rows_per_group) << length;
    EXPECT_LE(s.local_bytes, desc.local_memory_bytes) << length;
  }
  EXPECT_EQ(algo::segmented_tiles_shape(desc, key_type::f32, 4, false, 10, cap + 1).rows_per_group, 0u);
  const auto steps = algo::segmented_tiles_plan_steps(desc, key_type::f32, 4, false, 1000, 33);
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_NE(steps[0].find(algo::segmented_tiles_tuning_for(desc).name), std::string::npos) << steps[0];
  EXPECT_NE(steps[1].find("segmented_tiles_rows"), std::string::npos) << steps[1];
  EXPECT_NE(steps[1].find("rows of 33 keys per group"), std::string::npos) << steps[1];
  EXPECT_NE(steps[1].find("bytes of local memory"), std::string::npos) << steps[1];
}

TEST(SegmentedTiles, TooLongRowsAndOffsetsAreRefused) {
  Context& ctx = test_context();
  rt::Device& dev = ctx.runtime_device();
  const std::uint64_t length = capacity(key_type::u32, 0) + 1;
  DeviceBuffer keys(ctx, 2 * length * 4);
  const SortOptions options{};
  algo::SortJob job{dev, key_type::u32, 2 * length, 0, keys.runtime_buffer(), nullptr, options};
  algo::SegmentedJob too_long{job, {.count = 2, .row_length = length}};
  EXPECT_THROW(algo::segmented_tiles_sort(too_long), Error);
  algo::SegmentedJob offsets{job, {.count = 2, .row_length = 0, .offsets = &keys.runtime_buffer()}};
  try {
    algo::segmented_tiles_sort(offsets);
    FAIL() << "offsets taken";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), errc::unsupported) << e.what();
  }
}

// Keys alone, u32: every length x row count x order, in place and out of place.
TEST(SegmentedTiles, KeysEveryShape) {
  const std::uint64_t cap = capacity(key_type::u32, 0);
  for (std::uint64_t length : lengths(cap))
    for (std::uint64_t rows : row_counts(length, cap))
      for (order o : {order::ascending, order::descending})
        check_rows<std::uint32_t>({rows, length, mode::keys, o, rows == 7, dist::uniform});
}

// Pairs and argsort of u32 keys with 4-byte values: one program for both.
TEST(SegmentedTiles, PairsAndArgsortEveryShape) {
  const std::uint64_t cap = capacity(key_type::u32, 4);
  for (std::uint64_t length : lengths(cap))
    for (std::uint64_t rows : row_counts(length, cap))
      for (order o : {order::ascending, order::descending}) {
        check_rows<std::uint32_t, std::uint32_t>({rows, length, mode::pairs, o, rows != 7, dist::few_unique});
        check_rows<std::uint32_t, std::uint32_t>({rows, length, mode::argsort, o, rows == 7, dist::few_unique});
      }
}

// f32 keys with NaNs, +-0, infinities: NaN last ascending (first descending), -0 == +0 kept in input
// order, payloads kept; stable descending.
TEST(SegmentedTiles, FloatSpecials) {
  const std::uint64_t cap = capacity(key_type::f32, 4);
  for (std::uint64_t length : std::vector<std::uint64_t>{2, 33, 1023, cap})
    for (order o : {order::ascending, order::descending})
      for (mode m : {mode::pairs, mode::argsort}) {
        check_rows<float, std::uint32_t>({9, length, m, o, true, dist::specials});
        check_rows<float, std::uint32_t>({cap / length * 3 + 1, length, m, o, false, dist::all_equal});
      }
}

// The other widths and kinds: f16 with 8-byte indices, i64 with 16-byte values, u8 with 1-byte values,
// bool with 2-byte values, f64 and bf16 keys alone.
TEST(SegmentedTiles, OtherKeyTypes) {
  for (order o : {order::ascending, order::descending}) {
    const std::uint64_t f16 = capacity(key_type::f16, 8, true);
    for (std::uint64_t length : std::vector<std::uint64_t>{31, 1023, f16}) {
      check_rows<half_bits, std::uint64_t>({7, length, mode::argsort, o, true, dist::specials});
      check_rows<half_bits, std::uint64_t>({f16 / length * 2 + 3, length, mode::argsort, o, false, dist::few_unique});
    }
    const std::uint64_t i64 = capacity(key_type::i64, 16);
    for (std::uint64_t length : std::vector<std::uint64_t>{1, 32, i64})
      check_rows<std::int64_t, Bytes16>({i64 / length + 2, length, mode::pairs, o, true, dist::uniform});
    const std::uint64_t u8 = capacity(key_type::u8, 1);
    for (std::uint64_t length : std::vector<std::uint64_t>{33, 1023, u8})
      check_rows<std::uint8_t, std::uint8_t>({u8 / length * 2 + 1, length, mode::pairs, o, false, dist::uniform});
    const std::uint64_t b8 = capacity(key_type::b8, 2);
    for (std::uint64_t length : std::vector<std::uint64_t>{2, 33, b8})
      check_rows<bool_byte, std::uint16_t>({b8 / length + 3, length, mode::pairs, o, true, dist::uniform});
    check_rows<double>({20, 333, mode::keys, o, false, dist::specials});
    check_rows<bfloat16_bits>({50, 100, mode::keys, o, true, dist::specials});
  }
}

}  // namespace
}  // namespace gpusort::test
