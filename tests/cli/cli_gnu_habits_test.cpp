// gpusort sort's habits from GNU sort: -r, the keys on standard output without -o (refused on a
// terminal), several inputs concatenated, --indices-out (argsort), and --help in groups.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "cli_test_util.hpp"
#include "gpusort/context.hpp"

namespace {

using namespace cli_test;

// The command run with standard output on a new pseudo-terminal; stderr captured. Returns the exit
// status and stderr; what reached the terminal goes to *tty_bytes.
RunResult run_cli_on_terminal(const std::vector<std::string>& args, std::size_t* tty_bytes) {
  RunResult r;
  const int master = ::posix_openpt(O_RDWR | O_NOCTTY);
  if (master < 0 || ::grantpt(master) != 0 || ::unlockpt(master) != 0) return r;
  const std::string slave_name = ::ptsname(master);
  TempDir capture;
  const std::string err_path = (capture / "stderr").string();
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int slave = ::open(slave_name.c_str(), O_RDWR | O_NOCTTY);
    const int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (slave < 0 || err < 0 || ::dup2(slave, STDOUT_FILENO) < 0 || ::dup2(err, STDERR_FILENO) < 0) ::_exit(127);
    std::vector<char*> argv;
    const std::string path = cli_path();
    argv.push_back(const_cast<char*>(path.c_str()));
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(path.c_str(), argv.data());
    ::_exit(127);
  }
  // Drain the terminal while the command runs (a full terminal buffer would block it).
  std::size_t got = 0;
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(master, buf, sizeof buf);
    if (n <= 0) break;  // EIO once the command has closed its end
    got += std::size_t(n);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  ::close(master);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.err = read_text(err_path);
  if (tty_bytes) *tty_bytes = got;
  return r;
}

std::vector<std::uint32_t> sorted_copy(std::vector<std::uint32_t> v, bool descending = false) {
  std::stable_sort(v.begin(), v.end());
  if (descending) std::reverse(v.begin(), v.end());
  return v;
}

class CliHabits : public WithKeysFile {};

TEST_F(CliHabits, ReverseIsDescending) {
  const auto out = (dir_ / "out").string();
  for (const char* flag : {"-r", "--reverse"}) {
    ASSERT_CLI_OK(run_cli({"sort", keys_, "-t", "u32", flag, "-o", out}));
    EXPECT_EQ(read_vec<std::uint32_t>(out), sorted_copy(input_, true)) << flag;
  }
}

TEST_F(CliHabits, KeysGoToStandardOutputWithoutO) {
  const RunResult r = run_cli({"sort", keys_, "-t", "u32"});
  ASSERT_CLI_OK(r);
  std::vector<std::uint32_t> got(r.out.size() / 4);
  ASSERT_EQ(r.out.size(), input_.size() * 4);
  std::memcpy(got.data(), r.out.data(), r.out.size());
  EXPECT_EQ(got, sorted_copy(input_));
}

TEST_F(CliHabits, NpyInputGoesToStandardOutputAsNpy) {
  const auto npy = make_npy("<u4", "(" + std::to_string(input_.size()) + ",)", input_.data(), input_.size() * 4);
  write_bytes(dir_ / "k.npy", npy.data(), npy.size());
  const RunResult r = run_cli({"sort", (dir_ / "k.npy").string()});
  ASSERT_CLI_OK(r);
  ASSERT_EQ(r.out.size(), npy.size());
  EXPECT_EQ(r.out.compare(0, 6, "\x93NUMPY"), 0);
  write_bytes(dir_ / "out.npy", r.out.data(), r.out.size());
  EXPECT_EQ(read_vec<std::uint32_t>(dir_ / "out.npy", npy.size() - input_.size() * 4), sorted_copy(input_));
}

TEST_F(CliHabits, BinaryKeysToATerminalAreRefusedUnlessAskedFor) {
  std::size_t shown = 0;
  RunResult r = run_cli_on_terminal({"sort", keys_, "-t", "u32"}, &shown);
  expect_clean_error(r, 2);
  EXPECT_NE(r.err.find("terminal"), std::string::npos) << describe(r);
  EXPECT_EQ(shown, 0u);
  // -o - asks for them there; -c writes nothing, so a terminal is no matter.
  r = run_cli_on_terminal({"sort", keys_, "-t", "u32", "-o", "-"}, &shown);
  EXPECT_CLI_OK(r);
  EXPECT_GE(shown, input_.size() * 4);
  r = run_cli_on_terminal({"sort", "-c", keys_, "-t", "u32"}, &shown);
  EXPECT_EQ(r.code, 1) << describe(r);
}

TEST_F(CliHabits, SeveralInputsAreSortedAsOneWithTheirValues) {
  const std::vector<std::uint32_t> b = {7, 7, 0, 12345};
  write_vec(dir_ / "b.u32", b);
  std::vector<std::uint16_t> va(input_.size()), vb(b.size());
  for (std::size_t i = 0; i < va.size(); ++i) va[i] = std::uint16_t(i);
  for (std::size_t i = 0; i < vb.size(); ++i) vb[i] = std::uint16_t(50000 + i);
  write_vec(dir_ / "va.u16", va);
  write_vec(dir_ / "vb.u16", vb);
  const auto out = (dir_ / "out").string(), vout = (dir_ / "vout").string();
  ASSERT_CLI_OK(run_cli({"sort", keys_, (dir_ / "b.u32").string(), "-t", "u32", "-s", "-o", out, "--values",
                         (dir_ / "va.u16").string(), "--values", (dir_ / "vb.u16").string(), "--values-type", "u16",
                         "--values-out", vout}));
  std::vector<std::uint32_t> keys = input_;
  keys.insert(keys.end(), b.begin(), b.end());
  std::vector<std::uint16_t> values = va;
  values.insert(values.end(), vb.begin(), vb.end());
  std::vector<std::size_t> order(keys.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return keys[x] < keys[y]; });
  std::vector<std::uint32_t> want_keys;
  std::vector<std::uint16_t> want_values;
  for (std::size_t i : order) want_keys.push_back(keys[i]), want_values.push_back(values[i]);
  EXPECT_EQ(read_vec<std::uint32_t>(out), want_keys);
  EXPECT_EQ(read_vec<std::uint16_t>(vout), want_values);
}

TEST_F(CliHabits, SeveralNpyInputsWriteNpyAndMustShareATypeAndCounts) {
  const std::vector<std::int32_t> a = {5, -1, 3}, b = {2, -7};
  auto na = make_npy("<i4", "(3,)", a.data(), 12), nb = make_npy("<i4", "(2,)", b.data(), 8);
  write_bytes(dir_ / "a.npy", na.data(), na.size());
  write_bytes(dir_ / "b.npy", nb.data(), nb.size());
  const auto out = (dir_ / "out").string();
  ASSERT_CLI_OK(run_cli({"sort", (dir_ / "a.npy").string(), (dir_ / "b.npy").string(), "-o", out}));
  const auto bytes = read_bytes(out);
  ASSERT_GT(bytes.size(), 20u);
  EXPECT_EQ(std::string(bytes.begin(), bytes.begin() + 6), "\x93NUMPY");
  EXPECT_EQ(read_vec<std::int32_t>(out, bytes.size() - 20), (std::vector<std::int32_t>{-7, -1, 2, 3, 5}));

  const std::vector<std::uint32_t> u = {1};
  auto nu = make_npy("<u4", "(1,)", u.data(), 4);
  write_bytes(dir_ / "u.npy", nu.data(), nu.size());
  write_bytes(out, "keep", 4);
  expect_clean_error(run_cli({"sort", (dir_ / "a.npy").string(), (dir_ / "u.npy").string(), "-o", out}), 2);
  // One --values per input, paired in order; counts per pair.
  write_vec<std::uint8_t>(dir_ / "v3.u8", {1, 2, 3});
  write_vec<std::uint8_t>(dir_ / "v2.u8", {1, 2});
  const std::vector<std::string> base = {"sort", (dir_ / "a.npy").string(), (dir_ / "b.npy").string(), "-o", out,
                                         "--values-type", "u8", "--values-out", (dir_ / "vo").string()};
  auto with = [&](std::vector<std::string> extra) {
    auto args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    return run_cli(args);
  };
  expect_clean_error(with({"--values", (dir_ / "v3.u8").string()}), 2);
  expect_clean_error(with({"--values", (dir_ / "v2.u8").string(), "--values", (dir_ / "v3.u8").string()}), 2);
  expect_clean_error(run_cli({"sort", "-", "-", "-t", "u32", "-o", out}), 2);
  EXPECT_EQ(read_text(out), "keep");
  EXPECT_FALSE(fs::exists(dir_ / "vo"));
  ASSERT_CLI_OK(with({"--values", (dir_ / "v3.u8").string(), "--values", (dir_ / "v2.u8").string()}));
  EXPECT_EQ(read_vec<std::uint8_t>(dir_ / "vo"), (std::vector<std::uint8_t>{2, 2, 1, 3, 1}));
}

std::vector<std::int64_t> stable_argsort(const std::vector<std::uint32_t>& keys, bool descending) {
  std::vector<std::int64_t> idx(keys.size());
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(), [&](std::int64_t a, std::int64_t b) {
    return descending ? keys[a] > keys[b] : keys[a] < keys[b];
  });
  return idx;
}

TEST_F(CliHabits, IndicesOutIsAStableArgsort) {
  std::vector<std::uint32_t> keys(3000);
  std::mt19937 rng(3);
  for (auto& k : keys) k = rng() % 200;  // many equal keys: stability decides the indices
  write_vec(keys_, keys);
  const auto out = (dir_ / "out").string(), idx = (dir_ / "idx").string();
  for (const bool descending : {false, true}) {
    std::vector<std::string> args = {"sort", keys_, "-t", "u32", "-o", out, "--indices-out", idx};
    if (descending) args.push_back("-r");
    ASSERT_CLI_OK(run_cli(args));
    const auto want = stable_argsort(keys, descending);
    EXPECT_EQ(read_vec<std::int64_t>(idx), want);
    std::vector<std::uint32_t> sorted;
    for (auto i : want) sorted.push_back(keys[std::size_t(i)]);
    EXPECT_EQ(read_vec<std::uint32_t>(out), sorted);
  }
  // Without -o only the indices are written (argsort): nothing on standard output.
  const RunResult r = run_cli({"sort", keys_, "-t", "u32", "--indices-out", (dir_ / "idx.npy").string()});
  ASSERT_CLI_OK(r);
  EXPECT_TRUE(r.out.empty());
  const auto npy = read_bytes(dir_ / "idx.npy");
  ASSERT_GT(npy.size(), keys.size() * 8);
  const std::size_t header = npy.size() - keys.size() * 8;
  EXPECT_NE(std::string(npy.begin(), npy.begin() + header).find("'<i8'"), std::string::npos);
  EXPECT_EQ(read_vec<std::int64_t>(dir_ / "idx.npy", header), stable_argsort(keys, false));
}

TEST_F(CliHabits, IndicesOutWithValuesAndInPlaceOutput) {
  std::vector<std::uint64_t> values(input_.size());
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = 1000000 + i;
  write_vec(dir_ / "v.u64", values);
  const auto idx = (dir_ / "idx").string();
  // The keys and values replaced in place, the indices beside them.
  ASSERT_CLI_OK(run_cli({"sort", keys_, "-t", "u32", "-o", keys_, "--values", (dir_ / "v.u64").string(),
                         "--values-type", "u64", "--values-out", (dir_ / "v.u64").string(), "--indices-out", idx}));
  const auto want = stable_argsort(input_, false);
  EXPECT_EQ(read_vec<std::int64_t>(idx), want);
  EXPECT_EQ(read_vec<std::uint32_t>(keys_), sorted_copy(input_));
  std::vector<std::uint64_t> want_values;
  for (auto i : want) want_values.push_back(values[std::size_t(i)]);
  EXPECT_EQ(read_vec<std::uint64_t>(dir_ / "v.u64"), want_values);
  // An indices output that names another output is refused before anything is written.
  const auto before = read_bytes(keys_);
  expect_clean_error(run_cli({"sort", keys_, "-t", "u32", "-o", keys_, "--indices-out", keys_}), 2);
  expect_clean_error(run_cli({"sort", keys_, "-t", "u32", "--indices-out", (dir_ / "no" / "idx").string()}), 2);
  EXPECT_EQ(read_bytes(keys_), before);
  EXPECT_EQ(dir_.entries(), (std::vector<std::string>{"idx", "keys.u32", "v.u64"}));
}

// Several devices sort stably too: the indices and the first of equal keys are the same.
TEST_F(CliHabits, IndicesAndUniqueOnSeveralDevices) {
  std::vector<std::uint32_t> keys(30000);
  std::mt19937 rng(11);
  for (auto& k : keys) k = rng() % 5000;
  write_vec(keys_, keys);
  const std::string dev = gpusort::list_devices().front().id;
  const auto out = (dir_ / "out").string(), idx = (dir_ / "idx").string();
  ASSERT_CLI_OK(run_cli({"sort", keys_, "-t", "u32", "-u", "-o", out, "--indices-out", idx, "--device", dev + "," + dev}));
  std::vector<std::uint32_t> want_keys;
  std::vector<std::int64_t> want_indices;
  for (auto i : stable_argsort(keys, false))
    if (want_keys.empty() || keys[std::size_t(i)] != want_keys.back())
      want_keys.push_back(keys[std::size_t(i)]), want_indices.push_back(i);
  EXPECT_EQ(read_vec<std::uint32_t>(out), want_keys);
  EXPECT_EQ(read_vec<std::int64_t>(idx), want_indices);
}

// -r is --descending for verify and plan too.
TEST_F(CliHabits, ReverseForVerifyAndPlan) {
  write_vec(keys_, sorted_copy(input_, true));
  EXPECT_CLI_OK(run_cli({"verify", keys_, "-t", "u32", "-r"}));
  EXPECT_EQ(run_cli({"verify", keys_, "-t", "u32"}).code, 1);
  const RunResult r = run_cli({"plan", "-t", "u32", "-n", "1000", "-r"});
  ASSERT_CLI_OK(r);
  EXPECT_EQ(r.out, run_cli({"plan", "-t", "u32", "-n", "1000", "--descending"}).out);
}

TEST(CliHabitsHelp, SortHelpIsGroupedWithTypesNamed) {
  const RunResult r = run_cli({"sort", "--help"});
  ASSERT_CLI_OK(r);
  for (const char* s : {"Input:", "Output:", "Order and mode:", "Algorithm and tuning:", "Memory:", "Records:",
                        "Reporting:", "--reverse", "--unique", "--check", "--indices-out FILE", "--wg N",
                        "--memory-limit SIZE", "--type TYPE"})
    EXPECT_NE(r.out.find(s), std::string::npos) << s << "\n" << r.out;
}

}  // namespace
