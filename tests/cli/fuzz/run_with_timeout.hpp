#pragma once
// Runs the gpusort command directly (posix_spawn, no shell) with a time limit, and tells how it
// ended: exit status, killed by a signal, or still running when the limit came (then it is killed).
// A shell would hide a signal death behind its own exit status and cost a process per case.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "../cli_test_util.hpp"

extern char** environ;

namespace cli_fuzz {

struct Outcome {
  bool timed_out = false;
  int signal = 0;     // non-zero: killed by this signal (and not by us for a timeout)
  int exit_code = -1; // valid when neither of the above
  std::string out, err;
  double seconds = 0;
};

// Waits until the child exits or `limit_s` passes; false on timeout (the child is still running).
// A pidfd wakes the moment the child exits (a fixed polling step would add milliseconds to each of
// thousands of short runs); without pidfd support it falls back to polling.
inline bool wait_for_exit(pid_t pid, double limit_s, int& status) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(limit_s);
#ifdef SYS_pidfd_open
  const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
#else
  const int pidfd = -1;
#endif
  auto step = std::chrono::microseconds(100);
  for (;;) {
    if (::waitpid(pid, &status, WNOHANG) == pid) {
      if (pidfd >= 0) ::close(pidfd);
      return true;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      if (pidfd >= 0) ::close(pidfd);
      return false;
    }
    if (pidfd >= 0) {
      pollfd p{pidfd, POLLIN, 0};
      ::poll(&p, 1, static_cast<int>(std::min<long long>(left.count() + 1, 1000)));
    } else {
      std::this_thread::sleep_for(step);
      if (step < std::chrono::milliseconds(2)) step *= 2;
    }
  }
}

// stdout and stderr go to files in `capture_dir` (pipes could fill up and stall the child);
// stdin is /dev/null so nothing waits for a terminal.
inline Outcome run_with_timeout(const std::vector<std::string>& args, double limit_s,
                                const std::filesystem::path& capture_dir) {
  const std::string exe = cli_test::cli_path();
  const std::string out_path = (capture_dir / "stdout").string(), err_path = (capture_dir / "stderr").string();
  std::vector<std::string> argv_store = {exe};
  argv_store.insert(argv_store.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_store) argv.push_back(a.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_addopen(&files, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&files, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&files, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  // Its own process group, so a timeout kills whatever it may have started too.
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);

  Outcome o;
  const auto t0 = std::chrono::steady_clock::now();
  pid_t pid = -1;
  const int rc = ::posix_spawn(&pid, exe.c_str(), &files, &attr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&files);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) {
    o.err = "posix_spawn " + exe + " failed: " + std::strerror(rc);
    return o;
  }
  int status = 0;
  if (!wait_for_exit(pid, limit_s, status)) {
    ::kill(-pid, SIGKILL);
    ::waitpid(pid, &status, 0);
    o.timed_out = true;
  }
  o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!o.timed_out) {
    if (WIFSIGNALED(status))
      o.signal = WTERMSIG(status);
    else if (WIFEXITED(status))
      o.exit_code = WEXITSTATUS(status);
  }
  o.out = cli_test::read_text(out_path);
  o.err = cli_test::read_text(err_path);
  return o;
}

}  // namespace cli_fuzz
