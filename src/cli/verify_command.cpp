// gpusort verify: exit 0 iff a file of keys is in the library's order.
#include <cstdio>
#include <optional>

#include "array_file.hpp"
#include "commands.hpp"
#include "verify.hpp"

namespace gpusort::cli {

int run_verify(const VerifyArgs& args) {
  std::optional<key_type> type;
  if (!args.type.empty()) type = parse_key_type_arg(args.type, "--type");
  const KeyFile k = load_keys(args.file, type, parse_format_arg(args.format), "file");
  const char* order = args.descending ? "descending" : "ascending";
  const auto bad = find_unsorted(k.type, k.file.data(), k.file.count, args.descending);
  if (!bad) {
    if (!args.quiet)
      std::printf("%s: sorted %s (%zu %s keys)\n", args.file.c_str(), order, k.file.count,
                  std::string(key_type_name(k.type)).c_str());
    return 0;
  }
  if (!args.quiet)
    std::printf("%s: not sorted %s: first unsorted index %zu (key %s after key %s at index %zu)\n", args.file.c_str(),
                order, bad->index, bad->key.c_str(), bad->previous.c_str(), bad->index - 1);
  return 1;
}

}  // namespace gpusort::cli
