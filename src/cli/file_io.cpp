#include "file_io.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>

#include "gpusort/errors.hpp"

namespace gpusort::cli {
namespace {

std::string quoted(const std::string& s) { return "'" + s + "'"; }

std::string directory_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string base_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Temporary outputs are removed if the process is interrupted (Ctrl-C, kill) mid-run: the
// handler unlinks every registered path (unlink is async-signal-safe), then dies of the signal.
constexpr int kMaxTemps = 8;
std::atomic<char*> g_temps[kMaxTemps];

extern "C" void remove_temps_and_die(int sig) {
  for (auto& slot : g_temps)
    if (char* p = slot.load()) ::unlink(p);
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

void install_signal_cleanup() {
  static const bool installed = [] {
    struct sigaction sa {};
    sa.sa_handler = remove_temps_and_die;
    sigemptyset(&sa.sa_mask);
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) ::sigaction(sig, &sa, nullptr);
    return true;
  }();
  (void)installed;
}

void register_temp(const std::string& path) {
  install_signal_cleanup();
  char* copy = ::strdup(path.c_str());
  for (auto& slot : g_temps) {
    char* expected = nullptr;
    if (slot.compare_exchange_strong(expected, copy)) return;
  }
  std::free(copy);  // more outputs than slots: still correct, just not cleaned on a signal
}

void unregister_temp(const std::string& path) {
  for (auto& slot : g_temps) {
    char* p = slot.load();
    if (p && path == p && slot.compare_exchange_strong(p, nullptr)) {
      std::free(p);
      return;
    }
  }
}

struct FileCloser {
  void operator()(std::FILE* f) const noexcept { std::fclose(f); }
};

}  // namespace

std::vector<unsigned char> read_file(const std::string& path, const std::string& what) {
  std::unique_ptr<std::FILE, FileCloser> f(std::fopen(path.c_str(), "rb"));
  if (!f) throw Error(errc::io_error, "cannot open " + what + " file " + quoted(path) + ": " + std::strerror(errno));
  struct stat st {};
  if (::fstat(::fileno(f.get()), &st) != 0)
    throw Error(errc::io_error, "cannot stat " + what + " file " + quoted(path) + ": " + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) throw Error(errc::io_error, what + " " + quoted(path) + " is a directory, not a file");
  if (!S_ISREG(st.st_mode))
    throw Error(errc::io_error, what + " " + quoted(path) + " is not a regular file");
  const auto size = static_cast<std::size_t>(st.st_size);
  std::vector<unsigned char> data;
  try {
    data.resize(size);
  } catch (const std::bad_alloc&) {
    throw Error(errc::out_of_memory,
                "not enough host memory to read " + what + " file " + quoted(path) + " (" + std::to_string(size) + " bytes)");
  }
  if (size != 0) {
    const std::size_t got = std::fread(data.data(), 1, size, f.get());
    if (got != size) {
      const int err = std::ferror(f.get()) ? errno : 0;
      throw Error(errc::io_error, "cannot read " + what + " file " + quoted(path) + ": " +
                                      (err ? std::strerror(err) : "file shrank while being read"));
    }
  }
  return data;
}

AtomicOutput::AtomicOutput(std::string path, std::string what) : path_(std::move(path)), what_(std::move(what)) {
  if (path_.empty()) throw Error(errc::invalid_argument, what_ + " file name is empty");
  struct stat st {};
  if (::stat(path_.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    throw Error(errc::io_error, "cannot write " + what_ + " " + quoted(path_) + ": it is a directory");
  std::string templ = directory_of(path_) + "/." + base_of(path_) + ".gpusort-tmp-XXXXXX";
  std::vector<char> buf(templ.begin(), templ.end());
  buf.push_back('\0');
  fd_ = ::mkstemp(buf.data());
  if (fd_ < 0) {
    const int err = errno;
    throw Error(errc::io_error, "cannot write " + what_ + " " + quoted(path_) + ": " + std::strerror(err));
  }
  temp_path_ = buf.data();
  register_temp(temp_path_);
  // mkstemp creates 0600; give the result the mode a plain open() would have.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd_, 0666 & ~mask);
}

AtomicOutput::~AtomicOutput() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_ && !temp_path_.empty()) {
    ::unlink(temp_path_.c_str());
    unregister_temp(temp_path_);
  }
}

void AtomicOutput::fail(const std::string& action, int err) {
  throw Error(errc::io_error, "cannot " + action + " " + what_ + " " + quoted(path_) + ": " + std::strerror(err));
}

void AtomicOutput::write(const void* data, std::size_t bytes) {
  if (fd_ < 0) throw Error(errc::io_error, "internal: write to a finished output " + quoted(path_));
  auto p = static_cast<const unsigned char*>(data);
  while (bytes > 0) {
    const std::size_t chunk = bytes < (std::size_t(1) << 30) ? bytes : (std::size_t(1) << 30);
    const ssize_t n = ::write(fd_, p, chunk);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("write", errno);
    }
    p += n;
    bytes -= static_cast<std::size_t>(n);
  }
}

void AtomicOutput::finish() {
  if (fd_ < 0) return;
  if (::fsync(fd_) != 0) fail("sync", errno);
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) fail("close", errno);
}

void AtomicOutput::commit() {
  finish();
  if (::rename(temp_path_.c_str(), path_.c_str()) != 0) fail("rename temporary file onto", errno);
  committed_ = true;
  unregister_temp(temp_path_);
  // Make the rename itself durable; failure here loses nothing the caller can act on.
  const int dfd = ::open(directory_of(path_).c_str(), O_RDONLY | O_DIRECTORY);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

void write_file_atomic(const std::string& path, const std::string& what, const void* data, std::size_t bytes) {
  AtomicOutput out(path, what);
  out.write(data, bytes);
  out.commit();
}

}  // namespace gpusort::cli
