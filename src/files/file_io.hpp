#pragma once
// The command's positioned file I/O: an owned descriptor, and whole reads and writes at an offset
// (retried on EINTR and short transfers, in pieces of at most 1 GiB). Errors are
// gpusort::Error(io_error) naming `what` ("input 'k.u32'", "a temporary run file").
#include <cstddef>
#include <cstdint>
#include <string>

namespace gpusort::files {

class Fd {
 public:
  explicit Fd(int fd = -1, bool owned = true) : fd_(fd), owned_(owned) {}
  ~Fd();
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const noexcept { return fd_; }

 private:
  int fd_;
  bool owned_;
};

// Error(io_error): "cannot <what>: <strerror(err)>".
[[noreturn]] void throw_io_error(const std::string& what, int err);

void read_at(int fd, void* dst, std::size_t bytes, std::uint64_t offset, const std::string& what);
void write_at(int fd, const void* src, std::size_t bytes, std::uint64_t offset, const std::string& what);

}  // namespace gpusort::files
