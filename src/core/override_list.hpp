#pragma once
// The "name=N,name=N" lists the tuning overrides are written in (gpusort-bench --radix-policy,
// --merge-policy, gpusort-dist-bench --dist-policy; the tests' seams): one reader for all of them.
#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <system_error>

#include "gpusort/errors.hpp"

namespace gpusort::core {

// Calls item(name, value, text) for each comma-separated "name=unsigned-integer" of spec (empty
// items are skipped); text is the item as written, for the caller's own range errors.
// Error(invalid_argument) "<what>: 'ITEM' is not name=unsigned-integer" for an item that is not.
template <class F>
void for_each_override(std::string_view spec, const char* what, F&& item) {
  while (!spec.empty()) {
    const std::string_view text = spec.substr(0, spec.find(','));
    spec.remove_prefix(std::min(spec.size(), text.size() + 1));
    if (text.empty()) continue;
    const std::size_t eq = text.find('=');
    const std::string_view name = text.substr(0, eq), number = eq == text.npos ? "" : text.substr(eq + 1);
    std::uint64_t value = 0;
    const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
    if (number.empty() || ec != std::errc() || end != number.data() + number.size())
      throw Error(errc::invalid_argument, std::string(what) + ": '" + std::string(text) + "' is not name=unsigned-integer");
    item(name, value, text);
  }
}

}  // namespace gpusort::core
