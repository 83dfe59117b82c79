#pragma once
// The test's own reading of key files, independent of the command's parser: where a .npy payload
// starts, which dtype and element count its header claims, and how keys of each dtype compare.
// It is deliberately lenient: it only has to find the bytes, the command decides what is valid.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <cstddef>
#include <string>
#include <vector>

namespace cli_fuzz {

// A dtype the checker can compare: kind 'u', 'i' or 'f' and a size of 1, 2, 4 or 8 bytes ('f': 2, 4
// or 8), 'b' (bool, one byte, any nonzero byte true) or 'B' (bfloat16, 2 bytes: '<V2' is what np.save
// writes for ml_dtypes' bfloat16, and what the command reads as bf16).
struct KeyKind {
  char kind = 'u';
  std::size_t size = 4;
};

// The byte-order mark is optional, as numpy reads it ('u4' is native order); '>' only for 1 byte.
inline std::optional<KeyKind> key_kind_of_descr(const std::string& descr) {
  std::string d = descr;
  if (!d.empty() && std::string("<|=>").find(d[0]) != std::string::npos) d = d.substr(1);
  if (d.size() != 2 || (descr[0] == '>' && d[1] != '1')) return std::nullopt;
  if (d == "b1") return KeyKind{'b', 1};
  if (d == "V2") return KeyKind{'B', 2};
  const char kind = d[0];
  const std::string digits = d.substr(1);
  if (std::string("uif").find(kind) == std::string::npos) return std::nullopt;
  if (digits != "1" && digits != "2" && digits != "4" && digits != "8") return std::nullopt;
  if (kind == 'f' && digits == "1") return std::nullopt;
  return KeyKind{kind, static_cast<std::size_t>(std::stoul(digits))};
}

// Key type names of the command (-t) and their dtypes.
inline std::optional<std::string> descr_of_type_name(const std::string& name) {
  static const char* table[][2] = {{"u8", "|u1"},  {"u16", "<u2"}, {"u32", "<u4"}, {"u64", "<u8"}, {"i8", "|i1"},
                                   {"i16", "<i2"}, {"i32", "<i4"}, {"i64", "<i8"}, {"f32", "<f4"}, {"f64", "<f8"},
                                   {"f16", "<f2"}, {"bf16", "<V2"}, {"bool", "|b1"}};
  for (const auto& row : table)
    if (name == row[0]) return std::string(row[1]);
  return std::nullopt;
}

inline bool has_npy_magic(const std::vector<unsigned char>& b) {
  return b.size() >= 6 && std::memcmp(b.data(), "\x93NUMPY", 6) == 0;
}

struct NpyLayout {
  std::size_t data_offset = 0;
  std::string header;  // the dict text
};

// Where the payload starts according to the version byte and the header-length field.
inline std::optional<NpyLayout> npy_layout(const std::vector<unsigned char>& b) {
  if (!has_npy_magic(b) || b.size() < 10) return std::nullopt;
  const std::size_t prefix = b[6] == 1 ? 10 : 12;
  if (b.size() < prefix) return std::nullopt;
  std::uint64_t len = 0;
  for (std::size_t i = 8; i < prefix; ++i) len |= std::uint64_t(b[i]) << (8 * (i - 8));
  if (len > b.size() - prefix) return std::nullopt;
  NpyLayout l;
  l.data_offset = prefix + static_cast<std::size_t>(len);
  l.header.assign(b.begin() + static_cast<std::ptrdiff_t>(prefix), b.begin() + static_cast<std::ptrdiff_t>(l.data_offset));
  return l;
}

// The value of 'descr' in a header the command wrote (a simple quoted string there).
inline std::optional<std::string> header_descr(const std::string& header) {
  const std::string key = "'descr': '";
  const auto p = header.find(key);
  if (p == std::string::npos) return std::nullopt;
  const auto end = header.find('\'', p + key.size());
  if (end == std::string::npos) return std::nullopt;
  return header.substr(p + key.size(), end - p - key.size());
}

// The element count of 'shape' in a header the command wrote: the product of the tuple.
inline std::optional<std::uint64_t> header_count(const std::string& header) {
  const std::string key = "'shape': (";
  const auto p = header.find(key);
  if (p == std::string::npos) return std::nullopt;
  const auto end = header.find(')', p);
  if (end == std::string::npos) return std::nullopt;
  std::uint64_t count = 1;
  std::string dims = header.substr(p + key.size(), end - p - key.size()) + ",";
  for (std::size_t start = 0, comma; (comma = dims.find(',', start)) != std::string::npos; start = comma + 1) {
    const std::string d = dims.substr(start, comma - start);
    if (d.find_first_not_of(' ') == std::string::npos) continue;
    if (d.find_first_not_of(" 0123456789") != std::string::npos) return std::nullopt;
    count *= std::stoull(d);
  }
  return count;
}

// The dimensions of 'shape' in a header the command wrote (empty where it cannot be read).
inline std::vector<std::uint64_t> header_dims(const std::string& header) {
  const std::string key = "'shape': (";
  const auto p = header.find(key);
  const auto end = p == std::string::npos ? p : header.find(')', p);
  if (end == std::string::npos) return {};
  std::vector<std::uint64_t> dims;
  std::string text = header.substr(p + key.size(), end - p - key.size()) + ",";
  for (std::size_t start = 0, comma; (comma = text.find(',', start)) != std::string::npos; start = comma + 1) {
    const std::string d = text.substr(start, comma - start);
    if (d.find_first_not_of(' ') == std::string::npos) continue;
    if (d.find_first_not_of(" 0123456789") != std::string::npos) return {};
    dims.push_back(std::stoull(d));
  }
  return dims;
}

// The runs of keys a sort orders on their own: an n-D .npy is sorted along its last axis, whose
// elements lie `stride` apart (1 in C order; the product of the other dimensions in Fortran order),
// and a 1-D array is one line. Line l's element j is at start(l) + j * stride.
struct Lines {
  std::size_t count = 1, length = 0, stride = 1;
  bool fortran = false;
  std::size_t at(std::size_t line, std::size_t j) const {
    return (fortran ? line : line * length) + j * stride;
  }
};
inline Lines lines_of_header(const std::string& header, std::size_t n) {
  Lines l;
  l.length = n;
  const auto dims = header_dims(header);
  if (dims.size() < 2) return l;
  l.length = static_cast<std::size_t>(dims.back());
  l.count = l.length ? n / l.length : 0;
  l.fortran = header.find("'fortran_order': True") != std::string::npos;
  if (l.fortran) l.stride = l.count;
  return l;
}

// The key at index i as raw little-endian bits (bools as 0 or 1: a sort may write a true byte as 1).
inline std::uint64_t key_bits(const unsigned char* data, std::size_t i, std::size_t size, char kind = 'u') {
  std::uint64_t v = 0;
  std::memcpy(&v, data + i * size, size);
  return kind == 'b' ? std::uint64_t(v != 0) : v;
}

// An IEEE half's value, decoded by hand (the checker's own reading, not the command's).
inline double half_value(std::uint64_t bits) {
  const int sign = (bits >> 15) & 1, exponent = (bits >> 10) & 31;
  const double mantissa = double(bits & 1023);
  double v;
  if (exponent == 31) v = mantissa != 0 ? std::nan("") : INFINITY;
  else if (exponent == 0) v = std::ldexp(mantissa, -24);
  else v = std::ldexp(1024 + mantissa, exponent - 25);
  return sign ? -v : v;
}

// a < b for keys of this kind; NaN counts as larger than every number (ascending puts NaNs last,
// descending first), and -0.0 equals +0.0.
inline bool key_less(KeyKind k, std::uint64_t a, std::uint64_t b) {
  if (k.kind == 'u') return a < b;
  if (k.kind == 'i') {
    const unsigned shift = static_cast<unsigned>(64 - 8 * k.size);
    return static_cast<std::int64_t>(a << shift) < static_cast<std::int64_t>(b << shift);
  }
  if (k.kind == 'b') return (a != 0) < (b != 0);
  double x, y;
  if (k.kind == 'f' && k.size == 2) {
    x = half_value(a);
    y = half_value(b);
  } else if (k.kind == 'B' || k.size == 4) {  // bfloat16: the upper half of a float32
    const auto shift = k.kind == 'B' ? 16u : 0u;
    float fx, fy;
    const auto ax = static_cast<std::uint32_t>(a) << shift, by = static_cast<std::uint32_t>(b) << shift;
    std::memcpy(&fx, &ax, 4);
    std::memcpy(&fy, &by, 4);
    x = fx;
    y = fy;
  } else {
    std::memcpy(&x, &a, 8);
    std::memcpy(&y, &b, 8);
  }
  if (std::isnan(x) || std::isnan(y)) return !std::isnan(x) && std::isnan(y);
  return x < y;
}

}  // namespace cli_fuzz
