// gpusort sort -c of rows and segments: each checked on its own, as the sort would order it.
#include <cstdio>
#include <optional>

#include "array_file.hpp"
#include "gpusort/errors.hpp"
#include "segment_cut.hpp"
#include "segmented_sort.hpp"
#include "verify.hpp"

namespace gpusort::cli {

int run_segmented_check(const SortArgs& args) {
  check_segmented_arguments(args);
  const FileFormat format = parse_format_arg(args.format);
  std::optional<key_type> type;
  if (!args.type.empty()) type = parse_key_type_arg(args.type, "--type");
  KeyFile keys = load_keys(args.input, type, format, "input", npy_shapes::any);
  const std::size_t n = keys.file.count, item = key_size(keys.type);
  const SegmentCut cut = cut_input(args, keys, format);
  AxisLastView view(keys.file.data(), n, item, cut.split);
  std::optional<Unsorted> bad;
  cut.for_each([&](std::size_t begin, std::size_t end) {
    if (bad || end - begin < 2) return;
    if ((bad = find_unsorted(keys.type, view.get() + begin * item, end - begin, args.descending, args.unique)))
      bad->index = cut.input_position(begin + bad->index);
  });
  if (!bad) return 0;
  if (!args.check_quietly)
    std::fprintf(stderr, "gpusort: %s:%zu: disorder: %s (after %s)\n", args.input.c_str(), bad->index,
                 bad->key.c_str(), bad->previous.c_str());
  return 1;
}

}  // namespace gpusort::cli
