#pragma once
// One damaged .npy input and the `gpusort sort` line that reads it. The sort uses a host-side
// algorithm when the command has one: most damaged files fail at parse in milliseconds, and the
// few that stay valid then sort without a kernel compile, so thousands of cases fit in seconds.
#include <string>
#include <vector>

#include "../cli_test_util.hpp"
#include "array_layout.hpp"
#include "key_data.hpp"
#include "npy_mutations.hpp"
#include "sort_profiles.hpp"
#include "splitmix64.hpp"

namespace cli_fuzz {

inline std::vector<std::string> make_header_case(std::uint64_t seed, const std::vector<std::string>& algorithms,
                                                 const cli_test::TempDir& dir) {
  SplitMix64 rng(seed);
  const std::string type = rng.pick(key_type_names());
  NpyParts parts;
  parts.descr = *descr_of_type_name(type);
  const std::size_t n = key_count(rng, 300);
  parts.shape = "(" + std::to_string(n) + ",)";
  parts.version = rng.pick(std::vector<int>{1, 1, 1, 2, 3});
  parts.shuffle_keys = rng.percent(20);
  parts.payload = key_bytes(rng, n, static_cast<std::size_t>(parts.descr[2] - '0'));

  // A few undamaged files keep the success path in the mix.
  const std::size_t damages = rng.percent(3) ? 0 : 1 + rng.below(3);
  std::vector<bool> at_byte_level(damages);
  for (std::size_t i = 0; i < damages; ++i) {
    at_byte_level[i] = rng.percent(60);
    if (!at_byte_level[i]) mutate_fields(parts, rng, n);
  }
  const std::string dict = npy_dict_text(parts, rng);
  auto bytes = npy_bytes(parts, dict);
  const std::size_t header_end = npy_prefix_size(parts.version) + dict.size();
  for (std::size_t i = 0; i < damages; ++i)
    if (at_byte_level[i]) mutate_bytes(bytes, header_end, rng);
  cli_test::write_bytes(dir / "in.npy", bytes.data(), bytes.size());

  std::vector<std::string> host_side;
  for (const auto& a : algorithms)
    if (a.rfind("batcher", 0) == 0) host_side.push_back(a);
  std::vector<std::string> args = {"sort", (dir / "in.npy").string(), "-o", (dir / "out.npy").string()};
  if (!host_side.empty()) args.insert(args.end(), {"-a", rng.pick(host_side)});
  if (rng.percent(20)) args.insert(args.end(), {"-t", rng.percent(50) ? type : rng.pick(key_type_names())});
  if (rng.percent(20)) args.push_back("-d");
  if (rng.percent(30)) cli_test::write_bytes(dir / "out.npy", "keep", 4);
  return args;
}

}  // namespace cli_fuzz
