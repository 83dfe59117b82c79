#include "array_file.hpp"

#include "file_io.hpp"
#include "gpusort/errors.hpp"
#include "npy.hpp"

namespace gpusort::cli {
namespace {

std::string key_type_list() {
  std::string s;
  for (key_type t : all_key_types) s += (s.empty() ? "" : " ") + std::string(key_type_name(t));
  return s;
}

std::string q(const std::string& s) { return "'" + s + "'"; }

ArrayFile read_array_file(const std::string& path, const std::string& what) {
  ArrayFile f;
  f.path = path;
  f.bytes = read_file(path, what);
  if (has_npy_magic(f.bytes.data(), f.bytes.size())) {
    const NpyHeader h = parse_npy(f.bytes.data(), f.bytes.size(), path);
    f.npy = true;
    f.descr = h.descr;
    f.offset = h.data_offset;
    f.count = h.count;
    f.item_size = h.item_size;
  }
  return f;
}

void set_raw_layout(ArrayFile& f, std::size_t item_size, const std::string& what, const std::string& type_name) {
  if (f.bytes.size() % item_size != 0)
    throw Error(errc::invalid_argument, what + " file " + q(f.path) + " is " + std::to_string(f.bytes.size()) +
                                            " bytes, not a multiple of " + std::to_string(item_size) +
                                            " (the size of " + type_name + ")");
  f.offset = 0;
  f.item_size = item_size;
  f.count = f.bytes.size() / item_size;
}

}  // namespace

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

KeyFile load_keys(const std::string& path, std::optional<key_type> type, const std::string& what) {
  ArrayFile f = read_array_file(path, what);
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
  set_raw_layout(f, key_size(*type), what, std::string(key_type_name(*type)));
  return {std::move(f), *type};
}

ArrayFile load_values(const std::string& path, const std::optional<ValueType>& type) {
  ArrayFile f = read_array_file(path, "values");
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
  set_raw_layout(f, type->size, "values", type->name);
  f.descr = type->descr;
  return f;
}

void write_array(AtomicOutput& out, const void* data, std::size_t count, std::size_t item_size, bool npy,
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
