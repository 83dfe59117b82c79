// Sorts a few numbers with gpusort and prints them, one line, space separated.
#include <gpusort/gpusort.hpp>

#include <cstdio>
#include <exception>
#include <span>
#include <vector>

int main() {
  try {
    std::vector<int> keys = {42, -7, 19, 0, 3, -7, 100, 8};
    gpusort::Context ctx;  // $GPUSORT_DEVICE or the best device
    gpusort::sort(ctx, std::span<int>(keys));
    for (std::size_t i = 0; i < keys.size(); ++i) std::printf("%s%d", i ? " " : "", keys[i]);
    std::printf("\n");
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpusort-consumer: %s\n", e.what());
    return 1;
  }
}
