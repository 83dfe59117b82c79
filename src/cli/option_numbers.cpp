#include "option_numbers.hpp"

#include <charconv>
#include <string_view>

#include "gpusort/errors.hpp"

namespace gpusort::cli {
namespace {

bool whole_number(std::string_view s, std::uint64_t& out) {
  if (s.empty() || s.front() < '0' || s.front() > '9') return false;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

std::string range_text(const std::string& lo, const std::string& hi, const std::string& meaning) {
  return "valid range " + lo + ".." + hi + (meaning.empty() ? "" : "; " + meaning);
}

[[noreturn]] void bad(const std::string& flag, const std::string& text, const std::string& what) {
  throw Error(errc::invalid_argument, flag + " '" + text + "' " + what);
}

}  // namespace

std::uint64_t parse_unsigned_arg(const std::string& text, const std::string& flag, std::uint64_t min,
                                 std::uint64_t max, const std::string& meaning) {
  std::uint64_t v = 0;
  const std::string range = "(" + range_text(std::to_string(min), std::to_string(max), meaning) + ")";
  if (!whole_number(text, v)) {
    if (!text.empty() && text.front() == '-' && whole_number(std::string_view(text).substr(1), v))
      bad(flag, text, "is negative " + range);
    bad(flag, text, "is not a whole number " + range);
  }
  if (v < min || v > max) bad(flag, text, "is out of range " + range);
  return v;
}

std::int64_t parse_signed_arg(const std::string& text, const std::string& flag, std::int64_t min, std::int64_t max,
                              const std::string& meaning) {
  const std::string range = "(" + range_text(std::to_string(min), std::to_string(max), meaning) + ")";
  const bool negative = !text.empty() && text.front() == '-';
  std::uint64_t magnitude = 0;
  if (!whole_number(negative ? std::string_view(text).substr(1) : std::string_view(text), magnitude))
    bad(flag, text, "is not a whole number " + range);
  if (magnitude > std::uint64_t(1) << 62) bad(flag, text, "is out of range " + range);
  const std::int64_t v = negative ? -static_cast<std::int64_t>(magnitude) : static_cast<std::int64_t>(magnitude);
  if (v < min || v > max) bad(flag, text, "is out of range " + range);
  return v;
}

std::uint64_t parse_size_arg(const std::string& text, const std::string& flag) {
  const std::string help = "(a byte count such as 1073741824, 768M, 4GiB or 2GB)";
  const std::size_t digits_end = text.find_first_not_of("0123456789");
  std::uint64_t v = 0;
  if (!whole_number(std::string_view(text).substr(0, digits_end), v)) {
    if (!text.empty() && text.front() == '-') bad(flag, text, "is negative " + help);
    bad(flag, text, "is not a size " + help);
  }
  const std::string unit = digits_end == std::string::npos ? "" : text.substr(digits_end);
  if (unit.empty() || unit == "B") return v;
  static constexpr std::string_view kPrefixes = "KMGTPE";
  const std::size_t power = kPrefixes.find(static_cast<char>(unit[0] & ~0x20));  // k and K alike
  const std::string rest = unit.substr(1);
  if (power == std::string_view::npos || !(rest.empty() || rest == "iB" || rest == "B"))
    bad(flag, text, "has an unknown unit '" + unit + "' " + help);
  const std::uint64_t base = rest == "B" ? 1000 : 1024;
  for (std::size_t i = 0; i <= power; ++i) {
    if (v > UINT64_MAX / base) bad(flag, text, "is too large (at most 2^64-1 bytes)");
    v *= base;
  }
  return v;
}

std::uint64_t parse_count_arg(const std::string& text, const std::string& flag) {
  std::uint64_t v = 0;
  if (whole_number(text, v)) return v;
  if (text.rfind("2^", 0) == 0 && whole_number(std::string_view(text).substr(2), v)) {
    if (v > 63) bad(flag, text, "is out of range (2^K takes K in 0..63)");
    return std::uint64_t(1) << v;
  }
  if (!text.empty() && text.front() == '-') bad(flag, text, "is negative (a count is a whole number, or 2^K)");
  bad(flag, text, "is not a whole number (or 2^K)");
}

}  // namespace gpusort::cli
