// gpusort::sort_file (gpusort/sort_file.hpp): keys and pairs from raw and .npy files, on the path
// its one plan chooses (streamed, in memory, external; plan_sort_file agrees), against
// std::stable_sort; and errors that leave no file behind.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "algorithms/planner.hpp"
#include "api/streamed_run.hpp"
#include "gpusort/sort_file.hpp"
#include "runtime/device.hpp"
#include "support/test_support.hpp"

namespace gpusort::test {
namespace {

namespace fs = std::filesystem;

class Dir {
 public:
  Dir() {
    std::string templ = (fs::temp_directory_path() / "gpusort-sort-file-XXXXXX").string();
    if (!::mkdtemp(templ.data())) throw std::runtime_error("mkdtemp failed");
    path_ = templ;
  }
  ~Dir() {
    std::error_code ec;
    fs::permissions(path_, fs::perms::owner_all, ec);
    fs::remove_all(path_, ec);
  }
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }
  std::vector<std::string> entries() const {
    std::vector<std::string> v;
    for (const auto& e : fs::directory_iterator(path_)) v.push_back(e.path().filename().string());
    std::sort(v.begin(), v.end());
    return v;
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

std::vector<std::string> names(std::initializer_list<const char*> list) {
  std::vector<std::string> v(list.begin(), list.end());
  std::sort(v.begin(), v.end());
  return v;
}

void write_bytes(const std::string& path, const void* data, std::size_t bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(static_cast<const char*>(data), static_cast<std::streamsize>(bytes));
}

template <class T>
void write_raw(const std::string& path, const std::vector<T>& v) {
  write_bytes(path, v.data(), v.size() * sizeof(T));
}

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

template <class T>
std::vector<T> read_raw(const std::string& path, std::size_t skip = 0) {
  const std::string bytes = read_all(path);
  std::vector<T> v((bytes.size() - skip) / sizeof(T));
  std::memcpy(v.data(), bytes.data() + skip, v.size() * sizeof(T));
  return v;
}

// A version 1.0 .npy file of u32 elements.
std::string npy_u32_header(std::size_t n) {
  std::string dict = "{'descr': '<u4', 'fortran_order': False, 'shape': (" + std::to_string(n) + ",), }";
  std::size_t total = 10 + dict.size() + 1;
  dict += std::string((64 - total % 64) % 64, ' ') + "\n";
  std::string h = "\x93NUMPY";
  h += '\x01';
  h += '\x00';
  h += char(dict.size() & 0xff);
  h += char(dict.size() >> 8);
  return h + dict;
}

// Keys with many duplicates, so stability shows.
std::vector<std::uint32_t> duplicated_keys(std::size_t n) {
  std::vector<std::uint32_t> k(n);
  for (std::size_t i = 0; i < n; ++i) k[i] = std::uint32_t((i * 2654435761u) >> 20);
  return k;
}

// The keys and values (positions) as a stable sort by key leaves them.
struct Sorted {
  std::vector<std::uint32_t> keys, values;
};
Sorted stable_sorted(const std::vector<std::uint32_t>& keys) {
  std::vector<std::uint32_t> order(keys.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return keys[a] < keys[b]; });
  Sorted s;
  for (std::uint32_t i : order) s.keys.push_back(keys[i]), s.values.push_back(i);
  return s;
}

std::vector<std::uint32_t> positions(std::size_t n) {
  std::vector<std::uint32_t> v(n);
  std::iota(v.begin(), v.end(), 0u);
  return v;
}

// What plan_sort_file says for regular files of this shape.
file_sort_path planned_path(std::span<Context* const> contexts, std::uint64_t n, std::size_t value_bytes,
                            const SortOptions& options, std::uint64_t memory_limit) {
  const FileSortShape shape{.type = key_type::u32, .n = n, .value_bytes = value_bytes};
  return plan_sort_file(contexts, shape, options, memory_limit).path;
}

TEST(SortFile, KeysOnly) {
  Dir d;
  const std::size_t n = 100000;
  std::vector<std::uint32_t> keys = duplicated_keys(n);
  write_raw(d / "k", keys);
  Context* one[] = {&test_context()};
  SortFileRequest r{.keys = d / "k", .output = d / "out", .type = key_type::u32, .contexts = one};
  const SortFileReport report = sort_file(r);
  std::stable_sort(keys.begin(), keys.end());
  EXPECT_EQ(read_raw<std::uint32_t>(d / "out"), keys);
  EXPECT_EQ(report.elements, n);
  EXPECT_EQ(report.path, planned_path(one, n, 0, {}, 0)) << to_string(report.path);
  EXPECT_EQ(d.entries(), names({"k", "out"})) << "a temporary file was left";
}

TEST(SortFile, PairsStableStreamedAndInMemory) {
  Dir d;
  const std::size_t n = 50000;
  const std::vector<std::uint32_t> keys = duplicated_keys(n);
  write_raw(d / "k", keys);
  write_raw(d / "v", positions(n));
  const Sorted want = stable_sorted(keys);
  Context& ctx = test_context();
  Context* one[] = {&ctx};
  Context* two[] = {&ctx, &ctx};  // several contexts (one device twice): read whole, never streamed
  for (std::span<Context* const> contexts : {std::span<Context* const>(one), std::span<Context* const>(two)}) {
    SCOPED_TRACE(std::to_string(contexts.size()) + " context(s)");
    SortFileRequest r{.keys = d / "k", .output = d / "ko", .values = d / "v", .values_output = d / "vo",
                      .type = key_type::u32, .values_type = "u32", .contexts = contexts};
    r.options.stable = true;
    const SortFileReport report = sort_file(r);
    EXPECT_EQ(report.path, contexts.size() == 1 ? file_sort_path::streamed : file_sort_path::in_memory)
        << to_string(report.path);
    EXPECT_EQ(report.path, planned_path(contexts, n, 4, r.options, 0));
    EXPECT_EQ(read_raw<std::uint32_t>(d / "ko"), want.keys);
    EXPECT_EQ(read_raw<std::uint32_t>(d / "vo"), want.values);
    EXPECT_EQ(d.entries(), names({"k", "ko", "v", "vo"}));
  }
}

TEST(SortFile, NpyKeysKeepTheirHeader) {
  Dir d;
  const std::size_t n = 3000;
  std::vector<std::uint32_t> keys = duplicated_keys(n);
  const std::string header = npy_u32_header(n);
  std::string file = header;
  file.append(reinterpret_cast<const char*>(keys.data()), n * 4);
  write_bytes(d / "k.npy", file.data(), file.size());
  Context* one[] = {&test_context()};
  SortFileRequest r{.keys = d / "k.npy", .output = d / "o.npy", .contexts = one};  // the type from the header
  r.options.order = order::descending;
  sort_file(r);
  std::stable_sort(keys.begin(), keys.end(), std::greater<>());
  const std::string out = read_all(d / "o.npy");
  ASSERT_GT(out.size(), header.size());
  EXPECT_EQ(out.substr(0, 6), "\x93NUMPY");
  EXPECT_NE(out.find("(3000,)"), std::string::npos);
  EXPECT_EQ(read_raw<std::uint32_t>(d / "o.npy", out.size() - n * 4), keys);
}

TEST(SortFile, MemoryLimitForcesTheExternalPath) {
  Dir d, temporaries;
  const std::size_t n = 200000;  // 1.6 MB of pairs
  const std::vector<std::uint32_t> keys = duplicated_keys(n);
  write_raw(d / "k", keys);
  write_raw(d / "v", positions(n));
  Context* one[] = {&test_context()};
  SortFileRequest r{.keys = d / "k", .output = d / "ko", .values = d / "v", .values_output = d / "vo",
                    .type = key_type::u32, .values_type = "u32", .contexts = one};
  r.options.stable = true;
  r.memory_limit = 256 << 10;  // below the pinned staging a streamed sort needs, too
  r.temporary_directory = temporaries.path().string();
  const SortFileReport report = sort_file(r);
  EXPECT_EQ(report.path, file_sort_path::external);
  EXPECT_EQ(report.path, planned_path(one, n, 4, r.options, r.memory_limit));
  EXPECT_EQ(report.runs, 13u) << "runs of at most half the limit: 16384 pairs";
  const Sorted want = stable_sorted(keys);
  EXPECT_EQ(read_raw<std::uint32_t>(d / "ko"), want.keys);
  EXPECT_EQ(read_raw<std::uint32_t>(d / "vo"), want.values);
  EXPECT_TRUE(temporaries.entries().empty()) << "run files left behind";
  EXPECT_EQ(d.entries(), names({"k", "ko", "v", "vo"}));
}

// A device that is not a GPU keeps its buffers in host memory, which the limit would not bound:
// under a limit the data are read whole (below it) or sorted externally (above it).
TEST(SortFile, UnderAMemoryLimitADeviceThatIsNoGpuReadsWhole) {
  Context& ctx = test_context();
  if (ctx.device().is_gpu) GTEST_SKIP() << "a GPU streams what fits it (the test below)";
  Context* one[] = {&ctx};
  Dir d;
  const std::size_t n = 4096;
  std::vector<std::uint32_t> keys = duplicated_keys(n);
  write_raw(d / "k", keys);
  SortFileRequest r{.keys = d / "k", .output = d / "o", .type = key_type::u32, .contexts = one};
  r.memory_limit = 64 << 20;
  const SortFileReport report = sort_file(r);
  EXPECT_EQ(report.path, file_sort_path::in_memory);
  EXPECT_EQ(report.path, planned_path(one, n, 0, {}, r.memory_limit));
  std::stable_sort(keys.begin(), keys.end());
  EXPECT_EQ(read_raw<std::uint32_t>(d / "o"), keys);
}

TEST(SortFile, MemoryLimitThatHoldsTheStagingStreams) {
  Context& ctx = test_context();
  if (!ctx.device().is_gpu) GTEST_SKIP() << "a file streamed under a limit needs a GPU";
  Context* one[] = {&ctx};
  Dir d;
  const std::size_t n = std::size_t(8) << 20;  // 32 MiB of keys over a 20 MiB limit: one copy thread's staging
  std::vector<std::uint32_t> keys = duplicated_keys(n);
  write_raw(d / "k", keys);
  SortFileRequest r{.keys = d / "k", .output = d / "o", .type = key_type::u32, .contexts = one};
  r.memory_limit = 20 << 20;
  const SortFileReport report = sort_file(r);
  EXPECT_EQ(report.path, file_sort_path::streamed);
  EXPECT_EQ(report.path, planned_path(one, n, 0, {}, r.memory_limit));
  EXPECT_EQ(report.copy_threads, 1u);
  std::stable_sort(keys.begin(), keys.end());
  EXPECT_EQ(read_raw<std::uint32_t>(d / "o"), keys);
}

TEST(SortFile, MissingInputLeavesNothing) {
  Dir d;
  write_bytes(d / "o", "old", 3);
  Context* one[] = {&test_context()};
  for (std::uint64_t limit : {std::uint64_t(0), std::uint64_t(64) << 10}) {
    SortFileRequest r{.keys = d / "missing", .output = d / "o", .type = key_type::u32, .contexts = one};
    r.memory_limit = limit;
    EXPECT_THROW(sort_file(r), Error);
    EXPECT_EQ(read_all(d / "o"), "old");
    EXPECT_EQ(d.entries(), names({"o"}));
  }
}

TEST(SortFile, OutputInAMissingDirectoryLeavesNothing) {
  Dir d;
  write_raw(d / "k", duplicated_keys(1000));
  Context* one[] = {&test_context()};
  SortFileRequest r{.keys = d / "k", .output = d / "no-such-directory/o", .type = key_type::u32, .contexts = one};
  try {
    sort_file(r);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), errc::io_error) << e.what();
  }
  EXPECT_EQ(d.entries(), names({"k"}));
}

TEST(SortFile, ReadOnlyOutputDirectoryLeavesNothing) {
  if (::geteuid() == 0) GTEST_SKIP() << "root writes into a read-only directory";
  Dir d;
  write_raw(d / "k", duplicated_keys(1000));
  fs::create_directory(d / "ro");
  fs::permissions(d / "ro", fs::perms::owner_read | fs::perms::owner_exec);
  Context* one[] = {&test_context()};
  SortFileRequest r{.keys = d / "k", .output = d / "ro/o", .type = key_type::u32, .contexts = one};
  EXPECT_THROW(sort_file(r), Error);
  fs::permissions(d / "ro", fs::perms::owner_all);
  EXPECT_TRUE(fs::is_empty(d.path() / "ro"));
}

// Errors found once the outputs are open: their temporary files go, the targets stay as they were.
TEST(SortFile, ErrorsAfterTheOutputsOpenedLeaveNothing) {
  Dir d, temporaries;
  const std::size_t n = 100000;
  write_raw(d / "k", duplicated_keys(n));
  write_bytes(d / "o", "old", 3);
  Context* one[] = {&test_context()};
  SortFileRequest bad_option{.keys = d / "k", .output = d / "o", .type = key_type::u32, .contexts = one};
  bad_option.options.algorithm = "no-such-algorithm";
  EXPECT_THROW(sort_file(bad_option), Error);
  EXPECT_EQ(d.entries(), names({"k", "o"}));
  EXPECT_EQ(read_all(d / "o"), "old");

  // External sorts split at ranks of the natural order: a comparator is refused before any run.
  SortFileRequest comparator{.keys = d / "k", .output = d / "o", .type = key_type::u32, .contexts = one};
  comparator.options.comparator = "return a > b;";
  comparator.memory_limit = 64 << 10;
  comparator.temporary_directory = temporaries.path().string();
  try {
    sort_file(comparator);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), errc::unsupported) << e.what();
  }
  EXPECT_EQ(d.entries(), names({"k", "o"}));
  EXPECT_TRUE(temporaries.entries().empty());
}

TEST(SortFile, RequestChecked) {
  Dir d;
  write_raw(d / "k", duplicated_keys(10));
  Context* one[] = {&test_context()};
  EXPECT_THROW(sort_file({.keys = d / "k", .output = d / "o", .type = key_type::u32}), Error) << "no context";
  EXPECT_THROW(sort_file({.keys = d / "k", .output = d / "o", .contexts = one}), Error) << "raw keys without a type";
  const SortFileRequest no_values_output{
      .keys = d / "k", .output = d / "o", .values = d / "k", .type = key_type::u32, .contexts = one};
  EXPECT_THROW(sort_file(no_values_output), Error) << "values without values_output";
  EXPECT_EQ(d.entries(), names({"k"}));
}

// The streamed path's sort takes the plan it is given as it is (planned once, by the file sort).
TEST(SortFile, StreamedSortTakesItsPlanAsItIs) {
  rt::Device& device = test_context().runtime_device();
  std::vector<std::uint32_t> keys = duplicated_keys(5000), out(keys.size());
  SortOptions merge;
  merge.algorithm = "merge";
  const algo::Plan plan = algo::make_plan({.type = key_type::u32, .n = keys.size(), .options = merge}, device);
  StreamedArrays arrays;
  arrays.read_keys = [&](std::uint64_t at, void* into, std::size_t bytes) {
    std::memcpy(into, reinterpret_cast<const char*>(keys.data()) + at, bytes);
  };
  arrays.write_keys = [&](std::uint64_t at, const void* from, std::size_t bytes) {
    std::memcpy(reinterpret_cast<char*>(out.data()) + at, from, bytes);
  };
  EXPECT_EQ(detail::sort_streamed_with(device, plan, arrays).algorithm, "merge");
  std::stable_sort(keys.begin(), keys.end());
  EXPECT_EQ(out, keys);
  arrays.value_bytes = 4;  // not the plan's
  arrays.read_values = arrays.read_keys;
  arrays.write_values = arrays.write_keys;
  EXPECT_THROW(detail::sort_streamed_with(device, plan, arrays), Error);
}

}  // namespace
}  // namespace gpusort::test
