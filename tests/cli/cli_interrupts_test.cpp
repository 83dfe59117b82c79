// A sort that is interrupted loses nothing: terminating signals are taken by one thread, never in
// the middle of a commit, and clean up; an in-place rewrite of a hard-linked output that is signalled
// finishes, and one that is killed (SIGKILL) leaves its complete copy, which the next run names;
// temporaries of killed runs are removed by the next run in their directory, those of live runs and
// of other users are not.
//
// The rewrite is stopped at a chosen byte through the test hook GPUSORT_TEST_STOP_IN_REWRITE
// (src/cli/output_file.cpp): the process stops itself there (SIGSTOP), the test signals it, then
// continues it.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "cli_test_util.hpp"

namespace {

using namespace cli_test;

constexpr int kTerminatingSignals[] = {SIGINT,  SIGTERM, SIGHUP,  SIGQUIT,   SIGUSR1, SIGUSR2,
                                       SIGALRM, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF};

// Starts the command with default signal dispositions and mask, no core files, and the rewrite
// hook set to stop_at (bytes) when given.
pid_t spawn_cli(const std::vector<std::string>& args, const std::string& stop_at = "") {
  const pid_t pid = ::fork();
  if (pid != 0) return pid;
  for (int sig : kTerminatingSignals) ::signal(sig, SIG_DFL);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  const struct rlimit no_core {0, 0};
  ::setrlimit(RLIMIT_CORE, &no_core);
  if (!stop_at.empty()) ::setenv("GPUSORT_TEST_STOP_IN_REWRITE", stop_at.c_str(), 1);
  const std::string cli = cli_path();
  std::vector<char*> argv{const_cast<char*>(cli.c_str())};
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  ::execv(cli.c_str(), argv.data());
  ::_exit(127);
}

// Waits for the child to stop (the hook) or end; true if it stopped.
bool wait_until_stopped(pid_t pid, int& status) {
  return ::waitpid(pid, &status, WUNTRACED) == pid && WIFSTOPPED(status);
}

int wait_for_end(pid_t pid) {
  int status = 0;
  EXPECT_EQ(::waitpid(pid, &status, 0), pid);
  return status;
}

std::string describe_status(int status) {
  if (WIFEXITED(status)) return "exit " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return "signal " + std::to_string(WTERMSIG(status));
  return "status " + std::to_string(status);
}

class CliInterrupts : public ::testing::Test {
 protected:
  void SetUp() override {
    keys_ = (dir_ / "keys.u32").string();
    input_.resize(kKeys);
    for (std::uint32_t i = 0; i < input_.size(); ++i) input_[i] = i * 2654435761u;
    write_vec(keys_, input_);
    sorted_ = input_;
    std::sort(sorted_.begin(), sorted_.end());
  }
  std::vector<std::string> temporaries() const {
    std::vector<std::string> v;
    for (const auto& name : dir_.entries())
      if (name.find(".gpusort-") != std::string::npos) v.push_back(name);
    return v;
  }
  // Starts a sort into `out` and stops it (SIGSTOP) once its temporary output exists; false if it
  // ended first.
  bool start_and_stop_with_temporary(pid_t& pid, const std::string& out) {
    const std::string prefix = "." + fs::path(out).filename().string() + ".gpusort-tmp-";
    pid = spawn_cli({"sort", keys_, "-t", "u32", "-o", out});
    for (int i = 0; i < 1000; ++i) {
      const auto now = temporaries();
      if (std::any_of(now.begin(), now.end(), [&](const std::string& n) { return n.rfind(prefix, 0) == 0; })) {
        ::kill(pid, SIGSTOP);
        int status = 0;
        return wait_until_stopped(pid, status);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return false;
  }

  static constexpr std::size_t kKeys = std::size_t(3) << 20;  // 12 MiB: three 4 MiB rewrite steps
  TempDir dir_;
  std::string keys_;
  std::vector<std::uint32_t> input_, sorted_;
};

TEST_F(CliInterrupts, SignalDuringRewriteOfHardLinkedOutputLetsItFinish) {
  const auto target = dir_ / "target", link = dir_ / "other-link";
  const std::size_t bytes = kKeys * 4;
  for (int sig : {SIGTERM, SIGINT, SIGHUP}) {
    for (std::size_t stop_at : {std::size_t(0), std::size_t(4) << 20, bytes}) {
      SCOPED_TRACE("signal " + std::to_string(sig) + " after " + std::to_string(stop_at) + " bytes");
      // Old content longer than the new one: a rewrite must also cut the file to size.
      std::vector<std::uint32_t> old(kKeys + 1000, 7);
      write_vec(target, old);
      fs::remove(link);
      fs::create_hard_link(target, link);
      const pid_t pid = spawn_cli({"sort", keys_, "-t", "u32", "-o", target.string()}, std::to_string(stop_at));
      int status = 0;
      ASSERT_TRUE(wait_until_stopped(pid, status)) << describe_status(status);
      ::kill(pid, sig);
      ::kill(pid, SIGCONT);
      status = wait_for_end(pid);
      EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << describe_status(status);
      EXPECT_EQ(fs::file_size(link), bytes);
      EXPECT_TRUE(read_vec<std::uint32_t>(link) == sorted_) << "the rewrite was cut";
      EXPECT_EQ(fs::hard_link_count(target), 2u);
      EXPECT_EQ(temporaries(), std::vector<std::string>{});
    }
  }
}

TEST_F(CliInterrupts, SignalDuringRewriteOfKeysLeavesAMatchingPair) {
  // Keys hard-linked (rewritten in place), values a plain file (renamed): both or neither.
  const auto keys_out = dir_ / "keys-out", keys_link = dir_ / "keys-link", values_out = dir_ / "values-out";
  write_bytes(keys_out, "old keys", 8);
  fs::create_hard_link(keys_out, keys_link);
  write_bytes(values_out, "old values", 10);
  const pid_t pid = spawn_cli({"sort", keys_, "-t", "u32", "-o", keys_out.string(), "--values", keys_,
                               "--values-type", "u32", "--values-out", values_out.string()},
                              std::to_string(std::size_t(4) << 20));
  int status = 0;
  ASSERT_TRUE(wait_until_stopped(pid, status)) << describe_status(status);
  ::kill(pid, SIGTERM);
  ::kill(pid, SIGCONT);
  status = wait_for_end(pid);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) << describe_status(status);
  EXPECT_TRUE(read_vec<std::uint32_t>(keys_link) == sorted_) << "the keys' rewrite was cut";
  EXPECT_TRUE(read_vec<std::uint32_t>(values_out) == sorted_) << "the values do not match the keys";
  EXPECT_EQ(temporaries(), std::vector<std::string>{});
}

TEST_F(CliInterrupts, KilledRewriteKeepsTheCompleteOutputAndTheNextRunNamesIt) {
  const auto target = dir_ / "target", link = dir_ / "other-link";
  write_bytes(target, "old", 3);
  fs::create_hard_link(target, link);
  const pid_t pid = spawn_cli({"sort", keys_, "-t", "u32", "-o", target.string()}, std::to_string(std::size_t(4) << 20));
  int status = 0;
  ASSERT_TRUE(wait_until_stopped(pid, status)) << describe_status(status);
  ::kill(pid, SIGKILL);
  wait_for_end(pid);
  // The complete output is in a file whose name says so, and nothing removes it.
  const auto left = temporaries();
  ASSERT_EQ(left.size(), 1u);
  EXPECT_NE(left[0].find(".target.gpusort-kept-"), std::string::npos) << left[0];
  EXPECT_TRUE(read_vec<std::uint32_t>(dir_ / left[0]) == sorted_);
  for (int run = 0; run < 2; ++run) {
    const auto r = run_cli({"sort", keys_, "-t", "u32", "-o", (dir_ / "another").string()});
    ASSERT_CLI_OK(r);
    EXPECT_NE(r.err.find("warning: '" + (dir_ / left[0]).string() + "' holds the complete output"), std::string::npos)
        << r.err;
    EXPECT_EQ(lines_of(r.err).size(), 1u) << r.err;
  }
  EXPECT_EQ(temporaries(), left);
}

TEST_F(CliInterrupts, KilledPairCommitLeavesBothCopiesNamed) {
  // Values renamed first (their previous content kept by a backup link while the pair commits),
  // then the hard-linked keys rewritten: killed there, both the complete keys and the previous
  // values stay, and the next run names both.
  const auto keys_out = dir_ / "keys-out", keys_link = dir_ / "keys-link", values_out = dir_ / "values-out";
  write_bytes(keys_out, "old keys", 8);
  fs::create_hard_link(keys_out, keys_link);
  write_bytes(values_out, "old values", 10);
  const pid_t pid = spawn_cli({"sort", keys_, "-t", "u32", "-o", keys_out.string(), "--values", keys_,
                               "--values-type", "u32", "--values-out", values_out.string()},
                              std::to_string(std::size_t(4) << 20));
  int status = 0;
  ASSERT_TRUE(wait_until_stopped(pid, status)) << describe_status(status);
  ::kill(pid, SIGKILL);
  wait_for_end(pid);
  std::string kept, backup;
  for (const auto& name : temporaries()) {
    if (name.rfind(".keys-out.gpusort-kept-", 0) == 0) kept = name;
    if (name.rfind(".values-out.gpusort-tmp-", 0) == 0 && name.size() > 4 && name.substr(name.size() - 4) == ".old")
      backup = name;
  }
  ASSERT_FALSE(kept.empty());
  ASSERT_FALSE(backup.empty());
  EXPECT_TRUE(read_vec<std::uint32_t>(dir_ / kept) == sorted_);
  EXPECT_EQ(read_text(dir_ / backup), "old values");
  const auto r = run_cli({"sort", keys_, "-t", "u32", "-o", (dir_ / "another").string()});
  ASSERT_CLI_OK(r);
  EXPECT_NE(r.err.find("'" + (dir_ / kept).string() + "' holds the complete output"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("'" + (dir_ / backup).string() + "' holds the previous content of '" + values_out.string()),
            std::string::npos)
      << r.err;
  EXPECT_EQ(temporaries().size(), 2u);
}

TEST_F(CliInterrupts, NextRunRemovesTemporariesOfKilledRunsOnly) {
  pid_t killed = 0, stopped = 0, foreign = 0;
  ASSERT_TRUE(start_and_stop_with_temporary(killed, (dir_ / "out-killed").string()));
  ::kill(killed, SIGKILL);
  wait_for_end(killed);
  const auto stale = temporaries();
  ASSERT_EQ(stale.size(), 1u);
  EXPECT_NE(stale[0].find(".out-killed.gpusort-tmp-" + std::to_string(killed) + "."), std::string::npos) << stale[0];
  // Another user's stale temporary is not this run's to remove.
  std::string foreign_name;
  if (::geteuid() == 0) {
    ASSERT_TRUE(start_and_stop_with_temporary(foreign, (dir_ / "out-foreign").string()));
    ::kill(foreign, SIGKILL);
    wait_for_end(foreign);
    for (const auto& name : temporaries())
      if (name.find("out-foreign") != std::string::npos) foreign_name = name;
    ASSERT_EQ(::chown((dir_ / foreign_name).c_str(), 65534, 65534), 0);
  }
  // A live (stopped) run's temporary stays.
  ASSERT_TRUE(start_and_stop_with_temporary(stopped, (dir_ / "out-live").string()));
  std::string live_name;
  for (const auto& name : temporaries())
    if (name.find("out-live") != std::string::npos) live_name = name;
  ASSERT_FALSE(live_name.empty());

  const auto r = run_cli({"sort", keys_, "-t", "u32", "-o", (dir_ / "out-next").string()});
  ASSERT_CLI_OK(r);
  EXPECT_EQ(r.err, "");
  const auto left = temporaries();
  EXPECT_EQ(std::count(left.begin(), left.end(), stale[0]), 0) << "the killed run's temporary is still there";
  EXPECT_EQ(std::count(left.begin(), left.end(), live_name), 1) << "a live run's temporary was removed";
  if (!foreign_name.empty()) EXPECT_EQ(std::count(left.begin(), left.end(), foreign_name), 1);

  ::kill(stopped, SIGCONT);
  const int status = wait_for_end(stopped);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << describe_status(status);
  EXPECT_TRUE(read_vec<std::uint32_t>(dir_ / "out-live") == sorted_);
}

// /proc/stat's btime: when this machine started.
long long boot_time() {
  const std::string stat = read_text("/proc/stat");
  const auto at = stat.find("\nbtime ");
  return at == std::string::npos ? 0 : std::atoll(stat.c_str() + at + 7);
}

TEST_F(CliInterrupts, FilesFromBeforeThisBootAreNamedNeverRemoved) {
  // A power cut during a rewrite: the kept copy and a temporary carry another boot's tag and were
  // last changed before this machine started. Those of another boot changed since are left alone
  // (another machine may be writing them).
  const long long booted = boot_time();
  if (booted <= 100) GTEST_SKIP() << "no boot time in /proc/stat";
  const std::string tag = "4242.99.00000000-AbCdEf";
  const std::vector<std::string> old_names = {".t.gpusort-kept-" + tag, ".u.gpusort-tmp-" + tag,
                                              ".v.gpusort-tmp-" + tag + ".old"};
  const std::string recent = ".w.gpusort-tmp-" + tag;
  for (const auto& name : old_names) {
    write_bytes(dir_ / name, "data", 4);
    const struct timespec times[2] = {{booted - 60, 0}, {booted - 60, 0}};
    ASSERT_EQ(::utimensat(AT_FDCWD, (dir_ / name).c_str(), times, 0), 0);
  }
  write_bytes(dir_ / recent, "data", 4);
  const auto r = run_cli({"sort", keys_, "-t", "u32", "-o", (dir_ / "out").string()});
  ASSERT_CLI_OK(r);
  for (const auto& name : old_names)
    EXPECT_NE(r.err.find("'" + (dir_ / name).string() + "'"), std::string::npos) << name << "\n" << r.err;
  EXPECT_EQ(r.err.find(recent), std::string::npos) << r.err;
  EXPECT_EQ(lines_of(r.err).size(), 3u) << r.err;
  EXPECT_EQ(temporaries().size(), 4u) << "a file of another boot was removed";
}

TEST_F(CliInterrupts, EveryTerminatingSignalCleansUpAndStopsTheSort) {
  for (int sig : kTerminatingSignals) {
    SCOPED_TRACE("signal " + std::to_string(sig));
    pid_t pid = 0;
    const auto out = dir_ / "out";
    ASSERT_TRUE(start_and_stop_with_temporary(pid, out.string()));
    ::kill(pid, sig);
    ::kill(pid, SIGCONT);
    const int status = wait_for_end(pid);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << describe_status(status);
    // Stopped with its temporary there, the run had not committed, so no output either.
    EXPECT_FALSE(fs::exists(out));
    EXPECT_EQ(temporaries(), std::vector<std::string>{});
  }
}

// Bit `sig` of a /proc status mask line ("SigBlk:\t0000000000004a01").
bool mask_has(const std::string& status_text, const std::string& field, int sig) {
  const auto at = status_text.find(field + ":");
  if (at == std::string::npos) return false;
  const unsigned long long mask = std::stoull(status_text.substr(at + field.size() + 1), nullptr, 16);
  return (mask >> (sig - 1)) & 1;
}

TEST_F(CliInterrupts, OnlyOneThreadTakesTerminatingSignals) {
  // Stopped in the middle of its work, with the OpenCL runtime's threads started: every thread
  // blocks the signals but the one that waits for them.
  const auto target = dir_ / "target";
  write_bytes(target, "old", 3);
  fs::create_hard_link(target, dir_ / "link");
  const pid_t pid = spawn_cli({"sort", keys_, "-t", "u32", "-o", target.string()}, "0");
  int status = 0;
  ASSERT_TRUE(wait_until_stopped(pid, status)) << describe_status(status);
  int threads = 0, taking = 0;
  for (const auto& task : fs::directory_iterator("/proc/" + std::to_string(pid) + "/task")) {
    const std::string text = read_text(task.path() / "status");
    ++threads;
    bool blocks_all = true;
    for (int sig : kTerminatingSignals) blocks_all = blocks_all && mask_has(text, "SigBlk", sig);
    taking += blocks_all ? 0 : 1;
  }
  ::kill(pid, SIGCONT);
  status = wait_for_end(pid);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << describe_status(status);
  EXPECT_GE(threads, 2);
  EXPECT_LE(taking, 1) << taking << " of " << threads << " threads may take a terminating signal";
}

}  // namespace
