// The guard-zone helpers (support/guard_zones.hpp) themselves: a write just past either end of the
// guarded memory must be reported, or the suites that rely on them would pass overruns silently.
#include "support/guard_zones.hpp"
#include "support/test_support.hpp"

namespace gpusort::test {
namespace {

TEST(GuardZones, HostArrayReportsAWriteBeforeOrAfterItsSpan) {
  const std::vector<std::uint32_t> input = {5, 3, 9};
  GuardedHostArray<std::uint32_t> clean(input);
  EXPECT_TRUE(clean.guards_intact());
  EXPECT_EQ(clean.contents(), input);

  GuardedHostArray<std::uint32_t> before(input);
  *(reinterpret_cast<unsigned char*>(before.span().data()) - 1) ^= 1;
  EXPECT_FALSE(before.guards_intact());

  GuardedHostArray<std::uint32_t> after(input);
  *reinterpret_cast<unsigned char*>(after.span().data() + after.span().size()) ^= 1;
  EXPECT_FALSE(after.guards_intact());

  GuardedHostArray<double> empty(std::vector<double>{});
  EXPECT_TRUE(empty.guards_intact());
  EXPECT_TRUE(empty.span().empty());
}

TEST(GuardZones, DeviceBufferReportsAWritePastItsPayload) {
  Context& ctx = test_context();
  const std::vector<std::uint64_t> input = {7, 1, 4, 2};
  DeviceBufferWithGuard keys(ctx, input);
  EXPECT_TRUE(keys.guard_intact("keys"));
  EXPECT_EQ(keys.contents<std::uint64_t>(), input);

  const std::uint64_t stray = input[0];  // a plausible overrun: a key written one slot too far
  keys.buffer().upload(&stray, sizeof stray, input.size() * sizeof(std::uint64_t));
  EXPECT_FALSE(keys.guard_intact("keys"));

  DeviceBufferWithGuard temp(ctx, 4096);
  const std::size_t last = DeviceBufferWithGuard::kDefaultGuardBytes - 1;
  const unsigned char wrong = guard_byte(last) ^ 1;
  temp.buffer().upload(&wrong, 1, 4096 + last);
  EXPECT_FALSE(temp.guard_intact("temporary storage"));
}

}  // namespace
}  // namespace gpusort::test
