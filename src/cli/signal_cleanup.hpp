#pragma once
// Temporary files that must not outlive the process, and the terminating signals that would leave
// them behind (Ctrl-C, kill, hang-up, a closed terminal, timers, resource limits).
//
// The signals are handled in one place: a thread of their own that waits for them (sigwait) while
// every other thread blocks them. A worker thread (the OpenCL runtime's, the copy threads) is then
// never interrupted and never runs cleanup code in the middle of its work. On a signal, that thread
// waits until no SignalBlock is held (a commit in progress finishes first), unlinks every registered
// path, and ends the process with the same signal, so the exit status still tells which one.
// SIGPIPE is ignored instead, so a write to a closed pipe fails with EPIPE and is reported as an
// error like any other write error. A signal that the parent ignored (nohup, a background job's
// SIGINT) stays ignored.
#include <csignal>
#include <string>

namespace gpusort::cli {

// Call first in main(), before anything starts a thread: blocks the terminating signals in the
// calling thread (every thread started after it inherits the mask, and so never takes them) and
// starts the thread that handles them. Programs started by this process inherit the mask too.
void handle_signals_in_one_thread();

// The same without touching the calling thread's mask, for processes whose main() did not call
// the above (tests, other programs linking the output code): threads that still take the signals
// run a handler that only passes the signal on to the handling thread. Once per process; cheap to
// call again.
void install_signal_cleanup();

void register_temp(const std::string& path);
void unregister_temp(const std::string& path);

// Holds the cleanup off for its lifetime: a sequence of renames and rewrites that must happen
// together (a keys output and its values output, a hard-linked file rewritten in place) is not cut
// in half by Ctrl-C. A signal that arrives meanwhile ends the process when the last guard ends.
// Any thread may hold one; several may be held at once.
class SignalBlock {
 public:
  SignalBlock();
  ~SignalBlock();
  SignalBlock(const SignalBlock&) = delete;
  SignalBlock& operator=(const SignalBlock&) = delete;
};

}  // namespace gpusort::cli
