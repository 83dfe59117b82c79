#include "runtime/cache_files.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string_view>
#include <vector>

#include "runtime/cache_entry.hpp"

namespace gpusort::rt {
namespace {

constexpr std::uint64_t kDefaultLimit = std::uint64_t(1) << 30;
constexpr std::time_t kStaleTempSeconds = 3600;

struct FileInfo {
  std::string name;
  struct stat st;
};

// Every name of ours in the directory with its lstat (links are never followed).
std::vector<FileInfo> cache_files(const std::filesystem::path& dir) {
  std::vector<FileInfo> out;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (!is_cache_entry_name(name) && !is_cache_temp_name(name)) continue;
    FileInfo f{std::move(name), {}};
    if (::lstat((dir / f.name).c_str(), &f.st) == 0) out.push_back(std::move(f));
  }
  return out;
}

bool older(const struct stat& a, const struct stat& b) {
  if (a.st_mtim.tv_sec != b.st_mtim.tv_sec) return a.st_mtim.tv_sec < b.st_mtim.tv_sec;
  return a.st_mtim.tv_nsec < b.st_mtim.tv_nsec;
}

}  // namespace

bool is_cache_entry_name(const std::string& file_name) {
  constexpr std::string_view ext = ".bin";
  if (!file_name.ends_with(ext)) return false;
  std::string stem = file_name.substr(0, file_name.size() - ext.size());
  // Strip a ".v<digits>" format version, if any; what is left must be a key.
  const auto dot = stem.rfind(".v");
  if (dot != std::string::npos && dot + 2 < stem.size() &&
      stem.find_first_not_of("0123456789", dot + 2) == std::string::npos)
    stem.resize(dot);
  return parse_cache_key(stem).has_value();
}

bool is_cache_temp_name(const std::string& file_name) {
  const auto at = file_name.find(".tmp.");
  return at != std::string::npos && parse_cache_key(file_name.substr(0, at)).has_value();
}

std::uint64_t cache_limit_bytes() {
  const char* text = std::getenv("GPUSORT_CACHE_MAX_BYTES");
  if (!text || !*text) return kDefaultLimit;
  char* end = nullptr;
  errno = 0;
  const unsigned long long number = std::strtoull(text, &end, 10);
  if (errno != 0 || end == text || std::strchr(text, '-')) return kDefaultLimit;  // strtoull would negate
  int shift = 0;
  switch (*end) {
    case '\0': break;
    case 'K': case 'k': shift = 10; ++end; break;
    case 'M': case 'm': shift = 20; ++end; break;
    case 'G': case 'g': shift = 30; ++end; break;
    default: return kDefaultLimit;
  }
  if (*end != '\0' || number > (~0ull >> shift)) return kDefaultLimit;
  return std::uint64_t(number) << shift;
}

CacheUsage cache_usage(const std::filesystem::path& dir) {
  CacheUsage u;
  for (const auto& f : cache_files(dir)) {
    if (!S_ISREG(f.st.st_mode) || !is_cache_entry_name(f.name)) continue;
    ++u.entries;
    u.bytes += static_cast<std::uint64_t>(f.st.st_size);
  }
  return u;
}

void evict_to_limit(const std::filesystem::path& dir, std::uint64_t limit) {
  std::vector<FileInfo> entries;
  std::uint64_t total = 0;
  const std::time_t now = std::time(nullptr);
  for (auto& f : cache_files(dir)) {
    if (!S_ISREG(f.st.st_mode)) continue;
    if (is_cache_temp_name(f.name)) {
      if (now - f.st.st_mtim.tv_sec > kStaleTempSeconds) ::unlink((dir / f.name).c_str());
      continue;
    }
    total += static_cast<std::uint64_t>(f.st.st_size);
    entries.push_back(std::move(f));
  }
  if (total <= limit) return;
  std::sort(entries.begin(), entries.end(), [](const FileInfo& a, const FileInfo& b) { return older(a.st, b.st); });
  for (const auto& f : entries) {
    if (total <= limit) break;
    // Another process may be evicting too: whoever unlinks first frees the bytes.
    ::unlink((dir / f.name).c_str());
    total -= static_cast<std::uint64_t>(f.st.st_size);
  }
}

std::uint64_t remove_cache_files(const std::filesystem::path& dir) {
  std::uint64_t removed = 0;
  for (const auto& f : cache_files(dir))
    if (!S_ISDIR(f.st.st_mode) && ::unlink((dir / f.name).c_str()) == 0) ++removed;
  return removed;
}

}  // namespace gpusort::rt
