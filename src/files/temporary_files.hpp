#pragma once
// The temporary files the file sorts make beside their outputs, as a program that removes them on
// a terminating signal needs to know them. A library cannot own the process's signals, so it only
// reports: each temporary file once created and once gone, and the steps that must not be cut in
// half (a keys output and its values output replacing their targets). A program that handles the
// signals (the gpusort command: cli/signal_cleanup.hpp) installs a watcher; without one, nothing
// is reported and an error still removes every temporary file (OutputFile's destructor).
#include <string>

namespace gpusort::files {

class TemporaryFileWatcher {
 public:
  virtual void created(const std::string& path) = 0;
  virtual void removed(const std::string& path) = 0;
  // From hold() to release() on one thread, a signal's cleanup waits. Nested holds count once.
  virtual void hold() = 0;
  virtual void release() = 0;

 protected:
  ~TemporaryFileWatcher() = default;
};

// Installs the process's watcher (nullptr: none). It must live as long as the process.
void watch_temporary_files(TemporaryFileWatcher* watcher);

void register_temp(const std::string& path);
void unregister_temp(const std::string& path);

// hold() for its lifetime.
class CleanupHold {
 public:
  CleanupHold();
  ~CleanupHold();
  CleanupHold(const CleanupHold&) = delete;
  CleanupHold& operator=(const CleanupHold&) = delete;

 private:
  TemporaryFileWatcher* held_;
};

}  // namespace gpusort::files
