#include "input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <new>
#include <stdexcept>

#include "gpusort/errors.hpp"

namespace gpusort::cli {
namespace {

class Fd {
 public:
  explicit Fd(int fd, bool owned) : fd_(fd), owned_(owned) {}
  ~Fd() {
    if (owned_ && fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
  bool owned_;
};

[[noreturn]] void io_failure(const std::string& action, const std::string& what, const std::string& path, int err) {
  throw Error(errc::io_error, "cannot " + action + " " + what + " " + display_name(path) + ": " + std::strerror(err));
}

[[noreturn]] void too_big(const std::string& what, const std::string& path, std::size_t bytes) {
  throw Error(errc::out_of_memory, "not enough host memory to read " + what + " " + display_name(path) + " (" +
                                       std::to_string(bytes) + " bytes or more)");
}

void grow(std::vector<unsigned char>& data, std::size_t size, const std::string& what, const std::string& path) {
  try {
    data.resize(size);
  } catch (const std::bad_alloc&) {
    too_big(what, path, size);
  } catch (const std::length_error&) {
    too_big(what, path, size);
  }
}

}  // namespace

std::string display_name(const std::string& path) { return path == "-" ? "standard input" : "'" + path + "'"; }

std::vector<unsigned char> read_input(const std::string& path, const std::string& what) {
  const bool from_stdin = path == "-";
  const Fd fd(from_stdin ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC), !from_stdin);
  if (fd.get() < 0) io_failure("open", what, path, errno);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) io_failure("stat", what, path, errno);
  if (S_ISDIR(st.st_mode))
    throw Error(errc::io_error, what + " " + display_name(path) + " is a directory, not a file");

  // A regular file's size is the first guess; then read until read() says end of file.
  std::vector<unsigned char> data;
  std::size_t capacity = S_ISREG(st.st_mode) && st.st_size > 0 ? static_cast<std::size_t>(st.st_size) + 1 : 1 << 16;
  grow(data, capacity, what, path);
  std::size_t used = 0;
  for (;;) {
    if (used == data.size()) grow(data, data.size() * 2, what, path);
    const std::size_t want = std::min<std::size_t>(data.size() - used, std::size_t(1) << 30);
    const ssize_t got = ::read(fd.get(), data.data() + used, want);
    if (got < 0) {
      if (errno == EINTR) continue;
      io_failure("read", what, path, errno);
    }
    if (got == 0) break;
    used += static_cast<std::size_t>(got);
  }
  data.resize(used);  // no shrink_to_fit: it would copy a file-sized buffer
  return data;
}

}  // namespace gpusort::cli
