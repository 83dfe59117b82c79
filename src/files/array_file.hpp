#pragma once
// A file of keys or values as the gpusort command sees it: raw little-endian elements, or a
// .npy file (recognised by its magic bytes, whatever its name).
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "files/input_file.hpp"
#include "files/npy.hpp"
#include "gpusort/key_type.hpp"
#include "gpusort/sort_file.hpp"

namespace gpusort::files {

class OutputFile;

// How an input is read: recognised by its first bytes (a .npy magic, else raw), or forced.
using FileFormat = file_format;
// "auto", "raw" or "npy" (the --format argument); Error(invalid_argument) otherwise.
FileFormat parse_format_arg(const std::string& name);

struct ArrayFile {
  std::string path;
  InputBytes bytes;  // the whole file; elements are sorted in place here
  bool npy = false;
  std::string descr;  // .npy dtype ("<u4"); empty for raw files
  std::size_t offset = 0;
  std::size_t count = 0;
  std::size_t item_size = 0;
  std::vector<std::size_t> shape;  // .npy: its shape (one dimension unless loaded with npy_shapes::any)
  bool fortran_order = false;      // .npy of more than one dimension: column-major

  unsigned char* data() noexcept { return bytes.data() + offset; }
  const unsigned char* data() const noexcept { return bytes.data() + offset; }
  std::size_t data_bytes() const noexcept { return count * item_size; }
};

// --type / --values-type names -------------------------------------------------------------
// Throws gpusort::Error(invalid_argument) listing the valid names.
key_type parse_key_type_arg(const std::string& name, const std::string& option);

struct ValueType {
  std::string name;   // as given: "u32", "bytes16"
  std::size_t size;   // bytes per value
  std::string descr;  // .npy dtype for output: "<u4", "|V16"
};
// Any key type name (its size is the value width) or bytesN for N in 1, 2, 4, 8, 16.
ValueType parse_value_type_arg(const std::string& name, const std::string& option);

// Loading ---------------------------------------------------------------------------------
// Paths may be "-" (standard input). Keys: a .npy file's dtype must be a key type (and agree with
// `type` if one was given); a raw file needs `type` and a size that is a multiple of the key size.
// A raw input that looks like text (digits and separators only) is read as binary all the same,
// with a warning unless the format is forced to raw (warn_if_text).
struct KeyFile {
  ArrayFile file;
  key_type type;
};
// Where the elements of an array file lie, and what they are.
struct ArrayLayout {
  bool npy = false;
  std::string descr;        // .npy dtype, or (values) the --values-type's
  std::size_t offset = 0;   // of the first element
  std::size_t count = 0;
  std::size_t item_size = 0;
  std::vector<std::size_t> shape;  // .npy only
  bool fortran_order = false;
};
struct KeyLayout {
  ArrayLayout layout;
  key_type type;
};
// The checks and errors of load_keys / load_values from a file's first head_size bytes (all of
// its .npy header, and at least 4 KiB unless the file is shorter) and its size in bytes, for
// readers that do not hold the whole file (the streamed sort). A .npy file must be 1-D unless
// `shapes` is npy_shapes::any (sorts along an axis).
KeyLayout key_layout(const std::string& path, const unsigned char* head, std::size_t head_size, std::size_t total,
                     std::optional<key_type> type, FileFormat format, const std::string& what = "input",
                     npy_shapes shapes = npy_shapes::one_dimensional);
ArrayLayout value_layout(const std::string& path, const unsigned char* head, std::size_t head_size, std::size_t total,
                         const std::optional<ValueType>& type, FileFormat format,
                         npy_shapes shapes = npy_shapes::one_dimensional);
KeyFile load_keys(const std::string& path, std::optional<key_type> type, FileFormat format,
                  const std::string& what = "input", npy_shapes shapes = npy_shapes::one_dimensional);

// Values: any dtype of a supported width for .npy; a raw file needs `type`.
ArrayFile load_values(const std::string& path, const std::optional<ValueType>& type, FileFormat format,
                      npy_shapes shapes = npy_shapes::one_dimensional);

// Writing ---------------------------------------------------------------------------------
// Writes `count` elements at `data` to `out`, with a .npy header of dtype `descr` if npy.
void write_array(OutputFile& out, const void* data, std::size_t count, std::size_t item_size, bool npy,
                 const std::string& descr);

// Numbers written as text rather than binary keys (the first 4 KiB: printable ASCII with digits
// and separators only). Only a guess: valid binary data can look so (all-equal i16 keys 0x2031
// read "1 1 1 "), so it never refuses an input.
bool looks_like_text(const unsigned char* bytes, std::size_t size);

// If a raw input's head looks like text and the format is not forced to raw: one line on standard
// error (once per input and process) saying how to convert text, and the bytes are read anyway.
// `what` names the input ("input", "values"); `type_name` is what its bytes are read as.
void warn_if_text(const std::string& path, const unsigned char* head, std::size_t head_size, const std::string& what,
                  const std::string& type_name, FileFormat format);

// True if the name ends in ".npy" (used to pick the output format of new files).
bool has_npy_extension(const std::string& path);

}  // namespace gpusort::files
