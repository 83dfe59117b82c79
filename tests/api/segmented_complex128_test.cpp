// Complex128 keys in segments (algorithms/segmented/segmented_complex128.hpp): every segment against
// a stable sort of that segment alone in numpy's complex order (key_less<std::complex<double>>),
// keys bit for bit (NaN payloads, signed zeros), values and local indices exactly. Rows and offsets
// of both widths with empty segments, keys alone, pairs, argsort with and without the sorted keys,
// host data, DeviceArray and the caller's OpenCL memory, both orders, the word passes through the
// bins a policy can force for offsets, and caller-supplied temporary storage of the planned size.
#include <complex>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/planner.hpp"
#include "algorithms/segmented/segmented_policy.hpp"
#include "algorithms/segmented/segmented_sort.hpp"
#include "gpusort/plan.hpp"
#include "gpusort/segmented.hpp"
#include "support/caller_opencl.hpp"
#include "support/complex128_reference.hpp"
#include "support/segmented_reference.hpp"
#include "support/test_support.hpp"

namespace gpusort::test {
namespace {

SortOptions stable(order o) { return {.order = o, .stable = true}; }

// Specials (every NaN class, both zeros, ties of the real parts) mixed with runs of equal keys.
std::vector<c128> tied_keys(std::size_t n, std::uint64_t seed) {
  std::vector<c128> keys = shuffled_specials(n, seed);
  const auto few = make_keys<c128>(n, dist::few_unique, seed + 1);
  for (std::size_t i = 1; i < n; i += 2) keys[i] = few[i];
  return keys;
}

struct Shape {
  Offsets offsets;
  Segments segments;
  std::string name;
};

Shape rows(std::uint64_t count, std::uint64_t length) {
  return {row_offsets(count, length), Segments::rows(count, length),
          std::to_string(count) + " rows of " + std::to_string(length)};
}

// Offsets kept alive for the Segments that point at them.
template <class O>
struct OffsetsShape {
  HostOffsets<O> given;
  Shape shape;
  explicit OffsetsShape(const Offsets& o, const std::string& name)
      : given(o), shape{o, given.segments(), name + " (" + std::to_string(sizeof(O)) + "-byte offsets)"} {}
};

std::string where(const Shape& s, order o, const std::string& what, std::uint64_t seed) {
  return s.name + ", " + what + (o == order::ascending ? ", ascending" : ", descending") + ", seed " +
         std::to_string(seed);
}

// Keys alone, pairs with their global index as 8-byte values, argsort (4- and 8-byte local indices,
// alone and with the sorted keys), both orders.
void check_every_form(const Shape& s) {
  for (order o : {order::ascending, order::descending}) {
    const std::uint64_t seed = fresh_seed();
    const auto input = tied_keys(s.offsets.back(), seed);
    const auto ref = reference_order(input, s.offsets, o);

    GuardedHostArray<c128> keys(input);
    sort_segments(test_context(), keys.span(), s.segments, stable(o));
    ASSERT_TRUE(keys_like_reference(input, ref, keys.contents())) << where(s, o, "keys", seed);
    ASSERT_TRUE(keys.guards_intact()) << where(s, o, "keys", seed);

    GuardedHostArray<c128> paired(input);
    GuardedHostArray<std::uint64_t> values(index_values<std::uint64_t>(input.size()));
    sort_segments_pairs(test_context(), paired.span(), values.span(), s.segments, stable(o));
    ASSERT_TRUE(keys_like_reference(input, ref, paired.contents())) << where(s, o, "pairs", seed);
    ASSERT_TRUE(values_like_reference(ref, values.contents())) << where(s, o, "pairs", seed);
    ASSERT_TRUE(paired.guards_intact() && values.guards_intact()) << where(s, o, "pairs", seed);

    GuardedHostArray<std::uint32_t> narrow(std::vector<std::uint32_t>(input.size(), 0xEEEEEEEEu));
    argsort_segments(test_context(), std::span<const c128>(input), narrow.span(), s.segments, stable(o));
    ASSERT_TRUE(values_like_reference(ref, narrow.contents(), &s.offsets)) << where(s, o, "argsort u32", seed);
    ASSERT_TRUE(narrow.guards_intact()) << where(s, o, "argsort u32", seed);

    std::vector<c128> sorted(input.size());
    std::vector<std::uint64_t> wide(input.size(), ~std::uint64_t(0));
    argsort_segments_host(test_context(), key_type::c128, input.data(), input.size(), sorted.data(), wide.data(), 8,
                          s.segments, stable(o));
    ASSERT_TRUE(values_like_reference(ref, wide, &s.offsets)) << where(s, o, "argsort u64 with keys", seed);
    ASSERT_TRUE(keys_like_reference(input, ref, sorted)) << where(s, o, "argsort u64 with keys", seed);
  }
}

TEST(SegmentedComplex128, RowsAroundWarpsAndTiles) {
  for (const auto& [count, length] : std::vector<std::pair<std::uint64_t, std::uint64_t>>{
           {1, 5000}, {7, 0}, {40, 1}, {40, 31}, {40, 33}, {30, 1023}, {5, 4097}, {2, 65537}})
    check_every_form(rows(count, length));
}

TEST(SegmentedComplex128, PowerLawOffsetsOfBothWidthsWithEmptySegments) {
  const Offsets offsets = power_law_offsets(300, 6000, fresh_seed());
  check_every_form(OffsetsShape<std::uint32_t>(offsets, "power law").shape);
  check_every_form(OffsetsShape<std::uint64_t>(offsets, "power law").shape);
}

// The word passes through the bins a policy can force for any offsets (portable, tiles-or-portable,
// binned; the planner's own choice for rows and offsets is run above), and the portable bin's wide
// positions and segment numbers; the binned bin takes offsets only.
struct ForcedBin {
  explicit ForcedBin(algo::SegmentedBin bin) { algo::set_segmented_policy_override({.bin = bin}); }
  ~ForcedBin() { algo::set_segmented_policy_override({}); }
};

TEST(SegmentedComplex128, WordPassesThroughEveryBin) {
  const Offsets offsets = power_law_offsets(200, 3000, fresh_seed());
  for (algo::SegmentedBin bin : {algo::SegmentedBin::portable, algo::SegmentedBin::tiles_or_portable,
                                 algo::SegmentedBin::binned}) {
    ForcedBin forced(bin);
    const std::string name = std::string("bin ") + algo::to_string(bin);
    check_every_form(OffsetsShape<std::uint32_t>(offsets, name).shape);
    if (bin == algo::SegmentedBin::binned) continue;
    if (bin == algo::SegmentedBin::portable) {  // the wide forms of 2^32 elements and segments
      algo::set_segmented_policy_override({.bin = bin, .position_bytes = 8, .segment_bytes = 8});
      check_every_form(OffsetsShape<std::uint64_t>(offsets, name + ", 8-byte positions and segments").shape);
    }
    Shape r = rows(60, 257);
    r.name += ", " + name;
    check_every_form(r);
  }
}

TEST(SegmentedComplex128, DeviceArrayPairsInPlace) {
  const Offsets offsets = power_law_offsets(150, 4000, fresh_seed());
  HostOffsets<std::uint64_t> given(offsets);
  const std::uint64_t seed = fresh_seed();
  const auto input = tied_keys(offsets.back(), seed);
  const auto ref = reference_order(input, offsets, order::descending);
  DeviceArray<c128> keys(test_context(), std::span<const c128>(input));
  const auto index = index_values<std::uint32_t>(input.size());
  DeviceArray<std::uint32_t> values(test_context(), std::span<const std::uint32_t>(index));
  sort_segments_pairs(test_context(), keys, values, given.segments(), stable(order::descending));
  std::vector<c128> got_keys(input.size());
  std::vector<std::uint32_t> got_values(input.size());
  keys.download(got_keys);
  values.download(got_values);
  EXPECT_TRUE(keys_like_reference(input, ref, got_keys)) << "seed " << seed;
  EXPECT_TRUE(values_like_reference(ref, got_values)) << "seed " << seed;
}

// gpusort plan names the two word passes and what the words' segmented sort runs.
TEST(SegmentedComplex128, PlanNamesTheWordPasses) {
  const SortPlan p = plan(test_context(), {.type = key_type::c128, .n = 64 * 1000, .value_bytes = 4,
                                           .positions = true, .rows = 64, .row_length = 1000});
  const std::string text = p.text();
  EXPECT_NE(text.find("low and high u64 words"), std::string::npos) << text;
  EXPECT_NE(text.find("by the low words"), std::string::npos) << text;
  EXPECT_NE(text.find("by the high words"), std::string::npos) << text;
  EXPECT_NE(text.find("made local to their segment"), std::string::npos) << text;
}

// The caller's OpenCL memory and queue: pairs out of place by device offsets (the input left as it
// was, the outputs poisoned first), then an argsort in place with 8-byte local indices.
TEST(SegmentedComplex128, CallersOpenCLMemory) {
  SKIP_WITHOUT_OPENCL();
  using namespace caller_opencl;
  auto& c = caller();
  const Offsets offsets = power_law_offsets(200, 3000, fresh_seed());
  const std::vector<std::uint64_t> wide(offsets.begin(), offsets.end());
  Mem on_device{c.buffer_of(wide)};
  const Segments segments = Segments::device_offsets(OpenCLView{on_device.m}, offsets.size() - 1, 8);
  const std::size_t n = offsets.back();
  const std::uint64_t seed = fresh_seed();
  const auto input = tied_keys(n, seed);
  const auto index = index_values<std::uint32_t>(n);
  const std::string what = "seed " + std::to_string(seed);

  const auto down = reference_order(input, offsets, order::descending);
  Mem kin{c.buffer_of(input)}, vin{c.buffer_of(index)};
  Mem kout{c.buffer_of(std::vector<c128>(n, c128(90.0, 90.0)))};
  Mem vout{c.buffer_of(std::vector<std::uint32_t>(n, 0x5A5A5A5Au))};
  sort_segments_native(*c.gpusort, key_type::c128, OpenCLView{kin.m}, OpenCLView{kout.m}, n, OpenCLView{vin.m},
                       OpenCLView{vout.m}, 4, segments, OpenCLQueue{c.queue}, stable(order::descending));
  EXPECT_TRUE(keys_like_reference(input, down, c.read<c128>(kout.m, n))) << what;
  EXPECT_TRUE(values_like_reference(down, c.read<std::uint32_t>(vout.m, n))) << what;
  EXPECT_EQ(0, std::memcmp(c.read<c128>(kin.m, n).data(), input.data(), n * sizeof(c128))) << what << ": keys_in written";

  const auto up = reference_order(input, offsets, order::ascending);
  Mem indices{c.buffer_of(std::vector<std::uint64_t>(n, 0x5A5A5A5A5A5A5A5Aull))};
  argsort_segments_native(*c.gpusort, key_type::c128, OpenCLView{kin.m}, OpenCLView{kin.m}, n,
                          OpenCLView{indices.m}, 8, segments, OpenCLQueue{c.queue}, stable(order::ascending));
  EXPECT_TRUE(values_like_reference(up, c.read<std::uint64_t>(indices.m, n), &offsets)) << what;
  EXPECT_TRUE(keys_like_reference(input, up, c.read<c128>(kin.m, n))) << what << " (sorted in place)";
}

// Temporary storage given by the caller (SortJob::temp_storage, which hands bytes out only forwards)
// of exactly segmented_temp_bytes: enough for both word passes and the gathers, through the
// portable bin (whose 1-D sorts take temporaries of their own) and the planner's choice, for pairs
// sorted in place and an argsort by offsets (its segment numbers).
TEST(SegmentedComplex128, CallersTemporaryStorageOfThePlannedSize) {
  rt::Device& dev = test_context().runtime_device();
  const Offsets offsets = power_law_offsets(60, 2000, fresh_seed());
  const std::uint64_t n = offsets.back(), count = offsets.size() - 1;
  const std::uint64_t seed = fresh_seed();
  const auto input = tied_keys(n, seed);
  const auto up = reference_order(input, offsets, order::ascending);
  const rt::BufferPtr device_offsets = dev.alloc(offsets.size() * 8);
  dev.write(*device_offsets, 0, offsets.data(), offsets.size() * 8);
  const algo::SegmentShape shape{.count = count, .offsets = device_offsets.get(), .offset_bytes = 8};
  for (algo::SegmentedBin bin : {algo::SegmentedBin::portable, algo::SegmentedBin::binned}) {
    ForcedBin forced(bin);
    for (bool argsort : {false, true}) {
      const std::string what = std::string(algo::to_string(bin)) + (argsort ? ", argsort" : ", pairs") + ", seed " +
                               std::to_string(seed);
      const SortRequest request{.type = key_type::c128, .n = n, .value_bytes = 8, .positions = argsort,
                                .where = data_location::device, .rows = count, .offset_bytes = 8,
                                .options = stable(order::ascending)};
      const algo::Plan plan = algo::make_plan(request, dev);
      const std::uint64_t bytes = algo::segmented_temp_bytes(plan, dev);
      const rt::BufferPtr temp = dev.alloc(bytes), keys = dev.alloc(n * 16), values = dev.alloc(n * 8);
      dev.write(*keys, 0, input.data(), n * 16);
      const auto index = index_values<std::uint64_t>(n);
      dev.write(*values, 0, index.data(), n * 8);
      algo::SortJob job{dev, key_type::c128, n, 8, *keys, values.get(), plan.options(), temp.get()};
      job.values_are_positions = argsort;
      algo::SegmentedJob segmented{job, shape};
      ASSERT_NO_THROW(algo::run_segmented(plan, segmented)) << what << ": " << bytes << " bytes planned";
      EXPECT_LE(job.temp_used, bytes) << what;
      std::vector<c128> got(n);
      std::vector<std::uint64_t> got_values(n);
      dev.read(*keys, 0, got.data(), n * 16);
      dev.read(*values, 0, got_values.data(), n * 8);
      EXPECT_TRUE(keys_like_reference(input, up, got)) << what;
      EXPECT_TRUE(values_like_reference(up, got_values, argsort ? &offsets : nullptr)) << what;
    }
  }
}

}  // namespace
}  // namespace gpusort::test
