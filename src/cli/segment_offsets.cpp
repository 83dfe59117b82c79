#include "segment_offsets.hpp"

#include <cstring>
#include <type_traits>

#include "gpusort/errors.hpp"
#include "input_file.hpp"
#include "npy.hpp"

namespace gpusort::cli {
namespace {

[[noreturn]] void bad(const std::string& path, const std::string& why) {
  throw Error(errc::invalid_argument, "--segments " + display_name(path) + ": " + why);
}

template <class T>
std::vector<std::uint64_t> widen(const unsigned char* data, std::size_t count, const std::string& path) {
  std::vector<std::uint64_t> out(count);
  for (std::size_t i = 0; i < count; ++i) {
    T v;
    std::memcpy(&v, data + i * sizeof(T), sizeof(T));
    if constexpr (std::is_signed_v<T>)
      if (v < 0) bad(path, "offset " + std::to_string(i) + " is negative (" + std::to_string(v) + ")");
    out[i] = static_cast<std::uint64_t>(v);
  }
  return out;
}

}  // namespace

std::vector<std::uint64_t> load_segment_offsets(const std::string& path, std::uint64_t n, FileFormat format) {
  InputBytes bytes = read_input(path, "--segments file");
  std::vector<std::uint64_t> offsets;
  if (format != FileFormat::raw && has_npy_magic(bytes.data(), bytes.size())) {
    const NpyHeader h = parse_npy(bytes.data(), bytes.size(), bytes.size(), path);
    const unsigned char* data = bytes.data() + h.data_offset;
    const key_type t = key_type_of_descr(h.descr, path);
    if (t == key_type::u64) offsets = widen<std::uint64_t>(data, h.count, path);
    else if (t == key_type::u32) offsets = widen<std::uint32_t>(data, h.count, path);
    else if (t == key_type::i64) offsets = widen<std::int64_t>(data, h.count, path);
    else if (t == key_type::i32) offsets = widen<std::int32_t>(data, h.count, path);
    else bad(path, "offsets of dtype '" + h.descr + "'; give uint64, uint32, int64 or int32");
  } else {
    if (bytes.size() % sizeof(std::uint64_t) != 0)
      bad(path, std::to_string(bytes.size()) + " bytes, not a multiple of 8 (raw offsets are little-endian u64)");
    offsets = widen<std::uint64_t>(bytes.data(), bytes.size() / sizeof(std::uint64_t), path);
  }
  if (offsets.empty()) bad(path, "no offsets (S segments take S + 1, starting at 0 and ending at the key count)");
  if (offsets.front() != 0) bad(path, "offset 0 is " + std::to_string(offsets.front()) + ", not 0");
  for (std::size_t i = 1; i < offsets.size(); ++i)
    if (offsets[i] < offsets[i - 1])
      bad(path, "offset " + std::to_string(i) + " (" + std::to_string(offsets[i]) + ") is less than offset " +
                    std::to_string(i - 1) + " (" + std::to_string(offsets[i - 1]) + "): offsets never decrease");
  if (offsets.back() != n)
    bad(path, "the last offset (" + std::to_string(offsets.back()) + ", offset " +
                  std::to_string(offsets.size() - 1) + ") is not the key count " + std::to_string(n));
  return offsets;
}

}  // namespace gpusort::cli
