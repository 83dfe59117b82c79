#pragma once
// The valid sorts the option-line fuzz starts from, before it damages the command line.
// On PoCL every new (algorithm, key type, value width, work-group size, items, variant) costs a
// kernel compile of one to a few seconds, so the device settings come from this short table and
// the fuzz only adds values that are invalid or that need no new program (order, stability, memory
// limit, device list, flags). Host-side algorithms compile nothing, so they take any key type ("*").
#include <string>
#include <vector>

namespace cli_fuzz {

struct SortProfile {
  std::string algorithm;
  std::string type;         // -t name, or "*" for any key type
  std::string values_type;  // empty: keys only
  bool descending = false;
  bool stable = false;
  std::string wg, items, local, merge, host_levels;  // empty: not given
};

// Every algorithm family, key kind and width, pairs of several widths, non-default variants.
inline std::vector<SortProfile> sort_profiles(const std::vector<std::string>& listed_algorithms) {
  std::vector<SortProfile> v = {
      {"auto", "u32", "", false, false, "", "", "", "", ""},
      {"radix", "u32", "u32", false, false, "", "", "", "", ""},
      {"radix", "f32", "", true, false, "", "", "", "", ""},
      {"merge", "u32", "bytes16", false, true, "", "", "rank", "path", ""},
      {"merge", "i64", "", true, false, "64", "", "", "", ""},
      {"bitonic", "i32", "", false, false, "", "", "fused2", "", ""},
      {"rank", "u16", "u32", false, true, "", "", "", "", ""},
      {"odd-even", "u8", "", false, false, "", "", "", "", ""},
      {"naive-merge", "i16", "", true, false, "", "", "", "", ""},
      {"section-merge", "u64", "", false, false, "", "", "", "", ""},
      {"hybrid", "u32", "u64", false, false, "", "", "", "", "2"},
      {"batcher-recursive", "*", "bytes16", false, false, "", "", "", "", ""},
      {"batcher-iterative", "*", "", false, false, "", "", "", "", ""},
  };
  // An algorithm added later is fuzzed too, in its cheapest form.
  for (const auto& name : listed_algorithms) {
    bool known = false;
    for (const auto& p : v) known = known || p.algorithm == name;
    if (!known) v.push_back({name, "u32", "", false, false, "", "", "", "", ""});
  }
  return v;
}

inline const std::vector<std::string>& key_type_names() {
  static const std::vector<std::string> v = {"u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64", "f32", "f64"};
  return v;
}

// Width in bytes of a --values-type the profiles use.
inline std::size_t value_width(const std::string& name) {
  if (name.rfind("bytes", 0) == 0) return std::stoul(name.substr(5));
  const std::string bits = name.substr(1);
  return std::stoul(bits) / 8;
}

}  // namespace cli_fuzz
