#include "signal_cleanup.hpp"

#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "files/temporary_files.hpp"

namespace gpusort::cli {
namespace {

// Every signal whose default action ends the process, less those that report a fault of the
// process itself (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS: a crash is not cleaned
// up; the next run in the directory removes what it left, see temp_names.hpp) and SIGPIPE.
constexpr int kTerminatingSignals[] = {SIGINT,  SIGTERM, SIGHUP,  SIGQUIT,   SIGUSR1, SIGUSR2,
                                       SIGALRM, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF};

// Allocated once and never freed: the handling thread may still use it while static objects are
// destroyed at exit.
struct State {
  sigset_t handled;  // the terminating signals not ignored when the process started
  std::atomic<pid_t> handler_tid{0};
  std::mutex m;  // guards everything below
  std::condition_variable changed;
  int holds = 0;        // SignalBlocks held, over all threads
  bool ending = false;  // a signal came: the process ends once holds is 0
  std::vector<std::string> temps;
};

thread_local int t_block_depth = 0;  // SignalBlocks this thread holds (nested ones count once)

[[noreturn]] void end_process(State& st, int sig) {
  std::unique_lock<std::mutex> lock(st.m);
  st.ending = true;
  st.changed.wait(lock, [&] { return st.holds == 0; });
  for (const std::string& p : st.temps) ::unlink(p.c_str());
  // Die of the signal itself (default action), with the lock held so nothing starts meanwhile.
  ::signal(sig, SIG_DFL);
  sigset_t one;
  sigemptyset(&one);
  sigaddset(&one, sig);
  ::pthread_sigmask(SIG_UNBLOCK, &one, nullptr);
  ::raise(sig);
  ::_exit(128 + sig);
}

void wait_for_signals(State* st) {
  {
    std::lock_guard<std::mutex> lock(st->m);
    st->handler_tid = static_cast<pid_t>(::syscall(SYS_gettid));
  }
  st->changed.notify_all();
  for (;;) {
    int sig = 0;
    if (::sigwait(&st->handled, &sig) == 0) end_process(*st, sig);
  }
}

std::atomic<State*> g_state{nullptr};

// For a thread that does not block the signals: hand it to the handling thread, which blocks it
// and waits for it (tgkill is async-signal-safe; the handler does nothing else).
extern "C" void pass_on(int sig) {
  const int saved = errno;
  if (State* st = g_state.load())
    if (const pid_t tid = st->handler_tid.load()) ::syscall(SYS_tgkill, ::getpid(), tid, sig);
  errno = saved;
}

// The library's file sorts report their temporary files and commits here (files/temporary_files.hpp).
class Watcher final : public files::TemporaryFileWatcher {
 public:
  void created(const std::string& path) override { register_temp(path); }
  void removed(const std::string& path) override { unregister_temp(path); }
  void hold() override { held_.push_back(std::make_unique<SignalBlock>()); }
  void release() override { held_.pop_back(); }

 private:
  static thread_local std::vector<std::unique_ptr<SignalBlock>> held_;
};
thread_local std::vector<std::unique_ptr<SignalBlock>> Watcher::held_;

State& started() {
  static State* const state = [] {
    auto* st = new State;
    sigemptyset(&st->handled);
    for (int sig : kTerminatingSignals) {
      struct sigaction old {};
      if (::sigaction(sig, nullptr, &old) == 0 && !(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_IGN) continue;
      sigaddset(&st->handled, sig);
    }
    // The new thread inherits the blocked mask, which sigwait needs; the caller's mask is restored.
    sigset_t previous;
    ::pthread_sigmask(SIG_BLOCK, &st->handled, &previous);
    std::thread(wait_for_signals, st).detach();
    ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    {
      std::unique_lock<std::mutex> lock(st->m);
      st->changed.wait(lock, [&] { return st->handler_tid.load() != 0; });
    }
    g_state = st;
    struct sigaction sa {};
    sa.sa_handler = pass_on;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    for (int sig : kTerminatingSignals)
      if (sigismember(&st->handled, sig)) ::sigaction(sig, &sa, nullptr);
    ::signal(SIGPIPE, SIG_IGN);
    // Nor may the process exit normally while a signal that came is being handled.
    std::atexit([] {
      State& st = *g_state.load();
      std::unique_lock<std::mutex> lock(st.m);
      if (st.ending) st.changed.wait(lock, [] { return false; });
    });
    files::watch_temporary_files(new Watcher);  // never freed: the handling thread may outlive statics
    return st;
  }();
  return *state;
}

}  // namespace

void handle_signals_in_one_thread() {
  State& st = started();
  ::pthread_sigmask(SIG_BLOCK, &st.handled, nullptr);
}

void install_signal_cleanup() { (void)started(); }

void register_temp(const std::string& path) {
  State& st = started();
  std::lock_guard<std::mutex> lock(st.m);
  st.temps.push_back(path);
}

void unregister_temp(const std::string& path) {
  State& st = started();
  std::lock_guard<std::mutex> lock(st.m);
  const auto it = std::find(st.temps.begin(), st.temps.end(), path);
  if (it != st.temps.end()) st.temps.erase(it);
}

SignalBlock::SignalBlock() {
  if (t_block_depth++ > 0) return;
  State& st = started();
  std::unique_lock<std::mutex> lock(st.m);
  st.changed.wait(lock, [&] { return !st.ending; });  // ending: waits until the process is gone
  ++st.holds;
}

SignalBlock::~SignalBlock() {
  if (--t_block_depth > 0) return;
  State& st = started();
  std::unique_lock<std::mutex> lock(st.m);
  --st.holds;
  st.changed.notify_all();
  // A signal came meanwhile: the handling thread ends the process now; this thread must not run on
  // (and perhaps exit with status 0 first).
  if (st.ending) st.changed.wait(lock, [] { return false; });
}

}  // namespace gpusort::cli
