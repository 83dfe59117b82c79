// device_class (gpusort/device.hpp): the key tuning rows are picked by.
#include <cctype>
#include <string>

#include "gpusort/device.hpp"

namespace gpusort {
namespace {

bool contains(const std::string& text, const char* part) { return text.find(part) != std::string::npos; }

// The model in a CUDA device's name: its first word with a digit, up to a '-' ("NVIDIA H100 80GB
// HBM3" -> "H100", "NVIDIA A100-SXM4-80GB" -> "A100", "NVIDIA GeForce RTX 4090" -> "4090").
std::string model_of(const std::string& name) {
  std::size_t at = 0;
  while (at < name.size()) {
    while (at < name.size() && name[at] == ' ') ++at;
    std::size_t end = at;
    while (end < name.size() && name[end] != ' ' && name[end] != '-') ++end;
    const std::string word = name.substr(at, end - at);
    for (char c : word)
      if (std::isdigit(static_cast<unsigned char>(c))) return word;
    at = name.find(' ', at);
    if (at == std::string::npos) break;
  }
  return "unknown";
}

// A maker's short name, lower case: "nvidia", "amd", "intel", else the vendor string's first word.
std::string vendor_key(const std::string& vendor) {
  if (contains(vendor, "NVIDIA")) return "nvidia";
  if (contains(vendor, "AMD") || contains(vendor, "Advanced Micro Devices")) return "amd";
  if (contains(vendor, "Intel")) return "intel";
  std::string key;
  for (char c : vendor) {
    if (c == ' ') break;
    key += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return key.empty() ? "unknown" : key;
}

// The key itself (device_class keeps the last one per thread).
std::string class_of(const DeviceDescription& d) {
  if (!d.is_gpu) return "cpu";
  const std::string arch = d.architecture.empty() ? "unknown" : d.architecture;
  if (d.backend == "cuda") return "cuda:" + arch + ":" + model_of(d.name);
  return d.backend + ":" + vendor_key(d.vendor) + ":" + arch;
}

}  // namespace

std::string device_class(const DeviceDescription& d) {
  // The tuning lookups ask for every sort, between its first and last launch: the last answer is
  // kept per thread, so a sort pays a few string comparisons rather than building the key again.
  struct Last {
    std::string backend, name, vendor, architecture, key;
    bool is_gpu = false, valid = false;
  };
  thread_local Last last;
  if (last.valid && last.is_gpu == d.is_gpu && last.backend == d.backend && last.name == d.name &&
      last.vendor == d.vendor && last.architecture == d.architecture)
    return last.key;
  last = {d.backend, d.name, d.vendor, d.architecture, class_of(d), d.is_gpu, true};
  return last.key;
}


}  // namespace gpusort
