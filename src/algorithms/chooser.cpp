#include "algorithms/chooser.hpp"

namespace gpusort::algo {
namespace {

std::string all_names() {
  std::string s;
  for (const auto& a : registry()) s += (s.empty() ? "" : ", ") + a.name;
  return s;
}

std::string stable_names() {
  std::string s;
  for (const auto& a : registry())
    if (a.can_be_stable) s += (s.empty() ? "" : ", ") + a.name;
  return s;
}

// Preference for "auto", best first; the first one present that fits the request wins.
constexpr const char* auto_preference_unstable[] = {"radix", "merge", "bitonic"};
constexpr const char* auto_preference_stable[] = {"radix", "merge", "section-merge"};

}  // namespace

const Algorithm& choose(const SortOptions& options) {
  const Algorithm* chosen = nullptr;
  if ((options.algorithm.empty() || options.algorithm == "auto") && !options.comparator.empty()) {
    chosen = find("merge");  // the algorithm that takes a run-time order
    if (!chosen) throw Error(errc::unsupported, "SortOptions::comparator needs the merge algorithm, absent from this build");
  } else if (options.algorithm.empty() || options.algorithm == "auto") {
    if (options.stable) {
      for (const char* name : auto_preference_stable)
        if ((chosen = find(name))) break;
      if (!chosen)
        throw Error(errc::unsupported, "a stable sort was requested but this build has no stable algorithm yet");
    } else {
      for (const char* name : auto_preference_unstable)
        if ((chosen = find(name))) break;
    }
  } else {
    chosen = find(options.algorithm);
    if (!chosen)
      throw Error(errc::invalid_argument, "unknown algorithm '" + options.algorithm + "' (known: " + all_names() + ")");
  }
  if (options.stable && !chosen->can_be_stable)
    throw Error(errc::invalid_argument, "algorithm '" + chosen->name + "' cannot sort stably; drop SortOptions::stable or "
                                        "choose a stable algorithm with SortOptions::algorithm (stable: " +
                                            stable_names() + ")");
  return *chosen;
}

void check_size(const Algorithm& algorithm, std::uint64_t n) {
  if (algorithm.max_n != 0 && n > algorithm.max_n)
    throw Error(errc::unsupported, "algorithm '" + algorithm.name + "' is O(n^2) and accepts at most " +
                                       std::to_string(algorithm.max_n) + " keys (got " + std::to_string(n) + "); use " +
                                       algorithm.too_large_hint + " instead");
}

}  // namespace gpusort::algo
