// The distributed sort's override seam (dist_policy.hpp).
#include "dist/dist_policy.hpp"

#include <algorithm>
#include <charconv>
#include <string>

#include "gpusort/errors.hpp"

namespace gpusort::dist {
namespace {
DistPolicyOverride g_override;
}  // namespace

void set_dist_policy_override(const DistPolicyOverride& o) { g_override = o; }
const DistPolicyOverride& dist_policy_override() { return g_override; }

DistPolicyOverride parse_dist_policy_override(std::string_view spec) {
  DistPolicyOverride o;
  while (!spec.empty()) {
    const std::string_view item = spec.substr(0, spec.find(','));
    spec.remove_prefix(std::min(spec.size(), item.size() + 1));
    if (item.empty()) continue;
    const std::size_t eq = item.find('=');
    const std::string_view name = item.substr(0, eq), text = eq == item.npos ? "" : item.substr(eq + 1);
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size())
      throw Error(errc::invalid_argument, "dist policy: '" + std::string(item) + "' is not name=unsigned-integer");
    if (name == "recv_align") {
      if (v == 0 || v > 4096 || (v & (v - 1)) != 0)
        throw Error(errc::invalid_argument,
                    "dist policy: recv_align must be a power of two from 1 to 4096, not " + std::string(text));
      o.recv_align = v;
    } else {
      throw Error(errc::invalid_argument, "dist policy: unknown name '" + std::string(name) +
                                              "' (src/dist/dist_policy.hpp, DistPolicyOverride)");
    }
  }
  return o;
}

}  // namespace gpusort::dist
