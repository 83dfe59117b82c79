// Copies between host memory and device buffers through the pinned staging slots: pieces that
// span several slots or end inside one, several copy threads, and the pool that keeps the slots.
#include <cstring>

#include "api/host_transfer.hpp"
#include "runtime/pinned_pool.hpp"
#include "support/test_support.hpp"

namespace gpusort::test {
namespace {

constexpr std::size_t kSlot = rt::PinnedPool::kSlotBytes;

std::vector<unsigned char> random_bytes(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<unsigned char> v(n);
  for (auto& b : v) b = static_cast<unsigned char>(rng());
  return v;
}

// Three pieces into one buffer (one across two slot edges, one of a few bytes, one ending mid
// slot), then the whole buffer back as two pieces, with 1, 3 and 8 threads.
TEST(HostTransfer, PiecesAcrossSlotEdgesRoundTrip) {
  rt::Device& dev = test_context().runtime_device();
  const std::size_t sizes[] = {2 * kSlot + 12345, 7, kSlot / 2 + 1};
  std::size_t total = 0;
  for (std::size_t s : sizes) total += s;
  rt::BufferPtr buf = dev.alloc(total);
  for (unsigned threads : {1u, 3u, 8u}) {
    const std::uint64_t seed = fresh_seed();
    std::vector<std::vector<unsigned char>> in;
    std::vector<detail::UploadPiece> up;
    std::size_t at = 0;
    for (std::size_t s : sizes) {
      in.push_back(random_bytes(s, seed + at));
      up.push_back({in.back().data(), buf.get(), at, s});
      at += s;
    }
    detail::upload(dev, up, threads);
    std::vector<unsigned char> out(total, 0xEE);
    const std::size_t cut = kSlot + 3;
    const detail::DownloadPiece down[] = {{out.data(), buf.get(), 0, cut}, {out.data() + cut, buf.get(), cut, total - cut}};
    detail::download(dev, down, threads);
    at = 0;
    for (const auto& piece : in) {
      ASSERT_EQ(std::memcmp(out.data() + at, piece.data(), piece.size()), 0)
          << "piece at " << at << " differs (threads " << threads << ", seed " << seed << ")";
      at += piece.size();
    }
  }
}

TEST(HostTransfer, NothingToCopyIsFine) {
  rt::Device& dev = test_context().runtime_device();
  detail::upload(dev, {}, 4);
  detail::download(dev, {}, 4);
  rt::BufferPtr buf = dev.alloc(16);
  const detail::UploadPiece empty[] = {{nullptr, buf.get(), 0, 0}};
  detail::upload(dev, empty, 0);
}

TEST(PinnedPool, SlotsAreKeptAndReused) {
  rt::PinnedPool& pool = test_context().runtime_device().pinned_pool();
  pool.trim();
  const rt::PinnedPoolStats before = pool.stats();
  EXPECT_EQ(before.kept_slots, 0u);
  {
    rt::PinnedSlot a = pool.lend(), b = pool.lend();
    EXPECT_EQ(a.bytes(), kSlot);
    EXPECT_NE(a.data(), b.data());
    a.data()[0] = 1, a.data()[kSlot - 1] = 2;  // writable end to end
  }
  EXPECT_EQ(pool.stats().kept_slots, 2u);
  { rt::PinnedSlot c = pool.lend(); }
  EXPECT_EQ(pool.stats().reuses, before.reuses + 1);
  EXPECT_EQ(pool.stats().allocations, before.allocations + 2);
  pool.trim();
  EXPECT_EQ(pool.stats().kept_slots, 0u);
}

TEST(PinnedPool, KeepsAtMostItsBound) {
  rt::PinnedPool& pool = test_context().runtime_device().pinned_pool();
  pool.trim();
  {
    std::vector<rt::PinnedSlot> many;
    for (std::size_t i = 0; i < rt::PinnedPool::kMaxKeptSlots + 3; ++i) many.push_back(pool.lend());
  }
  EXPECT_EQ(pool.stats().kept_slots, rt::PinnedPool::kMaxKeptSlots);
  pool.trim();
}

}  // namespace
}  // namespace gpusort::test
