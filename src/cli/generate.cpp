#include "generate.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "key_order.hpp"

namespace gpusort::cli {
namespace {

// SplitMix64: fast, tiny state and good enough for test data.
struct SplitMix64 {
  std::uint64_t s;
  std::uint64_t next() noexcept {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
};

template <class T>
using bits_t = std::conditional_t<sizeof(T) == 1, std::uint8_t,
               std::conditional_t<sizeof(T) == 2, std::uint16_t,
               std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;

// A key from random bits; floats whose bits are Inf/NaN get their top exponent bit cleared.
template <class T>
T key_from_bits(std::uint64_t r) noexcept {
  using U = bits_t<T>;
  U bits = static_cast<U>(r);
  if constexpr (std::is_floating_point_v<T>) {
    constexpr int mant = std::numeric_limits<T>::digits - 1;  // 23 or 52
    constexpr U exp_mask = U(((U(1) << (sizeof(T) * 8 - 1 - mant)) - 1)) << mant;
    if ((bits & exp_mask) == exp_mask) bits &= ~(U(1) << (sizeof(T) * 8 - 2));
  }
  return std::bit_cast<T>(bits);
}

template <class T>
void fill(T* out, std::size_t n, const Distribution& d, std::uint64_t seed) {
  using Kind = Distribution::Kind;
  SplitMix64 rng{seed ^ 0x6770757367656E00ull};
  auto uniform = [&] { return key_from_bits<T>(rng.next()); };
  switch (d.kind) {
    case Kind::uniform:
    case Kind::sorted:
    case Kind::reverse:
    case Kind::organ_pipe:
      for (std::size_t i = 0; i < n; ++i) out[i] = uniform();
      break;
    case Kind::entropy:
      for (std::size_t i = 0; i < n; ++i) {
        std::uint64_t r = ~std::uint64_t(0);
        for (unsigned k = 0; k < d.and_count; ++k) r &= rng.next();
        out[i] = key_from_bits<T>(r);
      }
      break;
    case Kind::few_unique: {
      T set[16];
      for (auto& v : set) v = uniform();
      for (std::size_t i = 0; i < n; ++i) out[i] = set[rng.next() % 16];
      break;
    }
    case Kind::all_equal: {
      const T v = uniform();
      std::fill(out, out + n, v);
      break;
    }
  }
  if (d.kind == Kind::sorted) std::sort(out, out + n, KeyLess<T>{false});
  if (d.kind == Kind::reverse) std::sort(out, out + n, KeyLess<T>{true});
  if (d.kind == Kind::organ_pipe) {
    // Ascending first half, descending second half.
    const std::size_t h = n / 2;
    std::sort(out, out + h, KeyLess<T>{false});
    std::sort(out + h, out + n, KeyLess<T>{true});
  }
}

}  // namespace

std::optional<Distribution> parse_distribution(std::string_view name) {
  using Kind = Distribution::Kind;
  if (name == "uniform") return Distribution{Kind::uniform};
  if (name == "sorted") return Distribution{Kind::sorted};
  if (name == "reverse") return Distribution{Kind::reverse};
  if (name == "few-unique") return Distribution{Kind::few_unique};
  if (name == "all-equal") return Distribution{Kind::all_equal};
  if (name == "organ-pipe") return Distribution{Kind::organ_pipe};
  if (name.rfind("entropy-", 0) == 0) {
    const std::string_view digits = name.substr(8);
    unsigned k = 0;
    const auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), k);
    if (ec == std::errc() && p == digits.data() + digits.size() && !digits.empty() && k >= 1 && k <= 64)
      return Distribution{Kind::entropy, k};
  }
  return std::nullopt;
}

std::string distribution_help() {
  return "uniform     random keys over the whole type; floats: random finite bit patterns (Inf/NaN bit\n"
         "            patterns remapped to finite ones), so all magnitudes, both signs and +-0 occur\n"
         "sorted      uniform keys, sorted ascending\n"
         "reverse     uniform keys, sorted descending\n"
         "organ-pipe  uniform keys, first half ascending, second half descending\n"
         "few-unique  keys drawn from a set of 16 random values\n"
         "all-equal   one random value repeated\n"
         "entropy-K   each key the AND of K uniform random words (K = 1..64; fewer distinct bits as K grows)";
}

void generate_keys(key_type t, void* out, std::size_t n, const Distribution& dist, std::uint64_t seed) {
  with_key_type(t, [&](auto tag) {
    using T = decltype(tag);
    fill(static_cast<T*>(out), n, dist, seed);
  });
}

}  // namespace gpusort::cli
