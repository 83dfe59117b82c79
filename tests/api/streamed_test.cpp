// Sorts through the caller's read and write functions (gpusort/streamed.hpp): results against the
// host's stable sort, pieces that cover the arrays exactly once, errors from either function, and
// the one-piece limit.
#include <atomic>
#include <cstring>
#include <mutex>
#include <numeric>
#include <stdexcept>

#include "gpusort/streamed.hpp"
#include "runtime/pinned_pool.hpp"
#include "support/test_support.hpp"

namespace gpusort::test {
namespace {

// An array in host memory seen through read and write functions that also record what they were
// asked for (bytes read and written, overlap), poisoned where nothing was written.
struct RecordingArray {
  std::vector<unsigned char> in, out;
  std::atomic<std::uint64_t> read_bytes{0}, written_bytes{0};
  std::mutex mutex;
  std::vector<int> times_read, times_written;  // per byte

  explicit RecordingArray(std::vector<unsigned char> bytes)
      : in(std::move(bytes)), out(in.size(), 0xA5), times_read(in.size(), 0), times_written(in.size(), 0) {}

  ReadPiece reader() {
    return [this](std::uint64_t offset, void* into, std::size_t bytes) {
      if (offset + bytes > in.size()) throw std::logic_error("read past the end");
      std::memcpy(into, in.data() + offset, bytes);
      read_bytes += bytes;
      const std::lock_guard<std::mutex> lock(mutex);
      for (std::size_t i = 0; i < bytes; ++i) ++times_read[offset + i];
    };
  }
  WritePiece writer() {
    return [this](std::uint64_t offset, const void* from, std::size_t bytes) {
      if (offset + bytes > out.size()) throw std::logic_error("write past the end");
      std::memcpy(out.data() + offset, from, bytes);
      written_bytes += bytes;
      const std::lock_guard<std::mutex> lock(mutex);
      for (std::size_t i = 0; i < bytes; ++i) ++times_written[offset + i];
    };
  }
  bool each_byte_read_once() const {
    return std::all_of(times_read.begin(), times_read.end(), [](int t) { return t == 1; });
  }
  bool each_byte_written_once() const {
    return std::all_of(times_written.begin(), times_written.end(), [](int t) { return t == 1; });
  }
};

template <class T>
std::vector<unsigned char> as_bytes(const std::vector<T>& v) {
  std::vector<unsigned char> b(v.size() * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

template <class T>
std::vector<T> from_bytes(const std::vector<unsigned char>& b) {
  std::vector<T> v(b.size() / sizeof(T));
  std::memcpy(v.data(), b.data(), b.size());
  return v;
}

// Keys over several pinned slots (so several copy threads share the work), both orders.
TEST(Streamed, KeysAcrossSeveralSlotsMatchTheHostSort) {
  const std::size_t n = 3 * rt::PinnedPool::kSlotBytes / sizeof(std::uint32_t) + 12345;
  for (order o : {order::ascending, order::descending}) {
    const std::uint64_t seed = fresh_seed();
    const auto input = make_keys<std::uint32_t>(n, dist::uniform, seed);
    RecordingArray keys(as_bytes(input));
    StreamedArrays arrays{keys.reader(), keys.writer()};
    sort_streamed(test_context(), key_type::u32, n, arrays, {.order = o, .host_threads = 3});
    EXPECT_TRUE(keys.each_byte_read_once()) << "seed " << seed;
    EXPECT_TRUE(keys.each_byte_written_once()) << "seed " << seed;
    EXPECT_TRUE(keys_sorted_like_reference(input, from_bytes<std::uint32_t>(keys.out), o, false)) << "seed " << seed;
  }
}

// Stable pairs of 8-byte keys with few distinct values and 4-byte values (their input positions).
TEST(Streamed, StablePairsKeepInputOrder) {
  const std::size_t n = 300001;
  const std::uint64_t seed = fresh_seed();
  const auto input = make_keys<std::int64_t>(n, dist::few_unique, seed);
  std::vector<std::uint32_t> index(n);
  std::iota(index.begin(), index.end(), 0u);
  RecordingArray keys(as_bytes(input)), values(as_bytes(index));
  StreamedArrays arrays{keys.reader(), keys.writer(), 4, values.reader(), values.writer()};
  sort_streamed(test_context(), key_type::i64, n, arrays, {.stable = true, .host_threads = 4});
  const auto out_keys = from_bytes<std::int64_t>(keys.out);
  const auto out_values = from_bytes<std::uint32_t>(values.out);
  EXPECT_TRUE(keys_sorted_like_reference(input, out_keys, order::ascending, true)) << "seed " << seed;
  for (std::size_t i = 0; i < n; ++i)
    ASSERT_TRUE(same_bits(input[out_values[i]], out_keys[i]) && (i == 0 || out_keys[i - 1] != out_keys[i] ||
                                                                  out_values[i - 1] < out_values[i]))
        << "value " << i << " does not follow its key in input order (seed " << seed << ")";
}

TEST(Streamed, OneAndZeroElements) {
  RecordingArray one(as_bytes(std::vector<float>{2.5f}));
  sort_streamed(test_context(), key_type::f32, 1, {one.reader(), one.writer()});
  EXPECT_EQ(from_bytes<float>(one.out), std::vector<float>{2.5f});
  int calls = 0;
  StreamedArrays none{[&](std::uint64_t, void*, std::size_t) { ++calls; },
                      [&](std::uint64_t, const void*, std::size_t) { ++calls; }};
  sort_streamed(test_context(), key_type::u8, 0, none);
  EXPECT_EQ(calls, 0);
}

// A read that fails stops the sort before anything is written; a failing write is reported.
TEST(Streamed, ErrorsFromTheFunctionsComeBack) {
  const std::size_t n = 2 * rt::PinnedPool::kSlotBytes / 4;
  RecordingArray keys(as_bytes(make_keys<std::uint32_t>(n, dist::uniform, fresh_seed())));
  StreamedArrays failing_read{[&](std::uint64_t offset, void* into, std::size_t bytes) {
                                if (offset > 0) throw Error(errc::io_error, "disk gone");
                                keys.reader()(offset, into, bytes);
                              },
                              keys.writer()};
  try {
    sort_streamed(test_context(), key_type::u32, n, failing_read);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("disk gone"), std::string::npos) << e.what();
  }
  EXPECT_EQ(keys.written_bytes.load(), 0u) << "written although the input could not be read";

  StreamedArrays failing_write{keys.reader(), [](std::uint64_t, const void*, std::size_t) {
                                 throw Error(errc::io_error, "disk full");
                               }};
  EXPECT_THROW(sort_streamed(test_context(), key_type::u32, n, failing_write), Error);
}

TEST(Streamed, RefusesWhatDoesNotFitInOnePiece) {
  Context& ctx = test_context();
  const SortOptions small{.device_memory_limit = 1 << 20};
  const std::size_t n = 1 << 20;  // 4 MiB of u32 keys
  EXPECT_FALSE(fits_streamed(ctx, key_type::u32, n, 0, small));
  EXPECT_TRUE(fits_streamed(ctx, key_type::u32, 1000, 0, small));
  int reads = 0;
  StreamedArrays arrays{[&](std::uint64_t, void*, std::size_t) { ++reads; }, [](std::uint64_t, const void*, std::size_t) {}};
  try {
    sort_streamed(ctx, key_type::u32, n, arrays, small);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), errc::out_of_memory) << e.what();
  }
  EXPECT_EQ(reads, 0);
}

TEST(Streamed, ArgumentsChecked) {
  RecordingArray keys(as_bytes(std::vector<std::uint16_t>{3, 1, 2}));
  EXPECT_THROW(sort_streamed(test_context(), key_type::u16, 3, {keys.reader(), nullptr}), Error);
  StreamedArrays values_without_functions{keys.reader(), keys.writer(), 4};
  EXPECT_THROW(sort_streamed(test_context(), key_type::u16, 3, values_without_functions), Error);
  StreamedArrays odd_values{keys.reader(), keys.writer(), 3, keys.reader(), keys.writer()};
  EXPECT_THROW(sort_streamed(test_context(), key_type::u16, 3, odd_values), Error);
  EXPECT_THROW(sort_streamed(test_context(), key_type::u16, 3, {keys.reader(), keys.writer()}, {.algorithm = "nope"}),
               Error);
  EXPECT_EQ(keys.read_bytes.load(), 0u) << "a refused request read its input";
}

}  // namespace
}  // namespace gpusort::test
