// Records ordered by a run-time comparator (SortOptions::comparator given to a record sort,
// gpusort/records.hpp) against std::stable_sort of the same records with the same order written in
// C++: every field reader of kernels/record_fields.h at odd offsets, byte comparisons, both
// orders, odd record sizes, n just past the merge tiles' edges, the host form and both device
// forms, another comparison sort than merge; and the errors.
#include <cmath>
#include <cstring>
#include <optional>

#include "gpusort/device_array.hpp"
#include "gpusort/records.hpp"
#include "support/test_support.hpp"

namespace gpusort::test {
namespace {

template <class T>
T field(const unsigned char* record, std::size_t offset) {
  T v;
  std::memcpy(&v, record + offset, sizeof v);
  return v;
}

enum class Form { host, device_in_place, device_out_of_place };

// Sorts `input` (n records of rb bytes) by `body` through `form` and checks the result against
// the stable order of `before` (reversed for a descending sort).
template <class Before>
void check(const std::vector<unsigned char>& input, std::size_t rb, const std::string& body, Before before,
           order o, Form form, SortOptions options = {}) {
  const std::size_t n = input.size() / rb;
  std::vector<std::size_t> order_of(n);
  std::iota(order_of.begin(), order_of.end(), std::size_t(0));
  std::stable_sort(order_of.begin(), order_of.end(), [&](std::size_t x, std::size_t y) {
    return o == order::ascending ? before(&input[x * rb], &input[y * rb]) : before(&input[y * rb], &input[x * rb]);
  });
  options.comparator = body;
  options.order = o;
  auto records = input;
  if (form == Form::host) {
    sort_records(test_context(), records.data(), n, rb, {}, options);
  } else if (form == Form::device_in_place) {
    DeviceBuffer buffer(test_context(), records.size());
    buffer.upload(records.data(), records.size());
    sort_records_device(test_context(), buffer, n, rb, {}, options);
    buffer.download(records.data(), records.size());
  } else {
    DeviceBuffer in(test_context(), records.size()), out(test_context(), records.size());
    in.upload(records.data(), records.size());
    sort_records_device(test_context(), in, out, n, rb, {}, options);
    out.download(records.data(), records.size());
  }
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i)
    wrong += std::memcmp(&records[i * rb], &input[order_of[i] * rb], rb) != 0;
  EXPECT_EQ(wrong, 0u) << body << " n=" << n << " rb=" << rb << (o == order::ascending ? " asc" : " desc")
                       << " form=" << int(form);
}

// 43-byte records: u8@0 i8@1 u16@3 i16@5 u32@7 i32@11 u64@15 i64@23 f32@31 f64@35 bytes4@39, bytes
// from {0, 1, 255} (so each field has few values and later fields break many ties) and the float
// fields from {-1.5, 0, 2.25}.
std::vector<unsigned char> mixed_records(std::size_t n) {
  std::mt19937_64 rng(fresh_seed());
  std::vector<unsigned char> v(n * 43);
  const unsigned char alphabet[3] = {0, 1, 255};
  const float floats[3] = {-1.5f, 0.0f, 2.25f};
  for (std::size_t i = 0; i < n; ++i) {
    unsigned char* r = &v[i * 43];
    for (std::size_t b = 0; b < 43; ++b) r[b] = alphabet[rng() % 3];
    const float f = floats[rng() % 3];
    const double d = floats[rng() % 3];
    std::memcpy(r + 31, &f, 4);
    std::memcpy(r + 35, &d, 8);
  }
  return v;
}

constexpr const char* kMixedOrder =
    "if (gs_u8(a, 0) != gs_u8(b, 0)) return gs_u8(a, 0) < gs_u8(b, 0);\n"
    "if (gs_i8(a, 1) != gs_i8(b, 1)) return gs_i8(a, 1) > gs_i8(b, 1);\n"
    "if (gs_f32(a, 31) != gs_f32(b, 31)) return gs_f32(a, 31) < gs_f32(b, 31);\n"
    "if (gs_f64(a, 35) != gs_f64(b, 35)) return gs_f64(a, 35) > gs_f64(b, 35);\n"
    "if (gs_i16(a, 5) != gs_i16(b, 5)) return gs_i16(a, 5) < gs_i16(b, 5);\n"
    "if (gs_u16(a, 3) != gs_u16(b, 3)) return gs_u16(a, 3) < gs_u16(b, 3);\n"
    "if (gs_i32(a, 11) != gs_i32(b, 11)) return gs_i32(a, 11) < gs_i32(b, 11);\n"
    "if (gs_u32(a, 7) != gs_u32(b, 7)) return gs_u32(a, 7) > gs_u32(b, 7);\n"
    "if (gs_i64(a, 23) != gs_i64(b, 23)) return gs_i64(a, 23) < gs_i64(b, 23);\n"
    "if (gs_u64(a, 15) != gs_u64(b, 15)) return gs_u64(a, 15) < gs_u64(b, 15);\n"
    "return gs_bytes_cmp(a, b, 39, 4) < 0;";

bool mixed_before(const unsigned char* a, const unsigned char* b) {
#define GS_TEST_FIELD(T, off, op) \
  if (field<T>(a, off) != field<T>(b, off)) return field<T>(a, off) op field<T>(b, off);
  GS_TEST_FIELD(std::uint8_t, 0, <)
  GS_TEST_FIELD(std::int8_t, 1, >)
  GS_TEST_FIELD(float, 31, <)
  GS_TEST_FIELD(double, 35, >)
  GS_TEST_FIELD(std::int16_t, 5, <)
  GS_TEST_FIELD(std::uint16_t, 3, <)
  GS_TEST_FIELD(std::int32_t, 11, <)
  GS_TEST_FIELD(std::uint32_t, 7, >)
  GS_TEST_FIELD(std::int64_t, 23, <)
  GS_TEST_FIELD(std::uint64_t, 15, <)
#undef GS_TEST_FIELD
  return std::memcmp(a + 39, b + 39, 4) < 0;
}

TEST(RecordComparator, EveryFieldReaderBothOrders) {
  // gs_f64 needs fp64: PoCL, NVIDIA's OpenCL and CUDA have it (as the key comparator's tests of
  // double keys assume)
  const auto input = mixed_records(5003);
  check(input, 43, kMixedOrder, mixed_before, order::ascending, Form::host);
  check(input, 43, kMixedOrder, mixed_before, order::descending, Form::device_in_place);
}

TEST(RecordComparator, HundredByteRecordsByTheirFirstTenBytes) {
  // the classic benchmark records, 8193 of them (one past a merge tile of 8192 keys)
  std::mt19937_64 rng(fresh_seed());
  std::vector<unsigned char> input(8193 * 100);
  for (auto& b : input) b = static_cast<unsigned char>(rng() % 4);  // ties in the first bytes
  check(input, 100, "return gs_bytes_cmp(a, b, 0, 10) < 0;",
        [](const unsigned char* a, const unsigned char* b) { return std::memcmp(a, b, 10) < 0; }, order::ascending,
        Form::device_out_of_place);
}

TEST(RecordComparator, StableInBothOrdersAndWithAnotherSort) {
  // 7-byte records: a class byte the order reads, then a serial it does not: the stable order is
  // fully determined, and visible
  const std::size_t n = 4097, rb = 7;
  std::mt19937_64 rng(fresh_seed());
  std::vector<unsigned char> input(n * rb);
  for (std::size_t i = 0; i < n; ++i) {
    input[i * rb] = static_cast<unsigned char>(rng() % 5);
    const std::uint32_t serial = std::uint32_t(i);
    std::memcpy(&input[i * rb + 3], &serial, 4);
  }
  const char* body = "return gs_u8(a, 0) < gs_u8(b, 0);";
  auto before = [](const unsigned char* a, const unsigned char* b) { return a[0] < b[0]; };
  check(input, rb, body, before, order::ascending, Form::device_in_place);
  check(input, rb, body, before, order::descending, Form::host);
  check(std::vector<unsigned char>(input.begin(), input.begin() + 3000 * rb), rb, body, before, order::ascending,
        Form::host, {.algorithm = "section-merge"});
}

TEST(RecordComparator, ErrorsAreClearAndLeaveTheRecords) {
  std::vector<unsigned char> records(300 * 10, 7);
  records[0] = 9;
  const auto before = records;
  const RecordField f{.offset = 0, .type = key_type::u8};
  SortOptions by_comparator;
  by_comparator.comparator = "return gs_u8(a, 0) < gs_u8(b, 0);";
  auto code_of = [&](auto&& sort_call) -> std::optional<errc> {
    try {
      sort_call();
    } catch (const Error& e) {
      return e.code();
    }
    return std::nullopt;
  };
  // fields and a comparator together, or neither
  EXPECT_EQ(code_of([&] { sort_records(test_context(), records.data(), 300, 10, std::span(&f, 1), by_comparator); }),
            errc::invalid_argument);
  EXPECT_EQ(code_of([&] { sort_records(test_context(), records.data(), 300, 10, {}, SortOptions{}); }),
            errc::invalid_argument);
  // an algorithm that takes no comparator
  SortOptions radix = by_comparator;
  radix.algorithm = "radix";
  EXPECT_EQ(code_of([&] { sort_records(test_context(), records.data(), 300, 10, {}, radix); }), errc::invalid_argument);
  // records that do not fit the device budget: no host path for a comparator
  SortOptions small = by_comparator;
  small.device_memory_limit = 300 * 10;
  EXPECT_EQ(code_of([&] { sort_records(test_context(), records.data(), 300, 10, {}, small); }), errc::unsupported);
  // a compile error names the body's own line
  SortOptions broken;
  broken.comparator = "int x = gs_u8(a, 0);\nreturn x < ;";
  try {
    sort_records(test_context(), records.data(), 300, 10, {}, broken);
    ADD_FAILURE() << "a comparator that does not compile was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("comparator:2"), std::string::npos) << e.what();
  }
  EXPECT_EQ(records, before);
}

TEST(RecordComparator, AnOrderOverNaNFieldsStaysInBoundsAndSortsOrRefuses) {
  // 12-byte records: an f32 at offset 4, NaN in about one of four, and a serial at 0. `a < b` over
  // NaN is no strict weak order: every form, with the default merge, the cached and hashed passes
  // (which wrote out of bounds) and section-merge (whose scatter could leave a slot that is no
  // record's address for the next level's comparator to read), either sorts (a permutation, no
  // adjacent pair out of the order) or fails with the order's error and leaves the records and the
  // guard zones as they were.
  const std::size_t n = 20001, rb = 12;
  std::mt19937_64 rng(fresh_seed());
  std::vector<unsigned char> input(n * rb);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t serial = std::uint32_t(i);
    const float f = rng() % 4 == 0 ? std::nanf("") : float(int(rng() % 201) - 100) / 4.0f;
    std::memcpy(&input[i * rb], &serial, 4);
    std::memcpy(&input[i * rb + 4], &f, 4);
    std::memcpy(&input[i * rb + 8], &serial, 4);
  }
  const std::string body = "return gs_f32(a, 4) < gs_f32(b, 4);";
  auto serials_of = [&](const std::vector<unsigned char>& records) {
    std::vector<std::uint32_t> s(n);
    for (std::size_t i = 0; i < n; ++i) std::memcpy(&s[i], &records[i * rb], 4);
    return s;
  };
  auto sorted_or_unchanged = [&](const std::vector<unsigned char>& out, bool refused) -> ::testing::AssertionResult {
    if (refused)
      return out == input ? ::testing::AssertionSuccess() : ::testing::AssertionFailure() << "refused, records changed";
    const auto serials = serials_of(out);
    auto seen = serials;
    std::sort(seen.begin(), seen.end());
    for (std::size_t i = 0; i < n; ++i)
      if (seen[i] != i || std::memcmp(&out[i * rb], &input[std::size_t(serials[i]) * rb], rb) != 0)
        return ::testing::AssertionFailure() << "not a permutation of the records";
    for (std::size_t i = 1; i < n; ++i)
      if (field<float>(&out[i * rb], 4) < field<float>(&out[(i - 1) * rb], 4))
        return ::testing::AssertionFailure() << "records " << i - 1 << " and " << i << " out of order";
    return ::testing::AssertionSuccess();
  };
  auto is_order_error = [](const Error& e) {
    return e.code() == errc::invalid_argument && std::string(e.what()).find("not a strict weak order") != std::string::npos;
  };
  for (const char* pass : {"", "cached", "hashed", "section-merge"}) {
    SortOptions options;
    options.comparator = body;
    if (std::string(pass) == "section-merge")
      options.algorithm = pass;
    else if (*pass)
      options.algorithm = "merge", options.merge_variant = pass;
    GuardedHostArray<unsigned char> host(input);
    bool refused = false;
    try {
      sort_records(test_context(), host.span().data(), n, rb, {}, options);
    } catch (const Error& e) {
      EXPECT_TRUE(is_order_error(e)) << e.what();
      refused = true;
    }
    EXPECT_TRUE(host.guards_intact()) << pass;
    EXPECT_TRUE(sorted_or_unchanged(host.contents(), refused)) << "host " << pass;

    DeviceBufferWithGuard records(test_context(), input);
    refused = false;
    try {
      sort_records_device(test_context(), records.buffer(), n, rb, {}, options);
    } catch (const Error& e) {
      EXPECT_TRUE(is_order_error(e)) << e.what();
      refused = true;
    }
    EXPECT_TRUE(records.guard_intact("records")) << pass;
    EXPECT_TRUE(sorted_or_unchanged(records.contents<unsigned char>(), refused)) << "device " << pass;
  }
}

}  // namespace
}  // namespace gpusort::test
