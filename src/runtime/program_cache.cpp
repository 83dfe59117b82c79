#include "runtime/program_cache.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "runtime/cache_directory.hpp"
#include "runtime/cache_entry.hpp"
#include "runtime/cache_files.hpp"

namespace gpusort::rt {
namespace {

std::atomic<std::uint64_t> g_compiled{0}, g_loaded{0}, g_stored{0};

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

bool cache_disabled() { return std::getenv("GPUSORT_NO_CACHE") != nullptr; }

// The trusted directory to use now, or nothing (after warning once if it is someone else's).
std::optional<std::filesystem::path> usable_directory() {
  CacheDirectory dir = check_cache_directory(true);
  warn_untrusted_cache_once(dir);
  if (!dir.usable) return std::nullopt;
  return dir.path;
}

// Closes the descriptor on every path out.
struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

bool read_exactly(int fd, unsigned char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t got = ::read(fd, data, size);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;  // error, or the file shrank under us
    data += got;
    size -= static_cast<std::size_t>(got);
  }
  return true;
}

bool write_all(int fd, const unsigned char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t put = ::write(fd, data, size);
    if (put < 0 && errno == EINTR) continue;
    if (put <= 0) return false;
    data += put;
    size -= static_cast<std::size_t>(put);
  }
  return true;
}

// The temporary file is complete and closed: move it into the slot. A rename replaces a damaged
// file, a FIFO or a symbolic link in the slot, but not a directory: an empty one is removed; a
// non-empty one is left alone, and this program simply stays uncached.
bool move_into_slot(const std::string& tmp, const std::string& slot) {
  if (::rename(tmp.c_str(), slot.c_str()) == 0) return true;
  struct stat st {};
  if (::lstat(slot.c_str(), &st) == 0 && S_ISDIR(st.st_mode) && ::rmdir(slot.c_str()) == 0)
    return ::rename(tmp.c_str(), slot.c_str()) == 0;
  return false;
}

}  // namespace

std::filesystem::path program_cache_dir() { return cache_directory_path(); }

std::string program_memo_key(const std::string& kernel_file, const std::vector<std::string>& defines) {
  std::size_t bytes = kernel_file.size();
  for (const std::string& d : defines) bytes += d.size() + 1;
  std::string key;
  key.reserve(bytes);
  key += kernel_file;
  for (const std::string& d : defines) (key += '\n') += d;  // no define holds a line break
  return key;
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

std::filesystem::path program_cache_entry_path(const std::string& key) { return program_cache_dir() / cache_entry_file_name(key); }

std::optional<std::vector<unsigned char>> program_cache_load(const std::string& key) {
  if (cache_disabled()) return std::nullopt;
  const auto hash = parse_cache_key(key);
  const auto dir = usable_directory();
  if (!hash || !dir) return std::nullopt;
  // O_NOFOLLOW: a symbolic link in the slot (to /dev/zero, say) is refused, not followed;
  // O_NONBLOCK: opening a FIFO does not wait for a writer. fstat then refuses all but regular files.
  Fd f{::open((*dir / cache_entry_file_name(key)).c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)};
  if (f.fd < 0) return std::nullopt;
  struct stat st {};
  if (::fstat(f.fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != ::geteuid()) return std::nullopt;
  const auto file_bytes = static_cast<std::uint64_t>(st.st_size);
  if (file_bytes <= kCacheHeaderBytes || file_bytes > kCacheHeaderBytes + kCacheMaxPayloadBytes) return std::nullopt;

  CacheHeader header{};
  if (!read_exactly(f.fd, header.data(), header.size())) return std::nullopt;
  const auto length = checked_payload_length(header, *hash);
  if (!length || *length != file_bytes - kCacheHeaderBytes) return std::nullopt;
  std::vector<unsigned char> payload(*length);
  if (!read_exactly(f.fd, payload.data(), payload.size()) || !payload_matches(header, payload)) return std::nullopt;
  ::futimens(f.fd, nullptr);  // recently used: the size limit evicts by modification time
  return payload;
}

void program_cache_store(const std::string& key, const std::vector<unsigned char>& binary) {
  if (cache_disabled() || binary.empty() || binary.size() > kCacheMaxPayloadBytes) return;
  const auto hash = parse_cache_key(key);
  const auto dir = usable_directory();
  if (!hash || !dir) return;
  std::random_device rd;
  const std::string tmp = (*dir / (key + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(rd()))).string();
  const CacheHeader header = make_cache_header(*hash, binary);
  bool written = false;
  {
    Fd f{::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600)};
    if (f.fd < 0) return;  // an unwritable cache only costs compile time
    written = write_all(f.fd, header.data(), header.size()) && write_all(f.fd, binary.data(), binary.size());
    written = ::close(f.fd) == 0 && written;
    f.fd = -1;
  }
  if (!written || !move_into_slot(tmp, (*dir / cache_entry_file_name(key)).string())) {
    ::unlink(tmp.c_str());
    return;
  }
  ++g_stored;
  evict_to_limit(*dir, cache_limit_bytes());
}

ProgramCacheInfo program_cache_info() {
  const CacheDirectory dir = check_cache_directory(false);
  ProgramCacheInfo info;
  info.dir = dir.path;
  info.usable = dir.usable;
  info.exists = dir.exists;
  info.problem = dir.problem;
  info.limit_bytes = cache_limit_bytes();
  if (dir.exists) {
    // Counted even when untrusted, so that `info` shows what is there.
    const CacheUsage usage = cache_usage(dir.path);
    info.entries = usage.entries;
    info.bytes = usage.bytes;
  }
  return info;
}

ProgramCacheClearResult program_cache_clear() {
  const CacheDirectory dir = check_cache_directory(false);
  ProgramCacheClearResult result;
  result.dir = dir.path;
  result.usable = dir.usable;
  result.problem = dir.problem;
  if (dir.usable && dir.exists) result.removed = remove_cache_files(dir.path);
  return result;
}

ProgramCacheStats program_cache_stats() { return {g_compiled.load(), g_loaded.load(), g_stored.load()}; }
void note_program_compiled() { ++g_compiled; }
void note_program_loaded() { ++g_loaded; }

}  // namespace gpusort::rt
