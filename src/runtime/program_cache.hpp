#pragma once
// On-disk cache of compiled kernel binaries, shared by all processes of a user.
// Location: $GPUSORT_CACHE_DIR, else $XDG_CACHE_HOME/gpusort, else ~/.cache/gpusort.
// Entries are keyed by a hash of (backend, device, driver, source, options) and written through a
// temporary file and a rename, so concurrent processes never see a partial entry.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace gpusort::rt {

std::filesystem::path program_cache_dir();

std::string program_cache_key(const std::string& backend, const std::string& device, const std::string& driver,
                              const std::string& source, const std::string& options);

std::optional<std::vector<unsigned char>> program_cache_load(const std::string& key);
void program_cache_store(const std::string& key, const std::vector<unsigned char>& binary);  // best effort

// Counters for this process: how many programs were compiled and how many came from disk.
struct ProgramCacheStats {
  std::uint64_t compiled = 0;
  std::uint64_t loaded = 0;
};
ProgramCacheStats program_cache_stats();
void note_program_compiled();
void note_program_loaded();

}  // namespace gpusort::rt
