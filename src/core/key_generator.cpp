#include "core/key_generator.hpp"

#include <charconv>

namespace gpusort::core {

std::optional<Distribution> parse_distribution(std::string_view name) {
  if (name == "uniform") return Distribution{Dist::uniform};
  if (name == "sorted") return Distribution{Dist::sorted};
  if (name == "reverse") return Distribution{Dist::reverse};
  if (name == "organ-pipe") return Distribution{Dist::organ_pipe};
  if (name == "few-unique") return Distribution{Dist::few_unique};
  if (name == "all-equal") return Distribution{Dist::all_equal};
  if (name == "specials") return Distribution{Dist::specials};
  if (name == "entropy") return Distribution{Dist::entropy, 3};
  if (name.rfind("entropy-", 0) == 0) {
    const std::string_view digits = name.substr(8);
    unsigned k = 0;
    const auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), k);
    if (!digits.empty() && ec == std::errc() && p == digits.data() + digits.size() && k >= 1 && k <= 64)
      return Distribution{Dist::entropy, k};
  }
  return std::nullopt;
}

std::string distribution_name(const Distribution& d) {
  switch (d.kind) {
    case Dist::uniform: return "uniform";
    case Dist::entropy: return d.and_count == 3 ? "entropy" : "entropy-" + std::to_string(d.and_count);
    case Dist::sorted: return "sorted";
    case Dist::reverse: return "reverse";
    case Dist::organ_pipe: return "organ-pipe";
    case Dist::few_unique: return "few-unique";
    case Dist::all_equal: return "all-equal";
    case Dist::specials: return "specials";
  }
  return "?";
}

std::string distribution_help() {
  return "uniform     random keys over the whole type; floats: random finite bit patterns (Inf/NaN bit\n"
         "            patterns remapped to finite ones), so all magnitudes, both signs and +-0 occur\n"
         "sorted      ascending keys spread over the whole finite range\n"
         "reverse     the same, descending\n"
         "organ-pipe  first half ascending, second half descending\n"
         "few-unique  keys drawn from a set of 16 random values\n"
         "all-equal   one random value repeated\n"
         "entropy-K   each key the AND of K uniform random words (K = 1..64; fewer distinct bits as K grows)\n"
         "specials    a third of the keys are edge values (+-0, +-inf, NaNs, denormals, min, max), the rest uniform";
}

void generate_keys(key_type t, void* out, std::size_t n, const Distribution& d, std::uint64_t seed) {
  visit_key_type(t, [&](auto tag) {
    using T = decltype(tag);
    generate_keys(static_cast<T*>(out), n, d, seed);
  });
}

}  // namespace gpusort::core
