#pragma once
// A byte count as a person reads it ("1.5 GiB", "512.0 KiB"), for the command's listings.
#include <cstdint>
#include <cstdio>
#include <string>

namespace gpusort::cli {

inline std::string byte_size_text(std::uint64_t bytes) {
  char buf[32];
  const double v = static_cast<double>(bytes);
  if (bytes >= (std::uint64_t(1) << 30))
    std::snprintf(buf, sizeof buf, "%.1f GiB", v / double(1ull << 30));
  else if (bytes >= (std::uint64_t(1) << 20))
    std::snprintf(buf, sizeof buf, "%.1f MiB", v / double(1ull << 20));
  else
    std::snprintf(buf, sizeof buf, "%.1f KiB", v / 1024.0);
  return buf;
}

}  // namespace gpusort::cli
