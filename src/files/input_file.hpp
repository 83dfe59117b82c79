#pragma once
// Reading a whole input for the gpusort command: a file, a pipe, a device or, for "-", standard
// input. Reads to end of file: the size stat() reports is only a hint (it is 0 for /proc files and
// pipes), so nothing is silently dropped.
#include <cstddef>
#include <string>

#include "core/host_array.hpp"

namespace gpusort::files {

// A whole input in host memory, in an array that is cheap to fill the first time
// (core/host_array.hpp: a fresh file-sized buffer costs more in page faults than the read).
class InputBytes {
 public:
  unsigned char* data() noexcept { return data_.get(); }
  const unsigned char* data() const noexcept { return data_.get(); }
  std::size_t size() const noexcept { return size_; }

 private:
  friend InputBytes read_input(const std::string& path, const std::string& what);
  core::HostArray data_;
  std::size_t size_ = 0, capacity_ = 0;
};

// `what` names the input in errors ("input", "values"). Throws gpusort::Error: io_error if it
// cannot be opened or read (or is a directory), out_of_memory if it does not fit in host memory.
InputBytes read_input(const std::string& path, const std::string& what);

// The name errors use for a path: "standard input" for "-", else the quoted path.
std::string display_name(const std::string& path);

}  // namespace gpusort::files
