#include "axis_transpose.hpp"

#include <cstring>

#include "gpusort/errors.hpp"
#include "option_numbers.hpp"

namespace gpusort::cli {
namespace {

// One copy of items of a fixed size (the compiler moves them as whole words); `to_last` picks the
// direction. The inner loop walks the source (to_last) or the destination (back) contiguously.
template <std::size_t Bytes>
void transpose(const unsigned char* src, unsigned char* dst, const AxisSplit& s, bool to_last) {
  for (std::size_t o = 0; o < s.outer; ++o) {
    const std::size_t base = o * s.length * s.inner;
    for (std::size_t k = 0; k < s.length; ++k)
      for (std::size_t i = 0; i < s.inner; ++i) {
        const std::size_t axis_major = base + k * s.inner + i;   // [o][k][i]
        const std::size_t axis_last = base + i * s.length + k;   // [o][i][k]
        if (to_last)
          std::memcpy(dst + axis_last * Bytes, src + axis_major * Bytes, Bytes);
        else
          std::memcpy(dst + axis_major * Bytes, src + axis_last * Bytes, Bytes);
      }
  }
}

void transpose_items(const void* src, void* dst, const AxisSplit& s, std::size_t item_size, bool to_last) {
  const auto* in = static_cast<const unsigned char*>(src);
  auto* out = static_cast<unsigned char*>(dst);
  switch (item_size) {
    case 1: return transpose<1>(in, out, s, to_last);
    case 2: return transpose<2>(in, out, s, to_last);
    case 4: return transpose<4>(in, out, s, to_last);
    case 8: return transpose<8>(in, out, s, to_last);
    case 16: return transpose<16>(in, out, s, to_last);
    default: throw Error(errc::invalid_argument, "items of " + std::to_string(item_size) + " bytes cannot be moved");
  }
}

}  // namespace

std::size_t parse_axis_arg(const std::string& text, std::size_t dims) {
  const auto d = static_cast<std::int64_t>(dims);
  const std::int64_t axis =
      parse_signed_arg(text, "--axis", -d, d - 1, "for an array of " + std::to_string(dims) + " dimension(s)");
  return static_cast<std::size_t>(axis < 0 ? axis + d : axis);
}

AxisSplit split_at_axis(const std::vector<std::size_t>& shape, std::size_t axis) {
  AxisSplit s;
  for (std::size_t k = 0; k < shape.size(); ++k) {
    if (k < axis) s.outer *= shape[k];
    else if (k == axis) s.length = shape[k];
    else s.inner *= shape[k];
  }
  return s;
}

void move_axis_last(const void* src, void* dst, const AxisSplit& split, std::size_t item_size) {
  transpose_items(src, dst, split, item_size, true);
}

void move_last_axis_back(const void* src, void* dst, const AxisSplit& split, std::size_t item_size) {
  transpose_items(src, dst, split, item_size, false);
}

}  // namespace gpusort::cli
