#include "core/dispatch.hpp"

namespace gpusort::core {
namespace {

std::string all_names() {
  std::string s;
  for (const auto& a : algo::registry()) s += (s.empty() ? "" : ", ") + a.name;
  return s;
}

std::string stable_names() {
  std::string s;
  for (const auto& a : algo::registry())
    if (a.can_be_stable) s += (s.empty() ? "" : ", ") + a.name;
  return s;
}

// Preference for "auto", best first; the first one present that fits the request wins.
constexpr const char* auto_preference_unstable[] = {"radix", "merge", "bitonic"};
constexpr const char* auto_preference_stable[] = {"radix", "merge", "section-merge"};

}  // namespace

const algo::Algorithm& choose_algorithm(const SortRequest& r) {
  const algo::Algorithm* chosen = nullptr;
  if (r.algorithm.empty() || r.algorithm == "auto") {
    if (r.stable) {
      for (const char* name : auto_preference_stable)
        if ((chosen = algo::find(name))) break;
      if (!chosen)
        throw Error(errc::unsupported, "a stable sort was requested but this build has no stable algorithm yet");
    } else {
      for (const char* name : auto_preference_unstable)
        if ((chosen = algo::find(name))) break;
    }
  } else {
    chosen = algo::find(r.algorithm);
    if (!chosen) throw Error(errc::invalid_argument, "unknown algorithm '" + r.algorithm + "' (known: " + all_names() + ")");
  }
  if (r.stable && !chosen->can_be_stable)
    throw Error(errc::invalid_argument, "algorithm '" + chosen->name + "' cannot sort stably; drop SortOptions::stable or "
                                        "choose a stable algorithm with SortOptions::algorithm (stable: " +
                                            stable_names() + ")");
  if (chosen->max_n != 0 && r.n > chosen->max_n)
    throw Error(errc::unsupported, "algorithm '" + chosen->name + "' is O(n^2) and accepts at most " +
                                       std::to_string(chosen->max_n) + " keys (got " + std::to_string(r.n) + "); use " +
                                       chosen->too_large_hint + " instead");
  return *chosen;
}

}  // namespace gpusort::core
