#include "runtime/program_cache.hpp"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <random>

namespace gpusort::rt {
namespace {

std::atomic<std::uint64_t> g_compiled{0}, g_loaded{0};

// FNV-1a over the parts with a separator, twice with different offsets: 128 bits.
std::uint64_t fnv1a(std::uint64_t h, const std::string& s) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  h ^= 0xff;
  h *= 1099511628211ull;
  return h;
}

}  // namespace

std::filesystem::path program_cache_dir() {
  if (const char* d = std::getenv("GPUSORT_CACHE_DIR"); d && *d) return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::filesystem::path(x) / "gpusort";
  if (const char* h = std::getenv("HOME"); h && *h) return std::filesystem::path(h) / ".cache" / "gpusort";
  return std::filesystem::temp_directory_path() / "gpusort-cache";
}

std::string program_cache_key(const std::string& backend, const std::string& device, const std::string& driver,
                              const std::string& source, const std::string& options) {
  std::uint64_t a = 14695981039346656037ull, b = 0x9e3779b97f4a7c15ull;
  for (const std::string* part : {&backend, &device, &driver, &source, &options}) {
    a = fnv1a(a, *part);
    b = fnv1a(b, *part);
  }
  char buf[40];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", (unsigned long long)a, (unsigned long long)b);
  return backend + "-" + buf;
}

std::optional<std::vector<unsigned char>> program_cache_load(const std::string& key) {
  if (std::getenv("GPUSORT_NO_CACHE")) return std::nullopt;
  std::ifstream in(program_cache_dir() / (key + ".bin"), std::ios::binary);
  if (!in) return std::nullopt;
  std::vector<unsigned char> data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (data.empty()) return std::nullopt;
  return data;
}

void program_cache_store(const std::string& key, const std::vector<unsigned char>& binary) {
  if (std::getenv("GPUSORT_NO_CACHE")) return;
  std::error_code ec;
  auto dir = program_cache_dir();
  std::filesystem::create_directories(dir, ec);
  std::random_device rd;
  auto tmp = dir / (key + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(rd()));
  {
    std::ofstream out(tmp, std::ios::binary);
    if (!out) return;  // an unwritable cache only costs compile time
    out.write(reinterpret_cast<const char*>(binary.data()), static_cast<std::streamsize>(binary.size()));
    if (!out.good()) {
      out.close();
      std::filesystem::remove(tmp, ec);
      return;
    }
  }
  std::filesystem::rename(tmp, dir / (key + ".bin"), ec);
  if (ec) std::filesystem::remove(tmp, ec);
}

ProgramCacheStats program_cache_stats() { return {g_compiled.load(), g_loaded.load()}; }
void note_program_compiled() { ++g_compiled; }
void note_program_loaded() { ++g_loaded; }

}  // namespace gpusort::rt
