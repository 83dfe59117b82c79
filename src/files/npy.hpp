#pragma once
// NumPy .npy files (format versions 1.0, 2.0 and 3.0), restricted to what gpusort sorts:
// arrays of a simple little-endian dtype, one-dimensional unless the reader takes any shape (the
// command's sorts along an axis).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpusort/key_type.hpp"

namespace gpusort::files {

struct NpyHeader {
  std::string descr;            // dtype as numpy spells it: "<u4", "|u1", "<f8", "|V16", ...
  std::size_t item_size = 0;    // bytes per element
  std::size_t count = 0;        // elements (the product of shape)
  std::size_t data_offset = 0;  // where the elements start in the file
  std::vector<std::size_t> shape;  // numpy's shape: one dimension unless read with npy_shapes::any
  bool fortran_order = false;      // column-major: the first index varies fastest (n-D only)
};

// The shapes a reader takes: one-dimensional arrays only, or any of at least one dimension.
enum class npy_shapes { one_dimensional, any };

// True if the bytes start with the .npy magic "\x93NUMPY".
bool has_npy_magic(const unsigned char* data, std::size_t size) noexcept;

// Bytes from the start of a .npy file to the end of its header, read from its first `size`
// bytes (at least 12 of them); 0 when they do not start with the magic.
std::size_t npy_header_bytes(const unsigned char* data, std::size_t size) noexcept;

// Parses and checks a .npy file from its first head_size bytes (which must hold the header) and
// its size: the header must describe a 1-D C- (or trivially Fortran-) ordered array (with
// npy_shapes::any, an array of one or more dimensions in either order) and the payload must hold
// exactly `count` elements.
// Throws gpusort::Error(invalid_argument) naming `path` on anything else.
NpyHeader parse_npy(const unsigned char* data, std::size_t head_size, std::size_t size, const std::string& path,
                    npy_shapes shapes = npy_shapes::one_dimensional);

// The key type a dtype holds: "<u4" -> u32, "|i1" -> i8, "<f2" -> f16, "|b1" -> bool, "<V2" -> bf16
// (np.save keeps no more of an ml_dtypes.bfloat16 array's dtype than its 2 bytes), ... Throws
// (naming path) for big-endian and non-key dtypes.
key_type key_type_of_descr(const std::string& descr, const std::string& path);
// The dtype of a key type: u32 -> "<u4", u8 -> "|u1", bf16 -> "<V2" (as np.save writes bfloat16).
std::string descr_of(key_type t);

// A version 1.0 header (padded to 64 bytes) for `count` elements of dtype `descr`.
std::vector<unsigned char> make_npy_header(const std::string& descr, std::size_t count);
// The same for an array of this shape (at least one dimension) and order (version 2.0 where the
// header needs it).
std::vector<unsigned char> make_npy_header(const std::string& descr, const std::vector<std::size_t>& shape,
                                           bool fortran_order);

}  // namespace gpusort::files
