// gpusort gen: write test keys of one distribution.
#include <charconv>
#include <cstdio>
#include <string_view>
#include <limits>
#include <new>
#include <vector>

#include "array_file.hpp"
#include "commands.hpp"
#include "file_io.hpp"
#include "generate.hpp"
#include "gpusort/errors.hpp"
#include "npy.hpp"

namespace gpusort::cli {
namespace {

// "1000" or "2^20".
std::size_t parse_count(const std::string& text) {
  auto number = [&](std::string_view s, std::size_t& out) {
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return !s.empty() && ec == std::errc() && p == s.data() + s.size();
  };
  std::size_t v = 0;
  if (number(text, v)) return v;
  if (text.rfind("2^", 0) == 0 && number(std::string_view(text).substr(2), v) && v < 64) return std::size_t(1) << v;
  throw Error(errc::invalid_argument, "--count '" + text + "' is not a non-negative integer (or 2^K)");
}

}  // namespace

int run_gen(const GenArgs& args) {
  const key_type t = parse_key_type_arg(args.type, "--type");
  const auto dist = parse_distribution(args.dist);
  if (!dist)
    throw Error(errc::invalid_argument,
                "unknown --dist '" + args.dist +
                    "' (expected uniform, sorted, reverse, organ-pipe, few-unique, all-equal or entropy-K with K >= 1)");
  const std::size_t size = key_size(t);
  const std::size_t n = parse_count(args.count);
  if (n > std::numeric_limits<std::size_t>::max() / size)
    throw Error(errc::invalid_argument, "--count " + args.count + " is too large");

  AtomicOutput out(args.output, "output");  // fail early on an unwritable destination
  std::vector<unsigned char> keys;
  try {
    keys.resize(n * size);
  } catch (const std::bad_alloc&) {
    throw Error(errc::out_of_memory, "not enough host memory for " + std::to_string(n) + " keys");
  }
  generate_keys(t, keys.data(), n, *dist, args.seed);
  write_array(out, keys.data(), n, size, has_npy_extension(args.output), descr_of(t));
  out.commit();
  return 0;
}

}  // namespace gpusort::cli
