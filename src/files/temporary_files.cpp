#include "files/temporary_files.hpp"

#include <atomic>

namespace gpusort::files {
namespace {
std::atomic<TemporaryFileWatcher*> g_watcher{nullptr};
}  // namespace

void watch_temporary_files(TemporaryFileWatcher* watcher) { g_watcher = watcher; }

void register_temp(const std::string& path) {
  if (TemporaryFileWatcher* w = g_watcher.load()) w->created(path);
}

void unregister_temp(const std::string& path) {
  if (TemporaryFileWatcher* w = g_watcher.load()) w->removed(path);
}

CleanupHold::CleanupHold() : held_(g_watcher.load()) {
  if (held_) held_->hold();
}

CleanupHold::~CleanupHold() {
  if (held_) held_->release();
}

}  // namespace gpusort::files
