#pragma once
// Temporary files that must not outlive the process. A registered path is unlinked if the process
// dies of a terminating signal (Ctrl-C, kill, hang-up, a closed terminal); the handler then
// re-raises the signal so the exit status still tells which one. SIGPIPE is ignored instead, so a
// write to a closed pipe fails with EPIPE and is reported as an error like any other write error.
#include <csignal>
#include <string>

namespace gpusort::cli {

// Installs the handlers (once per process) and ignores SIGPIPE.
void install_signal_cleanup();

void register_temp(const std::string& path);
void unregister_temp(const std::string& path);

// Holds the terminating signals off for its lifetime: a sequence of renames that must happen
// together (a keys output and its values output) is not cut in half by Ctrl-C. A signal that
// arrives meanwhile is delivered when the guard ends.
class SignalBlock {
 public:
  SignalBlock();
  ~SignalBlock();
  SignalBlock(const SignalBlock&) = delete;
  SignalBlock& operator=(const SignalBlock&) = delete;

 private:
  sigset_t previous_;
};

}  // namespace gpusort::cli
