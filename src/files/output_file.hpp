#pragma once
// Outputs of the file sorts (gpusort/sort_file.hpp) and the gpusort command that never lose data.
//
// How an output reaches its target depends on what the target is:
// - a regular file, or a name that does not exist yet: the data goes to a temporary file in the
//   target's directory, which replaces the target by rename() only once complete and on disk. An
//   existing target keeps its mode, owner (as far as the process may set them), extended
//   attributes and ACL; a symbolic link is followed, so the file it points to is replaced and the
//   link stays.
// - a regular file with several hard links: the complete output is first written to a temporary
//   file, then copied over the target itself (and the target cut to size), so every link sees the
//   new content. The temporary file takes a "kept" name meanwhile and is removed only once the
//   target is on disk: if the process is killed there, it is the complete copy, and the next run
//   writing into that directory names it (temp_names.hpp).
// - standard output ("-", /dev/stdout, /dev/fd/N) or an existing device, FIFO or socket: written
//   directly as a stream; nothing is renamed or replaced.
// In a sticky directory anyone may write to (/tmp), a symbolic link, file or FIFO at the name that
// belongs to neither the caller nor the directory's owner is refused (the kernel's
// protected_symlinks and protected_regular rules, which renaming would bypass).
// If commit() is never reached (an error, an exception, or a terminating signal in a program that
// watches the temporary files: files/temporary_files.hpp) the temporary file is removed and the
// target is as it was; a terminating signal during commit() waits for it to end.
#include <sys/stat.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace gpusort::files {

class OutputFile {
 public:
  // Resolves the target and opens the temporary file or stream now, so an unwritable destination
  // fails before any work is done. `what` names the output in errors ("output", "values output").
  OutputFile(std::string path, std::string what);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // Appends. Every 64 MiB written, the file's writeback to disk is started (sync_file_range), so
  // the data go to disk while the command goes on and finish()'s fsync has little left to wait for.
  void write(const void* data, std::size_t bytes);
  // Writes at byte `offset` of the temporary file; safe from several threads at once on disjoint
  // ranges. The range's writeback starts at once. Not for streams (positionable() is false).
  void write_at(std::uint64_t offset, const void* data, std::size_t bytes);
  bool positionable() const noexcept { return mode_ != Mode::stream; }
  // All data durable in the temporary file (fsync); for a stream, nothing to do.
  void finish();
  // finish(), then the temporary file takes the target's place.
  void commit();

  const std::string& path() const noexcept { return path_; }
  // The temporary file the data go to until commit() ("" for a stream, and once committed).
  // Another process may open it by this name to write its own ranges at positions, as write_at
  // does (gpusort dist-sort's ranks); only this object creates, removes or renames it.
  const std::string& temporary_path() const noexcept { return temp_path_; }
  const std::string& what() const noexcept { return what_; }
  bool is_stream() const noexcept { return mode_ == Mode::stream; }
  // Two outputs with equal identities would write the same file (whatever the spelling).
  const std::string& identity() const noexcept { return identity_; }

 private:
  friend void commit_together(std::span<OutputFile* const> outputs);
  enum class Mode { replace, rewrite_links, stream };

  void open_stream(int fd_to_dup);
  void open_temporary(const std::string& target, const struct ::stat* existing);
  [[noreturn]] void fail(const std::string& action, int err) const;
  void copy_into_target();  // rewrite_links: temporary file -> target, in place
  void forget_temporary();

  std::string path_;
  std::string what_;
  Mode mode_ = Mode::replace;
  std::string target_;  // the file that receives the data (symbolic links resolved)
  std::string temp_path_;
  std::string identity_;
  dev_t target_dev_ = 0;  // the existing target's inode, checked again before a rewrite in place
  ino_t target_ino_ = 0;
  int fd_ = -1;
  std::uint64_t appended_ = 0, writeback_from_ = 0;  // write(): bytes so far, and not yet sent to writeback
  bool finished_ = false;
  bool committed_ = false;
};

// Whether an OutputFile for `path` would be written at positions (a regular file, or a name that
// does not exist yet), found without opening anything: opening a FIFO to find out would wait for
// its reader, and closing it again would end that reader's input.
bool positionable_target(const std::string& path);

// Error(invalid_argument) if two of the outputs would write the same file.
void check_distinct(std::span<OutputFile* const> outputs);

// Commits every output, or none: every temporary file is finished first, then the targets are
// replaced in turn with terminating signals held off; if one replacement fails, the targets already
// replaced get their previous content back (or are removed if they did not exist) and the error is
// thrown. Streams were written as the data came and cannot be taken back.
void commit_together(std::span<OutputFile* const> outputs);

}  // namespace gpusort::files
