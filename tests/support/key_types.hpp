#pragma once
// The one list of key types behind every typed suite, as GoogleTest type lists. It mirrors
// gpusort::all_key_types (checked below), so a key type added to the library fails to compile
// here until the tests cover it too. c128 is left out: no kernel sorts it as a key (the planner
// sorts complex128 keys as 16-byte records), so the algorithms' suites do not take it;
// tests/algorithms/complex128_keys_test.cpp covers it.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "gpusort/key_type.hpp"

namespace gpusort::test {

// A list of C++ key types, usable both as a GoogleTest type list (::gtest, for TYPED_TEST_SUITE)
// and as a loop inside one test (for_each: f(T{}) for each T).
template <class... Ts>
struct KeyTypeList {
  using gtest = ::testing::Types<Ts...>;
  static constexpr std::size_t size = sizeof...(Ts);
  static constexpr key_type kinds[] = {key_type_of<Ts>::value...};
  template <class F>
  static void for_each(F&& f) {
    (f(Ts{}), ...);
  }
};

using AllKeyTypeList = KeyTypeList<std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t, std::int8_t,
                                   std::int16_t, std::int32_t, std::int64_t, float, double, half_bits,
                                   bfloat16_bits, bool_byte, std::complex<float>>;

namespace detail {
template <class List>
constexpr bool same_as_all_key_types() {
  if (List::size + 1 != std::size(all_key_types) || all_key_types[List::size] != key_type::c128) return false;
  for (std::size_t i = 0; i < List::size; ++i)
    if (List::kinds[i] != all_key_types[i]) return false;
  return true;
}
}  // namespace detail
static_assert(detail::same_as_all_key_types<AllKeyTypeList>(),
              "AllKeyTypeList must list gpusort::all_key_types, in the same order");

// Every key type a kernel sorts as a key (all but c128), for loops over the kernel programs' builds.
inline constexpr const auto& kernel_key_types = AllKeyTypeList::kinds;

// The build-matrix tests (NVRTC compiles of a kernel file for sm_90, no GPU needed) would build every
// key type with every value width: over eighty programs a file, several seconds each, tens of minutes
// on a two-core CI machine. Key types differ in the program only by the key's order image; register
// allocation (where ptxas has failed) follows the key and value widths. So unless
// GPUSORT_FULL_BUILD_MATRIX=1 (scripts/device-check sets it), a matrix takes every key type with keys
// alone and each value width with one key type of each key width (u8/i8/bool, the 2-byte types, the
// 4-byte ones, the 8-byte ones, complex64), turning through that width's types so that each type meets
// some value width.
inline bool full_build_matrix() {
  const char* env = std::getenv("GPUSORT_FULL_BUILD_MATRIX");
  return env && std::string_view(env) == "1";
}
inline bool build_matrix_takes(key_type type, std::size_t value_bytes) {
  if (value_bytes == 0 || full_build_matrix()) return true;
  std::size_t turn = 0;  // 1, 2, 4, 8, 16-byte values: the 0th .. 4th type of the key's width
  while ((std::size_t(1) << turn) < value_bytes) ++turn;
  std::size_t same_width = 0, position = 0;
  for (key_type other : AllKeyTypeList::kinds) {
    if (key_size(other) != key_size(type) || is_complex(other) != is_complex(type)) continue;
    if (other == type) position = same_width;
    ++same_width;
  }
  return position == turn % same_width;
}

// Every key type: the default for typed suites.
using AllKeyTypes = AllKeyTypeList::gtest;

// One key of each kernel path that differs by key type: 32-bit unsigned (the common case, no
// order transform), and 32-bit float (the sign/NaN/-0 transform). For suites that run every
// algorithm or many option combinations, where each extra key type costs one more kernel program
// per combination (about a second each to compile on PoCL); the typed per-algorithm suites cover
// the other key types.
using RepresentativeKeyTypeList = KeyTypeList<std::uint32_t, float>;

}  // namespace gpusort::test
