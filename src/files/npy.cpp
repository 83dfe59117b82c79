#include "files/npy.hpp"

#include <cctype>
#include <cstring>

#include "gpusort/errors.hpp"

namespace gpusort::files {
namespace {

constexpr unsigned char kMagic[] = {0x93, 'N', 'U', 'M', 'P', 'Y'};

[[noreturn]] void bad(const std::string& path, const std::string& why) {
  throw Error(errc::invalid_argument, "'" + path + "' is not a usable .npy file: " + why);
}

// A tiny reader for the Python dict literal of a .npy header:
//   {'descr': '<u4', 'fortran_order': False, 'shape': (10,), }
class HeaderParser {
 public:
  HeaderParser(std::string_view text, const std::string& path, npy_shapes shapes)
      : s_(text), path_(path), shapes_(shapes) {}

  void parse(NpyHeader& h) {
    bool have_descr = false, have_order = false, have_shape = false;
    expect('{');
    while (true) {
      skip_ws();
      if (peek() == '}') break;
      const std::string key = string_literal();
      expect(':');
      skip_ws();
      if (key == "descr") {
        if (peek() == '[') bad(path_, "structured dtypes are not supported");
        h.descr = string_literal();
        have_descr = true;
      } else if (key == "fortran_order") {
        fortran_ = boolean();
        have_order = true;
      } else if (key == "shape") {
        shape(h);
        have_shape = true;
      } else {
        bad(path_, "unexpected header key '" + key + "'");
      }
      skip_ws();
      if (peek() == ',') {
        ++i_;
        continue;
      }
      skip_ws();
      if (peek() != '}') bad(path_, "malformed header dictionary");
    }
    if (!have_descr || !have_order || !have_shape) bad(path_, "header lacks 'descr', 'fortran_order' or 'shape'");
    // For a 1-D array C and Fortran order are the same layout, so fortran_order matters only for more.
    h.fortran_order = fortran_ && h.shape.size() > 1;
  }

 private:
  char peek() const { return i_ < s_.size() ? s_[i_] : '\0'; }
  void skip_ws() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  void expect(char c) {
    skip_ws();
    if (peek() != c) bad(path_, std::string("malformed header (expected '") + c + "')");
    ++i_;
  }
  std::string string_literal() {
    skip_ws();
    const char q = peek();
    if (q != '\'' && q != '"') bad(path_, "malformed header (expected a string)");
    const auto end = s_.find(q, i_ + 1);
    if (end == std::string_view::npos) bad(path_, "malformed header (unterminated string)");
    std::string out(s_.substr(i_ + 1, end - i_ - 1));
    i_ = end + 1;
    return out;
  }
  bool boolean() {
    if (s_.substr(i_, 4) == "True") {
      i_ += 4;
      return true;
    }
    if (s_.substr(i_, 5) == "False") {
      i_ += 5;
      return false;
    }
    bad(path_, "malformed header (fortran_order is not True or False)");
  }
  void shape(NpyHeader& h) {
    expect('(');
    std::vector<std::size_t> dims;
    while (true) {
      skip_ws();
      if (peek() == ')') {
        ++i_;
        break;
      }
      if (!std::isdigit(static_cast<unsigned char>(peek()))) bad(path_, "malformed shape");
      std::size_t v = 0;
      while (std::isdigit(static_cast<unsigned char>(peek()))) {
        const std::size_t d = static_cast<std::size_t>(peek() - '0');
        if (v > (~std::size_t(0) - d) / 10) bad(path_, "shape too large");
        v = v * 10 + d;
        ++i_;
      }
      if (peek() == 'L') ++i_;  // Python 2 long suffix
      dims.push_back(v);
      skip_ws();
      if (peek() == ',') ++i_;
    }
    if (dims.empty()) bad(path_, "it holds a 0-dimensional scalar; gpusort sorts arrays");
    if (dims.size() != 1 && shapes_ == npy_shapes::one_dimensional) {
      std::string shape_text;
      for (std::size_t k = 0; k < dims.size(); ++k) {
        if (k) shape_text += 'x';
        shape_text += std::to_string(dims[k]);
      }
      bad(path_, "it holds a " + shape_text + " array, and only 1-D arrays are read here (gpusort sort sorts an "
                 "n-D .npy along --axis)");
    }
    std::size_t count = 1;
    for (const std::size_t d : dims) {
      if (d != 0 && count > ~std::size_t(0) / d) bad(path_, "shape too large");
      count *= d;
    }
    h.count = count;
    h.shape = std::move(dims);
  }

  std::string_view s_;
  const std::string& path_;
  npy_shapes shapes_;
  std::size_t i_ = 0;
  bool fortran_ = false;
};

// Bytes per element of a simple dtype ("<u4" -> 4, "|V16" -> 16, "<U3" -> 12); 0 if unusable.
std::size_t item_size_of(const std::string& descr) {
  if (descr.size() < 2) return 0;
  std::size_t pos = 0;
  if (descr[0] == '<' || descr[0] == '>' || descr[0] == '|' || descr[0] == '=') pos = 1;
  const char kind = descr[pos++];
  if (!std::strchr("biufcVSaUmM", kind)) return 0;
  std::size_t n = 0;
  std::size_t digits = 0;
  while (pos < descr.size() && std::isdigit(static_cast<unsigned char>(descr[pos]))) {
    n = n * 10 + static_cast<std::size_t>(descr[pos++] - '0');
    if (++digits > 9) return 0;
  }
  if (digits == 0) return 0;
  if (pos != descr.size() && !((kind == 'm' || kind == 'M') && descr[pos] == '[')) return 0;
  return kind == 'U' ? n * 4 : n;
}

}  // namespace

bool has_npy_magic(const unsigned char* data, std::size_t size) noexcept {
  return size >= sizeof kMagic && std::memcmp(data, kMagic, sizeof kMagic) == 0;
}

std::size_t npy_header_bytes(const unsigned char* data, std::size_t size) noexcept {
  if (!has_npy_magic(data, size) || size < 12) return 0;
  if (data[6] == 1) return 10 + (std::size_t(data[8]) | (std::size_t(data[9]) << 8));
  return 12 + (std::size_t(data[8]) | (std::size_t(data[9]) << 8) | (std::size_t(data[10]) << 16) |
               (std::size_t(data[11]) << 24));
}

NpyHeader parse_npy(const unsigned char* data, std::size_t head_size, std::size_t size, const std::string& path,
                    npy_shapes shapes) {
  if (!has_npy_magic(data, head_size)) bad(path, "missing the \\x93NUMPY magic");
  if (head_size < 10) bad(path, "truncated header");
  const unsigned major = data[6];
  std::size_t header_len = 0;
  std::size_t prefix = 0;
  if (major == 1) {
    header_len = std::size_t(data[8]) | (std::size_t(data[9]) << 8);
    prefix = 10;
  } else if (major == 2 || major == 3) {
    if (head_size < 12) bad(path, "truncated header");
    header_len = std::size_t(data[8]) | (std::size_t(data[9]) << 8) | (std::size_t(data[10]) << 16) |
                 (std::size_t(data[11]) << 24);
    prefix = 12;
  } else {
    bad(path, "unsupported format version " + std::to_string(major) + "." + std::to_string(data[7]));
  }
  if (size - prefix < header_len) bad(path, "truncated header");
  if (head_size - prefix < header_len)
    bad(path, "a header of " + std::to_string(header_len) + " bytes, more than gpusort reads for one (" +
                  std::to_string(head_size - prefix) + ")");
  NpyHeader h;
  HeaderParser(std::string_view(reinterpret_cast<const char*>(data + prefix), header_len), path, shapes).parse(h);
  h.item_size = item_size_of(h.descr);
  if (h.item_size == 0) bad(path, "unsupported dtype '" + h.descr + "'");
  h.data_offset = prefix + header_len;
  const std::size_t payload = size - h.data_offset;
  if (h.count > payload / h.item_size || payload != h.count * h.item_size)
    bad(path, "header says " + std::to_string(h.count) + " elements of " + std::to_string(h.item_size) +
                  " bytes but the file holds " + std::to_string(payload) + " bytes of data");
  return h;
}

key_type key_type_of_descr(const std::string& descr, const std::string& path) {
  if (descr.size() >= 3 && descr[0] == '>' && descr.substr(2) != "1")
    throw Error(errc::invalid_argument, "'" + path + "' holds big-endian data (dtype '" + descr +
                                            "'); gpusort reads little-endian only (convert with arr.astype('<" +
                                            descr.substr(1) + "'))");
  std::string d = descr;
  if (!d.empty() && (d[0] == '<' || d[0] == '|' || d[0] == '=' || d[0] == '>')) d = d.substr(1);
  static const struct {
    const char* name;
    key_type type;
  } table[] = {{"u1", key_type::u8},  {"u2", key_type::u16}, {"u4", key_type::u32}, {"u8", key_type::u64},
               {"i1", key_type::i8},  {"i2", key_type::i16}, {"i4", key_type::i32}, {"i8", key_type::i64},
               {"f4", key_type::f32}, {"f8", key_type::f64}, {"f2", key_type::f16}, {"b1", key_type::b8},
               {"V2", key_type::bf16}, {"c8", key_type::c64},  {"c16", key_type::c128}};  // V2: what np.save writes for an ml_dtypes.bfloat16 array
  for (const auto& e : table)
    if (d == e.name) return e.type;
  throw Error(errc::invalid_argument,
              "'" + path + "' holds dtype '" + descr +
                  "', which gpusort cannot sort (keys are u1/u2/u4/u8, i1/i2/i4/i8, f2/f4/f8, c8/c16, b1, and V2 as bfloat16)");
}

std::string descr_of(key_type t) {
  switch (t) {
    case key_type::u8: return "|u1";
    case key_type::u16: return "<u2";
    case key_type::u32: return "<u4";
    case key_type::u64: return "<u8";
    case key_type::i8: return "|i1";
    case key_type::i16: return "<i2";
    case key_type::i32: return "<i4";
    case key_type::i64: return "<i8";
    case key_type::f32: return "<f4";
    case key_type::f64: return "<f8";
    case key_type::f16: return "<f2";
    case key_type::bf16: return "<V2";  // as np.save writes ml_dtypes.bfloat16: np.load(f).view(ml_dtypes.bfloat16)
    case key_type::b8: return "|b1";
    case key_type::c64: return "<c8";
    case key_type::c128: return "<c16";
  }
  return "|u1";
}

std::vector<unsigned char> make_npy_header(const std::string& descr, std::size_t count) {
  return make_npy_header(descr, std::vector<std::size_t>{count}, false);
}

std::vector<unsigned char> make_npy_header(const std::string& descr, const std::vector<std::size_t>& shape,
                                           bool fortran_order) {
  // numpy's spelling of a tuple: (5,) for one dimension, (2, 3) for more.
  std::string shape_text;
  for (std::size_t k = 0; k < shape.size(); ++k) {
    if (k) shape_text += ", ";
    shape_text += std::to_string(shape[k]);
  }
  if (shape.size() == 1) shape_text += ",";
  std::string dict = "{'descr': '" + descr + "', 'fortran_order': " + (fortran_order ? "True" : "False") +
                     ", 'shape': (" + shape_text + "), }";
  const bool v2 = dict.size() + 1 + 10 > 65535;
  const std::size_t prefix = v2 ? 12 : 10;
  std::size_t total = prefix + dict.size() + 1;  // + '\n'
  total = (total + 63) / 64 * 64;
  dict.append(total - prefix - dict.size() - 1, ' ');
  dict.push_back('\n');
  std::vector<unsigned char> out(kMagic, kMagic + sizeof kMagic);
  out.push_back(v2 ? 2 : 1);
  out.push_back(0);
  const std::size_t len = dict.size();
  out.push_back(static_cast<unsigned char>(len & 0xFF));
  out.push_back(static_cast<unsigned char>((len >> 8) & 0xFF));
  if (v2) {
    out.push_back(static_cast<unsigned char>((len >> 16) & 0xFF));
    out.push_back(static_cast<unsigned char>((len >> 24) & 0xFF));
  }
  out.insert(out.end(), dict.begin(), dict.end());
  return out;
}

}  // namespace gpusort::files
