#include "signal_cleanup.hpp"

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>

namespace gpusort::cli {
namespace {

// Fixed slots, so the handler needs no allocation and no lock (unlink is async-signal-safe).
constexpr int kMaxTemps = 16;
std::atomic<char*> g_temps[kMaxTemps];

// Not SIGUSR1/SIGUSR2: OpenCL runtimes (PoCL) may use them internally.
constexpr int kTerminatingSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGXCPU, SIGXFSZ};

extern "C" void remove_temps_and_die(int sig) {
  for (auto& slot : g_temps)
    if (char* p = slot.load()) ::unlink(p);
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

sigset_t terminating_set() {
  sigset_t set;
  sigemptyset(&set);
  for (int sig : kTerminatingSignals) sigaddset(&set, sig);
  return set;
}

}  // namespace

void install_signal_cleanup() {
  static const bool installed = [] {
    struct sigaction sa {};
    sa.sa_handler = remove_temps_and_die;
    sa.sa_mask = terminating_set();  // one cleanup at a time
    for (int sig : kTerminatingSignals) {
      struct sigaction old {};
      // A signal the parent ignores (nohup, a background job's SIGINT) stays ignored.
      if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
      ::sigaction(sig, &sa, nullptr);
    }
    ::signal(SIGPIPE, SIG_IGN);
    return true;
  }();
  (void)installed;
}

void register_temp(const std::string& path) {
  install_signal_cleanup();
  char* copy = ::strdup(path.c_str());
  for (auto& slot : g_temps) {
    char* expected = nullptr;
    if (slot.compare_exchange_strong(expected, copy)) return;
  }
  std::free(copy);  // more temporaries than slots: still correct, just not removed on a signal
}

void unregister_temp(const std::string& path) {
  for (auto& slot : g_temps) {
    char* p = slot.load();
    if (p && path == p && slot.compare_exchange_strong(p, nullptr)) {
      std::free(p);
      return;
    }
  }
}

SignalBlock::SignalBlock() {
  const sigset_t set = terminating_set();
  ::sigprocmask(SIG_BLOCK, &set, &previous_);
}

SignalBlock::~SignalBlock() { ::sigprocmask(SIG_SETMASK, &previous_, nullptr); }

}  // namespace gpusort::cli
