#include "array_file.hpp"

#include <algorithm>

#include "gpusort/errors.hpp"
#include "input_file.hpp"
#include "npy.hpp"
#include "output_file.hpp"

namespace gpusort::cli {
namespace {

std::string key_type_list() {
  std::string s;
  for (key_type t : all_key_types) s += (s.empty() ? "" : " ") + std::string(key_type_name(t));
  return s;
}

std::string q(const std::string& s) { return "'" + s + "'"; }

ArrayFile read_array_file(const std::string& path, const std::string& what, FileFormat format) {
  ArrayFile f;
  f.path = path;
  f.bytes = read_input(path, what);
  const bool magic = has_npy_magic(f.bytes.data(), f.bytes.size());
  if (format == FileFormat::npy && !magic)
    throw Error(errc::invalid_argument, what + " " + display_name(path) + " is not a .npy file (no .npy magic; --format npy was given)");
  if (magic && format != FileFormat::raw) {
    const NpyHeader h = parse_npy(f.bytes.data(), f.bytes.size(), path);
    f.npy = true;
    f.descr = h.descr;
    f.offset = h.data_offset;
    f.count = h.count;
    f.item_size = h.item_size;
  }
  return f;
}

// numpy's name for a type, for the conversion hint.
std::string numpy_name(const std::string& type_name) {
  if (type_name.empty()) return "uint32";
  const char kind = type_name[0];
  const std::string bits = type_name.substr(1);
  if (kind == 'u') return "uint" + bits;
  if (kind == 'i') return "int" + bits;
  if (kind == 'f') return "float" + bits;
  return "uint8";
}

void set_raw_layout(ArrayFile& f, std::size_t item_size, const std::string& what, const std::string& type_name,
                    FileFormat format) {
  if (format != FileFormat::raw && looks_like_text(f.bytes.data(), f.bytes.size())) {
    const std::string src = f.path == "-" ? "sys.stdin" : "'" + f.path + "'";
    throw Error(errc::invalid_argument,
                what + " " + display_name(f.path) + " looks like numbers written as text, not a raw array of " +
                    type_name + "; convert it first, e.g. python3 -c \"import sys, numpy as np; np.loadtxt(" + src +
                    ", dtype=np." + numpy_name(type_name) + ").tofile('keys.bin')\", or pass --format raw to read its bytes as " +
                    type_name);
  }
  if (f.bytes.size() % item_size != 0)
    throw Error(errc::invalid_argument, what + " file " + q(f.path) + " is " + std::to_string(f.bytes.size()) +
                                            " bytes, not a multiple of " + std::to_string(item_size) +
                                            " (the size of " + type_name + ")");
  f.offset = 0;
  f.item_size = item_size;
  f.count = f.bytes.size() / item_size;
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

KeyFile load_keys(const std::string& path, std::optional<key_type> type, FileFormat format, const std::string& what) {
  ArrayFile f = read_array_file(path, what, format);
  if (f.npy) {
    const key_type t = key_type_of_descr(f.descr, path);
    if (type && *type != t)
      throw Error(errc::invalid_argument, what + " " + q(path) + " holds " + std::string(key_type_name(t)) +
                                              " keys (dtype " + q(f.descr) + ") but --type " +
                                              std::string(key_type_name(*type)) + " was given");
    return {std::move(f), t};
  }
  if (!type)
    throw Error(errc::invalid_argument,
                "--type is required for raw " + what + " " + q(path) + " (only .npy files carry their type)");
  set_raw_layout(f, key_size(*type), what, std::string(key_type_name(*type)), format);
  return {std::move(f), *type};
}

ArrayFile load_values(const std::string& path, const std::optional<ValueType>& type, FileFormat format) {
  ArrayFile f = read_array_file(path, "values", format);
  if (f.npy) {
    if (!is_supported_value_size(f.item_size))
      throw Error(errc::invalid_argument, "values " + q(path) + " have dtype " + q(f.descr) + " of " +
                                              std::to_string(f.item_size) +
                                              " bytes; gpusort carries values of 1, 2, 4, 8 or 16 bytes");
    if (type && type->size != f.item_size)
      throw Error(errc::invalid_argument, "values " + q(path) + " hold " + std::to_string(f.item_size) +
                                              "-byte elements (dtype " + q(f.descr) + ") but --values-type " +
                                              type->name + " is " + std::to_string(type->size) + " bytes");
    return f;
  }
  if (!type)
    throw Error(errc::invalid_argument,
                "--values-type is required for raw values " + q(path) + " (only .npy files carry their type)");
  set_raw_layout(f, type->size, "values", type->name, format);
  f.descr = type->descr;
  return f;
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

}  // namespace gpusort::cli
