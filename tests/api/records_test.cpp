// Records sorted by fields (gpusort/records.hpp) against std::stable_sort of the records with the
// same field order on the host: record sizes from 1 to 333 bytes, typed and bytesK fields at odd
// offsets, mixed directions, and bytes drawn from {0, 1, 255} so that ties (and NaN, infinity and
// negative zero patterns in float fields) are common and every tie-break is exercised.
#include <cstring>

#include "gpusort/records.hpp"
#include "support/test_support.hpp"

namespace gpusort::test {
namespace {

std::vector<unsigned char> random_records(std::size_t n, std::size_t rb, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<unsigned char> v(n * rb);
  const unsigned char alphabet[3] = {0, 1, 255};
  for (auto& b : v) b = alphabet[rng() % 3];
  return v;
}

// -1, 0, 1: field f of record a against record b, in the field's direction.
int compare_field(const RecordField& f, const unsigned char* a, const unsigned char* b) {
  int c = 0;
  if (f.bytes) {
    c = std::memcmp(a + f.offset, b + f.offset, f.bytes);
    c = c < 0 ? -1 : c > 0 ? 1 : 0;
  } else {
    c = visit_key_type(f.type, [&](auto tag) {
      using K = decltype(tag);
      K x, y;
      std::memcpy(&x, a + f.offset, sizeof(K));
      std::memcpy(&y, b + f.offset, sizeof(K));
      const key_less<K> less{order::ascending};
      return less(x, y) ? -1 : less(y, x) ? 1 : 0;
    });
  }
  return f.descending ? -c : c;
}

void check(std::size_t n, std::size_t rb, std::vector<RecordField> fields) {
  const std::uint64_t seed = fresh_seed();
  const auto input = random_records(n, rb, seed);
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t(0));
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
    for (const RecordField& f : fields)
      if (int c = compare_field(f, &input[x * rb], &input[y * rb])) return c < 0;
    return false;
  });
  auto records = input;
  sort_records(test_context(), records.data(), n, rb, fields);
  for (std::size_t i = 0; i < n; ++i)
    ASSERT_EQ(std::memcmp(&records[i * rb], &input[order[i] * rb], rb), 0)
        << "record " << i << " of " << n << " (size " << rb << ", " << fields.size() << " fields, seed " << seed << ")";
}

TEST(Records, OneFieldMovesWithItsKey) {
  check(30001, 4, {{.offset = 0, .type = key_type::u32}});
  check(20011, 16, {{.offset = 3, .type = key_type::i16, .descending = true}});
  check(10007, 1, {{.offset = 0, .bytes = 1}});
  check(9001, 8, {{.offset = 0, .bytes = 8, .descending = true}});
}

TEST(Records, ClassicHundredByteRecordsWithATenByteKey) {
  check(20001, 100, {{.offset = 0, .bytes = 10}});
}

TEST(Records, SeveralFieldsMixedDirections) {
  // An i32 at 8 descending, then 4 bytes at 0 (the example).
  check(20003, 100, {{.offset = 8, .type = key_type::i32, .descending = true}, {.offset = 0, .bytes = 4}});
  // An f64 at an odd offset, then a u8 descending, then 13 bytes (two packed passes).
  check(15013, 17, {{.offset = 3, .type = key_type::f64}, {.offset = 0, .type = key_type::u8, .descending = true},
                    {.offset = 1, .bytes = 13}});
  check(5003, 333, {{.offset = 300, .type = key_type::f32, .descending = true}, {.offset = 7, .type = key_type::u64},
                    {.offset = 100, .bytes = 33, .descending = true}});
}

TEST(Records, TinyInputs) {
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(2), std::size_t(5)})
    check(n, 12, {{.offset = 4, .type = key_type::u32}, {.offset = 0, .bytes = 4}});
}

TEST(Records, BadLayoutsAreClearErrors) {
  std::vector<unsigned char> r(100);
  const RecordField past{.offset = 8, .type = key_type::u64};
  EXPECT_THROW(sort_records(test_context(), r.data(), 10, 10, std::span(&past, 1)), Error);
  const RecordField ok{.offset = 0, .type = key_type::u8};
  EXPECT_THROW(sort_records(test_context(), r.data(), 0, 1025, std::span(&ok, 1)), Error);
  EXPECT_THROW(sort_records(test_context(), r.data(), 10, 10, {}), Error);
  const RecordField wide{.offset = 2, .bytes = 9};
  EXPECT_THROW(sort_records(test_context(), r.data(), 10, 10, std::span(&wide, 1)), Error);
}

}  // namespace
}  // namespace gpusort::test
