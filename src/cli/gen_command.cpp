// gpusort gen: write test keys of one distribution.
#include <cstdio>
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

int run_gen(const GenArgs& args) {
  const key_type t = parse_key_type_arg(args.type, "--type");
  const auto dist = parse_distribution(args.dist);
  if (!dist)
    throw Error(errc::invalid_argument,
                "unknown --dist '" + args.dist +
                    "' (expected uniform, sorted, reverse, organ-pipe, few-unique, all-equal or entropy-K with K >= 1)");
  const std::size_t size = key_size(t);
  if (args.count > std::numeric_limits<std::size_t>::max() / size)
    throw Error(errc::invalid_argument, "--count " + std::to_string(args.count) + " is too large");
  const auto n = static_cast<std::size_t>(args.count);

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
