// Names, sizes and classification of key types.
#include "gpusort/key_type.hpp"

#include <iterator>

namespace gpusort {

std::size_t key_size(key_type t) noexcept {
  switch (t) {
    case key_type::u8: case key_type::i8: case key_type::b8: return 1;
    case key_type::u16: case key_type::i16: case key_type::f16: case key_type::bf16: return 2;
    case key_type::u32: case key_type::i32: case key_type::f32: return 4;
    case key_type::u64: case key_type::i64: case key_type::f64: case key_type::c64: return 8;
    case key_type::c128: return 16;
  }
  return 0;
}

std::string_view key_type_name(key_type t) noexcept {
  static constexpr std::string_view names[] = {"u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64", "f32", "f64", "f16", "bf16", "bool", "c64", "c128"};
  const auto i = static_cast<unsigned>(t);
  return i < std::size(names) ? names[i] : std::string_view("invalid");
}

std::optional<key_type> parse_key_type(std::string_view name) {
  for (key_type t : all_key_types)
    if (key_type_name(t) == name) return t;
  return std::nullopt;
}

bool is_float(key_type t) noexcept {
  return t == key_type::f32 || t == key_type::f64 || t == key_type::f16 || t == key_type::bf16;
}
bool is_complex(key_type t) noexcept { return t == key_type::c64 || t == key_type::c128; }
bool is_signed(key_type t) noexcept {
  return t == key_type::i8 || t == key_type::i16 || t == key_type::i32 || t == key_type::i64;
}

bool is_supported_value_size(std::size_t bytes) noexcept {
  for (auto s : supported_value_sizes)
    if (s == bytes) return true;
  return false;
}

}  // namespace gpusort
