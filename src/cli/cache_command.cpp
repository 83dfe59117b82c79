// gpusort cache info | clear. The runtime (runtime/program_cache.hpp) finds, checks and counts the
// files; this file only prints.
#include "cache_command.hpp"

#include <cstdint>
#include <cstdio>
#include <string>

#include "byte_size_text.hpp"
#include "gpusort/errors.hpp"
#include "runtime/program_cache.hpp"

namespace gpusort::cli {
namespace {

// "1.0 GiB (1073741824 bytes)": the exact count too, since the limit is set in bytes.
std::string bytes_text(std::uint64_t bytes) {
  const std::string exact = std::to_string(bytes) + " bytes";
  return bytes < 1024 ? exact : byte_size_text(bytes) + " (" + exact + ")";
}

int run_info() {
  const rt::ProgramCacheInfo info = rt::program_cache_info();
  std::string usable = info.usable ? "yes" : "no (" + info.problem + ")";
  if (info.usable && !info.exists) usable += " (" + info.problem + ")";
  std::printf("directory: %s\n", info.dir.string().c_str());
  std::printf("usable:    %s\n", usable.c_str());
  std::printf("entries:   %llu\n", (unsigned long long)info.entries);
  std::printf("size:      %s\n", bytes_text(info.bytes).c_str());
  std::printf("limit:     %s; set with GPUSORT_CACHE_MAX_BYTES\n", bytes_text(info.limit_bytes).c_str());
  return 0;
}

int run_clear() {
  const rt::ProgramCacheClearResult r = rt::program_cache_clear();
  if (!r.usable)
    throw Error(errc::unsupported, "not clearing the kernel cache " + r.dir.string() + ": " + r.problem);
  std::printf("removed %llu cached program file%s from %s\n", (unsigned long long)r.removed, r.removed == 1 ? "" : "s",
              r.dir.string().c_str());
  return 0;
}

}  // namespace

CLI::App* add_cache_command(CLI::App& app) {
  auto* cache = app.add_subcommand("cache", "Show or clear the on-disk cache of compiled kernel programs");
  cache->require_subcommand(1);
  cache->add_subcommand("info", "Print the cache directory, its entries and size, the size limit, and whether it is used");
  cache->add_subcommand("clear", "Remove the cached programs (only the cache's own files)");
  return cache;
}

int run_cache(const CLI::App& cache_command) {
  if (cache_command.got_subcommand("clear")) return run_clear();
  return run_info();
}

}  // namespace gpusort::cli
