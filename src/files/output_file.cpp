#include "files/output_file.hpp"

#include <fcntl.h>
#include <sys/xattr.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <vector>

#include "files/file_io.hpp"
#include "gpusort/errors.hpp"
#include "files/temporary_files.hpp"
#include "files/temp_names.hpp"

namespace gpusort::files {
namespace {

std::string quoted(const std::string& s) { return "'" + s + "'"; }

// The descriptor a standard-stream name stands for: "-", /dev/stdout, /dev/stderr, /dev/fd/N and
// /proc/self/fd/N. Opening those names would reopen (or, through rename, replace) what they point
// to; writing to the descriptor itself is what a user means.
std::optional<int> standard_stream_fd(const std::string& path) {
  if (path == "-" || path == "/dev/stdout") return STDOUT_FILENO;
  if (path == "/dev/stderr") return STDERR_FILENO;
  for (const char* prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    const std::string p(prefix);
    if (path.size() > p.size() && path.compare(0, p.size(), p) == 0 &&
        path.find_first_not_of("0123456789", p.size()) == std::string::npos && path.size() - p.size() < 9)
      return std::stoi(path.substr(p.size()));
  }
  return std::nullopt;
}

// A sticky directory anyone may write to (/tmp): another user can plant a link or a file there
// under any name. The kernel's fs.protected_symlinks and fs.protected_regular rules guard open();
// renaming a temporary file onto a name and resolving links here bypass them, so the same rules
// are applied here: what is owned by neither the caller nor the directory's owner is not used.
struct SharedDirectory {
  bool shared = false;
  uid_t owner = 0;
};
SharedDirectory shared_directory_of(const std::string& path) {
  struct stat d {};
  if (::stat(directory_of(path).c_str(), &d) != 0) return {};
  return {(d.st_mode & S_ISVTX) != 0 && (d.st_mode & S_IWOTH) != 0, d.st_uid};
}
bool foreign_in_shared_directory(const std::string& path, uid_t owner) {
  const SharedDirectory dir = shared_directory_of(path);
  return dir.shared && owner != ::geteuid() && owner != dir.owner;
}

// Follows symbolic links one at a time, so a link to a file that does not exist yet resolves to
// where that file will be created. Returns the path that is not a link.
std::string follow_links(const std::string& path, const std::string& what) {
  std::string p = path;
  for (int hops = 0; hops < 40; ++hops) {
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return p;
    if (foreign_in_shared_directory(p, st.st_uid))
      throw Error(errc::io_error, "refusing to write " + what + " " + quoted(path) + ": " +
                                      (p == path ? std::string("it") : quoted(p)) + " is a symbolic link of user " +
                                      std::to_string(st.st_uid) + " in the shared sticky directory " +
                                      quoted(directory_of(p)) +
                                      ", where anyone may plant links (remove it or write elsewhere)");
    std::vector<char> buf(PATH_MAX + 1);
    const ssize_t len = ::readlink(p.c_str(), buf.data(), buf.size() - 1);
    if (len < 0) return p;
    const std::string link(buf.data(), static_cast<std::size_t>(len));
    p = link.front() == '/' ? link : directory_of(p) + "/" + link;
  }
  throw Error(errc::io_error, "cannot write to " + quoted(path) + ": too many levels of symbolic links");
}

// The same file under any spelling gives the same string: device and inode if it exists, else
// the real path of its directory plus its name.
std::string identity_of(const std::string& target, const struct stat* existing) {
  if (existing) return "inode:" + std::to_string(existing->st_dev) + ":" + std::to_string(existing->st_ino);
  char real[PATH_MAX];
  const std::string dir = directory_of(target);
  const std::string resolved = ::realpath(dir.c_str(), real) ? std::string(real) : dir;
  return "path:" + resolved + "/" + base_of(target);
}

void write_all(int fd, const unsigned char* p, std::size_t bytes, int& err) {
  err = 0;
  while (bytes > 0) {
    const std::size_t chunk = bytes < (std::size_t(1) << 30) ? bytes : (std::size_t(1) << 30);
    const ssize_t n = ::write(fd, p, chunk);
    if (n < 0) {
      if (errno == EINTR) continue;
      err = errno;
      return;
    }
    p += n;
    bytes -= static_cast<std::size_t>(n);
  }
}

// Starts writing the range to disk without waiting for it (Linux; elsewhere, or where the file
// system says no, finish()'s fsync does it all). A sort writes gigabytes: left dirty in the page
// cache, all of them would wait for the final fsync, on the command's critical path.
void start_writeback(int fd, std::uint64_t offset, std::uint64_t bytes) {
#if defined(__linux__) && defined(SYNC_FILE_RANGE_WRITE)
  (void)::sync_file_range(fd, static_cast<off_t>(offset), static_cast<off_t>(bytes), SYNC_FILE_RANGE_WRITE);
#else
  (void)fd, (void)offset, (void)bytes;
#endif
}

constexpr std::uint64_t kWritebackEvery = std::uint64_t(64) << 20;

// Every extended attribute of `from` that the caller may set, onto `to_fd`; one the file system or
// the caller's rights refuse (ENOTSUP, EPERM: trusted.*, security.* without privilege) is skipped,
// as cp --preserve=xattr does, since the output itself is what matters.
void copy_extended_attributes(const std::string& from, int to_fd) {
  ssize_t size = ::listxattr(from.c_str(), nullptr, 0);
  if (size <= 0) return;
  std::vector<char> names(static_cast<std::size_t>(size));
  size = ::listxattr(from.c_str(), names.data(), names.size());
  if (size <= 0) return;
  std::vector<char> value;
  for (std::size_t at = 0; at < static_cast<std::size_t>(size); at += std::strlen(names.data() + at) + 1) {
    const char* name = names.data() + at;
    const ssize_t len = ::getxattr(from.c_str(), name, nullptr, 0);
    if (len < 0) continue;
    value.resize(static_cast<std::size_t>(len) + 1);
    const ssize_t got = ::getxattr(from.c_str(), name, value.data(), value.size());
    if (got < 0) continue;
    (void)::fsetxattr(to_fd, name, value.data(), static_cast<std::size_t>(got), 0);
  }
}

void fsync_directory_of(const std::string& path) {
  // Makes a rename durable; a failure here loses nothing the caller could act on.
  const int dfd = ::open(directory_of(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

}  // namespace

OutputFile::OutputFile(std::string path, std::string what) : path_(std::move(path)), what_(std::move(what)) {
  if (path_.empty()) throw Error(errc::invalid_argument, what_ + " file name is empty");
  if (const auto fd = standard_stream_fd(path_)) {
    open_stream(*fd);
    return;
  }
  target_ = follow_links(path_, what_);
  struct stat st {};
  if (::stat(target_.c_str(), &st) != 0) {
    if (errno != ENOENT) fail("write", errno);
    open_temporary(target_, nullptr);
    return;
  }
  if (S_ISDIR(st.st_mode)) throw Error(errc::io_error, "cannot write " + what_ + " " + quoted(path_) + ": it is a directory");
  if ((S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode)) && foreign_in_shared_directory(target_, st.st_uid))
    throw Error(errc::io_error, "refusing to write " + what_ + " " + quoted(path_) + ": " +
                                    (target_ == path_ ? std::string("it") : quoted(target_)) + " belongs to user " +
                                    std::to_string(st.st_uid) + " in the shared sticky directory " +
                                    quoted(directory_of(target_)) +
                                    ", who could read or swap the result (remove it or write elsewhere)");
  if (S_ISREG(st.st_mode)) {
    open_temporary(target_, &st);
    return;
  }
  if (S_ISSOCK(st.st_mode))
    throw Error(errc::io_error, "cannot write " + what_ + " " + quoted(path_) +
                                    ": it is a socket (connect to it yourself and use -o - to write to standard output)");
  // A device or FIFO: written in place, as a stream (a FIFO's open waits for its reader).
  const int fd = ::open(target_.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) fail("open", errno);
  mode_ = Mode::stream;
  fd_ = fd;
  identity_ = identity_of(target_, &st);
}

void OutputFile::open_stream(int fd_to_dup) {
  mode_ = Mode::stream;
  fd_ = ::fcntl(fd_to_dup, F_DUPFD_CLOEXEC, 3);
  if (fd_ < 0) fail("write to", errno);
  struct stat st {};
  identity_ = ::fstat(fd_, &st) == 0 && (S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode))
                  ? identity_of("", &st)
                  : "fd:" + std::to_string(fd_to_dup);
}

void OutputFile::open_temporary(const std::string& target, const struct ::stat* existing) {
  mode_ = existing && existing->st_nlink > 1 ? Mode::rewrite_links : Mode::replace;
  identity_ = identity_of(target, existing);
  if (existing) target_dev_ = existing->st_dev, target_ino_ = existing->st_ino;
  sweep_stale_temporaries(directory_of(target));
  std::string templ = temp_template_for(target);
  std::vector<char> buf(templ.begin(), templ.end());
  buf.push_back('\0');
  {
    const CleanupHold hold_signals;  // a signal between creation and registration would leak the file
    fd_ = ::mkostemp(buf.data(), O_CLOEXEC);
    if (fd_ < 0) fail("write", errno);
    temp_path_ = buf.data();
    register_temp(temp_path_);
  }
  if (existing) {
    // Keep the target's owner and mode. chown first: it clears set-user-ID bits that fchmod then
    // restores. Without the right to give a file away, the owner becomes the caller (as with
    // any editor that saves by rename); the group and mode are still kept where allowed.
    if (::fchown(fd_, existing->st_uid, existing->st_gid) != 0) (void)!::fchown(fd_, (uid_t)-1, existing->st_gid);
    ::fchmod(fd_, existing->st_mode & 07777);
    // Then its extended attributes and ACL (system.posix_acl_access), which the new inode would
    // otherwise lack. A rewritten file keeps its own inode, and with it its attributes.
    if (mode_ == Mode::replace) copy_extended_attributes(target, fd_);
  } else {
    // mkostemp creates 0600; a new output gets the mode a plain open() would give it.
    const mode_t mask = ::umask(0);
    ::umask(mask);
    ::fchmod(fd_, 0666 & ~mask);
  }
}

OutputFile::~OutputFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_) forget_temporary();
}

void OutputFile::forget_temporary() {
  if (temp_path_.empty()) return;
  ::unlink(temp_path_.c_str());
  unregister_temp(temp_path_);
  temp_path_.clear();
}

void OutputFile::fail(const std::string& action, int err) const {
  const std::string name = path_ == "-" ? "standard output" : quoted(path_);
  if (err == EPIPE) throw Error(errc::io_error, "cannot write " + what_ + " to " + name + ": the reader closed the pipe");
  throw Error(errc::io_error, "cannot " + action + " " + what_ + " " + name + ": " + std::strerror(err));
}

void OutputFile::write(const void* data, std::size_t bytes) {
  if (fd_ < 0 || finished_) throw Error(errc::io_error, "internal: write to a finished output " + quoted(path_));
  int err = 0;
  write_all(fd_, static_cast<const unsigned char*>(data), bytes, err);
  if (err) fail("write", err);
  appended_ += bytes;
  if (mode_ != Mode::stream && appended_ - writeback_from_ >= kWritebackEvery) {
    start_writeback(fd_, writeback_from_, appended_ - writeback_from_);
    writeback_from_ = appended_;
  }
}

void OutputFile::write_at(std::uint64_t offset, const void* data, std::size_t bytes) {
  if (fd_ < 0 || finished_ || mode_ == Mode::stream)
    throw Error(errc::io_error, "internal: positioned write to " + quoted(path_) + ", which is finished or a stream");
  files::write_at(fd_, data, bytes, offset, what_ + " " + quoted(path_));
  start_writeback(fd_, offset, bytes);
}

void OutputFile::finish() {
  if (finished_) return;
  if (mode_ != Mode::stream && ::fsync(fd_) != 0) fail("sync", errno);
  finished_ = true;
  if (mode_ == Mode::replace) {
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) fail("close", errno);
  }
}

namespace {
// Test hook, read once: GPUSORT_TEST_STOP_IN_REWRITE=BYTES stops the process (SIGSTOP) once an
// in-place rewrite has written BYTES bytes over its target, so a test can signal or kill it at a
// known point and then continue it. Unset, as outside tests, nothing stops.
std::optional<std::uint64_t> rewrite_stop_point() {
  static const std::optional<std::uint64_t> at = []() -> std::optional<std::uint64_t> {
    const char* v = std::getenv("GPUSORT_TEST_STOP_IN_REWRITE");
    if (!v || !*v) return std::nullopt;
    return std::strtoull(v, nullptr, 10);
  }();
  return at;
}
}  // namespace

void OutputFile::copy_into_target() {
  // The complete output is durable in the temporary file. It takes the kept name first (durably),
  // so that if the process is killed during the rewrite, the next run in this directory names it
  // instead of removing it; it is removed only once the target holds the output on disk. The
  // target is written over, not truncated first, then cut (or grown) to the output's size.
  const std::string kept = kept_name_for(temp_path_);
  if (kept != temp_path_ && ::rename(temp_path_.c_str(), kept.c_str()) == 0) {
    unregister_temp(temp_path_);
    temp_path_ = kept;
    fsync_directory_of(kept);
  } else {
    unregister_temp(temp_path_);  // kept under its first name: still never removed on a signal
  }
  const std::optional<std::uint64_t> stop_at = rewrite_stop_point();
  bool stopped = false;
  auto test_stop = [&](std::uint64_t written) {
    if (stop_at && !stopped && written >= *stop_at) {
      stopped = true;
      ::raise(SIGSTOP);
    }
  };
  int err = 0;
  const char* step = "open";
  // O_NOFOLLOW and the inode check: the name must still be the file that was checked and linked.
  const int out = ::open(target_.c_str(), O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
  struct stat st {};
  if (out < 0)
    err = errno;
  else if (::fstat(out, &st) != 0)
    err = errno;
  else if (st.st_dev != target_dev_ || st.st_ino != target_ino_)
    err = ESTALE, step = "find";
  std::uint64_t written = 0;
  if (!err) {
    step = "write";
    std::vector<unsigned char> buf(std::size_t(1) << 22);
    for (;;) {
      test_stop(written);
      const ssize_t got = ::pread(fd_, buf.data(), buf.size(), static_cast<off_t>(written));
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) err = errno;
      if (got <= 0) break;
      write_all(out, buf.data(), static_cast<std::size_t>(got), err);
      if (err) break;
      written += static_cast<std::uint64_t>(got);
    }
    test_stop(written);
  }
  if (!err && ::ftruncate(out, static_cast<off_t>(written)) != 0) err = errno, step = "resize";
  if (!err && ::fsync(out) != 0) err = errno, step = "sync";
  if (out >= 0 && ::close(out) != 0 && !err) err = errno, step = "close";
  if (err) {
    const std::string kept_path = temp_path_;
    temp_path_.clear();  // keep it: it holds the only complete copy
    throw Error(errc::io_error, "cannot rewrite " + what_ + " " + quoted(path_) + " in place (" + step + "): " +
                                    (err == ESTALE ? "it was replaced meanwhile" : std::strerror(err)) +
                                    "; the complete output is in " + quoted(kept_path));
  }
  ::close(fd_);
  fd_ = -1;
  ::unlink(temp_path_.c_str());
  temp_path_.clear();
}

void OutputFile::commit() {
  OutputFile* self = this;
  commit_together(std::span<OutputFile* const>(&self, 1));
}

bool positionable_target(const std::string& path) {
  if (path.empty() || standard_stream_fd(path)) return false;
  struct stat st {};
  std::string target;
  try {
    target = follow_links(path, "output");
  } catch (const Error&) {
    return true;  // refused: opening the output says why, naming it as the caller does
  }
  if (::stat(target.c_str(), &st) != 0) return errno == ENOENT;
  return S_ISREG(st.st_mode);
}

void check_distinct(std::span<OutputFile* const> outputs) {
  for (std::size_t i = 0; i < outputs.size(); ++i)
    for (std::size_t j = i + 1; j < outputs.size(); ++j)
      if (outputs[i]->identity() == outputs[j]->identity())
        throw Error(errc::invalid_argument, "the " + outputs[i]->what() + " " + quoted(outputs[i]->path()) + " and the " +
                                                outputs[j]->what() + " " + quoted(outputs[j]->path()) +
                                                " are the same file");
}

void commit_together(std::span<OutputFile* const> outputs) {
  for (OutputFile* o : outputs) o->finish();
  const CleanupHold hold_signals;

  // Replace the renamed targets first, remembering each old content by a hard link so that a later
  // failure can put it back.
  struct Undo {
    OutputFile* output;
    std::string backup;  // empty: the target did not exist (undo = remove it)
  };
  std::vector<Undo> done;
  auto roll_back = [&] {
    for (auto it = done.rbegin(); it != done.rend(); ++it) {
      if (it->backup.empty())
        ::unlink(it->output->target_.c_str());
      else
        ::rename(it->backup.c_str(), it->output->target_.c_str());
    }
  };
  auto drop_backups = [&] {
    for (const Undo& u : done)
      if (!u.backup.empty()) {
        ::unlink(u.backup.c_str());
        unregister_temp(u.backup);
      }
  };
  for (OutputFile* o : outputs) {
    if (o->mode_ != OutputFile::Mode::replace) continue;
    Undo undo{o, {}};
    if (outputs.size() > 1 && ::access(o->target_.c_str(), F_OK) == 0) {
      undo.backup = o->temp_path_ + ".old";
      if (::link(o->target_.c_str(), undo.backup.c_str()) != 0)
        undo.backup.clear();  // no hard links here: this target cannot be restored
      else
        register_temp(undo.backup);
    }
    if (::rename(o->temp_path_.c_str(), o->target_.c_str()) != 0) {
      const int err = errno;
      if (!undo.backup.empty()) {
        ::unlink(undo.backup.c_str());
        unregister_temp(undo.backup);
      }
      roll_back();
      drop_backups();
      o->fail("rename temporary file onto", err);
    }
    unregister_temp(o->temp_path_);
    o->temp_path_.clear();
    o->committed_ = true;
    done.push_back(std::move(undo));
  }
  try {
    for (OutputFile* o : outputs)
      if (o->mode_ == OutputFile::Mode::rewrite_links) {
        o->copy_into_target();
        o->committed_ = true;
      }
  } catch (...) {
    roll_back();
    drop_backups();
    throw;
  }
  drop_backups();
  for (const Undo& u : done) fsync_directory_of(u.output->target_);
  for (OutputFile* o : outputs) o->committed_ = true;
}

}  // namespace gpusort::files
