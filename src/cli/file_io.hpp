#pragma once
// Whole-file input and crash-safe output for the gpusort command.
#include <cstddef>
#include <string>
#include <vector>

namespace gpusort::cli {

// Reads the whole file with one fread. `what` names the file in errors ("input", "values").
// Throws gpusort::Error(io_error) if it cannot be opened or read, out_of_memory if it does not fit.
std::vector<unsigned char> read_file(const std::string& path, const std::string& what);

// An output file that appears only when complete. The constructor creates a temporary file in
// the target's directory (so an unwritable destination fails before any work is done); write()
// appends to it; commit() flushes, fsyncs and renames it over the target. If commit() is never
// reached (an error, an exception) the temporary file is removed and an existing target is left
// untouched.
class AtomicOutput {
 public:
  AtomicOutput(std::string path, std::string what);
  ~AtomicOutput();
  AtomicOutput(const AtomicOutput&) = delete;
  AtomicOutput& operator=(const AtomicOutput&) = delete;

  void write(const void* data, std::size_t bytes);
  // Flush and fsync the temporary file; after this only commit() remains (and cannot lose data).
  void finish();
  // Rename over the target (calls finish() first if needed) and fsync the directory.
  void commit();
  const std::string& path() const noexcept { return path_; }

 private:
  [[noreturn]] void fail(const std::string& action, int err);
  std::string path_;
  std::string what_;
  std::string temp_path_;
  int fd_ = -1;
  bool committed_ = false;
};

// Whole-file helper: AtomicOutput of one buffer.
void write_file_atomic(const std::string& path, const std::string& what, const void* data, std::size_t bytes);

}  // namespace gpusort::cli
