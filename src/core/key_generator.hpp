#pragma once
// Test and benchmark keys: the one generator behind `gpusort gen`, gpusort-bench and the tests.
// Deterministic for a given (key type, n, distribution, seed) on every platform (SplitMix64), and
// linear in n for every distribution, so 2^28-key inputs take no sort to make.
#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "gpusort/key_order.hpp"
#include "gpusort/key_type.hpp"

namespace gpusort::core {

enum class Dist {
  uniform,     // every bit pattern equally likely; floats: finite patterns only
  entropy,     // each key the AND of K uniform words: fewer distinct bits, more duplicates as K grows
  sorted,      // ascending, spread over the whole finite range
  reverse,     // descending
  organ_pipe,  // first half ascending, second half descending
  few_unique,  // drawn from 16 random values
  all_equal,   // one random value repeated
  specials,    // a third of the keys from the type's edge values: +-0, +-inf, NaNs, denormals, min, max
};

struct Distribution {
  Dist kind = Dist::uniform;
  unsigned and_count = 3;  // entropy only: K
};

// The distributions every typed test suite runs (entropy with K = 3).
inline constexpr Dist all_dists[] = {Dist::uniform,    Dist::entropy,    Dist::sorted,    Dist::reverse,
                                     Dist::organ_pipe, Dist::few_unique, Dist::all_equal, Dist::specials};

// "uniform", "entropy-K" (K = 1..64; "entropy" = entropy-3), "sorted", "reverse", "organ-pipe",
// "few-unique", "all-equal", "specials".
std::optional<Distribution> parse_distribution(std::string_view name);
// Parses back with parse_distribution (entropy-3 is named "entropy").
std::string distribution_name(const Distribution& d);
inline std::string distribution_name(Dist kind) { return distribution_name(Distribution{kind}); }
// One line per distribution, for --help.
std::string distribution_help();

struct SplitMix64 {
  std::uint64_t state;
  std::uint64_t next() noexcept {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
};

namespace detail {

template <class T>
using bits_t = std::conditional_t<sizeof(T) == 1, std::uint8_t,
               std::conditional_t<sizeof(T) == 2, std::uint16_t,
               std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;

template <class T>
constexpr bits_t<T> sign_bit = bits_t<T>(bits_t<T>(1) << (sizeof(T) * 8 - 1));

// A finite key from random bits: an all-ones float exponent loses its top bit; a bool is false or
// true (one bit; the sorts' rule for other bytes is tested apart).
template <class T>
T key_from_bits(std::uint64_t r) noexcept {
  using U = bits_t<T>;
  U bits = static_cast<U>(r);
  if constexpr (gpusort::float_key<T>) {
    constexpr U exp_mask = gpusort::float_layout<T>::exp_mask;
    if ((bits & exp_mask) == exp_mask) bits &= ~(U(1) << (sizeof(T) * 8 - 2));
  } else if constexpr (std::is_same_v<T, bool_byte>) {
    bits &= 1u;
  }
  return std::bit_cast<T>(bits);
}

// The inverse of gpusort::ordered_bits on non-NaN keys.
template <class T>
T key_from_ordered(bits_t<T> o) noexcept {
  using U = bits_t<T>;
  constexpr U sign = sign_bit<T>;
  if constexpr (gpusort::float_key<T>)
    return std::bit_cast<T>((o & sign) ? U(o ^ sign) : U(~o));
  else if constexpr (std::is_same_v<T, bool_byte>)
    return bool_byte{o};
  else if constexpr (std::is_signed_v<T>)
    return static_cast<T>(U(o ^ sign));
  else
    return static_cast<T>(o);
}

// Float keys from bits: the edge values and the finite range, for every float_layout (the 16-bit
// float keys have no std::numeric_limits).
template <class T>
constexpr T float_from_bits(bits_t<T> bits) noexcept {
  return std::bit_cast<T>(bits);
}
template <class T>
constexpr bits_t<T> float_max_bits = bits_t<T>(gpusort::float_layout<T>::exp_mask - 1);  // the largest finite
template <class T>
constexpr bits_t<T> float_one_bits =  // 1.0: the exponent's bias, mantissa zero
    bits_t<T>((gpusort::float_layout<T>::exp_mask >> (gpusort::float_layout<T>::mantissa_bits + 1))
              << gpusort::float_layout<T>::mantissa_bits);

// A quiet NaN carrying `payload` in its low mantissa bits (the sorts must keep them bit for bit).
template <class T>
constexpr T nan_with_payload(bits_t<T> payload, bool negative) noexcept {
  using U = bits_t<T>;
  constexpr U quiet = U(gpusort::float_layout<T>::exp_mask | (U(1) << (gpusort::float_layout<T>::mantissa_bits - 1)));
  return float_from_bits<T>(U(quiet | payload | (negative ? sign_bit<T> : U(0))));
}

}  // namespace detail

// The edge values of a key type (the specials distribution draws from them): integers min, max,
// 0, 1, -1; floats +-0, +-inf, NaNs of both signs, +-denorm_min, max, lowest, +-1; bools false, true.
template <class T>
constexpr T edge_keys[] = {std::numeric_limits<T>::min(), std::numeric_limits<T>::max(), T(0), T(1),
                             static_cast<T>(-1)};
template <class T>
  requires gpusort::float_key<T>
constexpr T edge_keys<T>[] = {
    detail::float_from_bits<T>(0), detail::float_from_bits<T>(detail::sign_bit<T>),
    detail::float_from_bits<T>(gpusort::float_layout<T>::exp_mask),
    detail::float_from_bits<T>(detail::sign_bit<T> | gpusort::float_layout<T>::exp_mask),
    detail::nan_with_payload<T>(0, false), detail::nan_with_payload<T>(0, true), detail::nan_with_payload<T>(1, false),
    detail::nan_with_payload<T>(5, true), detail::float_from_bits<T>(1), detail::float_from_bits<T>(detail::sign_bit<T> | 1u),
    detail::float_from_bits<T>(detail::float_max_bits<T>),
    detail::float_from_bits<T>(detail::sign_bit<T> | detail::float_max_bits<T>),
    detail::float_from_bits<T>(detail::float_one_bits<T>),
    detail::float_from_bits<T>(detail::sign_bit<T> | detail::float_one_bits<T>)};
template <>
constexpr bool_byte edge_keys<bool_byte>[] = {bool_byte{0}, bool_byte{1}};
// complex: the float edges paired so that every NaN class (real, imaginary, both; payloads and signs),
// both zeros, infinities, subnormals and the extremes each appear in either part.
template <class T>
  requires gpusort::complex_key<T>
constexpr T edge_keys<T>[] = {T(edge_keys<typename T::value_type>[0], edge_keys<typename T::value_type>[1]),
                              T(edge_keys<typename T::value_type>[1], edge_keys<typename T::value_type>[0]),
                              T(edge_keys<typename T::value_type>[4], edge_keys<typename T::value_type>[12]),
                              T(edge_keys<typename T::value_type>[7], edge_keys<typename T::value_type>[1]),
                              T(edge_keys<typename T::value_type>[12], edge_keys<typename T::value_type>[5]),
                              T(edge_keys<typename T::value_type>[1], edge_keys<typename T::value_type>[6]),
                              T(edge_keys<typename T::value_type>[6], edge_keys<typename T::value_type>[7]),
                              T(edge_keys<typename T::value_type>[2], edge_keys<typename T::value_type>[3]),
                              T(edge_keys<typename T::value_type>[3], edge_keys<typename T::value_type>[4]),
                              T(edge_keys<typename T::value_type>[8], edge_keys<typename T::value_type>[9]),
                              T(edge_keys<typename T::value_type>[10], edge_keys<typename T::value_type>[11]),
                              T(edge_keys<typename T::value_type>[12], edge_keys<typename T::value_type>[13])};

namespace detail {

// Key i of n in ascending order: evenly spread over the finite range with a random offset inside
// its step, so the result is sorted (non-decreasing) without sorting.
template <class T>
T spread_key(std::size_t i, std::size_t n, SplitMix64& rng) noexcept {
  using U = bits_t<T>;
  U lo, hi;
  if constexpr (gpusort::float_key<T>) {
    lo = gpusort::ordered_bits(float_from_bits<T>(sign_bit<T> | float_max_bits<T>));
    hi = gpusort::ordered_bits(float_from_bits<T>(float_max_bits<T>));
  } else if constexpr (std::is_same_v<T, bool_byte>) {
    lo = 0, hi = 1;
  } else {
    lo = gpusort::ordered_bits(std::numeric_limits<T>::lowest());
    hi = gpusort::ordered_bits(std::numeric_limits<T>::max());
  }
  const unsigned __int128 span = static_cast<unsigned __int128>(U(hi - lo)) + 1;
  const unsigned __int128 step = span / n;
  const unsigned __int128 jitter = step > 1 ? rng.next() % static_cast<std::uint64_t>(std::min<unsigned __int128>(step, UINT64_MAX)) : 0;
  return key_from_ordered<T>(static_cast<U>(lo + static_cast<U>(span * i / n + jitter)));
}

}  // namespace detail

// Fills out[0..n).
template <class T>
void generate_keys(T* out, std::size_t n, const Distribution& d, std::uint64_t seed);

// Complex keys: each part drawn from its float type by the distribution on its own stream (sorted
// real parts make sorted keys; specials put NaNs, zeros, infinities and subnormals in either part or
// both).
template <class T>
  requires gpusort::complex_key<T>
void generate_keys(T* out, std::size_t n, const Distribution& d, std::uint64_t seed) {
  using P = typename T::value_type;
  std::vector<P> re(n), im(n);
  generate_keys(re.data(), n, d, seed);
  generate_keys(im.data(), n, d, seed ^ 0x696D6167696E6172ull);
  for (std::size_t i = 0; i < n; ++i) out[i] = T(re[i], im[i]);
}

template <class T>
void generate_keys(T* out, std::size_t n, const Distribution& d, std::uint64_t seed) {
  using namespace detail;
  SplitMix64 rng{seed ^ 0x6770757367656E00ull};
  auto uniform = [&] { return key_from_bits<T>(rng.next()); };
  switch (d.kind) {
    case Dist::uniform:
      for (std::size_t i = 0; i < n; ++i) out[i] = uniform();
      break;
    case Dist::entropy:
      for (std::size_t i = 0; i < n; ++i) {
        std::uint64_t r = ~std::uint64_t(0);
        for (unsigned k = 0; k < d.and_count; ++k) r &= rng.next();
        out[i] = key_from_bits<T>(r);
      }
      break;
    case Dist::sorted:
      for (std::size_t i = 0; i < n; ++i) out[i] = spread_key<T>(i, n, rng);
      break;
    case Dist::reverse:
      for (std::size_t i = 0; i < n; ++i) out[n - 1 - i] = spread_key<T>(i, n, rng);
      break;
    case Dist::organ_pipe: {
      const std::size_t h = n / 2;
      for (std::size_t i = 0; i < h; ++i) out[i] = spread_key<T>(i, h, rng);
      for (std::size_t i = 0; i < n - h; ++i) out[n - 1 - i] = spread_key<T>(i, n - h, rng);
      break;
    }
    case Dist::few_unique: {
      T set[16];
      for (auto& v : set) v = uniform();
      for (std::size_t i = 0; i < n; ++i) out[i] = set[rng.next() % 16];
      break;
    }
    case Dist::all_equal:
      std::fill(out, out + n, uniform());
      break;
    case Dist::specials: {
      constexpr std::size_t count = std::size(edge_keys<T>);
      for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t r = rng.next();
        out[i] = r % 3 == 0 ? edge_keys<T>[(r >> 8) % count] : uniform();
      }
      break;
    }
  }
}

// The same for a key type known at run time.
void generate_keys(key_type t, void* out, std::size_t n, const Distribution& d, std::uint64_t seed);

}  // namespace gpusort::core
