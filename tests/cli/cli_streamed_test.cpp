// gpusort sort's two ways through the device: regular files that fit are streamed (read into the
// pinned staging slots, written from them: streamed_file_sort.hpp); standard input, standard
// output and several devices read the input whole. Both must give the host's stable sort, and
// --verbose says which ran.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include <sys/stat.h>
#include <unistd.h>

#include "cli_test_util.hpp"
#include "gpusort/context.hpp"
#include "gpusort/device.hpp"

namespace {

using namespace cli_test;

constexpr const char* kStreamed = "streamed through the device";

std::vector<std::uint32_t> random_u32(std::size_t n, std::uint32_t modulus) {
  std::mt19937_64 rng(std::random_device{}());
  std::vector<std::uint32_t> v(n);
  for (auto& x : v) x = static_cast<std::uint32_t>(rng() % modulus);
  return v;
}

// Keys with their input positions, as a stable sort must order them.
struct StableReference {
  std::vector<std::uint32_t> keys, positions;
  StableReference(const std::vector<std::uint32_t>& input, bool descending) {
    positions.resize(input.size());
    std::iota(positions.begin(), positions.end(), 0u);
    std::stable_sort(positions.begin(), positions.end(), [&](std::uint32_t a, std::uint32_t b) {
      return descending ? input[a] > input[b] : input[a] < input[b];
    });
    for (std::uint32_t p : positions) keys.push_back(input[p]);
  }
};

// Over several pinned slots (8 MiB each) so several threads read and write; few distinct keys so
// a wrong order of equal keys shows.
TEST(CliStreamed, FilePairsMatchStableSort) {
  TempDir d;
  const std::size_t n = (20u << 20) / 4 + 777;
  const auto keys = random_u32(n, 1000);
  std::vector<std::uint32_t> positions(n);
  std::iota(positions.begin(), positions.end(), 0u);
  write_vec(d / "k", keys);
  write_vec(d / "v", positions);
  const auto r = run_cli({"sort", (d / "k").string(), "-o", (d / "ko").string(), "-t", "u32", "--values",
                          (d / "v").string(), "--values-type", "u32", "--values-out", (d / "vo").string(), "--stable",
                          "--descending", "--threads", "4", "--verbose"});
  ASSERT_CLI_OK(r);
  EXPECT_NE(r.err.find(kStreamed), std::string::npos) << r.err;
  const StableReference ref(keys, true);
  EXPECT_EQ(read_vec<std::uint32_t>(d / "ko"), ref.keys);
  EXPECT_EQ(read_vec<std::uint32_t>(d / "vo"), ref.positions);
  EXPECT_EQ(d.entries(), (std::vector<std::string>{"k", "ko", "v", "vo"})) << "temporary files left behind";
}

// A raw input to a .npy output, and a .npy input (header of version 2) to a raw output.
TEST(CliStreamed, NpyHeadersWrittenAndSkipped) {
  TempDir d;
  const auto keys = random_u32(100000, 1u << 31);
  const StableReference ref(keys, false);
  write_vec(d / "k.u32", keys);
  auto r = run_cli({"sort", (d / "k.u32").string(), "-o", (d / "sorted.npy").string(), "-t", "u32", "--verbose"});
  ASSERT_CLI_OK(r);
  EXPECT_NE(r.err.find(kStreamed), std::string::npos) << r.err;
  const auto npy = read_bytes(d / "sorted.npy");
  ASSERT_GT(npy.size(), keys.size() * 4);
  const std::size_t header = npy.size() - keys.size() * 4;
  EXPECT_EQ(header % 64, 0u);
  const std::string header_text(npy.begin(), npy.begin() + header);
  EXPECT_EQ(header_text.rfind("\x93NUMPY", 0), 0u);
  EXPECT_NE(header_text.find("'<u4'"), std::string::npos) << header_text;
  EXPECT_NE(header_text.find("(100000,)"), std::string::npos) << header_text;
  EXPECT_EQ(read_vec<std::uint32_t>(d / "sorted.npy", header), ref.keys);

  const auto v2 = make_npy("<u4", "(" + std::to_string(keys.size()) + ",)", keys.data(), keys.size() * 4, 2);
  write_bytes(d / "v2.npy", v2.data(), v2.size());
  r = run_cli({"sort", (d / "v2.npy").string(), "-o", (d / "raw.out").string(), "--format", "npy", "--verbose"});
  ASSERT_CLI_OK(r);
  EXPECT_NE(r.err.find(kStreamed), std::string::npos) << r.err;
  // A raw name with a .npy input: the output keeps the input's format.
  const auto out = read_bytes(d / "raw.out");
  ASSERT_GT(out.size(), keys.size() * 4);
  EXPECT_EQ(std::string(out.begin(), out.begin() + 6), "\x93NUMPY");
  EXPECT_EQ(read_vec<std::uint32_t>(d / "raw.out", out.size() - keys.size() * 4), ref.keys);
}

// Standard output and standard input cannot be addressed by position: the input is read whole.
TEST(CliStreamed, StandardStreamsReadWhole) {
  TempDir d;
  const auto keys = random_u32(50000, 1u << 20);
  const StableReference ref(keys, false);
  write_vec(d / "k", keys);
  auto r = run_cli({"sort", (d / "k").string(), "-o", "-", "-t", "u32", "--verbose"});
  ASSERT_CLI_OK(r);
  EXPECT_EQ(r.err.find(kStreamed), std::string::npos) << r.err;
  ASSERT_EQ(r.out.size(), keys.size() * 4);
  std::vector<std::uint32_t> got(keys.size());
  std::memcpy(got.data(), r.out.data(), r.out.size());
  EXPECT_EQ(got, ref.keys);

  r = run_cli({"sort", "-", "-o", (d / "from-stdin").string(), "-t", "u32", "--verbose"},
              "exec <" + shell_quote((d / "k").string()) + ";");
  ASSERT_CLI_OK(r);
  EXPECT_EQ(r.err.find(kStreamed), std::string::npos) << r.err;
  EXPECT_EQ(read_vec<std::uint32_t>(d / "from-stdin"), ref.keys);
}

// Larger than --device-memory-limit: chunks and buckets through host memory.
TEST(CliStreamed, LargerThanTheDeviceBudgetReadWhole) {
  TempDir d;
  const auto keys = random_u32(300000, 1u << 31);
  const StableReference ref(keys, false);
  write_vec(d / "k", keys);
  const auto r = run_cli(
      {"sort", (d / "k").string(), "-o", (d / "o").string(), "-t", "u32", "--device-memory-limit", "1M", "--verbose"});
  ASSERT_CLI_OK(r);
  EXPECT_EQ(r.err.find(kStreamed), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("chunks"), std::string::npos) << r.err;
  EXPECT_EQ(read_vec<std::uint32_t>(d / "o"), ref.keys);
}

// Larger than --memory-limit: streamed on a GPU when the limit holds one copy thread's pinned
// staging (two 8 MiB slots, and 2 MiB for the inputs' first bytes), the copy threads cut to fit;
// on a device that is not a GPU (its buffers are host memory) or under a smaller limit, sorted
// externally through runs.
TEST(CliStreamed, MemoryLimitBoundsTheStaging) {
  TempDir d;
  const auto keys = random_u32((20u << 20) / 4 + 1, 1u << 31);
  const StableReference ref(keys, false);
  write_vec(d / "k", keys);
  const bool gpu = gpusort::Context().device().is_gpu;  // the device the command picks too
  auto r = run_cli({"sort", (d / "k").string(), "-o", (d / "o").string(), "-t", "u32", "-S", "19M", "--verbose"});
  ASSERT_CLI_OK(r);
  if (gpu) {
    EXPECT_NE(r.err.find(kStreamed), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("1 copy thread(s), 16 MiB of pinned staging"), std::string::npos) << r.err;
  } else {
    EXPECT_NE(r.err.find("external sort"), std::string::npos) << r.err;
  }
  EXPECT_EQ(read_vec<std::uint32_t>(d / "o"), ref.keys);
  r = run_cli({"sort", (d / "k").string(), "-o", (d / "o2").string(), "-t", "u32", "-S", "16M", "--verbose"});
  ASSERT_CLI_OK(r);
  EXPECT_NE(r.err.find("external sort"), std::string::npos) << r.err;
  EXPECT_EQ(read_vec<std::uint32_t>(d / "o2"), ref.keys);
}

// Files that are not what their size says (/proc: 0 bytes) and FIFOs are read whole; a FIFO
// output under --memory-limit is written as a stream and its reader gets everything.
TEST(CliStreamed, ProcFilesAndFifos) {
  TempDir d;
  auto r = run_cli({"sort", "/proc/self/mountinfo", "-o", (d / "o").string(), "-t", "u8", "--format", "raw", "-v"});
  ASSERT_CLI_OK(r);
  EXPECT_EQ(r.err.find(kStreamed), std::string::npos) << r.err;
  EXPECT_GT(fs::file_size(d / "o"), 0u);

  const auto keys = random_u32(300000, 1u << 31);
  const StableReference ref(keys, false);
  write_vec(d / "k", keys);
  const std::string fifo_in = (d / "in.fifo").string(), fifo_out = (d / "out.fifo").string();
  ASSERT_EQ(::mkfifo(fifo_in.c_str(), 0600), 0);
  ASSERT_EQ(::mkfifo(fifo_out.c_str(), 0600), 0);
  r = run_cli({"sort", fifo_in, "-o", fifo_out, "-t", "u32", "-S", "1M", "-v"},
              "(cat " + shell_quote((d / "k").string()) + " > " + shell_quote(fifo_in) + " &); (cat " +
                  shell_quote(fifo_out) + " > " + shell_quote((d / "got").string()) + " &);");
  ASSERT_CLI_OK(r);
  EXPECT_EQ(r.err.find(kStreamed), std::string::npos) << r.err;
  for (int i = 0; i < 100 && fs::file_size(d / "got") < keys.size() * 4; ++i) ::usleep(20000);  // the reader finishing
  EXPECT_EQ(read_vec<std::uint32_t>(d / "got"), ref.keys);
}

// Errors of the streamed path are those of the whole-file path: a size that is not a multiple of
// the key, text, values of another length; nothing is written.
TEST(CliStreamed, InputErrorsLeaveNothing) {
  TempDir d;
  write_bytes(d / "odd", "\x01\x02\x03\x04\x05", 5);
  auto r = run_cli({"sort", (d / "odd").string(), "-o", (d / "o").string(), "-t", "u32"});
  expect_clean_error(r, 2);
  EXPECT_NE(r.err.find("not a multiple of 4"), std::string::npos) << r.err;
  write_bytes(d / "text", "12 7 3\n", 7);
  r = run_cli({"sort", (d / "text").string(), "-o", (d / "o").string(), "-t", "u32"});
  expect_clean_error(r, 2);
  EXPECT_NE(r.err.find("looks like numbers written as text"), std::string::npos) << r.err;
  write_vec(d / "k", random_u32(10, 100));
  write_vec(d / "v", random_u32(11, 100));
  r = run_cli({"sort", (d / "k").string(), "-o", (d / "o").string(), "-t", "u32", "--values", (d / "v").string(),
               "--values-type", "u32", "--values-out", (d / "vo").string()});
  expect_clean_error(r, 2);
  EXPECT_NE(r.err.find("holds 11 elements"), std::string::npos) << r.err;
  EXPECT_EQ(d.entries(), (std::vector<std::string>{"k", "odd", "text", "v"}));
}

}  // namespace
