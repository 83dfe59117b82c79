// The shared kernel primitives on the device against their host references: the key order of
// keys.h (gpusort::ordered_bits), the rank searches of rank_search.h (std::lower/upper_bound), the
// merge-path split of merge_path.h (a stable merge done on the host) and the radix one-block sorts'
// float images (radix_float_flip.h: the ordered image recovered from the plain sign flip, the
// network's spread images).
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <type_traits>

#include "algorithms/algorithm.hpp"
#include "runtime/device.hpp"
#include "support/key_types.hpp"
#include "support/test_support.hpp"

namespace gpusort::test {
namespace {

template <class T>
std::vector<std::string> defines_for() {
  return algo::key_defines_for(key_type_of<T>::value, 0);
}

// A key's bits, zero-extended.
template <class T>
std::uint64_t key_bits(T key) {
  std::uint64_t b = 0;
  std::memcpy(&b, &key, sizeof(T));
  return b;
}

// The kernels' okey_t: 32 bits for keys up to 32 bits, 64 for 64-bit keys.
template <class T>
using okey = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t>;

template <class T>
rt::BufferPtr upload(rt::Device& dev, const std::vector<T>& v) {
  auto buf = dev.alloc(std::max<std::size_t>(1, v.size()) * sizeof(T));
  dev.write(*buf, 0, v.data(), v.size() * sizeof(T));
  return buf;
}

template <class T>
std::vector<T> download(rt::Device& dev, const rt::Buffer& buf, std::size_t n) {
  std::vector<T> v(n);
  dev.read(buf, 0, v.data(), n * sizeof(T));
  return v;
}

template <class T>
class KernelPieces : public ::testing::Test {};
TYPED_TEST_SUITE(KernelPieces, AllKeyTypes);

// The key order as the kernels' okey_t, for either order.
template <class T>
okey<T> host_image(T key, bool descending) {
  const okey<T> width_mask = sizeof(T) >= sizeof(okey<T>) ? ~okey<T>(0) : okey<T>((okey<T>(1) << (8 * sizeof(T))) - 1);
  const okey<T> up = okey<T>(ordered_bits(key));
  return descending ? okey<T>(~up) & width_mask : up;
}

TYPED_TEST(KernelPieces, OrderedKeyMatchesTheHostOrder) {
  using T = TypeParam;
  rt::Device& dev = test_context().runtime_device();
  rt::Program& program = dev.program("kernel_pieces_test.cl", defines_for<T>());
  auto keys = make_keys<T>(5000, dist::specials, fresh_seed());
  for (T s : core::edge_keys<T>) keys.push_back(s);
  const std::uint64_t n = keys.size();
  auto in = upload(dev, keys);
  auto out = dev.alloc(n * sizeof(okey<T>));
  for (bool descending : {false, true}) {
    const okey<T> flip = descending ? ~okey<T>(0) : okey<T>(0);
    dev.fill_bytes(*out, 0xA5, 0, n * sizeof(okey<T>));  // poison
    dev.launch(program.kernel("test_ordered_keys"), {(n + 63) / 64, 64}, {*in, *out, n, flip});
    auto got = download<okey<T>>(dev, *out, n);
    for (std::size_t i = 0; i < n; ++i)
      ASSERT_EQ(got[i], host_image(keys[i], descending)) << "key index " << i << (descending ? " descending" : " ascending");
  }
}

// The radix single tile moves float keys as their plain sign flips and takes its digits from the
// ordered image recovered from them (radix_canonical_image): -0 and +0 alike, every NaN alike, all
// else unchanged. Every NaN payload of either sign near the edges, both zeros, infinities, subnormals.
template <class T>
class KernelPiecesFloat : public ::testing::Test {};
using FloatKeyTypes = ::testing::Types<float, double, half_bits, bfloat16_bits>;
TYPED_TEST_SUITE(KernelPiecesFloat, FloatKeyTypes);

TYPED_TEST(KernelPiecesFloat, CanonicalImageOfThePlainFlipIsTheOrderedKey) {
  using T = TypeParam;
  using bits_t = okey<T>;
  rt::Device& dev = test_context().runtime_device();
  rt::Program& program = dev.program("kernel_pieces_test.cl", defines_for<T>());
  auto keys = make_keys<T>(5000, dist::specials, fresh_seed());
  for (T s : core::edge_keys<T>) keys.push_back(s);
  const bits_t sign = bits_t(1) << (8 * sizeof(T) - 1);
  const bits_t inf = float_layout<T>::exp_mask;
  for (bits_t b : {bits_t(0), sign, inf, bits_t(inf + 1), bits_t(inf - 1), bits_t(sign - 1), bits_t(sign | inf),
                   bits_t((sign | inf) + 1), bits_t(sign | (inf - 1)), bits_t(~bits_t(0)), bits_t(~bits_t(0) - 1), bits_t(1),
                   bits_t(sign | 1)})
    keys.push_back(std::bit_cast<T>(static_cast<typename float_layout<T>::bits_type>(b)));
  const std::uint64_t n = keys.size();
  auto in = upload(dev, keys);
  auto out = dev.alloc(n * sizeof(bits_t));
  for (bool descending : {false, true}) {
    const bits_t flip = descending ? ~bits_t(0) : bits_t(0);
    dev.fill_bytes(*out, 0xA5, 0, n * sizeof(bits_t));  // poison
    dev.launch(program.kernel("test_canonical_images"), {(n + 63) / 64, 64}, {*in, *out, n, flip});
    auto got = download<bits_t>(dev, *out, n);
    for (std::size_t i = 0; i < n; ++i)
      ASSERT_EQ(got[i], host_image(keys[i], descending))
          << "key bits " << std::hex << key_bits(keys[i]) << (descending ? " descending" : " ascending");
  }
}

// The bitonic network sorts a float block that holds -0 or NaN as spread images
// (radix_spread_float_image): their order must be the radix sort's stable order (ordered image, then
// input position), equal images only for keys of equal bits, all below the padding's all ones; each
// zero (of either sign) and NaN must give back its input position and every other key its own bits.
// 4096 keys in a block of 4096 (the network's largest), both orders; smaller blocks in
// Radix.CudaSmallBitonic.
TYPED_TEST(KernelPiecesFloat, SpreadImagesSortStablyAndTurnBack) {
  using T = TypeParam;
  using bits_t = okey<T>;
  rt::Device& dev = test_context().runtime_device();
  rt::Program& program = dev.program("kernel_pieces_test.cl", defines_for<T>());
  for (dist d : {dist::specials, dist::entropy}) {
    auto keys = make_keys<T>(4096 - std::size(core::edge_keys<T>), d, fresh_seed());
    for (T s : core::edge_keys<T>) keys.push_back(s);
    const std::uint64_t n = keys.size();
    auto in = upload(dev, keys);
    auto image = dev.alloc(n * sizeof(bits_t)), back = dev.alloc(n * sizeof(bits_t));
    for (bool descending : {false, true}) {
      const bits_t flip = descending ? ~bits_t(0) : bits_t(0), room = 4096;
      dev.fill_bytes(*image, 0xA5, 0, n * sizeof(bits_t));  // poison
      dev.fill_bytes(*back, 0xA5, 0, n * sizeof(bits_t));
      dev.launch(program.kernel("test_spread_images"), {(n + 63) / 64, 64}, {*in, *image, *back, n, flip, room});
      const auto got = download<bits_t>(dev, *image, n), turned = download<bits_t>(dev, *back, n);
      std::vector<std::size_t> by_image(n), stable(n);
      for (std::size_t i = 0; i < n; ++i) by_image[i] = stable[i] = i;
      std::sort(by_image.begin(), by_image.end(), [&](std::size_t a, std::size_t b) { return got[a] < got[b]; });
      std::stable_sort(stable.begin(), stable.end(), [&](std::size_t a, std::size_t b) {
        return host_image(keys[a], descending) < host_image(keys[b], descending);
      });
      const char* how = descending ? " descending" : " ascending";
      for (std::size_t j = 0; j < n; ++j) {
        ASSERT_EQ(key_bits(keys[by_image[j]]), key_bits(keys[stable[j]]))
            << "sorted position " << j << how << " (" << dist_name(d) << ")";
        ASSERT_NE(got[by_image[j]], ~bits_t(0)) << "an image equals the padding at " << j << how;
        if (j > 0 && got[by_image[j]] == got[by_image[j - 1]])
          ASSERT_EQ(key_bits(keys[by_image[j]]), key_bits(keys[by_image[j - 1]]))
              << "keys of different bits share an image at " << j << how;
      }
      for (std::size_t i = 0; i < n; ++i) {
        const bits_t b = key_bits(keys[i]), sign = bits_t(1) << (8 * sizeof(T) - 1);
        const bool special = (b & ~sign) == 0 || (b & ~sign) > float_layout<T>::exp_mask;  // a zero of either sign or a NaN
        ASSERT_EQ(turned[i], special ? bits_t(i) : b) << "key bits " << std::hex << b << how;
      }
    }
  }
}

TYPED_TEST(KernelPieces, RankBoundsMatchStdBounds) {
  using T = TypeParam;
  rt::Device& dev = test_context().runtime_device();
  rt::Program& program = dev.program("kernel_pieces_test.cl", defines_for<T>());
  for (order o : {order::ascending, order::descending}) {
    auto run = make_keys<T>(3001, dist::few_unique, fresh_seed());
    std::stable_sort(run.begin(), run.end(), key_less<T>{o});
    auto probes = make_keys<T>(700, dist::specials, fresh_seed());
    probes.insert(probes.end(), run.begin(), run.begin() + 50);  // probes equal to run keys
    const std::uint64_t len = run.size(), m = probes.size();
    auto drun = upload(dev, run), dprobes = upload(dev, probes);
    auto lower = dev.alloc(m * 8), upper = dev.alloc(m * 8);
    const okey<T> flip = o == order::descending ? ~okey<T>(0) : okey<T>(0);
    dev.launch(program.kernel("test_rank_bounds"), {(m + 63) / 64, 64}, {*drun, len, *dprobes, m, *lower, *upper, flip});
    auto lo = download<std::uint64_t>(dev, *lower, m), hi = download<std::uint64_t>(dev, *upper, m);
    for (std::size_t i = 0; i < m; ++i) {
      EXPECT_EQ(lo[i], std::uint64_t(std::lower_bound(run.begin(), run.end(), probes[i], key_less<T>{o}) - run.begin()));
      EXPECT_EQ(hi[i], std::uint64_t(std::upper_bound(run.begin(), run.end(), probes[i], key_less<T>{o}) - run.begin()));
    }
  }
}

TYPED_TEST(KernelPieces, MergePathSplitsLikeAStableMerge) {
  using T = TypeParam;
  rt::Device& dev = test_context().runtime_device();
  rt::Program& program = dev.program("kernel_pieces_test.cl", defines_for<T>());
  for (auto [a_len, b_len] : {std::pair<std::size_t, std::size_t>{0, 5}, {7, 0}, {513, 1000}, {1000, 17}}) {
    auto a = make_keys<T>(a_len, dist::few_unique, fresh_seed());
    auto b = make_keys<T>(b_len, dist::few_unique, fresh_seed());
    std::stable_sort(a.begin(), a.end(), key_less<T>{});
    std::stable_sort(b.begin(), b.end(), key_less<T>{});
    // Host reference: walk the stable merge (ties to a) and count a's keys among the first d.
    std::vector<std::uint64_t> want(a_len + b_len + 1, 0);
    std::size_t i = 0, j = 0;
    for (std::size_t d = 0; d < a_len + b_len; ++d) {
      if (i < a_len && (j == b_len || !key_less<T>{}(b[j], a[i]))) ++i; else ++j;
      want[d + 1] = i;
    }
    auto da = upload(dev, a), db = upload(dev, b);
    const std::uint64_t diags = a_len + b_len + 1;
    auto out = dev.alloc(diags * 8);
    dev.launch(program.kernel("test_merge_path"), {(diags + 63) / 64, 64},
               {*da, std::uint64_t(a_len), *db, std::uint64_t(b_len), *out, okey<T>(0)});
    EXPECT_EQ(download<std::uint64_t>(dev, *out, diags), want) << "a_len=" << a_len << " b_len=" << b_len;
  }
}

}  // namespace
}  // namespace gpusort::test
