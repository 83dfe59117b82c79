#pragma once
// On-disk cache of compiled kernel binaries, shared by all processes of a user.
// Location: $GPUSORT_CACHE_DIR, else $XDG_CACHE_HOME/gpusort, else ~/.cache/gpusort, else
// <temp>/gpusort-cache-<uid>; a directory not owned by the user or writable by others is not used
// (one warning per process). Entries are keyed by a hash of (backend, device, driver, source,
// options), carry a checked header (cache_entry.hpp), and are written through a temporary file and
// a rename, so concurrent processes never see a partial entry. Anything that fails the checks is
// ignored and replaced: the cache can cost a compile, never a crash, a hang or a wrong result.
// The entries are kept under $GPUSORT_CACHE_MAX_BYTES (default 1 GiB), least recently used first out.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace gpusort::rt {

std::filesystem::path program_cache_dir();

// The in-memory key of a program (a backend's map of built programs): its file and defines in one
// string, built with one allocation. Every sort looks its programs up by it, so the backends build
// their compiler options only when it misses (the single-tile radix sort's whole host path is a
// few microseconds).
std::string program_memo_key(const std::string& kernel_file, const std::vector<std::string>& defines);

std::string program_cache_key(const std::string& backend, const std::string& device, const std::string& driver,
                              const std::string& source, const std::string& options);

// Where the entry for `key` lives (whether or not it exists).
std::filesystem::path program_cache_entry_path(const std::string& key);

std::optional<std::vector<unsigned char>> program_cache_load(const std::string& key);
void program_cache_store(const std::string& key, const std::vector<unsigned char>& binary);  // best effort

// For `gpusort cache info`.
struct ProgramCacheInfo {
  std::filesystem::path dir;
  bool usable = false;
  bool exists = false;
  std::string problem;  // why not usable (or "not created yet")
  std::uint64_t entries = 0;
  std::uint64_t bytes = 0;
  std::uint64_t limit_bytes = 0;
};
ProgramCacheInfo program_cache_info();

// For `gpusort cache clear`: removes the cache's own files only; nothing in an untrusted directory.
struct ProgramCacheClearResult {
  std::filesystem::path dir;
  bool usable = false;
  std::string problem;
  std::uint64_t removed = 0;
};
ProgramCacheClearResult program_cache_clear();

// Counters for this process: how many programs were compiled and how many came from disk.
struct ProgramCacheStats {
  std::uint64_t compiled = 0;
  std::uint64_t loaded = 0;
  std::uint64_t stored = 0;  // compiled programs written to the disk cache (0: it is unusable or off)
};
ProgramCacheStats program_cache_stats();
void note_program_compiled();
void note_program_loaded();

}  // namespace gpusort::rt
