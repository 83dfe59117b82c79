#pragma once
// The key types gpusort sorts, and the mapping from C++ types to them.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>

namespace gpusort {

enum class key_type { u8, u16, u32, u64, i8, i16, i32, i64, f32, f64 };

inline constexpr key_type all_key_types[] = {key_type::u8,  key_type::u16, key_type::u32, key_type::u64,
                                             key_type::i8,  key_type::i16, key_type::i32, key_type::i64,
                                             key_type::f32, key_type::f64};

std::size_t key_size(key_type t) noexcept;
std::string_view key_type_name(key_type t) noexcept;           // "u32", "f64", ...
std::optional<key_type> parse_key_type(std::string_view name);  // accepts the names above
bool is_float(key_type t) noexcept;
bool is_signed(key_type t) noexcept;

template <class T>
struct key_type_of;  // undefined for types gpusort cannot sort
template <> struct key_type_of<std::uint8_t> { static constexpr key_type value = key_type::u8; };
template <> struct key_type_of<std::uint16_t> { static constexpr key_type value = key_type::u16; };
template <> struct key_type_of<std::uint32_t> { static constexpr key_type value = key_type::u32; };
template <> struct key_type_of<std::uint64_t> { static constexpr key_type value = key_type::u64; };
template <> struct key_type_of<std::int8_t> { static constexpr key_type value = key_type::i8; };
template <> struct key_type_of<std::int16_t> { static constexpr key_type value = key_type::i16; };
template <> struct key_type_of<std::int32_t> { static constexpr key_type value = key_type::i32; };
template <> struct key_type_of<std::int64_t> { static constexpr key_type value = key_type::i64; };
template <> struct key_type_of<float> { static constexpr key_type value = key_type::f32; };
template <> struct key_type_of<double> { static constexpr key_type value = key_type::f64; };

// Calls f(T{}) with the C++ type of a run-time key type: the one switch over key types that code
// generic over keys needs (f is usually a generic lambda: [&](auto tag) { using T = decltype(tag); }).
template <class F>
decltype(auto) visit_key_type(key_type t, F&& f) {
  switch (t) {
    case key_type::u8: return f(std::uint8_t{});
    case key_type::u16: return f(std::uint16_t{});
    case key_type::u32: return f(std::uint32_t{});
    case key_type::u64: return f(std::uint64_t{});
    case key_type::i8: return f(std::int8_t{});
    case key_type::i16: return f(std::int16_t{});
    case key_type::i32: return f(std::int32_t{});
    case key_type::i64: return f(std::int64_t{});
    case key_type::f32: return f(float{});
    case key_type::f64: return f(double{});
  }
  return f(std::uint8_t{});  // unreachable for valid enumerators
}

// Other integer types map by size and signedness (long long, unsigned long long, char, signed
// char, long on platforms where int64_t is long long, ...); bool is not a key.
template <class T>
  requires(std::is_integral_v<T> && !std::is_same_v<T, bool> &&
           (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8))
struct key_type_of<T> {
  static constexpr key_type value =
      sizeof(T) == 1 ? (std::is_signed_v<T> ? key_type::i8 : key_type::u8)
      : sizeof(T) == 2 ? (std::is_signed_v<T> ? key_type::i16 : key_type::u16)
      : sizeof(T) == 4 ? (std::is_signed_v<T> ? key_type::i32 : key_type::u32)
                       : (std::is_signed_v<T> ? key_type::i64 : key_type::u64);
};

template <class T>
concept sortable_key = requires { key_type_of<std::remove_cv_t<T>>::value; };

// Values are moved as opaque bytes; these are the widths the kernels carry.
inline constexpr std::size_t supported_value_sizes[] = {1, 2, 4, 8, 16};
bool is_supported_value_size(std::size_t bytes) noexcept;

}  // namespace gpusort
