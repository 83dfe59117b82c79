#pragma once
// The files of the program cache directory: which names are ours, how much they hold, and
// trimming them to the size limit (least recently used first; a load touches an entry's mtime).
// Only names the cache itself makes are ever counted or removed: entries "<key>.v<N>.bin" (and
// "<key>.bin" from before the entry header), and "<key>.tmp.<suffix>" files being written.
#include <cstdint>
#include <filesystem>
#include <string>

namespace gpusort::rt {

bool is_cache_entry_name(const std::string& file_name);
bool is_cache_temp_name(const std::string& file_name);

// $GPUSORT_CACHE_MAX_BYTES: bytes, or a number followed by K, M or G (binary units); default 1 GiB.
std::uint64_t cache_limit_bytes();

struct CacheUsage {
  std::uint64_t entries = 0;
  std::uint64_t bytes = 0;
};
CacheUsage cache_usage(const std::filesystem::path& dir);

// Removes least recently used entries until the entries fit in `limit`, and temporary files that
// a crashed writer left behind (older than an hour). Never throws.
void evict_to_limit(const std::filesystem::path& dir, std::uint64_t limit);

// Removes every entry and temporary file (not directories, not other names); returns how many.
std::uint64_t remove_cache_files(const std::filesystem::path& dir);

}  // namespace gpusort::rt
