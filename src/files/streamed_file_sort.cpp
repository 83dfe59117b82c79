#include "files/streamed_file_sort.hpp"

#include <fcntl.h>
#include <sys/stat.h>

#include <cerrno>
#include <mutex>
#include <vector>

#include "api/streamed_run.hpp"
#include "files/npy.hpp"
#include "gpusort/errors.hpp"
#include "gpusort/streamed.hpp"

namespace gpusort::files {
namespace {

// Enough of a file's start to hold any .npy header gpusort reads, and the 4 KiB the text check looks at.
constexpr std::size_t kHeadBytes = std::size_t(1) << 20;

struct OpenedFile {
  std::unique_ptr<Fd> fd;
  std::uint64_t size = 0;
  std::vector<unsigned char> head;
};

// A regular file with its first bytes, or nullopt for anything the whole-file reader must take:
// not a regular file (checked before opening: opening a FIFO would wait for its writer, and
// closing it again would lose what it sent), or a file whose size is not what it holds (/proc
// files say 0, /sys files 4096), or a .npy header longer than the first bytes read.
std::optional<OpenedFile> open_regular(const std::string& path, const std::string& what) {
  if (path == "-") return std::nullopt;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0) return std::nullopt;
  OpenedFile f;
  f.fd = std::make_unique<Fd>(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (f.fd->get() < 0) throw_io_error("open " + what + " " + display_name(path), errno);
  if (::fstat(f.fd->get(), &st) != 0) throw_io_error("stat " + what + " " + display_name(path), errno);
  if (!S_ISREG(st.st_mode) || st.st_size == 0) return std::nullopt;
  f.size = std::uint64_t(st.st_size);
  f.head.resize(static_cast<std::size_t>(std::min<std::uint64_t>(f.size, kHeadBytes)));
  std::size_t got = 0;
  while (got < f.head.size()) {
    const ssize_t r = ::pread(f.fd->get(), f.head.data() + got, f.head.size() - got, off_t(got));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) throw_io_error("read " + what + " " + display_name(path), errno);
    if (r == 0) return std::nullopt;  // shorter than its size says
    got += std::size_t(r);
  }
  const std::size_t header = npy_header_bytes(f.head.data(), f.head.size());
  if (header > f.head.size()) return std::nullopt;
  return f;
}

}  // namespace

std::uint64_t StreamedInputs::data_bytes() const {
  std::uint64_t b = std::uint64_t(keys.layout.count) * keys.layout.item_size;
  if (values) b += std::uint64_t(values->layout.count) * values->layout.item_size;
  return b;
}

std::optional<StreamedInputs> open_streamed_inputs(const std::string& keys_path, std::optional<key_type> type,
                                                   const std::string& values_path,
                                                   const std::optional<ValueType>& value_type, FileFormat format) {
  std::optional<OpenedFile> keys = open_regular(keys_path, "input");
  if (!keys) return std::nullopt;
  std::optional<OpenedFile> values;
  if (!values_path.empty()) {
    values = open_regular(values_path, "values");
    if (!values) return std::nullopt;
  }
  StreamedInputs in;
  const KeyLayout k = key_layout(keys_path, keys->head.data(), keys->head.size(), keys->size, type, format);
  in.keys = {keys_path, std::move(keys->fd), k.layout};
  in.type = k.type;
  if (values) {
    const ArrayLayout v = value_layout(values_path, values->head.data(), values->head.size(), values->size, value_type, format);
    if (v.count != k.layout.count)
      throw Error(errc::invalid_argument, "values file '" + values_path + "' holds " + std::to_string(v.count) +
                                              " elements but input '" + keys_path + "' holds " +
                                              std::to_string(k.layout.count) + " keys");
    in.values = StreamedInput{values_path, std::move(values->fd), v};
  }
  return in;
}

SortReport sort_streamed_files(Context& ctx, const algo::Plan& plan, const StreamedInputs& in,
                               const StreamedOutputs& out, SortFileProgress& progress) {
  const std::size_t n = in.keys.layout.count;
  const std::uint64_t total = in.data_bytes();
  progress.phase("reading", total);

  // The results start coming down once the sort is done: the first write switches the phase.
  std::once_flag writing;
  auto reader = [&](const StreamedInput& file) {
    const std::string what = std::string(&file == &in.keys ? "input " : "values ") + display_name(file.path);
    return [&progress, &file, what](std::uint64_t offset, void* into, std::size_t bytes) {
      read_at(file.fd->get(), into, bytes, file.layout.offset + offset, what);
      progress.advance(bytes);
    };
  };
  auto writer = [&](OutputFile& file, std::uint64_t header_bytes) {
    return [&, header_bytes](std::uint64_t offset, const void* from, std::size_t bytes) {
      std::call_once(writing, [&] { progress.phase("writing", total); });
      file.write_at(header_bytes + offset, from, bytes);
      progress.advance(bytes);
    };
  };
  // .npy outputs: the header first, then the elements after it.
  auto header = [&](OutputFile& file, bool npy, const std::string& descr) -> std::uint64_t {
    if (!npy) return 0;
    const std::vector<unsigned char> h = make_npy_header(descr, n);
    file.write_at(0, h.data(), h.size());
    return h.size();
  };

  const std::string keys_descr = in.keys.layout.npy ? in.keys.layout.descr : descr_of(in.type);
  StreamedArrays arrays;
  arrays.read_keys = reader(in.keys);
  arrays.write_keys = writer(*out.keys, header(*out.keys, out.keys_npy, keys_descr));
  if (in.values) {
    arrays.value_bytes = in.values->layout.item_size;
    arrays.read_values = reader(*in.values);
    arrays.write_values = writer(*out.values, header(*out.values, out.values_npy, in.values->layout.descr));
  }
  return detail::sort_streamed_with(ctx.runtime_device(), plan, arrays);
}

}  // namespace gpusort::files
