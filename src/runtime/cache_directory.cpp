#include "runtime/cache_directory.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace gpusort::rt {
namespace {

std::string uid_text(uid_t uid) { return std::to_string(static_cast<unsigned long>(uid)); }

}  // namespace

std::filesystem::path cache_directory_path() {
  if (const char* d = std::getenv("GPUSORT_CACHE_DIR"); d && *d) return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::filesystem::path(x) / "gpusort";
  if (const char* h = std::getenv("HOME"); h && *h) return std::filesystem::path(h) / ".cache" / "gpusort";
  // The temporary directory is shared by all users: one name per user, and the checks below make
  // sure a directory planted there by someone else under our name is not used.
  std::error_code ec;
  std::filesystem::path tmp = std::filesystem::temp_directory_path(ec);
  if (ec) tmp = "/tmp";
  return tmp / ("gpusort-cache-" + uid_text(::geteuid()));
}

CacheDirectory check_cache_directory(bool create) {
  CacheDirectory d;
  d.path = cache_directory_path();
  const std::string p = d.path.string();
  if (create) {
    std::error_code ec;
    if (d.path.has_parent_path()) std::filesystem::create_directories(d.path.parent_path(), ec);
    ::mkdir(p.c_str(), 0700);  // an existing directory keeps its mode; it is checked below
  }
  struct stat link {};
  if (::lstat(p.c_str(), &link) != 0) {
    const int error = errno;
    // Missing: usable once created (info reports it like that); a failed create only costs compiles.
    d.usable = !create && error == ENOENT;
    d.problem = d.usable ? "not created yet" : "cannot use it: " + std::string(std::strerror(error));
    return d;
  }
  const uid_t me = ::geteuid();
  // A symbolic link the user made (e.g. ~/.cache/gpusort -> /scratch/...) is fine; one made by
  // someone else could be re-pointed at will.
  if (S_ISLNK(link.st_mode) && link.st_uid != me) {
    d.untrusted = true;
    d.problem = "it is a symbolic link owned by uid " + uid_text(link.st_uid);
    return d;
  }
  struct stat st {};
  if (::stat(p.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    d.problem = "it is not a directory";
    return d;
  }
  d.exists = true;
  if (st.st_uid != me) {
    d.untrusted = true;
    d.problem = "it is owned by uid " + uid_text(st.st_uid) + ", not by the current user (uid " + uid_text(me) + ")";
  } else if (st.st_mode & (S_IWGRP | S_IWOTH)) {
    d.untrusted = true;
    d.problem = "it is writable by group or others";
  } else {
    d.usable = true;
  }
  return d;
}

void warn_untrusted_cache_once(const CacheDirectory& dir) {
  static std::atomic<bool> warned{false};
  if (!dir.untrusted || warned.exchange(true)) return;
  std::fprintf(stderr, "gpusort: warning: not using the kernel cache %s: %s (programs are compiled every run)\n",
               dir.path.string().c_str(), dir.problem.c_str());
}

}  // namespace gpusort::rt
