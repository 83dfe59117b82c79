// Records sorted by fields (gpusort/records.hpp) against std::stable_sort of the records with the
// same field order on the host: record sizes from 1 to 333 bytes, typed and bytesK fields at odd
// offsets, mixed directions, and bytes drawn from {0, 1, 255} so that ties (and NaN, infinity and
// negative zero patterns in float fields) are common and every tie-break is exercised. Each of the
// three paths: host records sorted on the device (the default when they fit), host records on the
// host path (a device budget below the records), and records already in device memory.
#include <cstring>

#include "algorithms/records/record_sort.hpp"
#include "gpusort/device_array.hpp"
#include "gpusort/plan.hpp"
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

enum class Path { automatic, host, device, device_out_of_place };

void check(std::size_t n, std::size_t rb, std::vector<RecordField> fields, Path path = Path::automatic) {
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
  if (path == Path::device) {
    DeviceBuffer buffer(test_context(), std::max<std::size_t>(1, n * rb));
    if (n) buffer.upload(records.data(), n * rb);
    sort_records_device(test_context(), buffer, n, rb, fields);
    if (n) buffer.download(records.data(), n * rb);
  } else if (path == Path::device_out_of_place) {
    DeviceBuffer in(test_context(), std::max<std::size_t>(1, n * rb)), out(test_context(), std::max<std::size_t>(1, n * rb));
    if (n) in.upload(records.data(), n * rb);
    sort_records_device(test_context(), in, out, n, rb, fields);
    std::vector<unsigned char> in_after(n * rb);
    if (n) in.download(in_after.data(), n * rb);
    ASSERT_EQ(in_after, input) << "the input buffer changed";
    if (n) out.download(records.data(), n * rb);
  } else {
    SortOptions options;
    // A budget of the records alone: the device path needs more (a second copy, keys, index).
    if (path == Path::host) options.device_memory_limit = n * rb;
    const SortPlan planned = plan(test_context(), {.n = n, .record_bytes = rb, .record_fields = fields, .options = options});
    if (n > 1)
      ASSERT_NE(planned.path.find(path == Path::automatic ? "one piece" : "host passes"), std::string::npos)
          << "the test meant the other path:\n" << planned.text();
    const SortReport report = sort_records(test_context(), records.data(), n, rb, fields, options);
    EXPECT_EQ(report.algorithm, planned.algorithm) << "what ran is what was planned";
    if (n > 1) EXPECT_GE(report.chunks, fields.size());
  }
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
  // Records of a multiple of 4 bytes with fields across three aligned 4-byte words.
  check(10007, 20, {{.offset = 11, .type = key_type::i64}, {.offset = 1, .bytes = 7, .descending = true},
                    {.offset = 18, .type = key_type::u16}});
}

TEST(Records, HostPathWhenTheDeviceBudgetIsTooSmall) {
  check(20001, 100, {{.offset = 0, .bytes = 10}}, Path::host);
  check(15013, 17, {{.offset = 3, .type = key_type::f64}, {.offset = 0, .type = key_type::u8, .descending = true},
                    {.offset = 1, .bytes = 13}}, Path::host);
  check(30001, 4, {{.offset = 0, .type = key_type::u32, .descending = true}}, Path::host);
}

TEST(Records, RecordsInDeviceMemory) {
  check(20003, 100, {{.offset = 8, .type = key_type::i32, .descending = true}, {.offset = 0, .bytes = 4}}, Path::device);
  check(5003, 333, {{.offset = 300, .type = key_type::f32, .descending = true}, {.offset = 7, .type = key_type::u64},
                    {.offset = 100, .bytes = 33, .descending = true}}, Path::device);
  check(20011, 16, {{.offset = 3, .type = key_type::i16, .descending = true}}, Path::device);
  check(7, 3, {{.offset = 1, .bytes = 2}}, Path::device);
  check(0, 3, {{.offset = 1, .bytes = 2}}, Path::device);
}

// A c128 field (complex128, numpy's order: two u64 passes of its image words) at an odd offset, then
// a tie-breaking field, on every path; the bytes 0, 1 and 255 make NaNs of every class, zeros,
// subnormals and ties.
TEST(Records, Complex128FieldOnEveryPath) {
  const std::vector<RecordField> fields{{.offset = 5, .type = key_type::c128, .descending = true},
                                        {.offset = 0, .type = key_type::u8}};
  for (Path path : {Path::automatic, Path::host, Path::device, Path::device_out_of_place}) check(20011, 24, fields, path);
}

TEST(Records, RecordsInDeviceMemoryOutOfPlace) {
  check(20001, 100, {{.offset = 0, .bytes = 10}}, Path::device_out_of_place);
  check(15013, 17, {{.offset = 3, .type = key_type::f64}, {.offset = 0, .type = key_type::u8, .descending = true},
                    {.offset = 1, .bytes = 13}}, Path::device_out_of_place);
  check(9001, 8, {{.offset = 0, .bytes = 7, .descending = true}}, Path::device_out_of_place);
  check(1, 5, {{.offset = 1, .bytes = 3}}, Path::device_out_of_place);
}

TEST(Records, PaddedPiecesAndPairsOfRecords) {
  // bytesK pieces of 3, 5, 6 and 7 bytes sort as zero-padded u32 and u64 keys.
  check(9001, 7, {{.offset = 0, .bytes = 3}}, Path::device);
  check(9001, 11, {{.offset = 2, .bytes = 5, .descending = true}, {.offset = 7, .bytes = 3}});
  check(9001, 13, {{.offset = 1, .bytes = 6}, {.offset = 7, .bytes = 6, .descending = true}}, Path::device_out_of_place);
  check(30001, 9, {{.offset = 2, .bytes = 7}}, Path::host);
  for (Path p : {Path::automatic, Path::device, Path::device_out_of_place}) check(2, 100, {{.offset = 0, .bytes = 10}}, p);
}

// The u64 index form (2^32 records and more) forced on small n.
struct WideIndex {
  WideIndex() { detail::set_records_wide_index_for_testing(true); }
  ~WideIndex() { detail::set_records_wide_index_for_testing(false); }
};

TEST(Records, WideIndices) {
  WideIndex wide;
  check(20001, 100, {{.offset = 0, .bytes = 10}});
  check(5003, 333, {{.offset = 300, .type = key_type::f32, .descending = true}, {.offset = 100, .bytes = 33}},
        Path::device_out_of_place);
  check(7001, 20, {{.offset = 11, .type = key_type::i64}, {.offset = 1, .bytes = 7, .descending = true}}, Path::device);
}

// The plan of a record sort (gpusort::plan, gpusort plan --record-size) is what runs: the one
// algorithm of every pass, the path and the passes; and what the sort refuses the plan refuses
// (an algorithm that cannot sort stably: the passes rely on stability).
TEST(Records, ThePlanIsWhatRuns) {
  const std::vector<RecordField> fields{{.offset = 8, .type = key_type::i32, .descending = true},
                                        {.offset = 0, .bytes = 10}};  // 3 passes: the i32, 2 + 8 bytes
  const std::size_t n = 20001, rb = 100;
  for (const char* algorithm : {"auto", "merge"})
    for (const bool host_passes : {false, true}) {
      SortOptions o{.algorithm = algorithm};
      if (host_passes) o.device_memory_limit = n * rb;
      const SortPlan planned = plan(test_context(), {.n = n, .record_bytes = rb, .record_fields = fields, .options = o});
      EXPECT_EQ(planned.path.find("host passes") != std::string::npos, host_passes) << planned.text();
      for (const char* pass : {"pass 1 (", "pass 2 (", "pass 3 ("})
        EXPECT_NE(planned.text().find(pass), std::string::npos) << pass << " missing:\n" << planned.text();
      auto records = random_records(n, rb, fresh_seed());
      const SortReport report = sort_records(test_context(), records.data(), n, rb, fields, o);
      EXPECT_EQ(report.algorithm, planned.algorithm) << algorithm;
      EXPECT_EQ(report.chunks, 3u) << "one sort per planned pass";
    }
  const SortOptions unstable{.algorithm = "bitonic"};
  std::vector<unsigned char> r(n * rb);
  EXPECT_THROW(plan(test_context(), {.n = n, .record_bytes = rb, .record_fields = fields, .options = unstable}), Error);
  EXPECT_THROW(sort_records(test_context(), r.data(), n, rb, fields, unstable), Error);
  DeviceBuffer buffer(test_context(), 100 * rb);
  EXPECT_THROW(plan(test_context(), {.n = 100, .where = data_location::device, .record_bytes = rb,
                                     .record_fields = fields, .options = unstable}), Error);
  EXPECT_THROW(sort_records_device(test_context(), buffer, 100, rb, fields, unstable), Error);
}

TEST(Records, OptionsAreCheckedOnEveryPath) {
  std::vector<unsigned char> r(100 * 50);
  const RecordField f{.offset = 0, .bytes = 10};
  SortOptions threads;
  threads.host_threads = 1000;
  EXPECT_THROW(sort_records(test_context(), r.data(), 50, 100, std::span(&f, 1), threads), Error);
  SortOptions comparator;
  comparator.comparator = "return a < b;";
  EXPECT_THROW(sort_records(test_context(), r.data(), 50, 100, std::span(&f, 1), comparator), Error);
  DeviceBuffer buffer(test_context(), r.size());
  EXPECT_THROW(sort_records_device(test_context(), buffer, 50, 100, std::span(&f, 1), comparator), Error);
  SortOptions unknown;
  unknown.algorithm = "no-such-algorithm";
  EXPECT_THROW(sort_records_device(test_context(), buffer, 1, 100, std::span(&f, 1), unknown), Error);
  EXPECT_THROW(sort_records(test_context(), r.data(), 1, 100, std::span(&f, 1), unknown), Error);
}

TEST(Records, DeviceBufferTooSmallOrHostOptionsAreErrors) {
  DeviceBuffer small(test_context(), 100);
  const RecordField f{.offset = 0, .type = key_type::u32};
  EXPECT_THROW(sort_records_device(test_context(), small, 11, 10, std::span(&f, 1)), Error);
  SortOptions host_only;
  host_only.host_threads = 2;
  EXPECT_THROW(sort_records_device(test_context(), small, 10, 10, std::span(&f, 1), host_only), Error);
  DeviceBuffer other(test_context(), 100);
  EXPECT_THROW(sort_records_device(test_context(), small, small, 10, 10, std::span(&f, 1)), Error);
  EXPECT_THROW(sort_records_device(test_context(), small, other, 12, 9, std::span(&f, 1)), Error);
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
