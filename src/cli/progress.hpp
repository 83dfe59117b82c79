#pragma once
// The progress line of long commands: phase, bytes done of the total, rate and time left, redrawn
// in place on standard error at most five times a second, and only once the work has run for a
// second (short runs print nothing). Shown on a terminal unless forced on or off (--progress /
// --no-progress). Thread-safe: the streamed sort advances it from its copy threads.
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

#include "gpusort/sort_file.hpp"

namespace gpusort::cli {

enum class ProgressMode { automatic, on, off };

class Progress final : public SortFileProgress {
 public:
  explicit Progress(ProgressMode mode);
  ~Progress();  // ends the line if one was drawn
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // Starts a phase ("sorting runs") of `total` bytes; its rate and time left count from here.
  void phase(std::string name, std::uint64_t total) override;
  void advance(std::uint64_t bytes) override;
  bool shown() const noexcept { return enabled_; }

 private:
  using Clock = std::chrono::steady_clock;
  void draw(bool force);

  std::mutex mutex_;
  bool enabled_ = false;
  bool drawn_ = false;
  Clock::time_point started_, phase_started_, last_draw_;
  std::string phase_;
  std::uint64_t total_ = 0, done_ = 0;
};

}  // namespace gpusort::cli
