#pragma once
// Device time of each phase of a driver, for SortOptions::verbose: mark() records an event after
// the work queued so far, print() waits for the last one and writes "<label>: <phase> <ms>" per
// phase to stderr. Off (no events, no waiting) unless `on`.
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "runtime/device.hpp"

namespace gpusort::rt {

struct PhaseTimer {
  Device& dev;
  bool on;
  const char* label;
  std::vector<std::pair<std::string, std::unique_ptr<Event>>> marks = {};
  void mark(std::string what) {
    if (on) marks.emplace_back(std::move(what), dev.record());
  }
  void print() {
    if (!on || marks.size() < 2) return;
    marks.back().second->wait();
    for (std::size_t i = 1; i < marks.size(); ++i)
      std::fprintf(stderr, "%s: %-24s %8.3f ms\n", label, marks[i].first.c_str(),
                   marks[i].second->elapsed_ms_since(*marks[i - 1].second));
  }
};

}  // namespace gpusort::rt
