#pragma once
// The outputs of gpusort dist-sort, through the same layer as gpusort sort's (OutputFile): a link
// is followed, an existing file keeps its mode, owner and hard links, standard output, devices and
// FIFOs are written as streams, two names for one file are refused, and the keys and values
// outputs are committed together. Rank 0 owns the OutputFiles; every rank writes its range:
// - into a file, at its position: each rank opens rank 0's temporary file by name (hidden beside
//   the target; until the commit, every rank removes it on a terminating signal);
// - into a stream, or where a rank cannot open that temporary file (no file system shared with
//   rank 0): the ranks send their ranges to rank 0, which writes them in rank order.
// Every member function is collective (all ranks, in the same order); rank 0 prints the errors of
// the outputs, other ranks their own write errors.
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "output_file.hpp"

namespace gpusort::cli {

class DistOutputs {
 public:
  // Rank 0 opens the keys output and, unless values_path is empty, the values output, now: an
  // unwritable destination or two names for one file fail before any work.
  DistOutputs(MPI_Comm comm, const std::string& keys_path, const std::string& values_path);
  ~DistOutputs();
  DistOutputs(const DistOutputs&) = delete;
  DistOutputs& operator=(const DistOutputs&) = delete;

  // 0 once the outputs are open; else the exit status every rank returns (rank 0 said why).
  int open_status() const noexcept { return open_status_; }

  // Writes this rank's `bytes` at byte `offset` of output `index` (0 keys, 1 values). Rank r's range
  // must follow rank r-1's. Returns whether every rank's range was written.
  bool write(std::size_t index, const void* data, std::uint64_t offset, std::size_t bytes);

  // Puts every output in place, or none (commit_together). Returns whether it did.
  bool commit();

 private:
  bool all_ok(bool mine) const;
  bool write_positioned(std::size_t index, const unsigned char* data, std::uint64_t offset, std::size_t bytes);
  bool write_through_rank0(std::size_t index, const unsigned char* data, std::uint64_t offset, std::size_t bytes);
  void forget_registered();

  MPI_Comm comm_;
  int rank_ = 0, ranks_ = 1;
  int open_status_ = 0;
  std::vector<std::unique_ptr<OutputFile>> outputs_;  // rank 0 only
  std::vector<int> positionable_;                      // every rank: per output, from rank 0
  std::vector<std::string> temporaries_;               // every rank: per output, rank 0's temporary file
  std::vector<std::string> registered_;                // ranks but 0: those removed on a signal here
};

}  // namespace gpusort::cli
