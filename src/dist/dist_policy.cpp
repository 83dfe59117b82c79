// The distributed sort's override seam (dist_policy.hpp).
#include "dist/dist_policy.hpp"

#include <algorithm>
#include <charconv>
#include <string>

#include "core/override_list.hpp"
#include "gpusort/errors.hpp"

namespace gpusort::dist {
namespace {
DistPolicyOverride g_override;
}  // namespace

void set_dist_policy_override(const DistPolicyOverride& o) { g_override = o; }
const DistPolicyOverride& dist_policy_override() { return g_override; }

DistPolicyOverride parse_dist_policy_override(std::string_view spec) {
  DistPolicyOverride o;
  core::for_each_override(spec, "dist policy", [&](std::string_view name, std::uint64_t v, std::string_view) {
    if (name != "recv_align")
      throw Error(errc::invalid_argument, "dist policy: unknown name '" + std::string(name) +
                                              "' (src/dist/dist_policy.hpp, DistPolicyOverride)");
    if (v == 0 || v > 4096 || (v & (v - 1)) != 0)
      throw Error(errc::invalid_argument,
                  "dist policy: recv_align must be a power of two from 1 to 4096, not " + std::to_string(v));
    o.recv_align = v;
  });
  return o;
}

}  // namespace gpusort::dist
