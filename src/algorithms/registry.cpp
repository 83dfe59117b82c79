// The table of algorithms. Each driver lives in its own file of this folder and is declared in
// drivers.hpp; adding an algorithm = one driver file + one line here.
#include "algorithms/algorithm.hpp"
#include "algorithms/drivers.hpp"

namespace gpusort::algo {

const std::vector<Algorithm>& registry() {
  static const std::vector<Algorithm> table = {
      {"bitonic", "Batcher's bitonic network: local-memory tile sort, then global stage/sub-stage merges (not stable)",
       false, 0, "", bitonic_sort},
      {"merge", "Local tile sort then global merge passes; --local merge|bitonic|rank|odd-even|bubble, --merge path|rank|half|cached|hashed (stable)", true, 0, "", merge_sort},
  };
  return table;
}

}  // namespace gpusort::algo
