#include "files/array_file.hpp"

#include <algorithm>
#include <cstdio>
#include <mutex>
#include <set>

#include "gpusort/errors.hpp"
#include "files/input_file.hpp"
#include "files/npy.hpp"
#include "files/output_file.hpp"

namespace gpusort::files {
namespace {

std::string key_type_list() {
  std::string s;
  for (key_type t : all_key_types) s += (s.empty() ? "" : " ") + std::string(key_type_name(t));
  return s;
}

std::string q(const std::string& s) { return "'" + s + "'"; }

// The layout common to keys and values: a .npy header (the element type is checked by the
// caller), or raw bytes of `item_size` (a function of the caller's --type, 0 when none was given).
// head: the file's first head_size bytes (its .npy header whole, or 4 KiB, or all of a shorter
// file); total: the file's size.
ArrayLayout read_layout(const std::string& path, const std::string& what, const unsigned char* head,
                        std::size_t head_size, std::size_t total, FileFormat format, npy_shapes shapes) {
  const bool magic = has_npy_magic(head, head_size);
  if (format == FileFormat::npy && !magic)
    throw Error(errc::invalid_argument, what + " " + display_name(path) + " is not a .npy file (no .npy magic; --format npy was given)");
  ArrayLayout l;
  if (magic && format != FileFormat::raw) {
    NpyHeader h = parse_npy(head, head_size, total, path, shapes);
    l.npy = true;
    l.shape = std::move(h.shape);
    l.fortran_order = h.fortran_order;
    l.descr = h.descr;
    l.offset = h.data_offset;
    l.count = h.count;
    l.item_size = h.item_size;
  }
  return l;
}

// numpy's dtype for a type, for the conversion hint.
std::string numpy_name(const std::string& type_name) {
  if (type_name.empty()) return "np.uint32";
  const char kind = type_name[0];
  const std::string bits = type_name.substr(1);
  if (type_name == "bf16") return "__import__('ml_dtypes').bfloat16";  // numpy has none of its own
  if (type_name == "bool") return "np.bool_";
  if (kind == 'u') return "np.uint" + bits;
  if (kind == 'i') return "np.int" + bits;
  if (kind == 'f') return "np.float" + bits;
  return "np.uint8";
}

// How to turn numbers written as text into the raw array gpusort reads.
std::string text_conversion_hint(const std::string& path, const std::string& what, const std::string& type_name) {
  const std::string src = path == "-" ? "sys.stdin" : "'" + path + "'";
  return "convert it first, e.g. python3 -c \"import sys, numpy as np; np.loadtxt(" + src + ", dtype=" +
         numpy_name(type_name) + ").tofile('" + (what == "values" ? "values" : "keys") + ".bin')\"";
}

void set_raw_layout(ArrayLayout& l, const std::string& path, const unsigned char* head, std::size_t head_size,
                    std::size_t total, std::size_t item_size, const std::string& what, const std::string& type_name,
                    FileFormat format) {
  if (total % item_size != 0)
    throw Error(errc::invalid_argument, what + " file " + q(path) + " is " + std::to_string(total) +
                                            " bytes, not a multiple of " + std::to_string(item_size) +
                                            " (the size of " + type_name + ")" +
                                            (format != FileFormat::raw && looks_like_text(head, head_size)
                                                 ? "; it looks like numbers written as text: " +
                                                       text_conversion_hint(path, what, type_name)
                                                 : std::string()));
  warn_if_text(path, head, head_size, what, type_name, format);
  l.offset = 0;
  l.item_size = item_size;
  l.count = total / item_size;
}

ArrayFile with_layout(std::string path, InputBytes bytes, const ArrayLayout& l) {
  ArrayFile f;
  f.path = std::move(path);
  f.bytes = std::move(bytes);
  f.npy = l.npy;
  f.descr = l.descr;
  f.offset = l.offset;
  f.count = l.count;
  f.item_size = l.item_size;
  f.shape = l.shape;
  f.fortran_order = l.fortran_order;
  return f;
}

}  // namespace

// Only printable ASCII and whitespace in the first 4 KiB, with a digit and a separator: numbers
// written as text. Random binary data of 4 KiB passes this with probability below 2^-5000; short
// binary files of printable bytes can be read anyway with --format raw.
bool looks_like_text(const unsigned char* bytes, std::size_t size) {
  const std::size_t n = std::min<std::size_t>(size, 4096);
  bool digit = false, separator = false;
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned char c = bytes[i];
    if (c >= '0' && c <= '9')
      digit = true;
    else if (c == '\n' || c == ' ' || c == ',' || c == '\t' || c == '\r' || c == ';')
      separator = true;
    else if (c < 0x20 || c > 0x7e)
      return false;
  }
  return digit && separator;
}

void warn_if_text(const std::string& path, const unsigned char* head, std::size_t head_size, const std::string& what,
                  const std::string& type_name, FileFormat format) {
  if (format == FileFormat::raw || !looks_like_text(head, head_size)) return;
  // Once per input: a sort may look at an input's head on more than one path (streamed, in memory).
  static std::mutex mutex;
  static std::set<std::string> warned;
  {
    const std::lock_guard<std::mutex> lock(mutex);
    if (!warned.insert(what + "\n" + path).second) return;
  }
  const std::string as = type_name.empty() ? "a raw array" : "a raw array of " + type_name;
  std::fprintf(stderr,
               "gpusort: warning: %s %s looks like numbers written as text; reading its bytes as %s (if it is text, "
               "%s; --format raw silences this warning)\n",
               what.c_str(), display_name(path).c_str(), as.c_str(), text_conversion_hint(path, what, type_name).c_str());
}

FileFormat parse_format_arg(const std::string& name) {
  if (name.empty() || name == "auto") return FileFormat::automatic;
  if (name == "raw") return FileFormat::raw;
  if (name == "npy") return FileFormat::npy;
  throw Error(errc::invalid_argument, "unknown --format " + q(name) + " (expected auto, raw or npy)");
}

key_type parse_key_type_arg(const std::string& name, const std::string& option) {
  if (auto t = parse_key_type(name)) return *t;
  throw Error(errc::invalid_argument, "unknown " + option + " " + q(name) + " (expected one of: " + key_type_list() + ")");
}

ValueType parse_value_type_arg(const std::string& name, const std::string& option) {
  if (auto t = parse_key_type(name)) return {name, key_size(*t), descr_of(*t)};
  if (name.rfind("bytes", 0) == 0 && name.size() > 5) {
    const std::string digits = name.substr(5);
    if (digits.find_first_not_of("0123456789") == std::string::npos && digits.size() <= 3) {
      const std::size_t n = std::stoul(digits);
      if (is_supported_value_size(n)) return {name, n, "|V" + digits};
    }
  }
  throw Error(errc::invalid_argument, "unknown " + option + " " + q(name) + " (expected one of: " + key_type_list() +
                                          " bytes1 bytes2 bytes4 bytes8 bytes16)");
}

KeyLayout key_layout(const std::string& path, const unsigned char* head, std::size_t head_size, std::size_t total,
                     std::optional<key_type> type, FileFormat format, const std::string& what, npy_shapes shapes) {
  ArrayLayout l = read_layout(path, what, head, head_size, total, format, shapes);
  if (l.npy) {
    key_type t = key_type_of_descr(l.descr, path);
    // a 2-byte void holds bf16 keys unless --type names another 2-byte type: void has no type of its own
    if (type && t == key_type::bf16 && l.item_size == 2 && key_size(*type) == 2 && l.descr.find('V') != std::string::npos)
      t = *type;
    if (type && *type != t)
      throw Error(errc::invalid_argument, what + " " + q(path) + " holds " + std::string(key_type_name(t)) +
                                              " keys (dtype " + q(l.descr) + ") but --type " +
                                              std::string(key_type_name(*type)) + " was given");
    return {l, t};
  }
  if (!type)
    throw Error(errc::invalid_argument,
                "--type is required for raw " + what + " " + q(path) + " (only .npy files carry their type)");
  set_raw_layout(l, path, head, head_size, total, key_size(*type), what, std::string(key_type_name(*type)), format);
  return {l, *type};
}

ArrayLayout value_layout(const std::string& path, const unsigned char* head, std::size_t head_size, std::size_t total,
                         const std::optional<ValueType>& type, FileFormat format, npy_shapes shapes) {
  ArrayLayout l = read_layout(path, "values", head, head_size, total, format, shapes);
  if (l.npy) {
    if (!is_supported_value_size(l.item_size))
      throw Error(errc::invalid_argument, "values " + q(path) + " have dtype " + q(l.descr) + " of " +
                                              std::to_string(l.item_size) +
                                              " bytes; gpusort carries values of 1, 2, 4, 8 or 16 bytes");
    if (type && type->size != l.item_size)
      throw Error(errc::invalid_argument, "values " + q(path) + " hold " + std::to_string(l.item_size) +
                                              "-byte elements (dtype " + q(l.descr) + ") but --values-type " +
                                              type->name + " is " + std::to_string(type->size) + " bytes");
    return l;
  }
  if (!type)
    throw Error(errc::invalid_argument,
                "--values-type is required for raw values " + q(path) + " (only .npy files carry their type)");
  set_raw_layout(l, path, head, head_size, total, type->size, "values", type->name, format);
  l.descr = type->descr;
  return l;
}

KeyFile load_keys(const std::string& path, std::optional<key_type> type, FileFormat format, const std::string& what,
                  npy_shapes shapes) {
  InputBytes bytes = read_input(path, what);
  const KeyLayout k = key_layout(path, bytes.data(), bytes.size(), bytes.size(), type, format, what, shapes);
  return {with_layout(path, std::move(bytes), k.layout), k.type};
}

ArrayFile load_values(const std::string& path, const std::optional<ValueType>& type, FileFormat format,
                      npy_shapes shapes) {
  InputBytes bytes = read_input(path, "values");
  const ArrayLayout l = value_layout(path, bytes.data(), bytes.size(), bytes.size(), type, format, shapes);
  return with_layout(path, std::move(bytes), l);
}

void write_array(OutputFile& out, const void* data, std::size_t count, std::size_t item_size, bool npy,
                 const std::string& descr) {
  if (npy) {
    const auto header = make_npy_header(descr, count);
    out.write(header.data(), header.size());
  }
  out.write(data, count * item_size);
}

bool has_npy_extension(const std::string& path) {
  return path.size() >= 4 && path.compare(path.size() - 4, 4, ".npy") == 0;
}

}  // namespace gpusort::files
