// The automatic plan for segments given by offsets reads nothing back to the host (issue 52: binned
// on the device, capturable in a CUDA graph): the plan is made and run (algo::make_plan,
// algo::run_segmented) on a device that forwards every call to the test device and counts the
// device-to-host reads, over a mix of short and long segments; then the result is checked.
#include <algorithm>
#include <cstring>
#include <numeric>
#include <random>
#include <string>

#include "algorithms/planner.hpp"
#include "algorithms/segmented/segmented_sort.hpp"
#include "support/test_support.hpp"

namespace gpusort::test {
namespace {

// The test device, every call forwarded, the reads counted.
class ReadCountingDevice final : public rt::Device {
 public:
  explicit ReadCountingDevice(rt::Device& inner) : inner_(inner) {}
  std::size_t reads = 0;

  const DeviceDescription& description() const override { return inner_.description(); }
  rt::Program& program(const std::string& file, const std::vector<std::string>& defines) override {
    return inner_.program(file, defines);
  }
  rt::BufferPtr alloc(std::size_t bytes) override { return inner_.alloc(bytes); }
  std::unique_ptr<rt::HostBuffer> alloc_host(std::size_t bytes) override { return inner_.alloc_host(bytes); }
  rt::BufferPtr sub_buffer(rt::Buffer& parent, std::size_t offset, std::size_t bytes) override {
    return inner_.sub_buffer(parent, offset, bytes);
  }
  rt::Queue& default_queue() override { return inner_.default_queue(); }
  std::unique_ptr<rt::Queue> create_queue() override { return inner_.create_queue(); }
  void write(rt::Buffer& dst, std::size_t offset, const void* src, std::size_t bytes, rt::Queue* q = nullptr,
             bool async = false) override {
    inner_.write(dst, offset, src, bytes, q, async);
  }
  void read(const rt::Buffer& src, std::size_t offset, void* dst, std::size_t bytes, rt::Queue* q = nullptr,
            bool async = false) override {
    ++reads;
    inner_.read(src, offset, dst, bytes, q, async);
  }
  void copy(const rt::Buffer& src, std::size_t src_offset, rt::Buffer& dst, std::size_t dst_offset,
            std::size_t bytes, rt::Queue* q = nullptr) override {
    inner_.copy(src, src_offset, dst, dst_offset, bytes, q);
  }
  void fill_bytes(rt::Buffer& dst, unsigned char value, std::size_t offset, std::size_t bytes,
                  rt::Queue* q = nullptr) override {
    inner_.fill_bytes(dst, value, offset, bytes, q);
  }
  void launch(rt::Kernel& kernel, const rt::Launch& launch, const std::vector<rt::Arg>& args,
              rt::Queue* q = nullptr) override {
    inner_.launch(kernel, launch, args, q);
  }
  std::unique_ptr<rt::Event> record(rt::Queue* q = nullptr) override { return inner_.record(q); }
  void finish(rt::Queue* q = nullptr) override { inner_.finish(q); }
  rt::BufferPtr wrap(const NativeView& view, std::size_t bytes) override { return inner_.wrap(view, bytes); }
  std::pair<std::uintptr_t, std::size_t> native_origin(const NativeView& view) override {
    return inner_.native_origin(view);
  }
  void wait_for_native(const NativeQueue& native, rt::Queue* q = nullptr) override {
    inner_.wait_for_native(native, q);
  }
  std::unique_ptr<rt::Event> signal_native(const NativeQueue& native, std::unique_ptr<rt::Event> done = nullptr,
                                           rt::Queue* q = nullptr) override {
    return inner_.signal_native(native, std::move(done), q);
  }

 private:
  rt::Device& inner_;
};

// Lengths with empty, short and long segments (longer than any tile window), in random order.
std::vector<std::uint64_t> mixed_lengths(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint64_t> l = {0, 1, 31, 33, 1023, 4097, 20000};
  while (l.size() < 400) l.push_back(rng() % 10 == 0 ? rng() % 9000 : rng() % 64);
  std::shuffle(l.begin(), l.end(), rng);
  return l;
}

// One automatic plan run through the counting device: no read until the sort is enqueued; then the
// segments are checked (argsort: each key's index in its segment).
template <class O>
void check_no_read_back(bool argsort) {
  ReadCountingDevice dev(test_context().runtime_device());
  const std::uint64_t seed = fresh_seed();
  const std::vector<std::uint64_t> lengths = mixed_lengths(seed);
  std::vector<O> offsets = {0};
  for (std::uint64_t l : lengths) offsets.push_back(static_cast<O>(offsets.back() + l));
  const std::size_t n = offsets.back();
  const std::vector<float> keys = make_keys<float>(n, dist::few_unique, seed);
  const std::vector<std::uint32_t> values = index_values<std::uint32_t>(n);
  const std::string what = std::string(argsort ? "argsort" : "pairs") + ", " + std::to_string(sizeof(O)) +
                           "-byte offsets, seed " + std::to_string(seed);
  SCOPED_TRACE(what);

  const rt::BufferPtr keys_buffer = dev.alloc(n * sizeof(float));
  const rt::BufferPtr values_buffer = dev.alloc(n * sizeof(std::uint32_t));
  const rt::BufferPtr offsets_buffer = dev.alloc(offsets.size() * sizeof(O));
  dev.write(*keys_buffer, 0, keys.data(), n * sizeof(float));
  dev.write(*values_buffer, 0, values.data(), n * sizeof(std::uint32_t));
  dev.write(*offsets_buffer, 0, offsets.data(), offsets.size() * sizeof(O));

  SortRequest request{.type = key_type::f32, .n = n, .value_bytes = 4, .positions = argsort,
                      .where = data_location::device, .rows = lengths.size(), .offset_bytes = sizeof(O)};
  request.options = {.order = order::descending, .stable = true};
  const algo::Plan plan = algo::make_plan(request, dev);
  algo::SortJob job{dev, key_type::f32, n, 4, *keys_buffer, values_buffer.get(), plan.request.options};
  job.values_are_positions = argsort;
  algo::SegmentedJob seg{job,
                         {.count = lengths.size(), .row_length = 0, .offsets = offsets_buffer.get(),
                          .offsets_byte_offset = 0, .offset_bytes = sizeof(O)}};
  dev.reads = 0;
  algo::run_segmented(plan, seg);
  EXPECT_EQ(dev.reads, 0u) << "the automatic plan (" << algo::segmented_report_name(plan, seg.ran)
                           << ") read something back";

  std::vector<float> got_keys(n);
  std::vector<std::uint32_t> got_values(n);
  dev.read(*keys_buffer, 0, got_keys.data(), n * sizeof(float));
  dev.read(*values_buffer, 0, got_values.data(), n * sizeof(std::uint32_t));
  const key_less<float> less{order::descending};
  for (std::size_t s = 0; s < lengths.size(); ++s) {
    const std::size_t base = offsets[s];
    std::vector<std::size_t> ref(lengths[s]);
    std::iota(ref.begin(), ref.end(), base);
    std::stable_sort(ref.begin(), ref.end(), [&](std::size_t a, std::size_t b) { return less(keys[a], keys[b]); });
    for (std::size_t i = 0; i < ref.size(); ++i) {
      ASSERT_TRUE(same_bits(got_keys[base + i], keys[ref[i]])) << "segment " << s << " position " << i;
      ASSERT_EQ(got_values[base + i], argsort ? ref[i] - base : values[ref[i]]) << "segment " << s << " position " << i;
    }
  }
}

TEST(SegmentedNoReadBack, TheAutomaticOffsetsPlanReadsNothingBack) {
  check_no_read_back<std::uint32_t>(false);
  check_no_read_back<std::uint64_t>(true);
}

}  // namespace
}  // namespace gpusort::test
