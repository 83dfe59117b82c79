#pragma once
// Where the program cache lives and whether this process may trust it.
// A cache entry is code the device will run, so the directory must be the user's own: owned by
// the effective user and writable by nobody else. Otherwise another local user could plant or swap
// programs (the shared /tmp fallback made that easy), and gpusort would return their results.
#include <filesystem>
#include <string>

namespace gpusort::rt {

// $GPUSORT_CACHE_DIR, else $XDG_CACHE_HOME/gpusort, else $HOME/.cache/gpusort, else the per-user
// <temp>/gpusort-cache-<uid>.
std::filesystem::path cache_directory_path();

struct CacheDirectory {
  std::filesystem::path path;
  bool exists = false;   // false: not created yet (or could not be created)
  bool usable = false;   // exists (or may be created) and is trusted
  bool untrusted = false;  // exists but someone else could write it: warn, never use
  std::string problem;   // why not usable, for messages
};

// Checks the directory; with `create`, first creates it (mode 0700; parents as usual).
CacheDirectory check_cache_directory(bool create);

// The one "gpusort: warning:" line per process about an untrusted cache directory.
void warn_untrusted_cache_once(const CacheDirectory& dir);

}  // namespace gpusort::rt
