#include "progress.hpp"

#include <unistd.h>

#include <cstdio>

#include "byte_size_text.hpp"

namespace gpusort::cli {

Progress::Progress(ProgressMode mode)
    : enabled_(mode == ProgressMode::on || (mode == ProgressMode::automatic && ::isatty(STDERR_FILENO))),
      started_(Clock::now()),
      phase_started_(started_),
      last_draw_(started_) {}

Progress::~Progress() {
  if (drawn_) std::fputc('\n', stderr);
}

void Progress::phase(std::string name, std::uint64_t total) {
  const std::lock_guard<std::mutex> lock(mutex_);
  phase_ = std::move(name);
  total_ = total;
  done_ = 0;
  phase_started_ = Clock::now();
  draw(true);
}

void Progress::advance(std::uint64_t bytes) {
  if (!enabled_) return;
  const std::lock_guard<std::mutex> lock(mutex_);
  done_ += bytes;
  draw(false);
}

void Progress::draw(bool force) {
  if (!enabled_) return;
  const auto now = Clock::now();
  if (now - started_ < std::chrono::seconds(1)) return;
  if (!force && now - last_draw_ < std::chrono::milliseconds(200)) return;
  last_draw_ = now;
  const double s = std::chrono::duration<double>(now - phase_started_).count();
  const double rate = s > 0 ? double(done_) / s : 0;
  std::string left = "";
  if (rate > 0 && total_ > done_) {
    const auto secs = static_cast<unsigned long long>(double(total_ - done_) / rate);
    char buf[32];
    std::snprintf(buf, sizeof buf, ", %llu:%02llu left", secs / 60, secs % 60);
    left = buf;
  }
  std::fprintf(stderr, "\rgpusort: %s: %s of %s, %s/s%s\x1b[K", phase_.c_str(), byte_size_text(done_).c_str(),
               byte_size_text(total_).c_str(), byte_size_text(std::uint64_t(rate)).c_str(), left.c_str());
  std::fflush(stderr);
  drawn_ = true;
}

}  // namespace gpusort::cli
