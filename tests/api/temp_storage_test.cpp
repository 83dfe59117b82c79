// Caller-supplied temporary storage (temporary_storage_bytes + the sort_device overload), the
// sub-buffers it is carved into, and the per-device pool of reusable temporaries.
#include "runtime/buffer_pool.hpp"
#include "runtime/device.hpp"
#include "support/test_support.hpp"

namespace gpusort::test {
namespace {

rt::BufferPoolStats pool_stats() { return test_context().runtime_device().temp_pool().stats(); }

// Sizes that make every algorithm use its merge levels / passes, incl. non-powers of two.
const std::size_t kSizes[] = {1000, 4097, 20001};

template <class K, class V>
void check_exact_and_short(const std::string& algorithm, std::size_t n) {
  Context& ctx = test_context();
  const SortOptions opt{.algorithm = algorithm};
  const std::size_t vb = std::is_void_v<V> ? 0 : sizeof(std::conditional_t<std::is_void_v<V>, char, V>);
  std::size_t bytes = 0;
  try {
    bytes = temporary_storage_bytes(ctx, key_type_of<K>::value, n, vb, opt);
  } catch (const Error& e) {
    ASSERT_EQ(e.code(), errc::unsupported) << algorithm << ": " << e.what();
    return;  // does not report: nothing to check
  }
  EXPECT_EQ(bytes % 4096, 0u) << algorithm;

  const std::uint64_t seed = fresh_seed();
  const std::vector<K> input = make_keys<K>(n, dist::uniform, seed);
  std::vector<std::uint32_t> index(n);
  std::iota(index.begin(), index.end(), 0u);
  DeviceArray<K> keys(ctx, std::span<const K>(input));
  DeviceArray<std::uint32_t> values(ctx, std::span<const std::uint32_t>(index));
  auto run = [&](DeviceBuffer& temp) {
    if constexpr (std::is_void_v<V>)
      sort(ctx, keys, temp, opt);
    else
      sort_pairs(ctx, keys, values, temp, opt);
  };
  std::vector<K> out_keys(n);
  std::vector<std::uint32_t> out_values(n);

  // Less than reported: a clean error, data unchanged.
  if (bytes >= 4096) {
    DeviceBuffer short_temp(ctx, bytes - 4096);
    try {
      run(short_temp);
      ADD_FAILURE() << algorithm << " n=" << n << ": " << bytes - 4096 << " bytes of temporary storage were accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), errc::invalid_argument) << e.what();
      EXPECT_NE(std::string(e.what()).find("needs " + std::to_string(bytes) + " bytes of temporary storage"),
                std::string::npos)
          << e.what();
    }
    keys.download(std::span<K>(out_keys));
    values.download(std::span<std::uint32_t>(out_values));
    EXPECT_TRUE(std::equal(input.begin(), input.end(), out_keys.begin(),
                           [](K a, K b) { return std::memcmp(&a, &b, sizeof(K)) == 0; }))
        << algorithm << " n=" << n << ": keys changed by a refused sort";
    EXPECT_EQ(out_values, index) << algorithm << " n=" << n << ": values changed by a refused sort";
  }

  // Exactly the reported size: sorts, and takes nothing from the pool.
  DeviceBuffer temp(ctx, bytes);
  const auto before = pool_stats();
  run(temp);
  const auto after = pool_stats();
  EXPECT_EQ(after.device_allocations, before.device_allocations) << algorithm;
  EXPECT_EQ(after.direct_allocations, before.direct_allocations) << algorithm;
  EXPECT_EQ(after.reuses, before.reuses) << algorithm;
  keys.download(std::span<K>(out_keys));
  if constexpr (std::is_void_v<V>) {
    EXPECT_TRUE(keys_sorted_like_reference(input, out_keys, order::ascending, false))
        << algorithm << " n=" << n << " seed=" << seed;
  } else {
    values.download(std::span<std::uint32_t>(out_values));
    EXPECT_TRUE(pairs_sorted_like_reference(input, out_keys, out_values, order::ascending, false))
        << algorithm << " n=" << n << " seed=" << seed;
  }
}

TEST(TempStorage, ExactSizeSortsAndLessFailsCleanly) {
  for (const auto& a : algorithms()) {
    for (std::size_t n : kSizes) {
      SCOPED_TRACE(a.name + " n=" + std::to_string(n));
      check_exact_and_short<std::uint32_t, std::uint32_t>(a.name, n);
      check_exact_and_short<std::uint64_t, void>(a.name, n);
    }
  }
}

TEST(TempStorage, EveryRegisteredAlgorithmReportsItsNeeds) {
  for (const auto& a : algorithms())
    EXPECT_NO_THROW(temporary_storage_bytes(test_context(), key_type::f32, 5000, 8, {.algorithm = a.name})) << a.name;
}

TEST(TempStorage, RadixNeedsOneCopyPlusHistograms) {
  // At least the ping-pong copy of keys and values; beyond it only histograms: 1 MiB covers the
  // global ones and the look-back status words, and the portable path's per-group count tables
  // (256 digits x 8 bytes per group, up to 8 groups per compute unit) grow with the device.
  const std::size_t n = 1 << 20;
  const std::size_t bytes = temporary_storage_bytes(test_context(), key_type::u32, n, 4, {.algorithm = "radix"});
  const std::size_t per_group_tables = std::size_t(256) * 8 * 8 * test_context().device().compute_units;
  EXPECT_GE(bytes, n * 8);
  EXPECT_LE(bytes, n * 8 + (1u << 20) + per_group_tables);
  EXPECT_EQ(temporary_storage_bytes(test_context(), key_type::u32, 1, 4, {.algorithm = "radix"}), 0u);
}

TEST(TempStorage, KeysBufferAsTemporaryStorageIsRefused) {
  Context& ctx = test_context();
  std::vector<std::uint32_t> v = {3, 1, 2};
  DeviceArray<std::uint32_t> keys(ctx, std::span<const std::uint32_t>(v));
  EXPECT_THROW(sort(ctx, keys, keys.buffer()), Error);
}

TEST(TempStorage, OneBufferServesManySorts) {
  Context& ctx = test_context();
  const std::size_t n = 5000;
  const std::size_t bytes = temporary_storage_bytes(ctx, key_type::f32, n, 0, {.algorithm = "merge"});
  DeviceBuffer temp(ctx, bytes);
  for (int i = 0; i < 3; ++i) {
    auto input = make_keys<float>(n, dist::specials, fresh_seed());
    DeviceArray<float> keys(ctx, std::span<const float>(input));
    sort(ctx, keys, temp, {.order = order::descending, .stable = true, .algorithm = "merge"});
    std::vector<float> out(n);
    keys.download(std::span<float>(out));
    EXPECT_TRUE(keys_sorted_like_reference(input, out, order::descending, true));
  }
}

TEST(TempStorage, SubBuffersViewTheirParent) {
  rt::Device& dev = test_context().runtime_device();
  rt::BufferPtr parent = dev.alloc(3 * 4096);
  std::vector<std::uint32_t> data(3 * 1024);
  std::iota(data.begin(), data.end(), 0u);
  dev.write(*parent, 0, data.data(), data.size() * 4);
  rt::BufferPtr view = dev.sub_buffer(*parent, 4096, 8192);
  EXPECT_EQ(view->bytes(), 8192u);
  std::uint32_t first = 0;
  dev.read(*view, 0, &first, 4);
  EXPECT_EQ(first, 1024u);
  const std::uint32_t mark = 0xabcdef01u;
  dev.write(*view, 4, &mark, 4);
  parent.reset();  // the view keeps the memory alive
  std::uint32_t back = 0;
  dev.read(*view, 4, &back, 4);
  EXPECT_EQ(back, mark);

  rt::BufferPtr p2 = dev.alloc(8192);
  EXPECT_THROW(dev.sub_buffer(*p2, 4096, 8192), Error);  // past the end
  EXPECT_THROW(dev.sub_buffer(*p2, 0, 0), Error);        // empty
  try {
    dev.sub_buffer(*p2, 100, 64);
    // a device whose base alignment divides 100 may accept it; any refusal must be an Error
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), errc::invalid_argument);
  }
}

TEST(BufferPool, RepeatedSmallSortsReuseBuffers) {
  Context& ctx = test_context();
  auto sort_once = [&](std::uint64_t seed) {
    // above the one-block radix paths (single work-group: 4096 keys; CUDA single tile: 8192 pairs),
    // which take no temporaries
    auto input = make_keys<std::uint32_t>(20000, dist::uniform, seed);
    std::vector<std::uint32_t> values(input.size());
    std::iota(values.begin(), values.end(), 0u);
    auto keys = input;
    sort_pairs(ctx, std::span<std::uint32_t>(keys), std::span<std::uint32_t>(values), {.algorithm = "radix"});
    return pairs_sorted_like_reference(input, keys, values, order::ascending, true);
  };
  ASSERT_TRUE(sort_once(fresh_seed()));  // warm-up: fills the pool
  const auto before = pool_stats();
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(sort_once(fresh_seed()));
  const auto after = pool_stats();
  // Each sort takes 2 device copies + the radix temporaries; all of them come back between sorts.
  EXPECT_LE(after.device_allocations - before.device_allocations, 4u);
  EXPECT_GE(after.reuses - before.reuses, 100u * 6 - 4);
  EXPECT_EQ(after.direct_allocations, before.direct_allocations);
  EXPECT_LE(after.cached_bytes, rt::BufferPool::kMaxCachedBytes);
}

TEST(BufferPool, SizeClassesAndLimits) {
  using P = rt::BufferPool;
  EXPECT_EQ(P::size_class(0), P::kMinClassBytes);
  EXPECT_EQ(P::size_class(4097), 8192u);
  EXPECT_EQ(P::size_class(std::size_t(1) << 26), std::size_t(1) << 26);

  rt::Device& dev = test_context().runtime_device();
  P& pool = dev.temp_pool();
  const auto s0 = pool.stats();
  {
    rt::BufferPtr a = pool.get(5000);
    EXPECT_GE(a->bytes(), 5000u);
    rt::BufferPtr b = pool.get(6000);  // same class, a is still lent: a second buffer
    EXPECT_NE(a.get(), b.get());
  }
  rt::BufferPtr c = pool.get(7000);  // comes back from the pool
  const auto s1 = pool.stats();
  EXPECT_GE(s1.reuses - s0.reuses, 1u);
  rt::BufferPtr big = pool.get(P::kMaxPooledBytes + 1);  // direct
  EXPECT_EQ(pool.stats().direct_allocations, s1.direct_allocations + 1);
  std::uint32_t x = 7, y = 0;
  dev.write(*c, 0, &x, 4);
  dev.read(*c, 0, &y, 4);
  EXPECT_EQ(y, 7u);
}

// DeviceBuffer::view: a window of the parent's memory (what carves one allocation into parts).
TEST(DeviceBufferView, WindowOfTheParentAndItsLimits) {
  Context& ctx = test_context();
  DeviceBuffer parent(ctx, 3 * 4096);
  std::vector<std::uint8_t> zeros(3 * 4096, 0), ones(4096, 1), back(3 * 4096);
  parent.upload(zeros.data(), zeros.size());
  DeviceBuffer middle = parent.view(4096, 4096);
  EXPECT_EQ(middle.bytes(), 4096u);
  middle.upload(ones.data(), ones.size());
  parent.download(back.data(), back.size());
  for (std::size_t i = 0; i < back.size(); ++i)
    ASSERT_EQ(back[i], i >= 4096 && i < 2 * 4096 ? 1 : 0) << "byte " << i;
  EXPECT_THROW(parent.view(100, 4096), Error);       // not 4096-aligned
  EXPECT_THROW(parent.view(2 * 4096, 8192), Error);  // past the end
  EXPECT_THROW(parent.view(0, 0), Error);            // empty
  EXPECT_THROW(DeviceBuffer().view(0, 4096), Error);  // no memory
  // A view of a view: the parent's last page, through the middle view's end.
  DeviceBuffer wide = parent.view(4096, 2 * 4096);
  DeviceBuffer last = wide.view(4096, 4096);
  last.upload(ones.data(), ones.size());
  parent.download(back.data(), back.size());
  for (std::size_t i = 2 * 4096; i < back.size(); ++i) ASSERT_EQ(back[i], 1) << "byte " << i;
}

}  // namespace
}  // namespace gpusort::test
