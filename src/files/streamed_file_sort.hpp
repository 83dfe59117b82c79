#pragma once
// Sorts of files that fit the device in one piece, without holding them in host memory:
// the inputs are read (pread) straight into the pinned staging slots by the copy threads while
// those upload, and the sorted data written (pwrite) from the slots into the outputs' temporary
// files while they download (gpusort/streamed.hpp). So reading overlaps the upload, the download
// overlaps writing, no host array of the data's size is touched (its first-touch page faults cost
// more than the copies), and each written range goes to disk at once (OutputFile::write_at).
//
// Taken for regular input files (raw or .npy) sorted on one device into outputs that can be
// written at positions (files, not standard output or FIFOs), when the data fit the device, as
// the file sorts' planner decides (files/file_sort_plan.hpp); otherwise the inputs are read whole.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "algorithms/planner.hpp"
#include "files/array_file.hpp"
#include "files/file_io.hpp"
#include "files/output_file.hpp"
#include "gpusort/context.hpp"
#include "gpusort/sort.hpp"
#include "gpusort/sort_file.hpp"

namespace gpusort::files {

// Pinned staging a streamed sort holds per copy thread (two slots), and for its inputs' first bytes:
// under a memory limit, a file is streamed through the device only where the limit holds one
// thread's staging and the heads.
constexpr std::uint64_t kStagingPerThread = 2 * (std::uint64_t(8) << 20);
constexpr std::uint64_t kStreamedHeads = std::uint64_t(2) << 20;


// An input opened for a streamed sort: its descriptor and where its elements lie.
struct StreamedInput {
  std::string path;
  std::unique_ptr<Fd> fd;
  ArrayLayout layout;
};

struct StreamedInputs {
  StreamedInput keys;
  key_type type = key_type::u32;
  std::optional<StreamedInput> values;
  std::uint64_t data_bytes() const;
};

// Opens the keys (and values) input for a streamed sort and checks them as load_keys/load_values
// do, with the same errors. nullopt when an input is not a regular file (standard input, a pipe):
// those are read whole.
std::optional<StreamedInputs> open_streamed_inputs(const std::string& keys_path, std::optional<key_type> type,
                                                   const std::string& values_path,
                                                   const std::optional<ValueType>& value_type, FileFormat format);

struct StreamedOutputs {
  OutputFile* keys;
  bool keys_npy;  // write a .npy header first
  OutputFile* values = nullptr;
  bool values_npy = false;
};

// Sorts the inputs on ctx's device into the outputs (written, not committed), as `plan` says: the
// planner's plan of these inputs, taken as it is. Progress: "reading" while the inputs go up,
// "writing" while the results come down.
SortReport sort_streamed_files(Context& ctx, const algo::Plan& plan, const StreamedInputs& in,
                               const StreamedOutputs& out, SortFileProgress& progress);

}  // namespace gpusort::files
