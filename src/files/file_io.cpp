#include "files/file_io.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "gpusort/errors.hpp"

namespace gpusort::files {

Fd::~Fd() {
  if (owned_ && fd_ >= 0) ::close(fd_);
}

void throw_io_error(const std::string& what, int err) {
  throw Error(errc::io_error, "cannot " + what + ": " + std::strerror(err));
}

void read_at(int fd, void* dst, std::size_t bytes, std::uint64_t offset, const std::string& what) {
  auto* p = static_cast<unsigned char*>(dst);
  while (bytes > 0) {
    const ssize_t got = ::pread(fd, p, std::min<std::size_t>(bytes, std::size_t(1) << 30), off_t(offset));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw_io_error("read " + what, errno);
    if (got == 0) throw Error(errc::io_error, "cannot read " + what + ": the file ended early (was it changed meanwhile?)");
    p += got, bytes -= std::size_t(got), offset += std::uint64_t(got);
  }
}

void write_at(int fd, const void* src, std::size_t bytes, std::uint64_t offset, const std::string& what) {
  const auto* p = static_cast<const unsigned char*>(src);
  while (bytes > 0) {
    const ssize_t put = ::pwrite(fd, p, std::min<std::size_t>(bytes, std::size_t(1) << 30), off_t(offset));
    if (put < 0 && errno == EINTR) continue;
    if (put < 0) throw_io_error("write " + what, errno);
    p += put, bytes -= std::size_t(put), offset += std::uint64_t(put);
  }
}

}  // namespace gpusort::files
