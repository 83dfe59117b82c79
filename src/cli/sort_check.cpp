#include "sort_check.hpp"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <functional>
#include <optional>
#include <vector>

#include "array_file.hpp"
#include "file_io.hpp"
#include "gpusort/errors.hpp"
#include "npy.hpp"
#include "option_numbers.hpp"
#include "verify.hpp"

namespace gpusort::cli {
namespace {

// Keys a check holds at once from a regular file, at most: a pass over the keys is bound by
// reading them, and blocks of a few MiB read at full speed.
constexpr std::size_t kBlockBytes = std::size_t(16) << 20;
// Enough of a file's start for any .npy header gpusort reads and the 4 KiB the text check reads.
constexpr std::size_t kHeadBytes = std::size_t(1) << 20;

using BlockFn = std::function<bool(key_type, const unsigned char* keys, std::size_t count)>;

// Calls `block` with the keys of `path` in order, a block at a time, until it returns false.
// Regular files are read with pread in blocks of at most block_bytes (with the checks and errors of
// load_keys); anything else (standard input, a pipe) is read whole.
void for_each_block(const std::string& path, std::optional<key_type> type, FileFormat format, std::size_t block_bytes,
                    const BlockFn& block) {
  struct stat st {};
  const bool regular = path != "-" && ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
  std::optional<Fd> fd;
  if (regular) fd.emplace(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (regular && fd->get() < 0) throw_io_error("open input " + display_name(path), errno);
  if (regular && ::fstat(fd->get(), &st) == 0 && S_ISREG(st.st_mode)) {
    const auto size = std::uint64_t(st.st_size);
    std::vector<unsigned char> head(static_cast<std::size_t>(std::min<std::uint64_t>(size, kHeadBytes)));
    read_at(fd->get(), head.data(), head.size(), 0, "input " + display_name(path));
    if (npy_header_bytes(head.data(), head.size()) <= head.size()) {
      const KeyLayout k = key_layout(path, head.data(), head.size(), size, type, format);
      const std::size_t item = k.layout.item_size;
      const std::size_t per_block = std::max<std::size_t>(1, block_bytes / item);
      std::vector<unsigned char> keys(std::min(per_block, k.layout.count) * item);
      for (std::size_t at = 0; at < k.layout.count; at += per_block) {
        const std::size_t count = std::min(per_block, k.layout.count - at);
        read_at(fd->get(), keys.data(), count * item, k.layout.offset + std::uint64_t(at) * item,
                "input " + display_name(path));
        if (!block(k.type, keys.data(), count)) return;
      }
      if (k.layout.count == 0) block(k.type, nullptr, 0);
      return;
    }
  }
  const KeyFile k = load_keys(path, type, format);
  block(k.type, k.file.data(), k.file.count);
}

}  // namespace

int run_sort_check(const SortArgs& args) {
  const FileFormat format = parse_format_arg(args.format);
  std::optional<key_type> type;
  if (!args.type.empty()) type = parse_key_type_arg(args.type, "--type");
  std::size_t block_bytes = kBlockBytes;
  if (!args.memory_limit.empty())
    block_bytes = std::min<std::uint64_t>(block_bytes, parse_size_arg(args.memory_limit, "--memory-limit"));

  std::optional<key_type> first_type;
  std::vector<unsigned char> last;  // the key before the block at hand (empty before the first key)
  for (const std::string& path : args.inputs) {
    std::size_t base = 0;  // index in `path` of the block's first key
    std::optional<Unsorted> bad;
    for_each_block(path, type, format, block_bytes, [&](key_type t, const unsigned char* keys, std::size_t count) {
      if (!first_type) first_type = t;
      if (t != *first_type)
        throw Error(errc::invalid_argument, "input '" + path + "' holds " + std::string(key_type_name(t)) +
                                                " keys but input '" + args.inputs[0] + "' holds " +
                                                std::string(key_type_name(*first_type)) +
                                                ": several inputs must hold keys of one type");
      if (count == 0) return true;
      const std::size_t item = key_size(t);
      if (!last.empty()) {  // the previous block's last key, and this block's first
        std::vector<unsigned char> pair(last);
        pair.insert(pair.end(), keys, keys + item);
        if ((bad = find_unsorted(t, pair.data(), 2, args.descending, args.unique))) {
          bad->index = base;
          return false;
        }
      }
      if ((bad = find_unsorted(t, keys, count, args.descending, args.unique))) {
        bad->index += base;
        return false;
      }
      last.assign(keys + (count - 1) * item, keys + count * item);
      base += count;
      return true;
    });
    if (bad) {
      if (!args.check_quietly)
        std::fprintf(stderr, "gpusort: %s:%zu: disorder: %s (after %s)\n", path.c_str(), bad->index, bad->key.c_str(),
                     bad->previous.c_str());
      return 1;
    }
  }
  return 0;
}

}  // namespace gpusort::cli
