#pragma once
// The key types gpusort sorts, and the mapping from C++ types to them.
#include <complex>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>
#if __has_include(<stdfloat>)
#include <stdfloat>
#endif

namespace gpusort {

// f16: IEEE binary16, bf16: bfloat16 (the top half of an f32), b8: bool (one byte; 0 is false,
// any other byte true), c64: complex64 (two f32, the real part first), c128: complex128 (two f64,
// the real part first; sorted as 16-byte records, gpusort/records.hpp: values and argsort too, no
// segments, top-k or distributed sort yet).
enum class key_type { u8, u16, u32, u64, i8, i16, i32, i64, f32, f64, f16, bf16, b8, c64, c128 };

inline constexpr key_type all_key_types[] = {key_type::u8,  key_type::u16, key_type::u32, key_type::u64,
                                             key_type::i8,  key_type::i16, key_type::i32, key_type::i64,
                                             key_type::f32, key_type::f64, key_type::f16, key_type::bf16,
                                             key_type::b8,  key_type::c64, key_type::c128};

std::size_t key_size(key_type t) noexcept;
std::string_view key_type_name(key_type t) noexcept;           // "u32", "f64", "f16", "bf16", "bool", "c64", "c128", ...
std::optional<key_type> parse_key_type(std::string_view name);  // accepts the names above
bool is_float(key_type t) noexcept;                             // f16, bf16, f32, f64 (not complex)
bool is_complex(key_type t) noexcept;                           // c64, c128
bool is_signed(key_type t) noexcept;

// 16-bit float keys as their bits, for C++ without std::float16_t / std::bfloat16_t (<stdfloat>,
// C++23) and for code that only moves them: sorting a span of these sorts f16 / bf16 keys.
struct half_bits {
  std::uint16_t bits = 0;
  friend constexpr bool operator==(half_bits, half_bits) = default;  // bitwise
};
struct bfloat16_bits {
  std::uint16_t bits = 0;
  friend constexpr bool operator==(bfloat16_bits, bfloat16_bits) = default;  // bitwise
};
// A bool key as its byte, as arrays of bools from other languages may hold it: 0 is false, any other
// byte true (a C++ bool holds only 0 or 1). Sorting a span of bool or of these sorts b8 keys.
struct bool_byte {
  std::uint8_t byte = 0;
  friend constexpr bool operator==(bool_byte, bool_byte) = default;  // bytewise
};

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
template <> struct key_type_of<half_bits> { static constexpr key_type value = key_type::f16; };
template <> struct key_type_of<bfloat16_bits> { static constexpr key_type value = key_type::bf16; };
template <> struct key_type_of<bool> { static constexpr key_type value = key_type::b8; };
template <> struct key_type_of<bool_byte> { static constexpr key_type value = key_type::b8; };
template <> struct key_type_of<std::complex<float>> { static constexpr key_type value = key_type::c64; };
template <> struct key_type_of<std::complex<double>> { static constexpr key_type value = key_type::c128; };
#if defined(__STDCPP_FLOAT16_T__)
template <> struct key_type_of<std::float16_t> { static constexpr key_type value = key_type::f16; };
#endif
#if defined(__STDCPP_BFLOAT16_T__)
template <> struct key_type_of<std::bfloat16_t> { static constexpr key_type value = key_type::bf16; };
#endif
// CUDA's 16-bit floats, where cuda_fp16.h / cuda_bf16.h come before this header (sort_native's keys)
#if defined(__CUDA_FP16_TYPES_EXIST__)
template <> struct key_type_of<__half> { static constexpr key_type value = key_type::f16; };
#endif
#if defined(__CUDA_BF16_TYPES_EXIST__)
template <> struct key_type_of<__nv_bfloat16> { static constexpr key_type value = key_type::bf16; };
#endif

// Calls f(T{}) with the C++ type of a run-time key type: the one switch over key types that code
// generic over keys needs (f is usually a generic lambda: [&](auto tag) { using T = decltype(tag); }).
// 16-bit floats come as half_bits / bfloat16_bits on every compiler, bools as bool_byte, complex64
// as std::complex<float>, complex128 as std::complex<double>.
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
    case key_type::f16: return f(half_bits{});
    case key_type::bf16: return f(bfloat16_bits{});
    case key_type::b8: return f(bool_byte{});
    case key_type::c64: return f(std::complex<float>{});
    case key_type::c128: return f(std::complex<double>{});
  }
  return f(std::uint8_t{});  // unreachable for valid enumerators
}

// Other integer types map by size and signedness (long long, unsigned long long, char, signed
// char, long on platforms where int64_t is long long, ...); bool is the b8 key above.
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
