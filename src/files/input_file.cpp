#include "files/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <new>
#include <stdexcept>

#include "files/file_io.hpp"
#include "gpusort/errors.hpp"

namespace gpusort::files {
namespace {

[[noreturn]] void io_failure(const std::string& action, const std::string& what, const std::string& path, int err) {
  throw_io_error(action + " " + what + " " + display_name(path), err);
}

[[noreturn]] void too_big(const std::string& what, const std::string& path, std::size_t bytes) {
  throw Error(errc::out_of_memory, "not enough host memory to read " + what + " " + display_name(path) + " (" +
                                       std::to_string(bytes) + " bytes or more)");
}

// A new array of `capacity` bytes holding the first `used` of the old one.
core::HostArray regrown(core::HostArray old, std::size_t used, std::size_t capacity, const std::string& what,
                        const std::string& path) {
  core::HostArray bigger;
  try {
    bigger = core::make_host_array(capacity);
  } catch (const std::bad_alloc&) {
    too_big(what, path, capacity);
  }
  if (used) std::memcpy(bigger.get(), old.get(), used);
  return bigger;
}

}  // namespace

std::string display_name(const std::string& path) { return path == "-" ? "standard input" : "'" + path + "'"; }

InputBytes read_input(const std::string& path, const std::string& what) {
  const bool from_stdin = path == "-";
  const Fd fd(from_stdin ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC), !from_stdin);
  if (fd.get() < 0) io_failure("open", what, path, errno);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) io_failure("stat", what, path, errno);
  if (S_ISDIR(st.st_mode))
    throw Error(errc::io_error, what + " " + display_name(path) + " is a directory, not a file");

  // A regular file's size is the first guess; then read until read() says end of file.
  InputBytes in;
  in.capacity_ = S_ISREG(st.st_mode) && st.st_size > 0 ? static_cast<std::size_t>(st.st_size) + 1 : 1 << 16;
  in.data_ = regrown(nullptr, 0, in.capacity_, what, path);
  for (;;) {
    if (in.size_ == in.capacity_) {
      if (in.capacity_ > SIZE_MAX / 2) too_big(what, path, in.capacity_);
      in.data_ = regrown(std::move(in.data_), in.size_, in.capacity_ * 2, what, path);
      in.capacity_ *= 2;
    }
    const std::size_t want = std::min<std::size_t>(in.capacity_ - in.size_, std::size_t(1) << 30);
    const ssize_t got = ::read(fd.get(), in.data_.get() + in.size_, want);
    if (got < 0) {
      if (errno == EINTR) continue;
      io_failure("read", what, path, errno);
    }
    if (got == 0) break;
    in.size_ += static_cast<std::size_t>(got);
  }
  return in;
}

}  // namespace gpusort::files
