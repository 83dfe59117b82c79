#pragma once
// Numeric command-line arguments, parsed strictly: digits only (no sign, no wrap-around of "-1"),
// range-checked, and every error names the flag and the valid range.
#include <cstdint>
#include <string>

namespace gpusort::cli {

// A decimal integer in [min, max]. `meaning` is appended to the range in errors ("0 = default").
std::uint64_t parse_unsigned_arg(const std::string& text, const std::string& flag, std::uint64_t min,
                                 std::uint64_t max, const std::string& meaning = "");
std::int64_t parse_signed_arg(const std::string& text, const std::string& flag, std::int64_t min, std::int64_t max,
                              const std::string& meaning = "");

// A byte count with an optional unit: "1048576", "512K", "1M", "4GiB", "2G", "1.5G" is refused
// (whole numbers only). K, M, G, T, P and KiB... are powers of 1024; KB, MB, GB, TB, PB are powers
// of 1000 (as dd and GNU sort read them); "B" is bytes.
std::uint64_t parse_size_arg(const std::string& text, const std::string& flag);

// An element count: decimal, or 2^K for K in 0..63.
std::uint64_t parse_count_arg(const std::string& text, const std::string& flag);

}  // namespace gpusort::cli
