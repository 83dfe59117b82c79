// The on-disk program cache: a second process compiles nothing; build errors carry the log; the
// build flow and memo the backends share; a damaged, foreign or odd entry costs a compile and nothing
// else; an untrusted directory is not used; the size limit evicts the least recently used entries;
// info and clear.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <future>
#include <memory>
#include <optional>
#include <set>
#include <thread>

#include "runtime/device.hpp"
#include "runtime/kernel_sources.hpp"
#include "runtime/program_build.hpp"
#include "runtime/program_cache.hpp"
#include "support/test_support.hpp"

namespace gpusort::test {
namespace {

// Runs in a child process (see TwoProcesses): builds one program, writes the counters to a file.
TEST(ProgramCacheChild, BuildOneProgram) {
  const char* out = std::getenv("GPUSORT_CACHE_CHILD_OUT");
  if (!out) GTEST_SKIP() << "only runs as the child of ProgramCache.SecondProcessCompilesNothing";
  test_context().runtime_device().program("bitonic.cl", {"KEY_BITS=16", "KEY_KIND=1", "VALUE_BYTES=2", "GROUP_SIZE=8"});
  auto stats = rt::program_cache_stats();
  std::ofstream(out) << stats.compiled << " " << stats.loaded << "\n";
}

// A child runs its one test whole: a parent run as a GoogleTest shard (scripts/device-check) would
// pass its shard on, and the child's test would fall in another shard and not run.
constexpr const char* kChildUnsharded = "env -u GTEST_TOTAL_SHARDS -u GTEST_SHARD_INDEX ";

std::pair<int, int> run_child(const std::filesystem::path& cache, const std::filesystem::path& out) {
  std::string exe = std::filesystem::read_symlink("/proc/self/exe").string();
  std::string cmd = std::string(kChildUnsharded) + "GPUSORT_CACHE_DIR='" + cache.string() + "' GPUSORT_CACHE_CHILD_OUT='" +
                    out.string() + "' '" + exe + "' --gtest_filter=ProgramCacheChild.* > /dev/null 2>&1";
  int rc = std::system(cmd.c_str());
  EXPECT_EQ(rc, 0) << cmd;
  int compiled = -1, loaded = -1;
  std::ifstream(out) >> compiled >> loaded;
  return {compiled, loaded};
}

TEST(ProgramCache, SecondProcessCompilesNothing) {
  auto dir = std::filesystem::temp_directory_path() / ("gpusort-cache-test-" + std::to_string(fresh_seed()));
  std::filesystem::create_directories(dir);
  auto [c1, l1] = run_child(dir / "cache", dir / "first.txt");
  EXPECT_EQ(c1, 1);
  EXPECT_EQ(l1, 0);
  auto [c2, l2] = run_child(dir / "cache", dir / "second.txt");
  EXPECT_EQ(c2, 0) << "the second process compiled again";
  EXPECT_EQ(l2, 1);
  // The cache holds complete entries only: no temporary files left behind.
  for (auto& e : std::filesystem::directory_iterator(dir / "cache"))
    EXPECT_TRUE(e.path().string().ends_with(".v1.bin")) << e.path();
  std::filesystem::remove_all(dir);
}

TEST(ProgramCache, KeyDependsOnEveryPart) {
  auto base = rt::program_cache_key("opencl", "dev", "drv", "src", "-DA");
  EXPECT_NE(base, rt::program_cache_key("cuda", "dev", "drv", "src", "-DA"));
  EXPECT_NE(base, rt::program_cache_key("opencl", "dev2", "drv", "src", "-DA"));
  EXPECT_NE(base, rt::program_cache_key("opencl", "dev", "drv2", "src", "-DA"));
  EXPECT_NE(base, rt::program_cache_key("opencl", "dev", "drv", "src2", "-DA"));
  EXPECT_NE(base, rt::program_cache_key("opencl", "dev", "drv", "src", "-DB"));
  EXPECT_EQ(base, rt::program_cache_key("opencl", "dev", "drv", "src", "-DA"));
}

TEST(ProgramBuild, ErrorCarriesTheCompilerLog) {
  try {
    // bitonic.cl refuses to compile without GROUP_SIZE (#error)
    test_context().runtime_device().program("bitonic.cl", {"KEY_BITS=32", "KEY_KIND=0", "VALUE_BYTES=0"});
    FAIL() << "built without GROUP_SIZE";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), errc::build_error);
    EXPECT_NE(std::string(e.what()).find("GROUP_SIZE"), std::string::npos) << e.what();
  }
}

TEST(ProgramBuild, UnknownKernelFileIsAnError) {
  EXPECT_THROW(test_context().runtime_device().program("no_such_file.cl", {}), Error);
}


// ---- cache entries: anything that fails the checks is ignored, then replaced ----

using Bytes = std::vector<unsigned char>;
namespace fs = std::filesystem;

// Sets (or, with nullptr, unsets) an environment variable for one scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value)
      ::setenv(name, value, 1);
    else
      ::unsetenv(name);
  }
  ~ScopedEnv() {
    if (old_)
      ::setenv(name_.c_str(), old_->c_str(), 1);
    else
      ::unsetenv(name_.c_str());
  }

 private:
  std::string name_;
  std::optional<std::string> old_;
};

// A fresh cache directory (not yet created) that GPUSORT_CACHE_DIR points at for one test.
struct TempCache {
  fs::path root = fs::temp_directory_path() / ("gpusort-cache-test-" + std::to_string(fresh_seed()));
  fs::path dir = root / "cache";
  ScopedEnv env{"GPUSORT_CACHE_DIR", dir.c_str()};
  TempCache() { fs::create_directories(root); }
  ~TempCache() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
};

std::string test_key(const std::string& name) { return rt::program_cache_key("opencl", "test device", "driver", name, ""); }

// The build flow both backends share (runtime/program_build.hpp), with stand-ins for a backend's
// steps: the first build compiles and stores its binary, the next loads that binary; a binary the
// backend's load refuses (stale, foreign) is compiled again; other options are another entry.
TEST(ProgramBuild, SharedFlowCompilesOnceThenLoads) {
  TempCache cache;
  ScopedEnv cached("GPUSORT_NO_CACHE", nullptr);
  const rt::BuildIdentity id{"opencl", "test device", "driver"};
  const std::string source = rt::assemble_kernel_source("bitonic.cl");
  const Bytes binary(source.begin(), source.begin() + 64);
  int compiles = 0;
  Bytes loaded;
  const auto compile = [&](const std::string& text) {
    ++compiles;
    EXPECT_EQ(text, source);
    return rt::CompiledProgram<int>{7, Bytes(text.begin(), text.begin() + 64)};
  };
  const auto load = [&](const Bytes& b) {
    loaded = b;
    return 9;
  };
  const auto refuse = [](const Bytes&) { return 0; };
  const rt::ProgramCacheStats before = rt::program_cache_stats();
  EXPECT_EQ(rt::load_or_compile<int>(id, "bitonic.cl", "-DX=1", load, compile), 7);
  EXPECT_EQ(rt::load_or_compile<int>(id, "bitonic.cl", "-DX=1", load, compile), 9);
  EXPECT_EQ(loaded, binary);
  EXPECT_EQ(rt::load_or_compile<int>(id, "bitonic.cl", "-DX=1", refuse, compile), 7);
  EXPECT_EQ(rt::load_or_compile<int>(id, "bitonic.cl", "-DX=2", load, compile), 7);
  EXPECT_EQ(compiles, 3);
  const rt::ProgramCacheStats after = rt::program_cache_stats();
  EXPECT_EQ(after.compiled - before.compiled, 3u);
  EXPECT_EQ(after.loaded - before.loaded, 1u);
}

// A device's memo of built programs: each (file, defines) built once; a build that throws keeps
// nothing, so the next lookup builds again.
TEST(ProgramBuild, MemoBuildsEachProgramOnce) {
  rt::ProgramMemo<int> memo;
  int builds = 0;
  const auto build = [&] { return std::make_unique<int>(++builds); };
  int& first = memo.get("f.cl", {"A=1"}, build);
  EXPECT_EQ(&memo.get("f.cl", {"A=1"}, build), &first);
  EXPECT_EQ(memo.get("f.cl", {"A=2"}, build), 2);
  EXPECT_EQ(memo.get("g.cl", {"A=1"}, build), 3);
  const auto fails = []() -> std::unique_ptr<int> { throw Error(errc::build_error, "a failed build"); };
  EXPECT_THROW(memo.get("h.cl", {}, fails), Error);
  EXPECT_EQ(memo.get("h.cl", {}, build), 4);
  EXPECT_EQ(builds, 4);
}

Bytes test_payload(std::size_t size, unsigned seed) {
  Bytes b(size);
  for (std::size_t i = 0; i < size; ++i) b[i] = static_cast<unsigned char>(i * 31 + seed);
  return b;
}

// program_cache_load on its own thread, given 10 s: nullopt means it hung (the thread is then left
// behind; the process exits anyway).
std::optional<std::optional<Bytes>> load_in_time(const std::string& key) {
  auto done = std::make_shared<std::promise<std::optional<Bytes>>>();
  auto result = done->get_future();
  std::thread([done, key] { done->set_value(rt::program_cache_load(key)); }).detach();
  if (result.wait_for(std::chrono::seconds(10)) != std::future_status::ready) return std::nullopt;
  return result.get();
}

// The entry must be refused, and a store must then put a good entry in its place.
void expect_refused_then_replaced(const std::string& key, const Bytes& payload) {
  auto loaded = load_in_time(key);
  ASSERT_TRUE(loaded.has_value()) << "loading " << rt::program_cache_entry_path(key) << " hung";
  EXPECT_FALSE(loaded->has_value()) << "a bad entry was used";
  rt::program_cache_store(key, payload);
  auto reloaded = load_in_time(key);
  ASSERT_TRUE(reloaded.has_value());
  ASSERT_TRUE(reloaded->has_value()) << "the store did not replace the bad entry";
  EXPECT_EQ(**reloaded, payload);
  struct stat st {};
  ASSERT_EQ(::lstat(rt::program_cache_entry_path(key).c_str(), &st), 0);
  EXPECT_TRUE(S_ISREG(st.st_mode));
}

std::set<std::string> entry_names(const fs::path& dir) {
  std::set<std::string> names;
  for (auto& e : fs::directory_iterator(dir)) names.insert(e.path().filename().string());
  return names;
}

TEST(ProgramCacheEntry, RoundTripsThroughAPrivateDirectory) {
  TempCache cache;
  const auto key = test_key("round trip");
  const Bytes payload = test_payload(1000, 1);
  rt::program_cache_store(key, payload);
  auto loaded = rt::program_cache_load(key);
  ASSERT_TRUE(loaded.has_value());
  EXPECT_EQ(*loaded, payload);
  EXPECT_EQ(fs::file_size(rt::program_cache_entry_path(key)), 48 + payload.size()) << "header + payload";
  EXPECT_EQ(fs::status(cache.dir).permissions() & fs::perms::all, fs::perms::owner_all) << "the directory is 0700";
  EXPECT_EQ(entry_names(cache.dir), std::set<std::string>{key + ".v1.bin"}) << "no temporary file left";
}

TEST(ProgramCacheEntry, TruncatedEntryIsIgnored) {
  TempCache cache;
  const auto key = test_key("truncated");
  const Bytes payload = test_payload(1000, 2);
  for (std::uintmax_t size : {std::uintmax_t(0), std::uintmax_t(16), std::uintmax_t(48), std::uintmax_t(48 + 999)}) {
    rt::program_cache_store(key, payload);
    fs::resize_file(rt::program_cache_entry_path(key), size);
    SCOPED_TRACE("truncated to " + std::to_string(size) + " bytes");
    expect_refused_then_replaced(key, payload);
  }
}

TEST(ProgramCacheEntry, CorruptedByteIsIgnored) {
  TempCache cache;
  const auto key = test_key("corrupted");
  const Bytes payload = test_payload(1000, 3);
  // a payload byte (caught by the checksum), the key in the header, the magic
  for (long offset : {48L + 500, 20L, 0L}) {
    rt::program_cache_store(key, payload);
    {
      std::fstream f(rt::program_cache_entry_path(key), std::ios::in | std::ios::out | std::ios::binary);
      f.seekg(offset);
      char c = 0;
      f.get(c);
      f.seekp(offset);
      f.put(static_cast<char>(c ^ 0x40));
    }
    SCOPED_TRACE("byte " + std::to_string(offset) + " flipped");
    expect_refused_then_replaced(key, payload);
  }
}

TEST(ProgramCacheEntry, EntryCopiedFromAnotherKeyIsIgnored) {
  TempCache cache;
  const auto key_a = test_key("program A"), key_b = test_key("program B");
  const Bytes payload_a = test_payload(1000, 4), payload_b = test_payload(1000, 5);
  rt::program_cache_store(key_a, payload_a);
  rt::program_cache_store(key_b, payload_b);
  fs::copy_file(rt::program_cache_entry_path(key_a), rt::program_cache_entry_path(key_b),
                fs::copy_options::overwrite_existing);
  expect_refused_then_replaced(key_b, payload_b);
  EXPECT_EQ(rt::program_cache_load(key_a), payload_a);
}

TEST(ProgramCacheEntry, DirectoryInTheSlot) {
  TempCache cache;
  const auto key = test_key("directory");
  const Bytes payload = test_payload(1000, 6);
  fs::create_directories(cache.dir);
  fs::create_directory(rt::program_cache_entry_path(key));
  expect_refused_then_replaced(key, payload);  // an empty directory is removed

  fs::remove(rt::program_cache_entry_path(key));
  fs::create_directories(rt::program_cache_entry_path(key) / "something");
  auto loaded = load_in_time(key);
  ASSERT_TRUE(loaded.has_value()) << "loading hung";
  EXPECT_FALSE(loaded->has_value());
  rt::program_cache_store(key, payload);  // a non-empty one stays; the program is just not cached
  EXPECT_TRUE(fs::is_directory(rt::program_cache_entry_path(key) / "something"));
  EXPECT_EQ(entry_names(cache.dir), std::set<std::string>{key + ".v1.bin"}) << "no temporary file left";
}

TEST(ProgramCacheEntry, FifoInTheSlotDoesNotHang) {
  TempCache cache;
  const auto key = test_key("fifo");
  fs::create_directories(cache.dir);
  ASSERT_EQ(::mkfifo(rt::program_cache_entry_path(key).c_str(), 0600), 0);
  expect_refused_then_replaced(key, test_payload(1000, 7));
}

TEST(ProgramCacheEntry, SymlinkToDevZeroIsNotFollowed) {
  TempCache cache;
  const auto key = test_key("symlink");
  fs::create_directories(cache.dir);
  fs::create_symlink("/dev/zero", rt::program_cache_entry_path(key));
  expect_refused_then_replaced(key, test_payload(1000, 8));
}

TEST(ProgramCacheEntry, OversizedFileIsNotRead) {
  TempCache cache;
  const auto key = test_key("oversized");
  const Bytes payload = test_payload(1000, 9);
  rt::program_cache_store(key, payload);
  fs::resize_file(rt::program_cache_entry_path(key), std::uintmax_t(300) << 20);  // sparse: costs no disk
  expect_refused_then_replaced(key, payload);
}

// ---- the directory: per user, private, or not used at all ----

TEST(ProgramCacheDirectory, FallbackIsPerUser) {
  ScopedEnv a("GPUSORT_CACHE_DIR", nullptr), b("XDG_CACHE_HOME", nullptr), c("HOME", nullptr);
  EXPECT_EQ(rt::program_cache_dir(), fs::temp_directory_path() / ("gpusort-cache-" + std::to_string(::geteuid())));
}

// Plants a valid entry, then lets `spoil` make the directory untrusted: nothing may be read from
// or written to it.
void expect_directory_not_used(TempCache& cache, void (*spoil)(const fs::path&)) {
  const auto key = test_key("planted"), other = test_key("other");
  const Bytes payload = test_payload(1000, 10);
  rt::program_cache_store(key, payload);
  ASSERT_TRUE(rt::program_cache_load(key).has_value());
  spoil(cache.dir);
  auto info = rt::program_cache_info();
  EXPECT_FALSE(info.usable);
  EXPECT_FALSE(info.problem.empty());
  EXPECT_EQ(info.entries, 1u) << "info still shows what is there";
  EXPECT_FALSE(rt::program_cache_load(key).has_value()) << "an entry in an untrusted directory was used";
  rt::program_cache_store(other, payload);
  EXPECT_FALSE(fs::exists(rt::program_cache_entry_path(other))) << "stored into an untrusted directory";
  auto cleared = rt::program_cache_clear();
  EXPECT_FALSE(cleared.usable);
  EXPECT_EQ(cleared.removed, 0u);
  EXPECT_TRUE(fs::exists(rt::program_cache_entry_path(key))) << "clear must not touch an untrusted directory";
}

TEST(ProgramCacheDirectory, WritableByOthersIsNotUsed) {
  TempCache cache;
  expect_directory_not_used(cache, [](const fs::path& dir) { fs::permissions(dir, fs::perms::all); });
}

TEST(ProgramCacheDirectory, OwnedByAnotherUserIsNotUsed) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to give a directory to another user";
  TempCache cache;
  expect_directory_not_used(cache, [](const fs::path& dir) { ASSERT_EQ(::chown(dir.c_str(), 12345, 12345), 0); });
}

// Runs in a child process (see WarnsOncePerProcess): uses an untrusted cache several times.
TEST(ProgramCacheChild, UseUntrustedCache) {
  if (!std::getenv("GPUSORT_CACHE_WARN_CHILD")) GTEST_SKIP() << "only runs as the child of WarnsOncePerProcess";
  for (int i = 0; i < 3; ++i) {
    rt::program_cache_store(test_key("warn"), test_payload(100, 11));
    rt::program_cache_load(test_key("warn"));
  }
}

TEST(ProgramCacheDirectory, WarnsOncePerProcess) {
  TempCache cache;
  fs::create_directories(cache.dir);
  fs::permissions(cache.dir, fs::perms::all);
  const fs::path err = cache.root / "stderr.txt";
  const std::string exe = fs::read_symlink("/proc/self/exe").string();
  const std::string cmd = std::string(kChildUnsharded) + "GPUSORT_CACHE_WARN_CHILD=1 '" + exe +
                          "' --gtest_filter=ProgramCacheChild.UseUntrustedCache > /dev/null 2> '" + err.string() + "'";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::ifstream in(err);
  std::string line;
  int warnings = 0;
  while (std::getline(in, line))
    if (line.rfind("gpusort: warning: ", 0) == 0) {
      ++warnings;
      EXPECT_NE(line.find(cache.dir.string()), std::string::npos) << line;
      EXPECT_NE(line.find("writable by group or others"), std::string::npos) << line;
    }
  EXPECT_EQ(warnings, 1);
}

// ---- the size limit ----

TEST(ProgramCacheLimit, ReadFromTheEnvironment) {
  const std::uint64_t gib = std::uint64_t(1) << 30;
  auto limit_for = [](const char* value) {
    ScopedEnv env("GPUSORT_CACHE_MAX_BYTES", value);
    return rt::program_cache_info().limit_bytes;
  };
  EXPECT_EQ(limit_for(nullptr), gib);
  EXPECT_EQ(limit_for("5000"), 5000u);
  EXPECT_EQ(limit_for("64M"), 64u << 20);
  EXPECT_EQ(limit_for("2G"), 2 * gib);
  EXPECT_EQ(limit_for("lots"), gib) << "an unreadable value keeps the default";
  EXPECT_EQ(limit_for("-1"), gib);
}

void set_age(const fs::path& file, int seconds_ago) {
  struct timespec times[2];
  ::clock_gettime(CLOCK_REALTIME, &times[0]);
  times[0].tv_sec -= seconds_ago;
  times[1] = times[0];
  ASSERT_EQ(::utimensat(AT_FDCWD, file.c_str(), times, 0), 0);
}

TEST(ProgramCacheLimit, EvictsTheLeastRecentlyUsed) {
  TempCache cache;
  const std::size_t entry_bytes = 48 + 1000;
  ScopedEnv limit("GPUSORT_CACHE_MAX_BYTES", std::to_string(3 * entry_bytes).c_str());
  const std::string keys[4] = {test_key("e0"), test_key("e1"), test_key("e2"), test_key("e3")};
  for (int i = 0; i < 3; ++i) {
    rt::program_cache_store(keys[i], test_payload(1000, 20 + i));
    set_age(rt::program_cache_entry_path(keys[i]), 400 - 100 * i);  // e0 oldest
  }
  ASSERT_TRUE(rt::program_cache_load(keys[0]).has_value());  // e0 is used: now e1 is the oldest
  rt::program_cache_store(keys[3], test_payload(1000, 23));
  EXPECT_TRUE(fs::exists(rt::program_cache_entry_path(keys[0])));
  EXPECT_FALSE(fs::exists(rt::program_cache_entry_path(keys[1]))) << "the least recently used entry stays";
  EXPECT_TRUE(fs::exists(rt::program_cache_entry_path(keys[2])));
  EXPECT_TRUE(fs::exists(rt::program_cache_entry_path(keys[3])));
  auto info = rt::program_cache_info();
  EXPECT_EQ(info.entries, 3u);
  EXPECT_EQ(info.bytes, 3 * entry_bytes);
}

// ---- info and clear ----

TEST(ProgramCacheInfo, CountsEntriesAndClearRemovesOnlyTheCachesFiles) {
  TempCache cache;
  auto before = rt::program_cache_info();
  EXPECT_EQ(before.dir, cache.dir);
  EXPECT_TRUE(before.usable);
  EXPECT_FALSE(before.exists);
  EXPECT_EQ(before.entries, 0u);

  rt::program_cache_store(test_key("i0"), test_payload(1000, 30));
  rt::program_cache_store(test_key("i1"), test_payload(3000, 31));
  std::ofstream(cache.dir / (test_key("i2") + ".tmp.1.2")) << "left by a crashed writer";
  std::ofstream(cache.dir / "notes.txt") << "not the cache's";
  std::ofstream(cache.dir / (test_key("i3") + ".bin")) << "an entry from before the header";
  std::ofstream(cache.dir / "opencl-xyz.bin") << "not a name the cache makes";
  std::ofstream(cache.dir / (test_key("i4") + ".vx.bin")) << "nor this";
  auto info = rt::program_cache_info();
  EXPECT_TRUE(info.usable);
  EXPECT_TRUE(info.exists);
  const std::uint64_t old_entry_bytes = fs::file_size(cache.dir / (test_key("i3") + ".bin"));
  EXPECT_EQ(info.entries, 3u);
  EXPECT_EQ(info.bytes, 48 + 1000 + 48 + 3000 + old_entry_bytes);

  auto cleared = rt::program_cache_clear();
  EXPECT_TRUE(cleared.usable);
  EXPECT_EQ(cleared.removed, 4u) << "three entries and one temporary file";
  EXPECT_EQ(entry_names(cache.dir),
            (std::set<std::string>{"notes.txt", "opencl-xyz.bin", test_key("i4") + ".vx.bin"}));
  EXPECT_EQ(rt::program_cache_info().entries, 0u);
}

// ---- end to end: a sort after its cached program was swapped or damaged ----

std::set<std::string> new_names(const fs::path& dir, const std::set<std::string>& before) {
  std::set<std::string> out;
  for (const auto& n : entry_names(dir))
    if (!before.count(n)) out.insert(n);
  return out;
}

// Sorts u32 keys (high bit set in about half: an i32 program would order them wrongly) in a fresh
// context, so the program comes from the disk cache or the compiler, not from memory.
rt::ProgramCacheStats sort_u32_in_fresh_context() {
  const auto before = rt::program_cache_stats();
  Context fresh(test_context().device().id);
  const std::uint64_t seed = fresh_seed();
  auto input = make_keys<std::uint32_t>(1500, dist::uniform, seed);
  auto output = input;
  sort(fresh, std::span<std::uint32_t>(output), SortOptions{.algorithm = "bitonic"});
  EXPECT_TRUE(keys_sorted_like_reference(input, output, order::ascending, false)) << "seed " << seed;
  const auto after = rt::program_cache_stats();
  return {after.compiled - before.compiled, after.loaded - before.loaded};
}

TEST(ProgramCacheDamage, SortIsRightAfterTheEntryIsSwappedOrTruncated) {
  TempCache cache;
  // The u32 and i32 bitonic programs, one entry each.
  EXPECT_EQ(sort_u32_in_fresh_context().compiled, 1u);
  const auto u32_files = entry_names(cache.dir);
  ASSERT_EQ(u32_files.size(), 1u);
  const fs::path u32_entry = cache.dir / *u32_files.begin();
  {
    Context fresh(test_context().device().id);
    std::vector<std::int32_t> keys = {3, -1, 2};
    sort(fresh, std::span<std::int32_t>(keys), SortOptions{.algorithm = "bitonic"});
  }
  const auto i32_files = new_names(cache.dir, u32_files);
  ASSERT_EQ(i32_files.size(), 1u);
  const fs::path i32_entry = cache.dir / *i32_files.begin();

  // H3: the i32 program copied over the u32 one is refused (its header names the i32 key).
  fs::copy_file(i32_entry, u32_entry, fs::copy_options::overwrite_existing);
  auto swapped = sort_u32_in_fresh_context();
  EXPECT_EQ(swapped.compiled, 1u);
  EXPECT_EQ(swapped.loaded, 0u);
  const std::string u32_name = u32_entry.filename().string(), u32_key = u32_name.substr(0, u32_name.find('.'));
  EXPECT_TRUE(rt::program_cache_load(u32_key).has_value()) << "the entry was not replaced by a valid one";

  // H2: a truncated entry is refused and rebuilt.
  fs::resize_file(u32_entry, 16);
  EXPECT_EQ(sort_u32_in_fresh_context().compiled, 1u);

  auto healed = sort_u32_in_fresh_context();
  EXPECT_EQ(healed.compiled, 0u);
  EXPECT_EQ(healed.loaded, 1u);
}

}  // namespace
}  // namespace gpusort::test
