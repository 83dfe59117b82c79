// gpusort gen: write test keys of one distribution.
#include <unistd.h>

#include <cstdint>
#include <limits>
#include <new>
#include <stdexcept>
#include <vector>

#include "array_file.hpp"
#include "commands.hpp"
#include "core/key_generator.hpp"
#include "gpusort/errors.hpp"
#include "npy.hpp"
#include "option_numbers.hpp"
#include "output_file.hpp"

namespace gpusort::cli {
namespace {

std::uint64_t physical_memory_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? std::uint64_t(pages) * std::uint64_t(page) : std::numeric_limits<std::uint64_t>::max();
}

}  // namespace

int run_gen(const GenArgs& args) {
  const key_type t = parse_key_type_arg(args.type, "--type");
  const auto dist = core::parse_distribution(args.dist);
  if (!dist)
    throw Error(errc::invalid_argument,
                "unknown --dist '" + args.dist +
                    "' (expected uniform, sorted, reverse, organ-pipe, few-unique, all-equal, specials or entropy-K with K in 1..64)");
  const std::uint64_t seed = parse_unsigned_arg(args.seed, "--seed", 0, std::numeric_limits<std::uint64_t>::max());
  const std::size_t size = key_size(t);
  const std::uint64_t n = parse_count_arg(args.count, "--count");
  // The keys are made in host memory: refuse what cannot fit before trying.
  const std::uint64_t memory = physical_memory_bytes();
  if (n > memory / size)
    throw Error(errc::out_of_memory, "--count " + args.count + " of " + std::string(key_type_name(t)) + " keys needs " +
                                         (n > std::numeric_limits<std::uint64_t>::max() / size
                                              ? std::string("more than 2^64")
                                              : std::to_string(n * size)) +
                                         " bytes of host memory; this machine has " + std::to_string(memory));

  OutputFile out(args.output, "output");  // fail early on an unwritable destination
  std::vector<unsigned char> keys;
  try {
    keys.resize(n * size);
  } catch (const std::bad_alloc&) {
    throw Error(errc::out_of_memory, "not enough host memory for " + std::to_string(n) + " keys");
  } catch (const std::length_error&) {
    throw Error(errc::out_of_memory, "not enough host memory for " + std::to_string(n) + " keys");
  }
  core::generate_keys(t, keys.data(), n, *dist, seed);
  write_array(out, keys.data(), n, size, has_npy_extension(args.output), descr_of(t));
  out.commit();
  return 0;
}

}  // namespace gpusort::cli
